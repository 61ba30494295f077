"""The spec's map checks (§2) on the shipped Ohio region."""

from __future__ import annotations

import json

import pytest

from games.fencing.region import (
    CLASSES,
    REGIONS_DIR,
    RegionError,
    haversine_km,
    load,
    parse,
    problems,
    region_ids,
)

OFFROAD_AT_INTERSTATE = {"ATH", "CHI", "DEL", "HAM", "LAN", "MAR", "MTA", "MTV", "NEW", "POR", "STE",
                         "WAR", "WOO", "XEN"}
PAIRS_ROUNDED_TO_69 = {("COL", "SPR"), ("AKR", "LOR"), ("DAY", "WCH"), ("MAN", "MED"), ("DEL", "MAN"),
                       ("CAM", "NEW"), ("CAM", "MTA"), ("SID", "XEN")}


@pytest.fixture(scope="module")
def ohio():
    return load("ohio")


def test_ohio_ships_and_is_sound(ohio) -> None:
    assert "ohio" in region_ids()
    assert problems(ohio) == []
    assert len(ohio.towns) == 46
    assert ohio.max_km == 69 and ohio.capital == "COL"
    assert ohio.pollution["id"] == "ERIE" and "ERIE" not in ohio.towns
    assert ohio.start == {"BK": "COL", "WR": "CIN", "BN": "TOL", "WN": "CLE", "WB": "AKR"}


def test_every_road_is_within_the_thread_and_its_rounded_haversine(ohio) -> None:
    for road in ohio.roads:
        assert road.km <= 69
        a, b = ohio.towns[road.a], ohio.towns[road.b]
        assert road.km == round(haversine_km(a["lat"], a["lon"], b["lat"], b["lon"]))


def test_road_counts_by_class(ohio) -> None:
    counts = {cls: sum(r.cls == cls for r in ohio.roads) for cls in "ISB"}
    assert counts == {"I": 35, "S": 31, "B": 8}


def test_connectivity(ohio) -> None:
    from games.fencing.region import connected
    assert connected(ohio, set(ohio.towns), "state")
    interstate_towns = {t for t in ohio.towns if ohio.on_road(t, "interstate")}
    assert len(interstate_towns) == 32
    assert connected(ohio, interstate_towns, "interstate")


def test_the_fourteen_offroad_towns_at_interstate(ohio) -> None:
    assert {t for t in ohio.towns if not ohio.on_road(t, "interstate")} == OFFROAD_AT_INTERSTATE
    for difficulty in ("state", "backroads"):
        assert all(ohio.on_road(t, difficulty) for t in ohio.towns)


def test_eight_pairs_between_69_and_69_5_count_as_69(ohio) -> None:
    found = set()
    towns = sorted(ohio.towns)
    for i, a in enumerate(towns):
        for b in towns[i + 1:]:
            ta, tb = ohio.towns[a], ohio.towns[b]
            if 69.0 <= haversine_km(ta["lat"], ta["lon"], tb["lat"], tb["lon"]) < 69.5:
                found.add(tuple(sorted((a, b))))
                assert ohio.straight_km(a, b) == 69
    assert found == {tuple(sorted(p)) for p in PAIRS_ROUNDED_TO_69}


def test_offroad_hops_link_every_town(ohio) -> None:
    seen, todo = {"COL"}, ["COL"]
    while todo:
        for nxt in set(ohio.offroad_targets(todo.pop())) - seen:
            seen.add(nxt)
            todo.append(nxt)
    assert seen == set(ohio.towns)


@pytest.mark.parametrize("difficulty", sorted(CLASSES))
@pytest.mark.parametrize("offroad", [True, False])
def test_at_most_ten_destinations_per_town(ohio, difficulty: str, offroad: bool) -> None:
    for town in ohio.towns:
        reach = set(ohio.road_paths(town, difficulty))
        if offroad:
            reach |= set(ohio.offroad_targets(town))
        assert len(reach) <= 10, (town, difficulty, sorted(reach))


def test_col_road_moves_at_interstate(ohio) -> None:
    paths = ohio.road_paths("COL", "interstate")
    assert {t: p[0][1] for t, p in paths.items()} == {"HEB": 43, "WCH": 60, "MGI": 67, "SPR": 69}


def test_a_broken_region_is_refused() -> None:
    data = json.loads((REGIONS_DIR / "ohio.json").read_text())
    data["roads"][0]["km"] = 70
    bad = parse(data)
    assert any("longer than the thread" in p for p in problems(bad))
    assert any("rounded haversine" in p for p in problems(bad))
    assert RegionError
