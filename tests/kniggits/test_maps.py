"""Kniggits maps (spec 2.3, V6, V7): spacing, symmetry, connectivity, clear zones."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.core import Rng
from games.kniggits.geometry import dist2
from games.kniggits.maps import (
    PRESETS,
    flag_homes,
    free_cells_connected,
    generate,
    obstacle_groups,
    spacing_ok,
)


def make(seed: int, size: int, preset: str, **options: Any) -> dict[str, Any]:
    return generate(Rng({"rng": Rng.initial(seed)}), size, size, preset, **options)


# --- Scenario 2: spacing -------------------------------------------------------------------


def test_2_spacing_rule() -> None:
    assert not spacing_ok({(6, 10), (8, 10)})  # gap 1
    assert spacing_ok({(6, 10), (9, 10)})  # gap 2
    assert spacing_ok({(6, 10), (7, 11)})  # they touch …
    assert obstacle_groups({(6, 10), (7, 11)}) == [{(6, 10), (7, 11)}]  # … and merge
    assert len(obstacle_groups({(6, 10), (9, 10)})) == 2


def test_spacing_is_checked_after_merging() -> None:
    # (6,10)-(7,10)-(8,10) is one wall, so (8,10) is no longer "1 inch from (6,10)".
    assert spacing_ok({(6, 10), (7, 10), (8, 10)})
    assert not spacing_ok({(6, 10), (7, 10), (9, 12)})  # (7,10)–(9,12): gap √2
    assert spacing_ok({(6, 10), (7, 10), (10, 12)})


def test_connectivity_uses_the_corner_rule() -> None:
    # A diagonal line of obstacles seals the corner cell (1,1) off: no corner cutting.
    assert not free_cells_connected(4, 4, {(2, 1), (1, 2)})
    assert free_cells_connected(4, 4, {(2, 1)})
    assert free_cells_connected(4, 4, set())


# --- Generated maps ------------------------------------------------------------------------


CASES = [(size, preset) for size in (24, 36, 48) for preset in PRESETS]


@pytest.mark.parametrize(("size", "preset"), CASES)
def test_generated_maps_are_fair_and_valid(size: int, preset: str) -> None:
    for seed in range(12):
        game = make(seed, size, preset, potions=6, flags=True)
        obstacles = {(x, y) for x, y in game["obstacles"]}
        assert game["obstacles"] == sorted(game["obstacles"])
        # 2: every blocked (x,y) has (W+1−x, H+1−y) blocked too
        assert all((size + 1 - x, size + 1 - y) in obstacles for x, y in obstacles)
        assert spacing_ok(obstacles)
        assert free_cells_connected(size, size, obstacles)
        # deployment zones, flags and potions are clear
        assert all(7 <= y <= size - 6 for _x, y in obstacles)
        homes = flag_homes(size, size)
        assert [f["home"] for f in game["flags"]] == [list(homes[0]), list(homes[1])]
        assert not set(homes) & obstacles
        positions = [tuple(p["pos"]) for p in game["potions"]]
        assert not set(positions) & obstacles
        _check_potions(game["potions"], size)
        if preset == "open":
            assert obstacles == set()
        elif preset == "woods":
            assert 12 <= len(obstacles) <= 64
        else:
            assert 18 <= len(obstacles) <= 72
        assert json.loads(json.dumps(game)) == game


def _check_potions(potions: list[dict[str, Any]], size: int) -> None:
    assert [p["id"] for p in potions] == [f"P{i}" for i in range(1, len(potions) + 1)]
    for first, second in zip(potions[::2], potions[1::2], strict=True):
        assert first["kind"] == second["kind"] in ("M", "A", "D")
        assert second["pos"] == [size + 1 - first["pos"][0], size + 1 - first["pos"][1]]
    cells = [tuple(p["pos"]) for p in potions]
    assert all(10 <= y <= size - 9 and 1 <= x <= size for x, y in cells)
    assert all(dist2(a, b) >= 9 for i, a in enumerate(cells) for b in cells[i + 1 :])


@pytest.mark.parametrize("count", [0, 2, 4, 6])
def test_potion_counts(count: int) -> None:
    game = make(3, 36, "woods", potions=count)
    assert len(game["potions"]) == count
    assert game["flags"] == []


def test_flags_sit_at_the_spec_cells() -> None:
    assert flag_homes(36, 36) == ((18, 3), (19, 34))
    assert flag_homes(24, 24) == ((12, 3), (13, 22))


def test_the_same_seed_gives_the_same_map_and_draws_advance_the_rng() -> None:
    state = {"rng": Rng.initial(5)}
    first = generate(Rng(state), 36, 36, "ruins", potions=2)
    assert state["rng"]["n"] > 0
    assert make(5, 36, "ruins", potions=2) == first
    reroll = generate(Rng(state), 36, 36, "ruins", potions=2)  # the host re-rolls: a new map
    assert reroll != first


def test_different_seeds_give_different_woods() -> None:
    maps = {json.dumps(make(seed, 36, "woods")["obstacles"]) for seed in range(10)}
    assert len(maps) == 10


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError):
        make(1, 36, "castle")
    with pytest.raises(ValueError):
        make(1, 36, "open", potions=3)
