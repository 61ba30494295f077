"""The table service: lobbies, seats and the one action loop (DESIGN.md, "The action loop").

Discord-free: the cogs call it with plain ids and get back `Applied` records to render.
Every action goes: resolve seat → per-game lock → load → stale check → engine.apply →
commit (state + log row + version in one transaction) → return. Only after the return
does the cog acknowledge the player, so nothing acknowledged is ever lost.

`TableService` is the one object the edge holds; its rooms, one job each, build on one
another: runtime.cache (the games held, their locks, versions other processes committed) →
runtime.loop (the action loop; runtime.outcomes, results and ratings) → runtime.lobby
(opening, seating, starting) and runtime.grace (restart grace and resume); `replay` rebuilds
a state from the log (runtime.rebuild). The names the edge and tests use are re-exported here.
"""

from __future__ import annotations

from games.core import State
from runtime.cache import FOREIGN_QUIET, GameCache, record_delivery
from runtime.grace import RESTART_GRACE, Grace
from runtime.lobby import Lobby, members
from runtime.loop import (
    LOG_LINES,
    RUNTIME_FIELDS,
    STALE_RETRIES,
    ActionLoop,
    Applied,
    Left,
    judged,
    public_waits,
)
from runtime.rebuild import rebuild

__all__ = ["FOREIGN_QUIET", "LOG_LINES", "RESTART_GRACE", "RUNTIME_FIELDS", "STALE_RETRIES", "ActionLoop",
           "Applied", "GameCache", "Left", "TableService", "judged", "members", "public_waits",
           "record_delivery"]


class TableService(Lobby, Grace):
    """Lobbies, the action loop and restart grace over the games this process holds."""

    async def replay(self, game_id: int, *, upto: int | None = None) -> State:
        """Rebuild a game's state from its seed and action log (audits, tests, and the tables
        a crash left behind); with `upto`, the state at that version (1 is the first state)."""
        return await rebuild(self.storage, game_id, upto=upto)
