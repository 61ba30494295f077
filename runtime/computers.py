"""Computer seats in the runtime: their names, when they move, what they play, how they rate.

A computer's move is a deadline like any timer (stored with the game, so it survives a
restart): due when the computer has "thought" for its policy's human-like delay. At that
moment the runtime shows the policy the seat's view alone and commits the answer through
the one action loop, exactly as if a player had pressed it.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable, Sequence

from games.computer import Asked, decision_rng
from games.core import Action, Event, IllegalAction, Outcome, State, Wait
from games.registry import AnyEngine, AnyPolicy, get_policy
from runtime.errors import Refusal
from storage import Deadline, GameRecord, SeatRecord

log = logging.getLogger(__name__)

ROBOT = "🤖"
MARK = ROBOT + " "
NAMES = ("Ada", "Babbage", "Hopper", "Turing", "Lovelace", "Knuth", "Shannon", "Noether")
#: How long a computer's name may be (the mark aside).
NAME_LENGTH = 24
#: What a computer's name may hold: letters, digits, spaces and a few marks (no mentions,
#: markdown or links reach the channel).
_UNSAFE = re.compile(r"[^\w' .-]+")


def is_computer(seat: SeatRecord) -> bool:
    """Whether a computer plays this seat (its synthetic user id is negative)."""
    return bool(getattr(seat, "computer", False)) or seat.user_id < 0


def humans(game: GameRecord) -> list[SeatRecord]:
    return [s for s in game.seats if not is_computer(s)]


def offers_computers(kind: str) -> bool:
    """Whether a game has a computer player (its `games/<game>/ai.py`)."""
    try:
        return get_policy(kind) is not None
    except Exception:  # a broken policy module must not break the lobby
        log.exception("could not load the computer player of %s", kind)
        return False


def clean_name(typed: str | None) -> str | None:
    """The name a host typed, fit to show: one line, no mentions or markdown, at most
    NAME_LENGTH characters; None for nothing typed. A name with nothing left is refused."""
    if typed is None or not typed.strip():
        return None
    words = " ".join(_UNSAFE.sub("", typed).split())
    words = words.removeprefix(ROBOT).strip()
    if not words or not any(c.isalnum() for c in words):
        raise Refusal(f"Give the computer a name of letters or digits (up to {NAME_LENGTH}), or leave it empty.")
    if len(words) > NAME_LENGTH:
        raise Refusal(f"A computer's name is at most {NAME_LENGTH} characters.")
    return words


def answers_to(seat: SeatRecord, typed: str) -> bool:
    """Whether a computer seat is the one a host typed: its name with or without the mark, in
    any case, or its seat number."""
    wanted = " ".join(typed.split()).removeprefix(ROBOT).strip().casefold()
    return is_computer(seat) and (seat.name.removeprefix(ROBOT).strip().casefold() == wanted
                                  or str(seat.seat) == wanted)


def shown_name(seat: SeatRecord) -> str:
    """A computer seat's name as stored ("🤖 Ada"); older records without the robot get it."""
    return seat.name if seat.name.startswith(ROBOT) else f"{MARK}{seat.name}"


def computer_name(wanted: str | None, seats: Sequence[SeatRecord]) -> str:
    """A tidy, unique name with the 🤖 mark: the host's choice cleaned up, or a free default."""
    taken = {s.name.removeprefix(MARK).casefold() for s in seats}
    if wanted:
        base = " ".join(_UNSAFE.sub(" ", wanted).split())[:NAME_LENGTH].strip(" .-")
        if base:
            name, n = base, 2
            while name.casefold() in taken:
                suffix = f" {n}"
                name, n = base[: NAME_LENGTH - len(suffix)] + suffix, n + 1
            return MARK + name
    free = [n for n in NAMES if n.casefold() not in taken]
    return MARK + (free[0] if free else f"Bot {len(seats) + 1}")


def stand_in_name(seat: SeatRecord, seats: Sequence[SeatRecord]) -> str:
    """The computer taking over a leaver's seat: "🤖 Bob's stand-in"."""
    base = seat.name.removeprefix(MARK)[: NAME_LENGTH - 11]
    return computer_name(f"{base}'s stand-in", [s for s in seats if s.seat != seat.seat])


