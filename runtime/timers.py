"""One sleeping task per game with a deadline; on wake-up the service applies the defaults.

Deadlines live in the database with the game, so after a restart `restore` re-arms every
timer from the stored games and nothing the players were promised ("1:30 left") is forgotten.

Several processes on one database (`storage.shared`): each arms the timers of the games it
knows, and a sweep every few seconds arms those whose deadline another process set (or left
behind when it died). Two processes may wake for one deadline; the commit's version
compare-and-set lets exactly one of them apply it, and the other finds nothing due. Each
process also writes a heartbeat: a process starting while another is alive knows the bot
never stopped, so it gives no restart grace. And each hears the others' commits
(`GameCache.hear_commits`), so its cached games need no version reads until one moves.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from runtime import deadlines as deadline_rules
from runtime.clock import Clock
from runtime.service import Applied, TableService
from storage import GameRecord

log = logging.getLogger(__name__)

Publish = Callable[[Applied], Awaitable[None]]

#: Seconds before a timer whose expiry failed (say, the database was busy) tries again.
RETRY_AFTER = 5.0
#: Seconds between sweeps for deadlines set by other processes (several processes only).
SWEEP_EVERY = 2.0
#: Seconds between heartbeats; a peer silent for PEER_SILENT is taken for dead.
HEARTBEAT_EVERY = 10.0
PEER_SILENT = 30.0


class Timers:
    def __init__(self, service: TableService, clock: Clock, publish: Publish, *,
                 process_id: str = "main", shards: list[int] | None = None) -> None:
        self.service = service
        self.clock = clock
        self.publish = publish
        #: Stable across restarts of the same process (its shards), so a restarted process
        #: does not mistake its own last heartbeat for a live peer.
        self.process_id = process_id
        self.shards = list(shards or [])
        self._sweeper: asyncio.Task[None] | None = None
        #: game id -> its timer: a loop timer, not a sleeping task (a game's deadline moves at
        #: nearly every step, so a task was made and cancelled per step); a task only once due
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._expiring: set[asyncio.Task[None]] = set()
        self._at: dict[int, float] = {}
        self.graced: list[GameRecord] = []
        service.watch_deadlines(self.arm)

    @property
    def armed(self) -> dict[int, float]:
        """Game id → when its next timer fires."""
        return dict(self._at)

    def arm(self, game_id: int, at: float | None) -> None:
        if self._at.get(game_id) == at and game_id in self._timers:
            return
        timer = self._timers.pop(game_id, None)
        if timer is not None:
            timer.cancel()
        self._at.pop(game_id, None)
        if at is None:
            return
        self._at[game_id] = at
        self._timers[game_id] = asyncio.get_running_loop().call_later(
            max(0.0, at - self.clock.now()), self._due, game_id, at)

    def _due(self, game_id: int, at: float) -> None:
        if self._at.get(game_id) == at:
            self._timers.pop(game_id, None)
            self._at.pop(game_id, None)
        task = asyncio.get_running_loop().create_task(self._expire(game_id), name=f"timer-{game_id}")
        self._expiring.add(task)
        task.add_done_callback(self._expiring.discard)

    async def _expire(self, game_id: int) -> None:
        try:
            steps = await self.service.expire(game_id)
        except Exception:
            log.exception("timer of game %s failed; retrying in %ss", game_id, RETRY_AFTER)
            if game_id not in self._at:  # no newer deadline was armed meanwhile
                self.arm(game_id, self.clock.now() + RETRY_AFTER)
            return
        for applied in steps:
            try:
                await self.publish(applied)
            except Exception:  # the step is stored; the next one redraws the table
                log.exception("showing a timeout of game %s failed", game_id)

    async def restore(self) -> int:
        """Re-arm the timer of every active game; returns how many were armed. Deadlines
        that passed during the outage get the service's restart grace first (they are listed
        in `graced`, whose tables show an out-of-date countdown until refreshed)."""
        storage = self.service.storage
        games = await storage.active_games()
        peers: list[str] = []
        if storage.shared:
            await self.service.hear_commits()
            peers = await storage.live_peers(self.process_id, self.clock.now(), within=PEER_SILENT)
            await storage.heartbeat(self.process_id, self.shards, self.clock.now())
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="timer-sweep")
        if peers:  # another process served the games all along: nothing waited on an outage
            log.info("processes %s are up: no restart grace", ", ".join(peers))
            self.graced = []
        else:
            self.graced = await self.service.grant_grace(games)
            resumed = {applied.game.id for applied in await self.service.resume(games)}
            self.graced += [g for g in games if g.id in resumed and g not in self.graced]
        count = 0
        for game in games:
            at = deadline_rules.earliest(game.deadlines)
            if at is not None:
                self.arm(game.id, at)
                count += 1
        return count

    async def _sweep(self) -> None:
        """Arm the deadlines other processes set, and say this process is alive."""
        storage = self.service.storage
        beat = self.clock.now()
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                now = self.clock.now()
                if now - beat >= HEARTBEAT_EVERY:
                    await storage.heartbeat(self.process_id, self.shards, now)
                    beat = now
                for game_id, at in await storage.due_games(now + SWEEP_EVERY):
                    if self._at.get(game_id, float("inf")) > at:
                        self.arm(game_id, at)
            except Exception:
                log.exception("timer sweep failed; trying again in %ss", SWEEP_EVERY)

    async def retire(self) -> None:
        """On a clean shutdown: stop, and tell the other processes at once."""
        self.close()
        if self.service.storage.shared:
            await self.service.storage.retire(self.process_id)

    async def fire_due(self) -> int:
        """Apply every passed deadline now (tests and manual clocks); returns actions applied."""
        applied = 0
        for game_id, at in sorted(self._at.items(), key=lambda kv: kv[1]):
            if at <= self.clock.now():
                for step in await self.service.expire(game_id):
                    await self.publish(step)
                    applied += 1
        return applied

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()  # a timer already due runs on: its step is being applied
        self._at.clear()
