"""Last Stick's log: each event of the schema's catalogue in words with the players' names,
each wording reading its own event's payload type (so mypy checks the keys), and how a game
ended; `events.py` in every game's interface (docs/engines.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.table.ui import TableInfo
from tests.engines.sticks.schema import EventKind, Lost, Took


def took_line(data: Took, info: TableInfo) -> str:
    how = " (out of time)" if data["timeout"] else ""
    return f"{info.name_of(data['seat'])} took {data['count']}{how}; {data['left']} left."


def lost_line(data: Lost, info: TableInfo) -> str:
    return f"{info.name_of(data['seat'])} took the last stick and loses."


#: Every event kind's wording.
EVENT_WORDS: dict[EventKind, Callable[[Any, TableInfo], str]] = {"took": took_line, "lost": lost_line}


def last_stick_reason(detail: dict[str, Any], info: TableInfo) -> str:
    """The result's reason when the game ends by its own rule."""
    return f"{info.name_of(detail['seat'])} took the last stick."