def leaver_name(stand_in: str) -> str:
    """The name of the player a stand-in replaced ("🤖 Bob's stand-in" → "Bob")."""
    base = stand_in.removeprefix(MARK)
    return base.rsplit("'s stand-in", 1)[0] if "'s stand-in" in base else base


def synthetic_id(seats: Sequence[SeatRecord]) -> int:
    """A user id no Discord user has (negative), unique within the game."""
    return min([0, *(s.user_id for s in seats)]) - 1


def computer_seats(game: GameRecord) -> frozenset[int]:
    return frozenset(s.seat for s in game.seats if s.computer)


def asked(seat: int, waits: Sequence[Wait] | Sequence[Deadline], now: float) -> Asked:
    keys = [w.key if isinstance(w, Wait) else w["key"] for w in waits
            if (w.seat if isinstance(w, Wait) else w["seat"]) == seat]
    return Asked(seat, tuple(keys), now)


def thinker(engine: AnyEngine, policy: AnyPolicy | None, game: GameRecord, state: State, waits: Sequence[Wait],
            version: int, now: float) -> Callable[[Wait], float]:
    """How long each computer seat takes over a wait that begins now (its policy's delay)."""

    def think(wait: Wait) -> float:
        assert wait.seat is not None
        if policy is None:
            return 1.0
        rng = decision_rng(game.seed, version, wait.seat)
        try:
            return max(0.0, float(policy.delay(engine.view(state, wait.seat), asked(wait.seat, waits, now), rng)))
        except Exception:
            log.exception("game %s: the %s computer's delay failed", game.id, game.kind)
            return 1.0

    return think


def decide(engine: AnyEngine, policy: AnyPolicy | None, game: GameRecord, seat: int, now: float,
           default: Action | None) -> tuple[State, list[Event], Action]:
    """The computer's move, applied: the policy's answer from the view alone; if it fails or is
    refused (a policy bug must not stall the game), the wait's default, else a random legal one."""
    assert game.state is not None
    rng = decision_rng(game.seed, game.version, seat)
    if policy is not None:
        try:
            action = policy.choose(engine.view(game.state, seat), asked(seat, game.deadlines, now), rng)
            state, events = engine.apply(game.state, seat, action, now)
            return state, events, action
        except IllegalAction as exc:
            log.error("game %s: the %s computer chose an illegal move (%s)", game.id, game.kind, exc.message)
        except Exception:
            log.exception("game %s: the %s computer failed", game.id, game.kind)
    fallbacks = [default] if default is not None else []
    fallbacks += random.Random(rng.random()).sample(legal := engine.legal_actions(game.state, seat), len(legal))
    for action in fallbacks:
        try:
            state, events = engine.apply(game.state, seat, action, now)
            return state, events, action
        except IllegalAction:
            continue
    raise IllegalAction("the computer has no legal move")


def humans_only(outcome: Outcome, seats: Sequence[SeatRecord]) -> tuple[Outcome, list[int]] | None:
    """The outcome among the human seats alone (renumbered in seat order), with their user ids,
    for rating humans among themselves; None when fewer than two human sides played."""
    humans = [s for s in seats if not s.computer]
    index = {s.seat: i for i, s in enumerate(humans)}
    teams = outcome.teams or tuple((s,) for s in range(len(outcome.ranks)))
    sides = [tuple(index[s] for s in team if s in index) for team in teams]
    sides = [side for side in sides if side]
    if len(sides) < 2:
        return None
    ranks = tuple(outcome.ranks[s.seat] for s in humans)
    return Outcome(
        ranks=ranks,
        scores=tuple(outcome.scores[s.seat] for s in humans) if outcome.scores is not None else None,
        teams=tuple(sides) if outcome.teams else None,
        reason=outcome.reason,
        unrated=tuple(index[s] for s in outcome.unrated if s in index),
    ), [s.user_id for s in humans]
