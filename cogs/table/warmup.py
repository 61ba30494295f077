"""Each game's pictures drawn once at start-up, before the bot connects.

A process's first picture of a game costs far more than the next ones: fonts are opened,
glyphs and static layers (a map, a board, card faces) drawn into their caches — measured
30-230 ms of CPU per game, several times that on a busy machine. Paid here, off the event
loop and before any player can press, it is not paid inside the 3 seconds of a player's
first press after a restart.
"""

from __future__ import annotations

import logging
import time

from cogs.table.registry import UIS
from cogs.table.ui import Seat, TableInfo
from games.registry import get_engine

log = logging.getLogger(__name__)


def warm_pictures() -> dict[str, float]:
    """Draw the table and seat 0's private picture of a new game of every game with a UI
    (run in a thread); returns the seconds each game took. A game that fails is logged and
    skipped: warming never stops a start."""
    took: dict[str, float] = {}
    for kind, ui in sorted(UIS.items()):
        started = time.perf_counter()
        try:
            engine = get_engine(kind)
            players = engine.min_players
            state = engine.new_game(players, 0, {})
            info = TableInfo(game_id=0, seats=[Seat(n, 0, f"Player {n + 1}") for n in range(players)])
            for screen in (ui.table(engine.view(state, None), info), ui.private(engine.view(state, 0), 0, info)):
                if screen is not None and screen.image is not None:
                    screen.image()
        except Exception:
            log.warning("could not draw the pictures of %s ahead", kind, exc_info=True)
        took[kind] = time.perf_counter() - started
    return took
