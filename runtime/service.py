"""The table service: lobbies, seats and the one action loop (DESIGN.md, "The action loop").

Discord-free: the cogs call it with plain ids and get back `Applied` records to render.
Every action goes: resolve seat → per-game lock → load → stale check → engine.apply →
commit (state + log row + version in one transaction) → return. Only after the return
does the cog acknowledge the player, so nothing acknowledged is ever lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from games.core import Action, Engine, Event, IllegalAction, Outcome, State, Wait
from games.record import FORFEIT, HANDOFF
from games.registry import get_engine, get_policy
from runtime import computers
from runtime import deadlines as deadline_rules
from runtime.access import may_press
from runtime.clock import Clock
from runtime.errors import NoGame, NotAllowed, NotSeated, Refusal
from runtime.ordering import PressOrderedLock
from runtime.ratings import rate
from runtime.views import ViewMemo
from storage import (
    ChannelBusy,
    GameRecord,
    RatingRecord,
    RatingUpdate,
    ResultRecord,
    SeatRecord,
    StaleVersion,
    Status,
    Storage,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Times a step is judged again after another process committed first (see `_serialised`).
STALE_RETRIES = 5
#: Seconds of grace for a deadline that passed while the bot was down (see grant_grace).
RESTART_GRACE = 30.0

LOG_LINES = 8
#: Seconds after another process last moved a game during which this one does not trust its
#: memory of what the game's messages show (their in-flight edits land within this).
FOREIGN_QUIET = 30.0
#: Action fields only the runtime sets (a timer's default carries "timeout": True; an action
#: typed as a slash command carries "typed": True); a player's action holding one is refused,
#: so nobody can forge what only the clock, or the way in, may say.
RUNTIME_FIELDS = frozenset({"timeout", "typed"})


@dataclass
class Left:
    """What `/game leave` did in a running game: the seat was handed to a computer (and
    `offer_to`, the host, may still end the game), or the leaver forfeited (`applied`)."""

    game: GameRecord
    seat: int
    replaced: bool
    offer_to: int | None = None
    applied: Applied | None = None


@dataclass
class Applied:
    """What one committed step did, for the edge to publish."""

    game: GameRecord
    engine: Engine
    events: list[Event]
    changed_seats: list[int]
    outcome: Outcome | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: Whether anything the table shows changed (the public view, its log, who is awaited);
    #: a private step — picking a letter before placing it — leaves the table as it is.
    public_changed: bool = True
    #: Whether the result moved ratings (a forfeit before everyone acted once does not).
    rated: bool = True
    #: user id -> (rating before or None, rating after), when the result was rated.
    rating_changes: dict[int, tuple[float | None, float]] = field(default_factory=dict)
    #: Who acted (None: the game itself, or the start).
    seat: int | None = None
    #: Seats now asked something they were not shown a moment before: each is told so.
    newly_awaited: list[int] = field(default_factory=list)
    #: The deadlines of those new prompts (`deadlines.newly_asked`): what each is told of.
    asked: list[dict[str, Any]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.outcome is not None


class TableService:
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

    # ----- loading ----------------------------------------------------------------------
    def lock(self, game_id: int) -> PressOrderedLock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = PressOrderedLock()
        return lock

    def held(self, game_id: int, at: float | None = None) -> Any:
        """`async with self.held(game_id, t)`: the game's lock, granted in press order (`t`;
        now by default) among everyone waiting for it."""
        return self.lock(game_id).at(self.clock.now() if at is None else at)

    async def game(self, game_id: int) -> GameRecord:
        """The game as stored. One process: the cached record, kept current by the action loop.
        Several processes on one database (`storage.shared`): the cached record is checked
        against the stored version first and refreshed in place when another process moved
        the game on (every holder of the record then sees the newest state)."""
        record = self._cache.get(game_id)
        if record is not None and self.storage.shared:
            await self._refresh(record)
        if record is None:
            record = await self.storage.game(game_id)
            if record is None:
                raise NoGame("That game no longer exists.")
            if record.status.live:
                self._cache[game_id] = record
        return record

    async def _refresh(self, record: GameRecord) -> None:
        if record.status is Status.ACTIVE and await self.storage.game_version(record.id) == record.version:
            return  # lobbies change without a version (joins): they are always reloaded
        fresh = await self.storage.game(record.id)
        if fresh is None:
            self.forget(record.id)
            raise NoGame("That game no longer exists.")
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

    # ----- lobby ------------------------------------------------------------------------
    async def open_lobby(
        self, *, guild_id: int, channel_id: int, kind: str, host_id: int, host_name: str,
        options: dict[str, Any],
    ) -> GameRecord:
        engine = get_engine(kind)
        resolved = engine.resolve_options({k: v for k, v in options.items() if v is not None})
        busy = "A game is already running here. Finish it, or start one in another channel."
        # Two `/x new` at once in one channel make one lobby: the lock within this process, the
        # database's one-live-game-per-channel index across processes.
        async with self._opening:
            if await self.storage.live_game_in(channel_id) is not None:
                raise Refusal(busy)
            try:
                game_id = await self.storage.create_game(
                guild_id=guild_id, channel_id=channel_id, kind=kind, host_id=host_id,
                host_name=host_name, options=resolved, seed=self.rng.getrandbits(63),
                nonce=f"{self.rng.getrandbits(128):032x}", now=self.clock.now(),
                host_team=0 if engine.lobby_teams else None,
                )
            except ChannelBusy:
                raise Refusal(busy) from None
        return await self._reload(game_id)

    async def join(self, game_id: int, user_id: int, name: str, *, team: int | None = None,
                   pressed_at: float | None = None) -> GameRecord:
        """Take a seat. In a team lobby `team` says which team (None: the one with most room);
        a seated player asking for another team switches to it."""
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            engine = get_engine(game.kind)
            seated = next((s for s in game.seats if s.user_id == user_id), None)
            if not engine.lobby_teams:
                if seated is not None:
                    raise Refusal("You are already in this game.")
                if len(game.seats) >= engine.max_players:
                    raise Refusal(f"This table is full ({engine.max_players} players).")
                await self.storage.add_seat(game_id, user_id, name)
                return await self._reload(game_id)
            team = self._team_for(game, engine, team)
            if seated is not None and seated.team == team:
                raise Refusal(f"You are already in {engine.team_name(team)}.")
            if len(members(game, team)) >= engine.team_size():
                raise Refusal(f"{engine.team_name(team)} is full ({engine.team_size()} players).")
            if seated is not None:
                await self.storage.set_seat_team(game_id, user_id, team)
            else:
                await self.storage.add_seat(game_id, user_id, name, team)
            return await self._reload(game_id)

    async def add_computer(self, game_id: int, user_id: int, *, name: str | None = None,
                           team: int | None = None, pressed_at: float | None = None) -> GameRecord:
        """The host seats a computer player (🤖) in a free seat, on `team` in a team lobby."""
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            engine = get_engine(game.kind)
            if user_id != game.host_id:
                raise NotAllowed("Only the host can add computer players.")
            if get_policy(game.kind) is None:
                raise Refusal(f"{engine.title} has no computer player yet.")
            if engine.lobby_teams:
                team = self._team_for(game, engine, team)
                if len(members(game, team)) >= engine.team_size():
                    raise Refusal(f"{engine.team_name(team)} is full ({engine.team_size()} players).")
            elif len(game.seats) >= engine.max_players:
                raise Refusal(f"This table is full ({engine.max_players} players).")
            else:
                team = None
            await self.storage.add_seat(game_id, computers.synthetic_id(game.seats),
                                        computers.computer_name(name, game.seats), team, computer=True)
            return await self._reload(game_id)

    async def remove_computer(self, game_id: int, user_id: int, seat: int, *,
                              pressed_at: float | None = None) -> GameRecord:
        """The host takes a computer player out of the lobby."""
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            if user_id != game.host_id:
                raise NotAllowed("Only the host can remove computer players.")
            record = next((s for s in game.seats if s.seat == seat), None)
            if record is None or not record.computer:
                raise Refusal("There is no computer player in that seat.")
            await self.storage.remove_seat(game_id, record.user_id)
            return await self._reload(game_id)

    @staticmethod
    def _team_for(game: GameRecord, engine: Engine, team: int | None) -> int:
        if team is None:  # the team with the most room; the first of equals
            return min(range(len(engine.lobby_teams)), key=lambda t: (len(members(game, t)), t))
        if not 0 <= team < len(engine.lobby_teams):
            raise Refusal(f"{engine.title} has teams {', '.join(engine.lobby_teams)}.")
        return team

    async def leave_lobby(self, game_id: int, user_id: int, *, pressed_at: float | None = None) -> GameRecord:
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            if game.seat_of(user_id) is None:
                raise NotSeated("You are not in this lobby.")
            if user_id == game.host_id:
                raise NotAllowed("The host cannot leave; use Cancel to close the lobby.")
            await self.storage.remove_seat(game_id, user_id)
            return await self._reload(game_id)

    async def cancel(self, game_id: int, user_id: int, *, manager: bool = False,
                     pressed_at: float | None = None) -> GameRecord:
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            if user_id != game.host_id and not manager:
                raise NotAllowed("Only the host can cancel this lobby.")
            await self.storage.set_status(game_id, Status.CANCELLED, self.clock.now())
            self.forget(game_id)
            return await self._reload(game_id)

    async def start(self, game_id: int, user_id: int, *, thread_id: int | None = None,
                    pressed_at: float | None = None) -> Applied:
        """Lobby → running game: the check and the claim in one step under the game's lock, so
        a Cancel pressed at the same moment either comes first (and this is refused) or is
        refused itself. The thread, if any, may be set afterwards (`set_thread`)."""
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            engine = get_engine(game.kind)
            if user_id != game.host_id:
                raise NotAllowed("Only the host can start the game.")
            players = len(game.seats)
            options = dict(game.options)
            if engine.lobby_teams:
                game = await self._seat_by_team(game, engine)
                if engine.team_sizes is not None:
                    options["team_sizes"] = [len(members(game, t)) for t in range(len(engine.lobby_teams))]
            if engine.champion_option is not None:
                champion = await self.storage.last_champion(game.guild_id, game.kind)
                options[engine.champion_option] = next(
                    (s.seat for s in game.seats if s.user_id == champion), -1)
            if not engine.min_players <= players <= engine.max_players:
                raise Refusal(f"{engine.title} needs {engine.player_range()} players; {players} joined.")
            state = engine.new_game(players, game.seed, options)
            now = self.clock.now()
            deadlines = self._schedule(game, engine, [], state, now, version=1)
            try:
                await self.storage.start_game(
                    game_id, state=state, deadlines=deadlines, log=["The game begins."],
                    thread_id=thread_id, now=now, options=options if options != game.options else None,
                )
            except StaleVersion:  # cancelled or started by another process a moment ago
                await self._reload_cached(game_id)
                raise Refusal("This lobby is closed.") from None
            game = await self._reload(game_id)
            self.on_deadlines(game_id, deadline_rules.earliest(deadlines))
            people = [s.seat for s in game.seats if not s.computer]
            asked = deadline_rules.newly_asked([], deadlines, people)
            return Applied(game, engine, [], people, newly_awaited=sorted({d["seat"] for d in asked}),
                           asked=asked)

    async def _seat_by_team(self, game: GameRecord, engine: Engine) -> GameRecord:
        """Refuse a start with a team short of players; else renumber the seats so each team's
        members, in join order, sit together in team order (partners side by side)."""
        fewest = engine.team_bounds()[0]
        for team in range(len(engine.lobby_teams)):
            missing = fewest - len(members(game, team))
            if missing > 0:
                raise Refusal(f"{engine.team_name(team)} needs {missing} more player{'s' if missing > 1 else ''}.")
        order = [s.user_id for team in range(len(engine.lobby_teams)) for s in members(game, team)]
        if order != [s.user_id for s in game.seats]:
            await self.storage.reseat(game.id, order)
            game = await self._reload(game.id)
        return game

    async def set_thread(self, game_id: int, thread_id: int) -> GameRecord:
        """Move a started game's table to its new thread (the record others hold sees it too)."""
        await self.storage.set_thread(game_id, thread_id)
        game = await self.game(game_id)
        game.thread_id = thread_id
        return game

    async def _lobby(self, game_id: int) -> GameRecord:
        game = await self.game(game_id)
        if game.status is not Status.LOBBY:
            raise Refusal("This lobby is closed.")
        return game

    async def _reload(self, game_id: int) -> GameRecord:
        """The stored game; a cached record is refreshed in place (its holders see it too)."""
        record = await self.storage.game(game_id)
        if record is None:
            raise NoGame("That game no longer exists.")
        cached = self._cache.get(game_id)
        if cached is not None:
            vars(cached).update(vars(record))
            record = cached
        if record.status.live:
            self._cache[game_id] = record
        else:
            self.forget(game_id)
        return record

    async def grant_grace(self, games: list[GameRecord], grace: float = RESTART_GRACE) -> list[GameRecord]:
        """At start-up, before any interaction is taken: every deadline of `games` that passed
        while the bot was down gets `grace` more seconds, stored in one transaction and updated
        in `games`. Returns the games whose timers moved (to refresh their tables)."""
        now = self.clock.now()
        moved = [g for g in games if any(d.get("at") is not None and d["at"] < now for d in g.deadlines)]
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

    # ----- the action loop --------------------------------------------------------------
    async def act(
        self, game_id: int, user_id: int, action: Action, *, version: int | None = None,
        pressed_at: float | None = None, typed: bool = False,
    ) -> Applied:
        """One player action. `version` is the state version a component was drawn for;
        `pressed_at` when the player pressed (the interaction's own time). The engine judges
        the action at that moment, not when the game's lock came free: clamped between the
        last committed step and now, and queued actions are taken in press order. `typed`:
        it came as a slash command, not a control (Table Fencing punishes a mistyped one)."""
        if not isinstance(action, dict) or RUNTIME_FIELDS & action.keys():
            raise Refusal("That is not something you can do.")
        if typed:
            action = {**action, "typed": True}
        pressed = self._pressed(pressed_at)

        confirmed = False

        async def step() -> Applied:
            nonlocal confirmed
            game = await self._held_record(game_id)
            try:
                seat = may_press(game, user_id, version=version, action=action)
                engine = get_engine(game.kind)
                assert game.state is not None
                now = max(pressed, game.last_at if game.last_at is not None else pressed)
                state, events = judged(game, lambda: engine.apply(game.state, seat, action, now))
            except Refusal:
                if not confirmed:
                    confirmed = True
                    await self._confirm(game)
                raise
            press = None if version is None else deadline_rules.press_key(version, action)
            return await self._commit(game, engine, seat, action, state, events, at=now, pressed=press)

        return await self._serialised(game_id, pressed, step)

    async def _serialised(self, game_id: int, at: float, step: Callable[[], Awaitable[T]]) -> T:
        """Run `step` under the game's lock. The lock orders this process's presses; across
        processes the commit's version compare-and-set decides: when another process committed
        first, the game is reloaded and the step judged again on the newer state."""
        async with self.held(game_id, at):
            for _ in range(STALE_RETRIES):
                try:
                    return await step()
                except StaleVersion:
                    log.info("game %s moved on in another process; judging again", game_id)
                    await self._reload_cached(game_id)
        raise Refusal("The game is busy right now; please try again.")

    async def _held_record(self, game_id: int) -> GameRecord:
        """The game a step is judged on, under its lock: the cached record as it is, without
        asking the database whether another process moved it. A step it accepts is committed
        by a version compare-and-set, which fails if the game moved (judged again on the
        newer state); a refusal is confirmed first (`_confirm`). So a step costs one database
        round trip, not two, and the answer is the one the newest state gives."""
        record = self._cache.get(game_id)
        return record if record is not None else await self.game(game_id)

    async def _confirm(self, game: GameRecord) -> None:
        """Before refusing on the cached record: with several processes, a record another one
        moved on is reloaded and the step judged again (StaleVersion, see `_serialised`)."""
        if (self.storage.shared and self._cache.get(game.id) is game
                and await self.storage.game_version(game.id) != game.version):
            raise StaleVersion(f"game {game.id} moved on in another process")

    async def _reload_cached(self, game_id: int) -> None:
        self.saw_step_from_elsewhere(game_id)  # a compare-and-set lost to another process
        if game_id in self._cache:
            with contextlib.suppress(NoGame):
                await self._reload(game_id)

    async def forfeit(self, game_id: int, user_id: int, *, pressed_at: float | None = None) -> Applied:
        pressed = self._pressed(pressed_at)

        async def step() -> Applied:
            game = await self.game(game_id)
            return await self._forfeit(game, may_press(game, user_id), pressed)

        return await self._serialised(game_id, pressed, step)

    async def leave(self, game_id: int, user_id: int, *, pressed_at: float | None = None) -> Left:
        """A player leaves a running game. With a computer player for the game and another
        human still playing, a computer takes the seat at once and the game goes on; the host
        (the next human, if the host left) may still end it. Otherwise the leaver forfeits."""
        pressed = self._pressed(pressed_at)
        return await self._serialised(game_id, pressed, lambda: self._leave(game_id, user_id, pressed))

    async def _leave(self, game_id: int, user_id: int, pressed: float) -> Left:
        game = await self.game(game_id)
        seat = may_press(game, user_id)
        others = [s for s in game.seats if not s.computer and s.seat != seat]
        if get_policy(game.kind) is None or not others:
            applied = await self._forfeit(game, seat, pressed)
            if not applied.finished and any(s.computer for s in game.seats):
                # Only computers are left and the rules play on: nobody is there to play for.
                # The forfeit stays logged; the game stops without a result.
                await self.storage.set_status(game_id, Status.CANCELLED, self.clock.now())
                self.on_deadlines(game_id, None)
                self.forget(game_id)
                applied.game.status = Status.CANCELLED
            return Left(applied.game, seat, replaced=False, applied=applied)
        leaver = game.seats[seat]
        name = computers.stand_in_name(leaver, game.seats)
        await self.storage.set_seat_player(game_id, seat, user_id=computers.synthetic_id(game.seats),
                                           name=name, computer=True)
        host = game.host_id
        if user_id == host:
            host = others[0].user_id
            await self.storage.set_host(game_id, host)
        game = await self._reload(game_id)
        engine = get_engine(game.kind)
        assert game.state is not None
        now = max(pressed, game.last_at or pressed)
        event = Event("handoff", {"seat": seat, "name": name})
        applied = await self._commit(game, engine, seat, {"type": HANDOFF, "user_id": user_id},
                                     game.state, [event], at=now)
        return Left(applied.game, seat, replaced=True, offer_to=host, applied=applied)

    async def end_for_leaver(self, game_id: int, user_id: int, seat: int, *,
                             pressed_at: float | None = None) -> Applied:
        """The host ends the game instead of keeping the computer: the seat's player, who left,
        forfeits as if no computer had stepped in."""
        pressed = self._pressed(pressed_at)
        return await self._serialised(game_id, pressed, lambda: self._end_for_leaver(game_id, user_id, seat, pressed))

    async def _end_for_leaver(self, game_id: int, user_id: int, seat: int, pressed: float) -> Applied:
        game = await self._active(game_id)
        if user_id != game.host_id:
            raise NotAllowed("Only the host can end the game.")
        leaver = next((r.action for r in reversed(await self.storage.actions(game_id))
                       if r.action.get("type") == HANDOFF and r.seat == seat), None)
        record = next((s for s in game.seats if s.seat == seat), None)
        if leaver is None or record is None or not record.computer:
            raise Refusal("That seat's player did not leave.")
        original = computers.leaver_name(record.name)
        await self.storage.set_seat_player(game_id, seat, user_id=leaver["user_id"], name=original,
                                           computer=False)
        game = await self._reload(game_id)
        return await self._forfeit(game, seat, pressed)

    async def _forfeit(self, game: GameRecord, seat: int, pressed: float) -> Applied:
        engine = get_engine(game.kind)
        assert game.state is not None
        now = max(pressed, game.last_at or pressed)
        state, events = judged(game, lambda: engine.forfeit(game.state, seat, now))
        return await self._commit(game, engine, seat, {"type": FORFEIT}, state, events, at=now)

    async def expire(self, game_id: int) -> list[Applied]:
        """Apply the default action of every wait whose deadline has passed."""
        done: list[Applied] = []
        while True:
            # Behind the presses made before the deadline, ahead of those made after it.
            async with self.held(game_id, deadline_rules.earliest(self._deadlines_of(game_id))):
                try:
                    game = await self._active(game_id)
                except Refusal:
                    return done
                due = deadline_rules.due(game.deadlines, self.clock.now())
                if due is None:
                    self.on_deadlines(game_id, deadline_rules.earliest(game.deadlines))
                    return done
                engine = get_engine(game.kind)
                assert game.state is not None
                action = due["default"]
                try:
                    if due["seat"] is not None and due["seat"] in computers.computer_seats(game):
                        at = max(due["at"], game.last_at or due["at"])
                        state, events, action = computers.decide(
                            engine, get_policy(game.kind), game, due["seat"], at, due["default"])
                    else:
                        at = due["at"]
                        state, events = engine.apply(game.state, due["seat"], action, at)
                except IllegalAction as exc:
                    # An engine bug must not wedge the game forever: drop that deadline.
                    log.error("game %s: timeout action refused (%s); dropping it", game_id, exc)
                    game.deadlines = [d for d in game.deadlines if d is not due]
                    continue
                try:
                    done.append(await self._commit(game, engine, due["seat"], action, state, events, at=at,
                                                   timed_out=True))
                except StaleVersion:  # another process fired it (or moved the game) first
                    await self._reload_cached(game_id)

    async def end(self, game_id: int, user_id: int, *, manager: bool,
                  pressed_at: float | None = None) -> GameRecord:
        """Stop a stuck game without a result (host or Manage Server)."""
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self.game(game_id)
            if not game.status.live:
                raise Refusal("This game is already over.")
            if user_id != game.host_id and not manager:
                raise NotAllowed("Only the host or someone with Manage Server can end this game.")
            await self.storage.set_status(game_id, Status.CANCELLED, self.clock.now())
            self.on_deadlines(game_id, None)
            self.forget(game_id)
            return await self._reload(game_id)

    def _schedule(self, game: GameRecord, engine: Engine, previous: list[dict[str, Any]], state: State,
                  at: float, *, version: int, mover: int | None = None,
                  pressed: str | None = None) -> list[dict[str, Any]]:
        """The deadlines of `state`'s waits; a computer seat's wait is due when it has thought.
        `mover` made `state` by the press `pressed` (a component's `press_key`), now spent."""
        waits: list[Wait] = engine.to_act(state)
        seats = computers.computer_seats(game)
        think = (computers.thinker(engine, get_policy(game.kind), game, state, waits, version, at)
                 if seats else None)
        return deadline_rules.schedule(previous, waits, at, version=version, computers=seats, think=think,
                                       mover=mover, pressed=pressed)

    def _pressed(self, pressed_at: float | None) -> float:
        """When the player pressed, as the service judges it: never later than now."""
        received = self.clock.now()
        return received if pressed_at is None else min(pressed_at, received)

    def _deadlines_of(self, game_id: int) -> list[dict[str, Any]]:
        cached = self._cache.get(game_id)
        return cached.deadlines if cached is not None else []

    async def _active(self, game_id: int) -> GameRecord:
        game = await self.game(game_id)
        if game.status is Status.LOBBY:
            raise Refusal("This game has not started yet.")
        if game.status is not Status.ACTIVE:
            raise Refusal("This game is over.")
        return game

    async def _commit(
        self, game: GameRecord, engine: Engine, seat: int | None, action: Action, state: State,
        events: list[Event], *, at: float | None = None, timed_out: bool = False,
        pressed: str | None = None,
    ) -> Applied:
        now = self.clock.now()
        at = now if at is None else at
        assert game.state is not None
        deadlines = self._schedule(game, engine, game.deadlines, state, at, version=game.version + 1,
                                   mover=seat, pressed=pressed)
        lines = [line for e in events if e.to is None and (line := self._line(game, e))]
        new_log = (game.log + lines)[-LOG_LINES:]
        outcome = engine.outcome(state)
        rated = (outcome is not None and not outcome.abandoned and not game.practice
                 and await self._rates(game, outcome, action))
        results: list[ResultRecord] = []
        rating: RatingUpdate | None = None
        rerated: list[RatingRecord] = []
        if outcome is not None:
            if not outcome.abandoned and not game.practice:  # everyone away, or practice: no result
                results = self._results(game, outcome)
                if rated:
                    rating = self._rating_update(game, outcome, rerated)
            deadlines = []
        # The ratings are read, updated and written inside the commit's transaction, which the
        # database serialises per server and game: two games ending at once both count.
        version = await self.storage.commit_action(
            game.id, expected_version=game.version, seat=seat, action=action, at=at,
            state=state, deadlines=deadlines, log=new_log, finished=outcome is not None,
            now=now, results=results, rating=rating,
            abandoned=outcome is not None and outcome.abandoned, log_added=len(lines),
        )
        # Computers read nothing and are pinged for nothing: only people's views are sent.
        people = [s.seat for s in game.seats if not s.computer]
        before, after = self._views.of(engine, game.state, game.id), self._views.put(engine, state, game.id)
        changed = [s for s in people if before(s) != after(s)]
        public_changed = (bool(lines) or outcome is not None or public_waits(deadlines) != public_waits(game.deadlines)
                          or before(None) != after(None))
        # A seat asked something new is told: one awaited a moment before only when a required
        # prompt replaces what it was shown (the optional applause became the count); one still
        # answering (another seat's pick came in) or going on with its own turn (a How Do You
        # Say…? step, then the turn's letter) is not told again.
        asked = deadline_rules.newly_asked(game.deadlines, deadlines, people,
                                           present=None if timed_out else seat)
        newly = sorted({d["seat"] for d in asked})
        game.state, game.version, game.deadlines, game.log = state, version, deadlines, new_log
        game.last_at = at
        if len(self._committed) > 50_000:
            self._committed.clear()
        self._committed[game.id] = version
        game.log_total += len(lines)
        if outcome is not None:
            game.status = Status.CANCELLED if outcome.abandoned else Status.FINISHED
            self.forget(game.id)
        self.on_deadlines(game.id, deadline_rules.earliest(deadlines))
        before = rating.before if rating is not None else {}
        changes = {r.user_id: (before[r.user_id].ordinal if r.user_id in before else None, r.ordinal)
                   for r in rerated}
        return Applied(game, engine, events, changed, outcome, public_changed=public_changed, rated=rated,
                       rating_changes=changes, seat=seat, newly_awaited=newly, asked=asked)

    def _line(self, game: GameRecord, event: Event) -> str | None:
        if event.type == "handoff":  # the runtime's own event: a computer took a leaver's seat
            name = event.data["name"]
            return f"👋 {computers.leaver_name(name)} left; {name} plays their seat."
        return self.describe(game, event)

    async def _rates(self, game: GameRecord, outcome: Outcome, action: Action) -> bool:
        """A game that ends by forfeit before every seat has acted once is recorded, not rated:
        a lobby that fell apart at once says nothing about anyone's skill."""
        if action.get("type") != FORFEIT and outcome.reason != "forfeit":
            return True
        acted = {r.seat for r in await self.storage.actions(game.id)
                 if r.action.get("type") not in (FORFEIT, HANDOFF)}
        return acted >= set(range(len(game.seats)))

    @staticmethod
    def _results(game: GameRecord, outcome: Outcome) -> list[ResultRecord]:
        team_index = {
            seat: index for index, team in enumerate(outcome.teams or ()) for seat in team
        }
        versus_computer = any(s.computer for s in game.seats)
        return [
            ResultRecord(
                game.id, s.user_id, s.seat, outcome.ranks[s.seat],
                outcome.scores[s.seat] if outcome.scores is not None else None,
                team_index.get(s.seat), versus_computer=versus_computer,
            )
            for s in game.seats
        ]

    @staticmethod
    def _rating_update(game: GameRecord, outcome: Outcome, rerated: list[RatingRecord]) -> RatingUpdate | None:
        """How the ratings move, computed from the ratings the commit reads (`rerated` receives
        the new ones). Only humans are rated, among themselves: a computer has no rating, and a
        lone human among computers moves nothing."""
        if any(s.computer for s in game.seats):
            humans = computers.humans_only(outcome, game.seats)
            if humans is None:
                return None
            outcome, users = humans
        else:
            users = [s.user_id for s in game.seats]

        def compute(current: dict[int, RatingRecord]) -> list[RatingRecord]:
            rerated[:] = rate(guild_id=game.guild_id, kind=game.kind, outcome=outcome, users=users,
                              current=current)
            return rerated

        return RatingUpdate(game.guild_id, game.kind, users, compute)

    # ----- replay -----------------------------------------------------------------------
    async def replay(self, game_id: int, *, upto: int | None = None) -> State:
        """Rebuild a game's state from its seed and action log (audits, tests, and the tables
        a crash left behind); with `upto`, the state at that version (1 is the first state)."""
        game = await self.storage.game(game_id)
        if game is None or game.state is None:
            raise NoGame("That game never started.")
        engine = get_engine(game.kind)
        state = engine.new_game(len(game.seats), game.seed, game.options)
        for record in await self.storage.actions(game_id):
            if upto is not None and record.seq > upto:
                break
            if record.action.get("type") == FORFEIT:
                state, _ = engine.forfeit(state, record.seat, record.at)
            elif record.action.get("type") == HANDOFF:
                continue
            else:
                state, _ = engine.apply(state, record.seat, record.action, record.at)
        return state


def members(game: GameRecord, team: int) -> list[SeatRecord]:
    """A lobby team's seats, in join order."""
    return [s for s in game.seats if s.team == team]


def public_waits(deadlines: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What the table shows of the waits: who, for what, until when."""
    return [(d["seat"], d["prompt"], d.get("at") if d.get("countdown", True) else None) for d in deadlines]


def judged(game: GameRecord, rule: Callable[[], tuple[State, list[Event]]]) -> tuple[State, list[Event]]:
    """Run an engine call; a refusal comes back with the players' names filled in."""
    try:
        return rule()
    except IllegalAction as exc:
        names = {s.seat: s.name for s in game.seats}
        raise Refusal(exc.render(lambda seat: names.get(seat, "someone")), rule=exc.rule,
                      game_id=game.id) from None


async def record_delivery(
    service: TableService, game: GameRecord, user_id: int, *, dm_ok: bool,
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
