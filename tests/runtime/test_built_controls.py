"""A message's controls are built once per (game, version, seat) and reused: a step's hand is
drawn for its DM, the seat's ephemeral panel and the press that redrew it, and each drawing
used to build its discord.py View, Select and options again. Their payload is made once too,
and a select's options (actions, not versions) are shared from step to step."""

from __future__ import annotations

from typing import Any

import discord

from cogs.table.components import BuiltView
from cogs.table.present import build_view, render_private, render_table
from cogs.table.registry import UIS, load_builtin_uis
from games.registry import get_engine
from runtime.deadlines import schedule
from tests.playout import random_playout
from tests.runtime.test_presentation import record_for

load_builtin_uis()


def with_select(kind: str = "words") -> tuple[dict[str, Any], int]:
    """A state of a seeded game in which some seat's private screen holds a select."""
    engine, ui = get_engine(kind), UIS[kind]
    for state in random_playout(engine, 3, 5).states:
        for seat in range(3):
            screen = ui.private(engine.view(state, seat), seat, _info(kind, state))
            if screen is not None and any(type(c).__name__ == "Select" for c in screen.controls):
                return state, seat
    raise AssertionError("no select in the playout")


def _info(kind: str, state: dict[str, Any]) -> Any:
    from cogs.table.present import table_info

    return table_info(record_for(kind, state, 1))


def options(view: discord.ui.View) -> list[dict[str, Any]]:
    return [o for row in view.to_components() for item in row["components"] for o in item.get("options", [])]


async def test_a_seats_controls_are_built_once_per_version() -> None:
    engine, ui = get_engine("words"), UIS["words"]
    state, seat = with_select()
    game = record_for("words", state, 4)
    game.deadlines = schedule([], engine.to_act(state), 1_000.0, version=4)
    first = await render_private(game, engine, ui, seat, jump_url=None)
    again = await render_private(game, engine, ui, seat, jump_url=None, notes=["A note."])
    assert first is not None and again is not None and first.view is not None
    assert again.view is first.view  # the ephemeral panel's drawing reuses the DM's controls
    assert isinstance(first.view, BuiltView)
    screen = ui.private(engine.view(state, seat), seat, _info("words", state))
    assert screen is not None
    fresh = build_view(game.id, 4, screen, hand_button=False)
    assert fresh is not None and first.view.to_components() == fresh.to_components()
    assert first.view.to_components() is first.view.to_components()  # the payload made once

    game.state, game.version = dict(state), 5  # the next step's state (a new object)
    moved = await render_private(game, engine, ui, seat, jump_url=None)
    assert moved is not None and moved.view is not first.view  # a new version: new custom_ids
    assert ":5:" in str(moved.view.to_components()) and ":4:" not in str(moved.view.to_components())
    assert options(first.view)  # the seat's screen holds a menu
    assert [id(o) for o in options(moved.view)] == [id(o) for o in options(first.view)]  # options shared


async def test_the_tables_controls_are_reused_and_not_stored_with_discord() -> None:
    engine, ui = get_engine("hallway"), UIS["hallway"]
    state = random_playout(engine, 2, 3).states[2]
    game = record_for("hallway", state, 3)
    game.deadlines = schedule([], engine.to_act(state), 1_000.0, version=3)
    one = await render_table(game, engine, ui, 1_000.0, with_image=False)
    two = await render_table(game, engine, ui, 1_001.0, with_image=False)
    assert one.view is not None and two.view is one.view
    assert not one.view.is_dispatchable()  # dispatched by custom_id (the edge), never by a stored view
    other = record_for("hallway", dict(state), 3)  # another database's game 7 at version 3
    other.deadlines = game.deadlines
    assert (await render_table(other, engine, ui, 1_000.0, with_image=False)).view is not one.view


async def test_a_game_with_nothing_private_computes_no_seat_view(monkeypatch: Any) -> None:
    """Every step asks for the changed seats' private messages: Hallway has none, so none of
    its (costly) seat views is computed for them."""
    engine, ui = get_engine("hallway"), UIS["hallway"]
    game = record_for("hallway", random_playout(engine, 2, 3).states[2], 3)

    def refused(*args: Any) -> Any:
        raise AssertionError("a seat view computed for a game with nothing private")

    monkeypatch.setattr(type(engine), "view", refused)
    assert await render_private(game, engine, ui, 0, jump_url=None) is None
