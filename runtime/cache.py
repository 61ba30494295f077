"""The games a process holds (DESIGN.md, "The action loop"): each live game's record cached
and kept current, per-game locks granted in press order, and what this process knows of the
versions other processes committed on a shared database.

The base of `TableService` (runtime.service): the lobby, the action loop and restart grace all
read games through it, so every holder of a record sees the newest state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections.abc import Callable

from games.core import Event
from runtime.clock import Clock
from runtime.errors import NoGame, Refusal
from runtime.ordering import PressOrderedLock
from runtime.views import ViewMemo
from storage import Deadline, GameRecord, Status, Storage

log = logging.getLogger(__name__)

#: Seconds after another process last moved a game during which this one does not trust its
#: memory of what the game's messages show (their in-flight edits land within this).
FOREIGN_QUIET = 30.0


class GameCache:
    def __init__(self, storage: Storage, clock: Clock, rng: random.Random, *,
                 describe: Callable[[GameRecord, Event], str | None] | None = None) -> None:
        self.storage = storage
        self.clock = clock
        self.rng = rng
        self._locks: dict[int, PressOrderedLock] = {}
        self._cache: dict[int, GameRecord] = {}
        #: game id -> the newest version this process committed (see `committed_here`)
        self._committed: dict[int, int] = {}
        #: game id -> when this process last found a step another process committed (monotonic)
        self._foreign_at: dict[int, float] = {}
        #: the views of each game's newest state, as its last commit compared them
        self._views = ViewMemo()
        #: game id -> the newest version a commit was heard to make (`hear_commits`; inf: its
        #: status changed, or it may have moved unheard): a cached copy older than that is stale
        self._heard: dict[int, float] = {}
        #: True while this process hears every game commit on the shared database
        self.hearing = False
        self._opening = asyncio.Lock()  # one lobby check-and-create at a time
        #: Called (game id, earliest deadline or None) after every change: the timers,
        #: once they `watch_deadlines` (none before: nothing is timed).
        self.on_deadlines: Callable[[int, float | None], None] = lambda game_id, at: None
        #: Turns a public event into its log line (the game's UI names the players, given by
        #: the edge as the service is made); None hides it. Without one: the event's type.
        self.describe: Callable[[GameRecord, Event], str | None] = describe or (lambda game, event: event.type)

    def watch_deadlines(self, listener: Callable[[int, float | None], None]) -> None:
        """Who is told each game's earliest deadline after every change (the timers; one)."""
        self.on_deadlines = listener


    def lock(self, game_id: int) -> PressOrderedLock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = PressOrderedLock()
        return lock

    def held(self, game_id: int, at: float | None = None) -> contextlib.AbstractAsyncContextManager[None]:
        """`async with self.held(game_id, t)`: the game's lock, granted in press order (`t`;
        now by default) among everyone waiting for it."""
        return self.lock(game_id).at(self.clock.now() if at is None else at)

    async def hear_commits(self) -> bool:
        """Several processes on one database: hear every game's commits (PostgreSQL's
        LISTEN/NOTIFY), so a cached running game is known current without reading its version
        — read only after another process was heard to move it. False where nothing can be
        heard (SQLite: one process; then every copy is this process's own)."""
        if not self.storage.shared or self.hearing:
            return self.hearing
        if not await self.storage.hear_commits(self.heard, self._deaf):
            return False
        # what moved before this process listened was not heard: each copy held is checked once
        self._heard.update(dict.fromkeys(self._cache, math.inf))
        self.hearing = True
        return True

    def heard(self, game_id: int, version: int) -> None:
        """A commit of the game, by this process or another (-1: its status alone changed)."""
        if len(self._heard) > 50_000:
            self._heard = {g: v for g, v in self._heard.items() if g in self._cache}
        mark = math.inf if version < 0 else version
        if mark > self._heard.get(game_id, -1):
            self._heard[game_id] = mark

    def _deaf(self) -> None:
        log.warning("no longer hearing other processes' commits: versions are read again")
        self.hearing = False

    def current(self, record: GameRecord) -> bool:
        """Whether this process knows its copy of a running game is the stored one without
        asking: one process, or it hears every commit and none newer than the copy."""
        if not self.storage.shared:
            return True
        return self.hearing and self._heard.get(record.id, -1) <= record.version

    def _read_back(self, record: GameRecord) -> None:
        """The record was just read from the database: what was heard of it up to now is in it."""
        mark = self._heard.get(record.id)
        if mark is not None and (mark == math.inf or mark <= record.version):
            del self._heard[record.id]

    async def game(self, game_id: int) -> GameRecord:
        """The game as stored. One process: the cached record, kept current by the action loop.
        Several processes on one database (`storage.shared`): unless the process knows its
        running copy is current (`current`), the cached record is checked against the stored
        version first and refreshed in place when another process moved the game on (every
        holder of the record then sees the newest state)."""
        record = self._cache.get(game_id)
        if record is not None and self.storage.shared and not (
                record.status is Status.ACTIVE and self.current(record)):
            await self._refresh(record)
        if record is None:
            record = await self.storage.game(game_id)
            if record is None:
                raise NoGame("That game no longer exists.")
            self._read_back(record)
            if record.status.live:
                self._cache[game_id] = record
        return record

    async def _refresh(self, record: GameRecord) -> None:
        if (record.status is Status.ACTIVE and self._heard.get(record.id) != math.inf
                and await self.storage.game_version(record.id) == record.version):
            self._read_back(record)
            return  # lobbies change without a version (joins): they are always reloaded
        fresh = await self.storage.game(record.id)
        if fresh is None:
            self.forget(record.id)
            raise NoGame("That game no longer exists.")
        self._read_back(fresh)
        if fresh.version != record.version:
            self.saw_step_from_elsewhere(record.id)
        vars(record).update(vars(fresh))
        if not fresh.status.live:
            self.forget(record.id)

    def saw_step_from_elsewhere(self, game_id: int) -> None:
        if len(self._foreign_at) > 50_000:
            self._foreign_at.clear()
        self._foreign_at[game_id] = time.monotonic()

    def moved_elsewhere_lately(self, game_id: int, within: float = FOREIGN_QUIET) -> bool:
        """Whether another process sharing the database moved this game in the last `within`
        seconds: its messages may then show what that process drew, not what this one last
        drew (delivery then edits a DM even when it would look as this process left it)."""
        seen = self._foreign_at.get(game_id)
        return seen is not None and time.monotonic() - seen < within

    def committed_here(self, game_id: int) -> int | None:
        """The newest version of the game this process committed (its publish is this
        process's to make), if it remembers one."""
        return self._committed.get(game_id)

    def cached(self, game_id: int) -> GameRecord | None:
        """The record this process holds for the game, if any (no storage read)."""
        return self._cache.get(game_id)

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)
        self._views.drop(game_id)
        lock = self._locks.get(game_id)
        if lock is not None and not lock.locked():
            self._locks.pop(game_id, None)

    async def game_here(self, channel_id: int) -> GameRecord:
        record = await self.storage.live_game_in(channel_id)
        if record is None:
            raise NoGame("There is no game running here. Start one with `/<game> new`.")
        return self._cache.setdefault(record.id, record)

    async def game_for(self, user_id: int, channel_id: int | None) -> GameRecord:
        """The game a user means: the one in this channel, else their only live game."""
        if channel_id is not None:
            here = await self.storage.live_game_in(channel_id)
            if here is not None:
                return self._cache.setdefault(here.id, here)
        mine = await self.storage.live_games_of(user_id)
        if not mine:
            raise NoGame("You are not in a game right now.")
        if len(mine) > 1:
            raise NoGame("You are in several games; use this in the game's channel or thread.")
        return self._cache.setdefault(mine[0].id, mine[0])

    async def _reload(self, game_id: int) -> GameRecord:
        """The stored game; a cached record is refreshed in place (its holders see it too)."""
        record = await self.storage.game(game_id)
        if record is None:
            raise NoGame("That game no longer exists.")
        self._read_back(record)
        cached = self._cache.get(game_id)
        if cached is not None:
            vars(cached).update(vars(record))
            record = cached
        if record.status.live:
            self._cache[game_id] = record
        else:
            self.forget(game_id)
        return record

    async def _reload_cached(self, game_id: int) -> None:
        self.saw_step_from_elsewhere(game_id)  # a compare-and-set lost to another process
        if game_id in self._cache:
            with contextlib.suppress(NoGame):
                await self._reload(game_id)

    def _pressed(self, pressed_at: float | None) -> float:
        """When the player pressed, as the service judges it: never later than now."""
        received = self.clock.now()
        return received if pressed_at is None else min(pressed_at, received)

    def _deadlines_of(self, game_id: int) -> list[Deadline]:
        cached = self._cache.get(game_id)
        return cached.deadlines if cached is not None else []

    async def _active(self, game_id: int) -> GameRecord:
        game = await self.game(game_id)
        if game.status is Status.LOBBY:
            raise Refusal("This game has not started yet.")
        if game.status is not Status.ACTIVE:
            raise Refusal("This game is over.")
        return game


