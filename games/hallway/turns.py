"""Roll-off, turns, movement, encounters and the end of the game (rules 2-8, 13-18)."""

from __future__ import annotations

from typing import Any

from games import choices
from games.core import Event, IllegalAction, Outcome, Rng, State
from games.hallway.board import STEP, left_penalty, steps_to_exit
from games.hallway.state import FINAL_ENCOUNTER, exited, land, new_rolloff, other, phase, place

DIE = 4


# ----- the roll-off (setup 2), a round of the secret-choice block --------------------------
def rolloff_box(state: State) -> choices.Box:
    box: choices.Box = state["rolloff"]["box"]
    return box


def verify_rolloff(state: State, seat: int) -> None:
    box = rolloff_box(state)
    if choices.has_chosen(box, seat):
        raise IllegalAction("You already rolled. Waiting for {other} to roll.", rule="2",
                            seats={"other": other(seat)})
    choices.verify(box, seat)


def rolloff(state: State, seat: int, timeout: bool) -> list[Event]:
    """Each dude presses Roll once; when both have, both dice are rolled together (Red's
    first). The higher roll starts (★) and the other takes the Edge; a tie opens a new round."""
    verify_rolloff(state, seat)
    box = rolloff_box(state)
    round_no = state["rolloff"]["round"]
    events = [Event("rolled", {"seat": seat, "round": round_no, **({"timeout": True} if timeout else {})})]
    if not choices.choose(box, seat, "roll"):
        return events
    rng = Rng(state)
    red, blue = rng.roll(DIE), rng.roll(DIE)  # in seat order: Red's die first
    past = state["rolloff"]["past"]
    past.append([red, blue])
    events.append(Event("rolloff", {"rolls": [red, blue], "round": round_no}))
    if red == blue:
        state["rolloff"] = new_rolloff(round_no + 1, past)
        events.append(Event("rolloff_tie", {"roll": red, "round": round_no + 1}))
        return events
    start = 0 if red > blue else 1
    state.update(start=start, edge=other(start), turn=start, turn_no=1, round=1, phase="turn")
    events.append(Event("start", {"start": start, "edge": other(start)}))
    return events


# ----- a turn (rules 4-8, 14, 15) --------------------------------------------------------
def verify_roll(state: State, seat: int) -> None:
    if state["turn"] != seat:
        raise IllegalAction("It's {turn}'s turn to roll.", rule="4", seats={"turn": state["turn"]})


def roll_turn(state: State, seat: int, timeout: bool = False) -> list[Event]:
    verify_roll(state, seat)
    roll = Rng(state).roll(DIE)
    state["last_roll"] = {"seat": seat, "roll": roll}
    if state["passed"]:
        return race(state, seat, roll, timeout)
    return approach(state, seat, roll, timeout)


def race(state: State, seat: int, roll: int, timeout: bool) -> list[Event]:
    """After passing nothing blocks: walk toward the exit; no exact roll needed."""
    place(state, seat, state["pos"][seat] + STEP[seat] * roll)
    return [land(state, seat, "walk", roll, timeout), *end_turn(state)]


def approach(state: State, seat: int, roll: int, timeout: bool) -> list[Event]:
    """Before passing, tokens never share or cross a space (rule 6)."""
    here, there = state["pos"][seat], state["pos"][other(seat)]
    gap = abs(there - here)
    beside = there - STEP[seat]
    if roll < gap:
        place(state, seat, here + STEP[seat] * roll)
        return [land(state, seat, "walk", roll, timeout), *end_turn(state)]
    if state["encounters"] < FINAL_ENCOUNTER:
        return encounter(state, seat, roll, beside, timeout)
    if roll == gap:  # rule 14: stop beside the opponent, no encounter
        place(state, seat, beside)
        return [land(state, seat, "beside", roll, timeout), *end_turn(state)]
    # rule 14: slippery now, squeeze exactly one space past
    place(state, seat, there + STEP[seat])
    state["passed"] = True
    state["encounters"] = FINAL_ENCOUNTER + 1
    moved = land(state, seat, "slip", roll, timeout)
    squeeze = Event("passed", {"how": "final", "encounters": state["encounters"]})
    return [moved, squeeze, *end_turn(state)]


def encounter(state: State, seat: int, roll: int, beside: int, timeout: bool) -> list[Event]:
    """Rule 8: stop beside the opponent (maybe not moving), score it, and haggle."""
    stayed = state["pos"][seat] == beside
    place(state, seat, beside)
    state["encounters"] += 1
    moved = land(state, seat, "blocked" if stayed else "bump", roll, timeout)
    state["phase"] = "negotiate"
    state["nego"] = {"offers": 0, "pending": None, "nodeal": []}
    bump = Event("encounter", {"encounter": state["encounters"], "seat": seat, "of": FINAL_ENCOUNTER})
    return [moved, bump]


# ----- ending a turn and the game (rules 4, 13, 16-18) -------------------------------------
def end_turn(state: State) -> list[Event]:
    """Pass the turn marker, or end the game when rule 16 says so."""
    start = state["start"]
    second = other(start)
    mover = state["turn"]
    if exited(state, second) or (exited(state, start) and mover == second):
        return finish(state)
    if mover == second:
        state["round"] += 1
    state.update(turn=other(mover), turn_no=state["turn_no"] + 1, phase="turn", nego=None)
    if exited(state, start):
        return [Event("last_turn", {"seat": second})]
    return []


def final_totals(state: State) -> list[int]:
    return [state["score"][s] - (0 if exited(state, s) else left_penalty(s, state["pos"][s]))
            for s in (0, 1)]


def ranks_of(state: State, totals: list[int]) -> tuple[int, int]:
    """Higher total wins; on equal totals an exited dude beats one still inside; equal
    on both counts is a shared victory (rule 18)."""
    keys = [(totals[s], exited(state, s)) for s in (0, 1)]
    if keys[0] == keys[1]:
        return (0, 0)
    return (0, 1) if keys[0] > keys[1] else (1, 0)


def finish(state: State) -> list[Event]:
    totals = final_totals(state)
    ranks = ranks_of(state, totals)
    state.update(phase="over", nego=None, final={"totals": totals, "ranks": list(ranks)})
    events = []
    for seat in (0, 1):
        if not exited(state, seat):
            steps = steps_to_exit(seat, state["pos"][seat])
            penalty = left_penalty(seat, state["pos"][seat])
            events.append(Event("penalty", {"seat": seat, "steps": steps, "penalty": penalty,
                                            "total": totals[seat]}))
    events.append(Event("over", {"totals": totals, "ranks": list(ranks), **verdict(state, ranks, totals)}))
    return events


def verdict(state: State, ranks: tuple[int, int] | list[int], totals: list[int]) -> dict[str, Any]:
    """Why the game ended, as a code and its facts (rule 18): "points" (the higher total),
    "exit" (equal totals, the dude who got out wins) or "shared" (equal, both out)."""
    out = [exited(state, s) for s in (0, 1)]
    if ranks[0] == ranks[1]:
        return {"reason": "shared", "winner": None, "exited": out}
    winner = ranks.index(0)
    return {"reason": "points" if totals[0] != totals[1] else "exit", "winner": winner, "exited": out}


def outcome(state: State) -> Outcome | None:
    final = state.get("final")
    if phase(state).name != "over" or not final:
        return None
    ranks = tuple(final["ranks"])
    facts = verdict(state, ranks, final["totals"])
    reason = facts.pop("reason")
    return Outcome(ranks=ranks, scores=tuple(float(t) for t in final["totals"]), reason=reason,
                   detail={**facts, "totals": list(final["totals"])})
