"""An event as players read it: the line the runtime writes in a game's log and shows in its
messages, worded by the game's UI (which puts names where the engine has seats).

The runtime is given `event_line` when it is made (`TableService(describe=…)`), so the
Discord-free action loop words its events without importing the edge.
"""

from __future__ import annotations

from cogs.table.mentions import neutral
from cogs.table.present import table_info
from cogs.table.registry import ui_for
from games.core import Event
from storage import GameRecord


def event_line(game: GameRecord, event: Event) -> str | None:
    """A line names players, never mentions them, and may quote what a player wrote (an
    insult, a kniggit's name): every mention in it is defused. None: the event is not shown."""
    line = ui_for(game.kind).event_line(event.to_json(), table_info(game))
    return neutral(line) if line else line
