"""The engine gives facts, the table gives words: every event Kniggits can emit is in the
schema's catalogue (games/kniggits/schema_events.py), each but the runtime's forfeit has its
words in cogs/kniggits/events.py, and the events of seeded games read with names."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any, get_args

from cogs.kniggits.events import EVENT_WORDS
from cogs.kniggits.ui import KniggitsUI
from cogs.table.ui import Seat as SeatInfo
from cogs.table.ui import TableInfo
from games.kniggits import ENGINE, schema
from tests.playout import choose

PACKAGE = Path(__file__).resolve().parents[2] / "games" / "kniggits"
UI = KniggitsUI()
INFO = TableInfo(7, [SeatInfo(i, 100 + i, name) for i, name in enumerate(("alice", "bob", "cleo", "dmitri"))])
#: What must not reach a line meant for people: a seat number, a placeholder, None.
NOT_WORDS = re.compile(r"Seat \d|\{|\}|\bNone\b")
#: Worded by the shared table (GameUI.event_line), as for every game.
SHARED = {"forfeit"}


def emitted_types() -> set[str]:
    """Every event type the engine's source can emit (`Event("type", …)`), and the runtime's
    forfeit (`Engine.forfeit`)."""
    found = set(SHARED)
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Event"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value)
    return found


def test_every_event_the_engine_can_emit_is_in_the_catalogue_and_worded() -> None:
    assert emitted_types() == set(schema.EVENTS) == set(get_args(schema.EventKind))
    assert set(EVENT_WORDS) == set(schema.EVENTS) - SHARED


def test_the_events_of_seeded_games_read_with_names() -> None:
    options: list[dict[str, Any]] = [{}, {"horses": True, "magic_swords": True, "double_defence": True,
                                          "two_swords": True, "archers": True, "potions": 4, "scenario": "flag"}]
    seen: set[str] = set()
    for seed in range(4):
        chooser = random.Random(seed)
        state = ENGINE.new_game(2 + seed % 3, seed, options[seed % 2])
        now = 1_000.0
        while ENGINE.outcome(state) is None:
            seat, action = choose(ENGINE, state, chooser)
            now += 2.0
            state, events = ENGINE.apply(state, seat, action, now)
            for event in events:
                line = UI.event_line({"type": event.type, "data": event.data}, INFO)
                assert line and not NOT_WORDS.search(line), (event, line)
                assert event.type in EVENT_WORDS
                seen.add(event.type)
    assert {"moved", "attack", "exchange", "victory"} <= seen
    _state, left = ENGINE.forfeit(state, 0, now)
    line = UI.event_line({"type": left[0].type, "data": left[0].data}, INFO)
    assert line and "alice" in line
