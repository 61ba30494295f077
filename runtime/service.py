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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.core import Action, Engine, Event, IllegalAction, Outcome, State, Wait
from games.registry import get_engine
from runtime import deadlines as deadline_rules
from runtime.access import may_press
from runtime.clock import Clock
from runtime.errors import NoGame, NotAllowed, NotSeated, Refusal
from runtime.ordering import PressOrderedLock
from runtime.ratings import rate
from storage import GameRecord, ResultRecord, SeatRecord, Status, Storage

log = logging.getLogger(__name__)

#: Seconds of grace for a deadline that passed while the bot was down (see grant_grace).
RESTART_GRACE = 30.0

LOG_LINES = 8
FORFEIT = "_forfeit"
#: Action fields only the runtime sets (a timer's default carries "timeout": True; an action
#: typed as a slash command carries "typed": True); a player's action holding one is refused,
#: so nobody can forge what only the clock, or the way in, may say.
RUNTIME_FIELDS = frozenset({"timeout", "typed"})


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
    #: Seats now awaited for something they were not a moment before: each is told so.
    newly_awaited: list[int] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.outcome is not None


class TableService:
    def __init__(self, storage: Storage, clock: Clock, rng: random.Random) -> None:
        self.storage = storage
        self.clock = clock
        self.rng = rng
        self._locks: dict[int, PressOrderedLock] = {}
        self._cache: dict[int, GameRecord] = {}
        self._rating_locks: dict[tuple[int, str], asyncio.Lock] = {}
        self._opening = asyncio.Lock()  # one lobby check-and-create at a time
        #: Called (game id, earliest deadline or None) after every change; timers listen.
        self.on_deadlines: Callable[[int, float | None], None] = lambda game_id, at: None
        #: Turns a public event into its log line (the game's UI names the players); None hides it.
        self.describe: Callable[[GameRecord, Event], str | None] = lambda game, event: event.type

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
        record = self._cache.get(game_id)
        if record is None:
            record = await self.storage.game(game_id)
            if record is None:
                raise NoGame("That game no longer exists.")
            if record.status.live:
                self._cache[game_id] = record
        return record

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)
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
        async with self._opening:  # two `/x new` at once in one channel: only one lobby
            if await self.storage.live_game_in(channel_id) is not None:
                raise Refusal("A game is already running here. Finish it, or start one in another channel.")
            game_id = await self.storage.create_game(
                guild_id=guild_id, channel_id=channel_id, kind=kind, host_id=host_id,
                host_name=host_name, options=resolved, seed=self.rng.getrandbits(63),
                nonce=f"{self.rng.getrandbits(128):032x}", now=self.clock.now(),
                host_team=0 if engine.lobby_teams else None,
            )
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
            label = engine.lobby_teams[team]
            if seated is not None and seated.team == team:
                raise Refusal(f"You are already on Team {label}.")
            if len(members(game, team)) >= engine.team_size():
                raise Refusal(f"Team {label} is full ({engine.team_size()} players).")
            if seated is not None:
                await self.storage.set_seat_team(game_id, user_id, team)
            else:
                await self.storage.add_seat(game_id, user_id, name, team)
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
            waits = engine.to_act(state)
            deadlines = deadline_rules.schedule([], waits, now, version=1)
            await self.storage.start_game(
                game_id, state=state, deadlines=deadlines, log=["The game begins."],
                thread_id=thread_id, now=now, options=options if options != game.options else None,
            )
            game = await self._reload(game_id)
            self.on_deadlines(game_id, deadline_rules.earliest(deadlines))
            awaited = sorted({d["seat"] for d in deadlines if d["seat"] is not None})
            return Applied(game, engine, [], list(range(players)), newly_awaited=awaited)

    async def _seat_by_team(self, game: GameRecord, engine: Engine) -> GameRecord:
        """Refuse a start with a team short of players; else renumber the seats so each team's
        members, in join order, sit together in team order (partners side by side)."""
        fewest = engine.team_bounds()[0]
        for team, label in enumerate(engine.lobby_teams):
            missing = fewest - len(members(game, team))
            if missing > 0:
                raise Refusal(f"Team {label} needs {missing} more player{'s' if missing > 1 else ''}.")
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
        record = await self.storage.game(game_id)
        if record is None:
            raise NoGame("That game no longer exists.")
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
                applied = await self._commit(game, engine, None, action, state, events, at=now)
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
        async with self.held(game_id, pressed):
            game = await self.game(game_id)
            seat = may_press(game, user_id, version=version, action=action)
            engine = get_engine(game.kind)
            assert game.state is not None
            now = max(pressed, game.last_at if game.last_at is not None else pressed)
            state, events = judged(game, lambda: engine.apply(game.state, seat, action, now))
            return await self._commit(game, engine, seat, action, state, events, at=now)

    async def forfeit(self, game_id: int, user_id: int, *, pressed_at: float | None = None) -> Applied:
        pressed = self._pressed(pressed_at)
        async with self.held(game_id, pressed):
            game = await self.game(game_id)
            seat = may_press(game, user_id)
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
                try:
                    state, events = engine.apply(game.state, due["seat"], due["default"], due["at"])
                except IllegalAction as exc:
                    # An engine bug must not wedge the game forever: drop that deadline.
                    log.error("game %s: timeout action refused (%s); dropping it", game_id, exc)
                    game.deadlines = [d for d in game.deadlines if d is not due]
                    continue
                done.append(await self._commit(
                    game, engine, due["seat"], due["default"], state, events, at=due["at"]
                ))

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
        events: list[Event], *, at: float | None = None,
    ) -> Applied:
        now = self.clock.now()
        at = now if at is None else at
        assert game.state is not None
        waits: list[Wait] = engine.to_act(state)
        deadlines = deadline_rules.schedule(game.deadlines, waits, at, version=game.version + 1)
        lines = [line for e in events if e.to is None and (line := self.describe(game, e))]
        new_log = (game.log + lines)[-LOG_LINES:]
        outcome = engine.outcome(state)
        rated = outcome is not None and not outcome.abandoned and await self._rates(game, outcome, action)
        async with self._rating_lock(game, outcome):
            results, ratings, before = [], [], {}
            if outcome is not None:
                if not outcome.abandoned:  # everyone away: no result at all
                    results, ratings, before = await self._results(game, outcome)
                if not rated:
                    ratings = []
                deadlines = []
            version = await self.storage.commit_action(
                game.id, expected_version=game.version, seat=seat, action=action, at=at,
                state=state, deadlines=deadlines, log=new_log, finished=outcome is not None,
                now=now, results=results, ratings=ratings,
                abandoned=outcome is not None and outcome.abandoned, log_added=len(lines),
            )
        changed = [
            s for s in range(len(game.seats))
            if engine.view(game.state, s) != engine.view(state, s)
        ]
        public_changed = (bool(lines) or outcome is not None or public_waits(deadlines) != public_waits(game.deadlines)
                          or engine.view(game.state, None) != engine.view(state, None))
        # A seat awaited now that was not awaited a moment before is told; one still answering
        # (another seat's pick came in) or going on with its own turn (a How Do You Say…?
        # step, then the turn's letter) is not told again.
        awaited_before = {d["seat"] for d in game.deadlines}
        newly = sorted({d["seat"] for d in deadlines
                        if d["seat"] is not None and d["seat"] not in awaited_before})
        game.state, game.version, game.deadlines, game.log = state, version, deadlines, new_log
        game.last_at = at
        game.log_total += len(lines)
        if outcome is not None:
            game.status = Status.CANCELLED if outcome.abandoned else Status.FINISHED
            self.forget(game.id)
        self.on_deadlines(game.id, deadline_rules.earliest(deadlines))
        changes = ({r.user_id: (before.get(r.user_id), r.ordinal) for r in ratings}
                   if outcome is not None and rated else {})
        return Applied(game, engine, events, changed, outcome, public_changed=public_changed, rated=rated,
                       rating_changes=changes, seat=seat, newly_awaited=newly)

    async def _rates(self, game: GameRecord, outcome: Outcome, action: Action) -> bool:
        """A game that ends by forfeit before every seat has acted once is recorded, not rated:
        a lobby that fell apart at once says nothing about anyone's skill."""
        if action.get("type") != FORFEIT and outcome.reason != "forfeit":
            return True
        acted = {r.seat for r in await self.storage.actions(game.id) if r.action.get("type") != FORFEIT}
        return acted >= set(range(len(game.seats)))

    def _rating_lock(self, game: GameRecord, outcome: Outcome | None) -> contextlib.AbstractAsyncContextManager[Any]:
        """Ratings are read, updated and written back whole: two games of one server and game
        that end at the same moment must take turns, or one update would overwrite the other."""
        if outcome is None:
            return contextlib.nullcontext()
        key = (game.guild_id, game.kind)
        lock = self._rating_locks.get(key)
        if lock is None:
            lock = self._rating_locks[key] = asyncio.Lock()
        return lock

    async def _results(self, game: GameRecord, outcome: Outcome) -> tuple[list, list, dict[int, float | None]]:
        users = [s.user_id for s in game.seats]
        team_index = {
            seat: index for index, team in enumerate(outcome.teams or ()) for seat in team
        }
        results = [
            ResultRecord(
                game.id, users[seat], seat, outcome.ranks[seat],
                outcome.scores[seat] if outcome.scores is not None else None,
                team_index.get(seat),
            )
            for seat in range(len(users))
        ]
        current = await self.storage.ratings(game.guild_id, game.kind, users)
        ratings = rate(guild_id=game.guild_id, kind=game.kind, outcome=outcome, users=users,
                       current=current)
        before = {u: current[u].ordinal if u in current else None for u in users}
        return results, ratings, before

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
    service: TableService, game: GameRecord, seat: int, *, dm_ok: bool,
    dm_channel_id: int | None = None, dm_message_id: int | None = None,
    dm_message_at: float | None = None,
) -> None:
    """Store how a seat's private view reaches it, and keep the cached record in step."""
    await service.storage.set_seat_delivery(
        game.id, seat, dm_ok=dm_ok, dm_channel_id=dm_channel_id,
        dm_message_id=dm_message_id, dm_message_at=dm_message_at,
    )
    record = game.seats[seat]
    record.dm_ok = dm_ok
    record.dm_channel_id = dm_channel_id or record.dm_channel_id
    record.dm_message_id = dm_message_id or record.dm_message_id
    record.dm_message_at = dm_message_at or record.dm_message_at
