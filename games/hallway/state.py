"""The hallway's JSON state and the small helpers every rule module shares.

Seats index every per-player list: seat 0 is Red (the lobby host), seat 1 is Blue.
Every score change goes through `change_score`, which also returns the ledger entry
carried by the event, so a game's events always add up to its scores.
"""

from __future__ import annotations

from typing import Any

from games.core import Event, State
from games.hallway.board import COLOURS, DOTS, EXIT, LENGTH, START, label, points

OFFER_LIMIT = 10
MAX_AMOUNT = 999
FINAL_ENCOUNTER = 4  # after the 4th encounter the dudes are slippery (rule 14)
AFK_LIMIT = 5


def new_state(rng_state: dict[str, int]) -> State:
    """Tokens on their semicircles, scores 0, and the roll-off for the start player."""
    return {
        "rng": rng_state,
        "players": 2,
        "phase": "rolloff",  # rolloff | turn | negotiate | edge | over
        "rolloff": {"round": 1, "rolls": [None, None], "past": []},
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


def new_stats() -> dict[str, Any]:
    """Per-player figures kept for the leaderboard (spec §5)."""
    return {"deals": 0, "paid": 0, "received": 0, "offers": 0, "edge": []}


def other(seat: int) -> int:
    return 1 - seat


def name(seat: int) -> str:
    return COLOURS[seat]


def dot(seat: int) -> str:
    return DOTS[seat]


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def num(n: int) -> str:
    """A score with a proper minus sign, as the log prints it."""
    return str(n) if n >= 0 else f"−{-n}"


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


def land(state: State, seat: int, lead: str, prep: str = "to") -> Event:
    """Score the space `seat` stands on (rule 5) as one log line: `lead` says how they
    got there ("rolled 🎲3 and waddled"), `prep` joins it to the space ("to", "on")."""
    pos = state["pos"][seat]
    who = f"{dot(seat)} {name(seat)} {lead}"
    if exited(state, seat):
        return Event("exit", f"{who} out of the hallway! 🚪",
                     data={"seat": seat, "pos": pos, **ledger(seat, 0, "land")})
    gained = points(seat, pos)
    data = {"seat": seat, "pos": pos, **change_score(state, seat, gained, "land")}
    if pos == START[seat]:
        return Event("land", f"{who} {prep} their start semicircle: no points.", data=data)
    return Event("land", f"{who} {prep} {pos} ({label(pos)}): {signed(gained)} → {num(state['score'][seat])}.",
                 data=data)
