"""The golf-ball holders' moves (rules 10-13): in the golf window the purple ball's holder
may call a quick-switch or hose someone, or close the window; one player holding both balls
hands them out. Each move's rule check (`verify_*`, run by `checks.VERIFY`) apart from what
it does; the throws, catches and duels that follow are `flow`'s.
"""

from __future__ import annotations

from typing import Any

from games.core import Action, Event, IllegalAction, State
from games.fencing import duel, flow
from games.fencing.state import die, next_seat, third


def qs_available(state: State) -> bool:
    trick = state["trick"]
    return (not trick["qs_used"] and state["yellow"] is not None and state["purple"] is not None
            and state["yellow"] != state["purple"])


def check_golf_holder(state: State, seat: int, rule: str) -> None:
    """The golf window is open (`checks.when`); only the purple ball's holder acts in it."""
    if seat != state["step"]["holder"]:
        raise IllegalAction("Only {holder}, who holds the purple ball, may do that.", rule=rule,
                            seats={"holder": state["step"]["holder"]})


def verify_done(state: State, seat: int, action: Action) -> None:
    check_golf_holder(state, seat, "10")


def verify_quickswitch(state: State, seat: int, action: Action) -> None:
    check_golf_holder(state, seat, "10")
    if state["trick"]["qs_used"]:
        raise IllegalAction("Only one quick-switch is allowed per trick.", rule="11")
    if not qs_available(state):
        raise IllegalAction("Both balls must be in play to quick-switch.", rule="11")


def verify_hose(state: State, seat: int, action: Action) -> None:
    check_golf_holder(state, seat, "10")
    if state["trick"]["hose_used"]:
        raise IllegalAction("Only one hose is allowed per trick.", rule="12")
    target = action.get("target")
    if target not in (0, 1, 2) or target == seat or isinstance(target, bool):
        raise IllegalAction("Hose one of the other players.", rule="12")


def quick_switch(state: State, seat: int, now_ms: int, events: list[Event]) -> None:
    """Rule 11: purple to the yellow ball's holder, then yellow back (two throws)."""
    state["trick"]["qs_used"] = True
    events.append(Event("quick_switch", {"seat": seat, "yellow": state["yellow"]}))
    flow.throw(state, "qs1", seat, state["yellow"], "purple", now_ms, events)


def hose(state: State, seat: int, target: int, now_ms: int, events: list[Event]) -> None:
    """Rule 12: green dice, the higher wins (a tie: a duel); a won hose passes the purple ball."""
    state["trick"]["hose_used"] = True
    rolls = [die(state, "green"), die(state, "green")]
    events.append(Event("hose", {"seat": seat, "target": target, "rolls": rolls, "pollution": "ERIE"}))
    if rolls[0] == rolls[1]:
        result = duel.start(state, [seat, target], "hose", {"hoser": seat, "target": target}, now_ms, events)
        if result is not None:
            flow.after_duel(state, "hose", {"hoser": seat, "target": target}, *result, now_ms=now_ms, events=events)
        return
    flow.after_hose(state, seat, target, rolls[0] > rolls[1], now_ms, events)


def verify_handout(state: State, seat: int, action: Action) -> None:
    holder = state["step"]["holder"]
    if seat != holder:
        raise IllegalAction("Only {holder} hands out the balls.", rule="13", seats={"holder": holder})
    yellow_to = action.get("yellow")
    if yellow_to not in (0, 1, 2) or yellow_to == holder or isinstance(yellow_to, bool):
        raise IllegalAction("Give the yellow ball to one of the other players.", rule="13")


def default_handout(state: State) -> Action:
    """What a handout that ran out gives: yellow to the next seat."""
    return {"type": "handout", "yellow": next_seat(state, state["step"]["holder"])}


def handout(state: State, yellow_to: Any, now_ms: int, events: list[Event], *, timed_out: bool) -> None:
    """Rule 13: yellow to `yellow_to`, purple to the third player; the game carries on."""
    step = state["step"]
    holder = step["holder"]
    purple_to = third(holder, yellow_to)
    state["yellow"], state["purple"] = yellow_to, purple_to
    events.append(Event("handout", {"seat": holder, "yellow": yellow_to, "purple": purple_to, "timeout": timed_out}))
    flow.carry_on(state, now_ms, step["then"], events)
