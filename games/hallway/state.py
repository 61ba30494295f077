"""The hallway's JSON state, where the game is (`phase`, re-exported as `engine.phase`), and the
small helpers every rule module shares (`state.py` in every game, docs/engines.md).

Seats index every per-player list: seat 0 is Red (the lobby host), seat 1 is Blue.
Every score change goes through `change_score`, which also returns the ledger entry
carried by the event, so a game's events always add up to its scores. Events carry facts
only (seats, rolls, spaces, amounts); the game's UI words them with the players' names.
"""

from __future__ import annotations

from typing import Any

from games import choices
from games.core import Event, State
from games.hallway.board import EXIT, LENGTH, START, points
from games.hallway.schema import Phase as PhaseName
from games.phase import Phase

OFFER_LIMIT = 10
MAX_AMOUNT = 999
FINAL_ENCOUNTER = 4  # after the 4th encounter the dudes are slippery (rule 14)
AFK_LIMIT = 5


def phase(state: State) -> Phase[PhaseName, None]:
    """Where the game is (the one place that reads it): the stored `phase`; no steps."""
    return Phase(state["phase"], None)


def new_state(rng_state: dict[str, int]) -> State:
    """Tokens on their semicircles, scores 0, and the roll-off for the start player."""
    return {
        "rng": rng_state,
        "players": 2,
        "phase": "rolloff",  # rolloff | turn | negotiate | edge | over
        "rolloff": new_rolloff(1, []),
        "start": None,
        "turn": None,
        "turn_no": 0,
        "round": 0,
        "pos": list(START),
        "score": [0, 0],
        "edge": None,
        "encounters": 0,
        "passed": False,
        "exited": [],
        "nego": None,
        "last_roll": None,
        "timeouts": [0, 0],
        "stats": [new_stats(), new_stats()],
        "final": None,
    }


def new_rolloff(round_no: int, past: list[list[int]]) -> dict[str, Any]:
    """Roll-off round `round_no` on the secret-choice block: each dude presses Roll once; the
    dice are rolled only when both have (setup rule 2), so nobody rolls knowing the other's die."""
    box = choices.open_round(f"rolloff-{round_no}", (0, 1), 2, actions=("roll",))
    return {"round": round_no, "box": box, "past": past}


def new_stats() -> dict[str, Any]:
    """Per-player figures kept for the leaderboard (spec §5)."""
    return {"deals": 0, "paid": 0, "received": 0, "offers": 0, "edge": []}


def other(seat: int) -> int:
    return 1 - seat


def ledger(seat: int, amount: int, kind: str) -> dict[str, Any]:
    """The event data of a score change: `delta` per seat and what caused it."""
    delta = [0, 0]
    delta[seat] = amount
    return {"delta": delta, "kind": kind}


def change_score(state: State, seat: int, amount: int, kind: str) -> dict[str, Any]:
    state["score"][seat] += amount
    return ledger(seat, amount, kind)


def exited(state: State, seat: int) -> bool:
    return seat in state["exited"]


def place(state: State, seat: int, pos: int) -> bool:
    """Put a token on `pos`, clamped to its exit; True when that takes it out."""
    exit_pos = EXIT[seat]
    beyond = pos >= exit_pos if exit_pos == LENGTH else pos <= exit_pos
    if beyond:
        state["pos"][seat] = exit_pos
        if seat not in state["exited"]:
            state["exited"].append(seat)
        return True
    state["pos"][seat] = pos
    return False


def land(state: State, seat: int, how: str, roll: int | None = None, timeout: bool = False) -> Event:
    """Score the space `seat` stands on (rule 5) as one event: `how` says how they got
    there (walk, bump, blocked, beside, slip, swap), `roll` the die that moved them."""
    pos = state["pos"][seat]
    facts: dict[str, Any] = {"seat": seat, "pos": pos, "how": how}
    if roll is not None:
        facts["roll"] = roll
    if timeout:
        facts["timeout"] = True
    if exited(state, seat):
        return Event("exit", {**facts, **ledger(seat, 0, "land")})
    gained = points(seat, pos)
    data = {**facts, **change_score(state, seat, gained, "land"), "score": state["score"][seat]}
    return Event("land", data)
