"""A screen's controls, laid out as payload by `cogs/table/rows.py`, are exactly what discord.py
made of them as ui items (`reference_controls.py`), on every screen of seeded games of all five
games: the table's and each seat's, with and without the hand button and a hint."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from cogs.table import codec
from cogs.table.components import version_bound
from cogs.table.present import build_view, with_hint
from cogs.table.registry import UIS, load_builtin_uis
from cogs.table.rows import RowLayout, button, menu
from cogs.table.ui import Button, Card, Choice, Screen, Select
from games.registry import get_engine
from tests.playout import random_playout
from tests.runtime.reference_controls import reference_rows
from tests.runtime.test_built_controls import _info

load_builtin_uis()

GAMES = [("hallway", 2), ("words", 3), ("tarot", 4), ("kniggits", 2), ("fencing", 3)]


def read_bound(rows: list[dict[str, Any]]) -> bool:
    """Whether an item is tied to its state version, read back from the ids (as it was done)."""
    routes = [codec.parse(str(item.get("custom_id", ""))) for row in rows for item in row["components"]]
    return any(route is not None and route.kind in ("action", "select", "form") and route.version
               for route in routes)


def payload(rows: object) -> str:
    """As it goes on the wire (key order included)."""
    return json.dumps(rows, ensure_ascii=False)


@pytest.mark.parametrize(("kind", "players"), GAMES)
def test_every_screen_of_a_seeded_game_lays_out_as_discord_py_did(kind: str, players: int) -> None:
    engine, ui = get_engine(kind), UIS[kind]
    screens = 0
    for version, state in enumerate(random_playout(engine, players, 3).states[:400]):
        info = _info(kind, state)
        drawn = [ui.table(engine.view(state, None), info)]
        drawn += [ui.private(engine.view(state, seat), seat, info) for seat in range(players)]
        for screen in drawn:
            if screen is None:
                continue
            for hand_button in (False, True):
                view = build_view(9, version, screen, hand_button=hand_button)
                ours = view.to_components() if view is not None else []
                assert payload(ours) == payload(reference_rows(9, version, screen, hand_button=hand_button))
                assert version_bound(view) == read_bound(ours)
                hinted = with_hint(view, 9).to_components()
                assert payload(hinted) == payload(reference_rows(9, version, screen, hand_button=hand_button,
                                                                 hinted=True))
            screens += 1
    assert screens > 20


def test_rows_place_items_as_a_discord_py_view_does() -> None:
    """Explicit rows, the first row with room, a menu's full width, gaps left out; and what does
    not fit is refused as discord.py refuses it."""
    many = [Button(f"b{n}", {"type": "b", "n": n}, row=(2 if n % 3 == 0 else None)) for n in range(9)]
    choices = [Choice(f"c{n}", {"type": "c", "n": n}, description="d" if n else None, emoji="🎲" if n == 1 else None,
                      default=n == 2) for n in range(4)]
    screen = Screen(Card("t"), controls=[*many[:6], Select("Pick…", choices), *many[6:]])
    ours = build_view(3, 4, screen, hand_button=True)
    assert ours is not None
    assert payload(ours.to_components()) == payload(reference_rows(3, 4, screen, hand_button=True))
    assert [len(row["components"]) for row in ours.to_components()] == [5, 1, 4, 1]  # row 1 holds the menu

    full = RowLayout()
    for n in range(5):
        full.add(button(f"x{n}", "x", discord.ButtonStyle.secondary), row=0)
    with pytest.raises(ValueError):
        full.add(button("y", "y", discord.ButtonStyle.secondary), row=0)
    for row in range(1, 5):
        full.add(menu(f"m{row}", "m", [Choice("a", {"type": "a"})]))
    with pytest.raises(ValueError):  # every row is full
        full.add(button("z", "z", discord.ButtonStyle.secondary))


def test_a_view_of_rows_takes_no_discord_ui_item() -> None:
    view = build_view(1, 1, Screen(Card("t"), controls=[Button("Roll", {"type": "roll"})]), hand_button=False)
    assert view is not None and view.children == [] and view.to_components() is view.to_components()
    with pytest.raises(RuntimeError):
        view.add_item(discord.ui.Button(label="late", custom_id="x"))
    assert build_view(1, 1, Screen(Card("t")), hand_button=False) is None
