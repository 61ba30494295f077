"""The engine gives facts, the table gives words: every event Conference / League can emit is in
the schema's catalogue and has its wording (cogs/tarot/events.py), and the events of seeded
games (League, gallowglass and Allegiances too, an AFK vote, a leaver) read with names."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any, get_args

from cogs.table.ui import Seat as SeatInfo
from cogs.table.ui import TableInfo
from cogs.tarot.events import EVENT_WORDS
from cogs.tarot.ui import TarotUI
from games.core import Event
from games.tarot import ENGINE, schema
from games.tarot.engine import HANDLERS
from tests.playout import choose

PACKAGE = Path(__file__).resolve().parents[2] / "games" / "tarot"
UI = TarotUI()
INFO = TableInfo(7, [SeatInfo(i, 100 + i, name) for i, name in enumerate(("alice", "bob", "cleo", "dmitri"))])
#: What must not reach a line meant for people: a seat number, a placeholder, None.
NOT_WORDS = re.compile(r"Seat \d|\{|\}|\bNone\b")
VARIANTS: list[dict[str, Any]] = [{}, {"mode": "league", "gallowglass": True}, {"allegiances": True}]
#: Events with no line: the window closing says nothing (who could have called is secret).
SILENT = {"window_closed"}


def emitted_types() -> set[str]:
    """Every event type the engine's source can emit (`Event("type", …)`), and the runtime's
    forfeit (`Engine.forfeit`)."""
    found = {"forfeit"}
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Event"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value)
    return found


def test_every_event_the_engine_can_emit_is_in_the_catalogue_and_worded() -> None:
    assert emitted_types() == set(EVENT_WORDS) == set(schema.EVENTS) == set(get_args(schema.EventKind))


def played() -> tuple[list[dict[str, Any]], list[Event]]:
    """States and events of seeded games in every variant, with timeouts (AFK votes), and a
    leaver."""
    states: list[dict[str, Any]] = []
    events: list[Event] = []
    for seed in range(9):
        chooser = random.Random(seed)
        state = ENGINE.new_game(4, seed, VARIANTS[seed % len(VARIANTS)])
        while ENGINE.outcome(state) is None:
            states.append(state)
            waits = [w for w in ENGINE.waits(state) if w.default is not None]
            if waits and chooser.random() < 0.3:
                wait = chooser.choice(waits)
                state, made = ENGINE.apply(state, wait.seat, wait.default, 1_000.0)
            else:
                seat, action = choose(ENGINE, state, chooser)
                state, made = ENGINE.apply(state, seat, action, 1_000.0)
            events += made
            if seed == 0 and len(states) == 10 and ENGINE.outcome(state) is None:  # a leaver, mid-hand
                events += ENGINE.forfeit(state, 2, 1_000.0)[1]
                break
    return states, events


STATES, EVENTS = played()


def test_every_action_the_engine_lists_or_waits_for_is_a_kind_of_the_schema() -> None:
    kinds = set(get_args(schema.Kind))
    assert kinds == set(schema.ACTIONS)
    seen: set[str] = set()
    for state in STATES:
        seen.update(w.default["type"] for w in ENGINE.waits(state) if w.default)
        seen.update(a["type"] for s in range(4) for a in ENGINE.legal_actions(state, s))
    assert seen == kinds


def test_every_action_kind_of_the_schema_has_its_handler() -> None:
    """One dispatch table, like the other games' (issue 22): `play` looks every kind up in it."""
    assert set(HANDLERS) == set(get_args(schema.Kind))


def test_every_event_of_seeded_games_gets_a_line_with_names() -> None:
    seen: set[str] = set()
    for event in EVENTS:
        seen.add(event.type)
        line = UI.event_line(event.to_json(), INFO)
        if event.type in SILENT:
            assert line is None
            continue
        assert line and not NOT_WORDS.search(line), f"{event}: {line!r}"
        for key in ("seat", "dealer", "winner"):
            if key in event.data and event.to is None:
                assert INFO.name_of(event.data[key]) in line, f"{event}: {line!r}"
        if event.to is not None:  # a private note speaks to its reader
            assert "You" in line or "you" in line, line
    assert seen >= {"dealt", "discarded", "discard_made", "nominated", "played", "trick", "window",
                    "window_closed", "hand_end", "afk", "voted", "forfeit"}, seen
