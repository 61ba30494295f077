"""Build hallway states the way the spec's scenarios describe them, pin the die, and read
events and refusals the way the players do (worded by the UI, with names)."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from cogs.hallway.ui import HallwayUI
from cogs.table.ui import Seat, TableInfo
from games.core import Event, IllegalAction, State
from games.hallway import ENGINE
from games.hallway.state import new_state

RED, BLUE = 0, 1
UI = HallwayUI()
NAMED = TableInfo(game_id=1, seats=[Seat(0, 100, "alice"), Seat(1, 101, "bob")])


def roundtrip(state: State) -> State:
    """Every built state goes through JSON, as the runtime stores it."""
    again = json.loads(json.dumps(state))
    assert again == state
    return again


@cache
def seed_for(rolls: tuple[int, ...]) -> int:
    """A seed whose first d4 rolls are `rolls` (found by search, so rolls stay real Rng rolls)."""
    for seed in range(1_000_000):
        if all(random.Random(f"{seed}:{n}").randint(1, 4) == r for n, r in enumerate(rolls)):
            return seed
    raise LookupError(rolls)  # pragma: no cover


def rig(state: State, *rolls: int) -> State:
    """The next rolls of the die will be `rolls`, in order."""
    state["rng"] = {"seed": seed_for(tuple(rolls)), "n": 0}
    return state


def build(*, pos: tuple[int, int] = (0, 20), score: tuple[int, int] = (0, 0), start: int = RED,
          turn: int | None = None, edge: int | None = None, encounters: int = 0, passed: bool = False,
          exited: list[int] | None = None, **extra: Any) -> State:
    """A state in the middle of a game, at `turn`'s roll unless `extra` says otherwise."""
    state = new_state({"seed": 0, "n": 0})
    state.update(phase="turn", start=start, turn=start if turn is None else turn, turn_no=1, round=1,
                 pos=list(pos), score=list(score), edge=1 - start if edge is None else edge,
                 encounters=encounters, passed=passed, exited=list(exited or []))
    state.update(extra)
    return roundtrip(state)


def negotiating(*, mover: int = RED, offers: int = 0, pending: dict[str, int] | None = None,
                nodeal: list[int] | None = None, **kwargs: Any) -> State:
    """An encounter just happened on `mover`'s turn; the haggling is open."""
    return build(turn=mover, phase="negotiate",
                 nego={"offers": offers, "pending": pending, "nodeal": list(nodeal or [])}, **kwargs)


def act(state: State, seat: int, action: dict[str, Any], now: float = 0.0) -> tuple[State, list[Event]]:
    new, events = ENGINE.apply(roundtrip(state), seat, action, now)
    return roundtrip(new), events


def roll(state: State, seat: int, value: int) -> tuple[State, list[Event]]:
    return act(rig(state, value), seat, {"type": "roll"})


def offer(state: State, seat: int, payer: str, amount: int) -> State:
    return act(state, seat, {"type": "offer", "payer": payer, "amount": amount})[0]


def lines(events: list[Event]) -> list[str]:
    """The log lines of `events`, as the table shows them to alice and bob."""
    return [UI.event_line(e.to_json(), NAMED) or "" for e in events]


def texts(events: list[Event]) -> str:
    return "\n".join(lines(events))


def refusal(state: State, seat: int, action: dict[str, Any]) -> IllegalAction:
    """The refusal of `action`, checked to leave `state` as it was."""
    frozen = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as caught:
        act(state, seat, action)
    assert json.dumps(state, sort_keys=True) == frozen
    return caught.value


def refused(state: State, seat: int, action: dict[str, Any]) -> str:
    """The sentence the refused player reads, with names filled in."""
    return refusal(state, seat, action).render(NAMED.name_of)
