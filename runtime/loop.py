"""The action loop (DESIGN.md, "The action loop"): every step of a running game — a player's
action, a forfeit, a leave, a deadline's default — goes resolve seat → per-game lock → load →
stale check → engine.apply → commit (state + log row + version in one transaction) → return.
Only after the return does the cog acknowledge the player, so nothing acknowledged is lost.

Each commit compares the views of the state before and after once (runtime.views), so the
edge sends only what changed; results and ratings of a final step ride in the same
transaction (runtime.outcomes).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from games.core import Action, Event, IllegalAction, Outcome, State, Wait
from games.record import FORFEIT, HANDOFF
from games.registry import AnyEngine, get_engine, get_policy
from runtime import computers
from runtime import deadlines as deadline_rules
from runtime.access import may_press
from runtime.cache import GameCache
from runtime.errors import NotAllowed, Refusal
from runtime.outcomes import rates, rating_update, results_of
from storage import Deadline, GameRecord, RatingRecord, RatingUpdate, ResultRecord, StaleVersion, Status

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Times a step is judged again after another process committed first (see `_serialised`).
STALE_RETRIES = 5
LOG_LINES = 8
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
    engine: AnyEngine
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
    asked: list[Deadline] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.outcome is not None


class ActionLoop(GameCache):
    """The steps of running games, on the games `GameCache` holds."""

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
        press = None if version is None else deadline_rules.press_key(version, action)  # once a press

        async def step() -> Applied:
            nonlocal confirmed
            game = await self._held_record(game_id)
            try:
                seat = may_press(game, user_id, version=version, action=action, pressed=press)
                engine = get_engine(game.kind)
                current = game.state
                assert current is not None
                now = max(pressed, game.last_at if game.last_at is not None else pressed)
                state, events = judged(game, lambda: engine.apply(current, seat, action, now))
            except Refusal:
                if not confirmed:
                    confirmed = True
                    await self._confirm(game)
                raise
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
        moved on is reloaded and the step judged again (StaleVersion, see `_serialised`). No
        read when the process knows the record is current (`current`: it hears every commit)."""
        if (self._cache.get(game.id) is game and not self.current(game)
                and await self.storage.game_version(game.id) != game.version):
            raise StaleVersion(f"game {game.id} moved on in another process")

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
        current = game.state
        assert current is not None
        now = max(pressed, game.last_at or pressed)
        state, events = judged(game, lambda: engine.forfeit(current, seat, now))
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
                action, fell_due, seat = due["default"], due["at"], due["seat"]
                assert fell_due is not None  # `due` gives only a deadline that has passed
                try:
                    if seat is not None and seat in computers.computer_seats(game):
                        at = max(fell_due, game.last_at or fell_due)
                        state, events, action = computers.decide(
                            engine, get_policy(game.kind), game, seat, at, due["default"])
                    else:
                        at = fell_due
                        if action is None:  # a computer's wait, its seat taken back by a player
                            raise IllegalAction("That is not an action this game understands.")
                        state, events = engine.apply(game.state, seat, action, at)
                except IllegalAction as exc:
                    # An engine bug must not wedge the game forever: drop that deadline.
                    log.error("game %s: timeout action refused (%s); dropping it", game_id, exc)
                    game.deadlines = [d for d in game.deadlines if d is not due]
                    continue
                try:
                    done.append(await self._commit(game, engine, seat, action, state, events, at=at,
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

    def _schedule(self, game: GameRecord, engine: AnyEngine, previous: list[Deadline], state: State,
                  at: float, *, version: int, mover: int | None = None,
                  pressed: str | None = None) -> list[Deadline]:
        """The deadlines of `state`'s waits; a computer seat's wait is due when it has thought.
        `mover` made `state` by the press `pressed` (a component's `press_key`), now spent."""
        waits: list[Wait] = engine.to_act(state)
        seats = computers.computer_seats(game)
        think = (computers.thinker(engine, get_policy(game.kind), game, state, waits, version, at)
                 if seats else None)
        return deadline_rules.schedule(previous, waits, at, version=version, computers=seats, think=think,
                                       mover=mover, pressed=pressed)

    async def _commit(
        self, game: GameRecord, engine: AnyEngine, seat: int | None, action: Action, state: State,
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
                 and await rates(self.storage, game, outcome, action))
        results: list[ResultRecord] = []
        rating: RatingUpdate | None = None
        rerated: list[RatingRecord] = []
        if outcome is not None:
            if not outcome.abandoned and not game.practice:  # everyone away, or practice: no result
                results = results_of(game, outcome)
                if rated:
                    rating = rating_update(game, outcome, rerated)
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
        before = self._views.of(engine, game.state, game.id)
        after = self._views.put(engine, state, game.id, seats=[*people, None])
        changed = [s for s in people if before(s) != after(s)]
        public_changed = (bool(lines) or outcome is not None or public_waits(deadlines) != public_waits(game.deadlines)
                          or before(None) != after(None))
        # A seat asked something new is told: one awaited a moment before only when a required
        # prompt replaces what it was shown (the optional applause became the count); one still
        # answering (another seat's pick came in) or going on with its own turn (a How Do You
        # Say…? step, then the turn's letter) is not told again.
        asked = deadline_rules.newly_asked(game.deadlines, deadlines, people,
                                           present=None if timed_out else seat)
        newly = deadline_rules.awaited_seats(asked)
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
        was = rating.before if rating is not None else {}
        changes = {r.user_id: (was[r.user_id].ordinal if r.user_id in was else None, r.ordinal)
                   for r in rerated}
        return Applied(game, engine, events, changed, outcome, public_changed=public_changed, rated=rated,
                       rating_changes=changes, seat=seat, newly_awaited=newly, asked=asked)

    def _line(self, game: GameRecord, event: Event) -> str | None:
        if event.type == "handoff":  # the runtime's own event: a computer took a leaver's seat
            name = event.data["name"]
            return f"👋 {computers.leaver_name(name)} left; {name} plays their seat."
        return self.describe(game, event)


def public_waits(deadlines: list[Deadline]) -> list[tuple[Any, ...]]:
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
