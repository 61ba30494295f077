"""Roll-off, turns, movement, encounters and the end of the game (rules 2-8, 13-18)."""

from __future__ import annotations

from games.core import Event, IllegalAction, Outcome, Rng, State
from games.hallway.board import STEP, left_penalty, steps_to_exit
from games.hallway.state import FINAL_ENCOUNTER, dot, exited, land, name, num, other, place

DIE = 4


# ----- the roll-off (setup 2) ------------------------------------------------------------
def verify_rolloff(state: State, seat: int) -> None:
    rolled = state["rolloff"]["rolls"][seat]
    if rolled is not None:
        raise IllegalAction(f"You already rolled a {rolled}; waiting for {name(other(seat))} to roll.")


def rolloff(state: State, seat: int) -> list[Event]:
    """Both roll; the higher roll starts (★) and the other takes the Edge; ties reroll."""
    verify_rolloff(state, seat)
    box = state["rolloff"]
    box["rolls"][seat] = roll = Rng(state).roll(DIE)
    events = [Event("rolloff", f"{dot(seat)} {name(seat)} rolled 🎲{roll} for the start.",
                    data={"seat": seat, "roll": roll})]
    red, blue = box["rolls"]
    if red is None or blue is None:
        return events
    box["past"].append([red, blue])
    if red == blue:
        box["round"] += 1
        box["rolls"] = [None, None]
        events.append(Event("rolloff_tie", f"Both rolled {red}: roll again!"))
        return events
    start = 0 if red > blue else 1
    state.update(start=start, edge=other(start), turn=start, turn_no=1, round=1, phase="turn")
    events.append(Event(
        "start", f"{dot(start)} {name(start)} starts ★ and {name(other(start))} holds the Edge.",
        data={"start": start, "edge": other(start)}))
    return events


# ----- a turn (rules 4-8, 14, 15) --------------------------------------------------------
def verify_roll(state: State, seat: int) -> None:
    if state["turn"] != seat:
        raise IllegalAction(f"It's {name(state['turn'])}'s turn to roll.")


def roll_turn(state: State, seat: int) -> list[Event]:
    verify_roll(state, seat)
    roll = Rng(state).roll(DIE)
    state["last_roll"] = {"seat": seat, "roll": roll}
    if state["passed"]:
        return race(state, seat, roll)
    return approach(state, seat, roll)


def race(state: State, seat: int, roll: int) -> list[Event]:
    """After passing nothing blocks: walk toward the exit; no exact roll needed."""
    place(state, seat, state["pos"][seat] + STEP[seat] * roll)
    return [land(state, seat, f"rolled 🎲{roll} and waddled"), *end_turn(state)]


def approach(state: State, seat: int, roll: int) -> list[Event]:
    """Before passing, tokens never share or cross a space (rule 6)."""
    here, there = state["pos"][seat], state["pos"][other(seat)]
    gap = abs(there - here)
    beside = there - STEP[seat]
    if roll < gap:
        place(state, seat, here + STEP[seat] * roll)
        return [land(state, seat, f"rolled 🎲{roll} and waddled"), *end_turn(state)]
    if state["encounters"] < FINAL_ENCOUNTER:
        return encounter(state, seat, roll, beside)
    if roll == gap:  # rule 14: stop beside the opponent, no encounter
        place(state, seat, beside)
        lead = f"rolled 🎲{roll} and stopped beside {name(other(seat))}"
        return [land(state, seat, lead, "on"), *end_turn(state)]
    # rule 14: slippery now, squeeze exactly one space past
    place(state, seat, there + STEP[seat])
    state["passed"] = True
    state["encounters"] = FINAL_ENCOUNTER + 1
    moved = land(state, seat, f"rolled 🎲{roll} and squeezed past {name(other(seat))}")
    squeeze = Event("passed", "💦 Sweaty and slippery, the dudes slide past each other. The race is on!",
                    data={"how": "final", "encounters": state["encounters"]})
    return [moved, squeeze, *end_turn(state)]


def encounter(state: State, seat: int, roll: int, beside: int) -> list[Event]:
    """Rule 8: stop beside the opponent (maybe not moving), score it, and haggle."""
    stayed = state["pos"][seat] == beside
    place(state, seat, beside)
    state["encounters"] += 1
    lead = (f"rolled 🎲{roll} but {name(other(seat))} is in the way: stays" if stayed
            else f"rolled 🎲{roll} and bumped into {name(other(seat))}")
    moved = land(state, seat, lead, "on")
    state["phase"] = "negotiate"
    state["nego"] = {"offers": 0, "pending": None, "nodeal": []}
    n = state["encounters"]
    bump = Event("encounter", f"💥 Belly bump! Encounter {n} of 4: make an offer to squeeze past, or No deal.",
                 data={"encounter": n, "seat": seat})
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
        return [Event("last_turn", f"{dot(second)} {name(second)} gets one last turn!",
                      data={"seat": second})]
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
            events.append(Event("penalty", f"{dot(seat)} {name(seat)} is stuck {steps} step"
                                f"{'s' if steps != 1 else ''} from the exit: −{penalty} → {num(totals[seat])}.",
                                data={"seat": seat, "steps": steps, "penalty": penalty}))
    events.append(Event("over", f"🏁 {verdict(ranks, totals)}", data={"totals": totals, "ranks": list(ranks)}))
    return events


def verdict(ranks: tuple[int, int] | list[int], totals: list[int]) -> str:
    score = f"{name(0)} {num(totals[0])}, {name(1)} {num(totals[1])}"
    if ranks[0] == ranks[1]:
        return f"Shared victory at {score}: two Honorary Skinny Dudes!"
    winner = 0 if ranks[0] == 0 else 1
    return f"{name(winner)} is the Honorary Skinny Dude ({score})."


def outcome(state: State) -> Outcome | None:
    final = state.get("final")
    if state["phase"] != "over" or not final:
        return None
    ranks = tuple(final["ranks"])
    return Outcome(ranks=ranks, scores=tuple(float(t) for t in final["totals"]),
                   reason=verdict(ranks, final["totals"]))
