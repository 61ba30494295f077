"""`GameUI.private_key` and the private messages kept by it (`cogs/table/kept_screens.py`):
equal keys give equal screens on every step of seeded games, the key is given only where
it saves drawing, and a kept message is never shown where it would be out of date."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.table.kept_screens import Basis, Kept, KeptScreens
from cogs.table.present import build_view
from cogs.table.registry import UIS, load_builtin_uis
from cogs.table.ui import Screen
from games.registry import get_engine
from tests.playout import random_playout
from tests.runtime.test_built_controls import _info

load_builtin_uis()

GAMES = [("hallway", 2), ("words", 3), ("words", 5), ("tarot", 4), ("kniggits", 2), ("fencing", 3)]


def shown(screen: Screen | None, version: int) -> str:
    """Everything a private screen puts in its message (controls as drawn at `version`)."""
    if screen is None:
        return "none"
    view = build_view(9, version, screen, hand_button=False)
    card = screen.card
    return json.dumps([card.title, card.description, card.fields, card.footer, str(card.colour), screen.image_name,
                       screen.image_key, view.to_components() if view is not None else []], default=str)


@pytest.mark.parametrize(("kind", "players"), GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_equal_private_keys_give_equal_screens(kind: str, players: int, seed: int) -> None:
    engine, ui = get_engine(kind), UIS[kind]
    seen: dict[tuple[int, Any], str] = {}
    keyed = skipped = 0
    for version, state in enumerate(random_playout(engine, players, seed).states[:600]):
        info = _info(kind, state)
        for seat in range(players):
            view = engine.view(state, seat)
            key = ui.private_key(view, seat)
            if key is None:
                continue
            keyed += 1
            now = shown(ui.private(view, seat, info), version)
            before = seen.setdefault((seat, key), now)
            skipped += before == now
            assert before == now, f"seat {seat}, step {version}: equal keys, different screens"
    if kind == "words":  # the game that names its waiting seats' key: most steps leave them as they were
        assert keyed > 100 and skipped == keyed


def kept(basis: Basis, version: int, *, bound: bool) -> Kept:
    return Kept(basis, version, bound, embed=None, controls=None, png=None, image_name=None, image_digest=None,
                fingerprint="f")


def test_a_kept_message_is_used_only_for_the_same_basis_and_its_version_when_bound() -> None:
    screens = KeptScreens(limit=3)
    info = object()
    basis = Basis(("waiting", ("A", "B")), (), True, False, "https://t", info)
    screens.put(1, 0, kept(basis, 5, bound=False))
    assert screens.get(1, 0, basis, 9) is not None  # nothing on it names the version
    for other in (basis._replace(key=("waiting", ("A",))), basis._replace(notes=("You drew a B",)),
                  basis._replace(live=False), basis._replace(hinted=True), basis._replace(jump_url=None),
                  basis._replace(info=object())):
        assert screens.get(1, 0, other, 5) is None
    assert screens.get(1, 1, basis, 5) is None and screens.get(2, 0, basis, 5) is None
    screens.put(1, 1, kept(basis, 5, bound=True))
    assert screens.get(1, 1, basis, 5) is not None and screens.get(1, 1, basis, 6) is None
    screens.drop(1, [0, 1])
    assert screens.get(1, 0, basis, 5) is None
    for game in range(4):  # bounded
        screens.put(game, 0, kept(basis, 5, bound=False))
    assert len(screens._kept) <= 3