async def record_delivery(
    service: GameCache, game: GameRecord, user_id: int, *, dm_ok: bool,
    dm_channel_id: int | None = None, dm_message_id: int | None = None,
    dm_message_at: float | None = None,
) -> None:
    """Store how a player's private view reaches them, and keep the cached record in step.

    Tied to the user, never to a seat number: callers await Discord (a DM check, a send)
    between reading the seats and storing this, and a lobby renumbers its seats when someone
    leaves — a number taken before the await could be another player's by now, and their
    hand would then be sent to this player's DM channel."""
    stored = await service.storage.set_seat_delivery(
        game.id, user_id, dm_ok=dm_ok, dm_channel_id=dm_channel_id,
        dm_message_id=dm_message_id, dm_message_at=dm_message_at,
    )
    if not stored:  # they left the game while we were talking to Discord
        return
    holders = {id(game): game}
    cached = service.cached(game.id)
    if cached is not None:
        holders[id(cached)] = cached
    for holder in holders.values():
        record = next((s for s in holder.seats if s.user_id == user_id), None)
        if record is None:
            continue
        record.dm_ok = dm_ok
        record.dm_channel_id = dm_channel_id or record.dm_channel_id
        record.dm_message_id = dm_message_id or record.dm_message_id
        record.dm_message_at = dm_message_at or record.dm_message_at
