"""Restart grace: at start-up, before any interaction is taken, deadlines that passed while the
bot was down get a few more seconds (`grant_grace`), and each engine that keeps its own clock
in its state is told the game resumed (`resume`), committed and logged like any action.
"""

from __future__ import annotations

import logging

from games.core import IllegalAction
from games.registry import get_engine
from runtime import deadlines as deadline_rules
from runtime.errors import Refusal
from runtime.loop import ActionLoop, Applied
from storage import GameRecord, StaleVersion

log = logging.getLogger(__name__)

#: Seconds of grace for a deadline that passed while the bot was down (see grant_grace).
RESTART_GRACE = 30.0


class Grace(ActionLoop):
    """What a restart does to the running games it finds."""

    async def grant_grace(self, games: list[GameRecord], grace: float = RESTART_GRACE) -> list[GameRecord]:
        """At start-up, before any interaction is taken: every deadline of `games` that passed
        while the bot was down gets `grace` more seconds, stored in one transaction and updated
        in `games`. Returns the games whose timers moved (to refresh their tables)."""
        now = self.clock.now()
        moved = [g for g in games if any((at := d.get("at")) is not None and at < now for d in g.deadlines)]
        for game in moved:
            game.deadlines = deadline_rules.with_grace(game.deadlines, now, grace)
            cached = self._cache.get(game.id)
            if cached is not None:
                cached.deadlines = game.deadlines
        await self.storage.set_deadlines({g.id: g.deadlines for g in moved})
        return moved

    async def resume(self, games: list[GameRecord]) -> list[Applied]:
        """At start-up, after `grant_grace`: each game whose engine keeps its own deadlines in
        its state (Table Fencing judges races against them) gets its `resume_action`, with
        seat None and now = the restart, committed and logged like any action so a replay
        matches. The engine moves what passed during the outage and re-keys its waits."""
        done: list[Applied] = []
        for record in games:
            engine = get_engine(record.kind)
            if engine.resume_action is None:
                continue
            async with self.held(record.id, None):
                try:
                    game = await self._active(record.id)
                except Refusal:
                    continue
                assert game.state is not None
                now = self.clock.now()
                action = dict(engine.resume_action)
                try:
                    state, events = engine.apply(game.state, None, action, now)
                except IllegalAction as exc:
                    log.error("game %s: resume refused (%s)", game.id, exc)
                    continue
                try:
                    applied = await self._commit(game, engine, None, action, state, events, at=now)
                except StaleVersion:
                    log.info("game %s: resumed by another process", game.id)
                    continue
            record.deadlines, record.version = applied.game.deadlines, applied.game.version
            done.append(applied)
        return done
