"""The yo-yo duel (spec §4), which settles every dice tie: insults, the third player's
Count, then Snap back against a hidden S; green dice when both fail or tie. With
`duel_mode = dice` only the green dice are rolled.

The duel is the main prompt while it runs; its `purpose` says what the winner gets
(`flow.after_duel`). Each duellist's move has its rule check (`verify_*`, run by
`checks.VERIFY`) apart from what it does.
"""

from __future__ import annotations

from typing import Any

from games.core import Action, Event, IllegalAction, State
from games.fencing.state import die, draw, duel_stage, factor, open_timer, phase, third

INSULT_MAX = 200


def dice_off(state: State, seats: list[int], events: list[Event]) -> tuple[int, int]:
    """Green dice until they differ: (winner, loser)."""
    a, b = seats
    while True:
        ra, rb = die(state, "green"), die(state, "green")
        events.append(Event("duel_dice", {"seats": [a, b], "rolls": [ra, rb]}))
        if ra != rb:
            return (a, b) if ra > rb else (b, a)


def start(state: State, seats: list[int], purpose: str, ctx: dict[str, Any], now_ms: int,
          events: list[Event]) -> tuple[int, int] | None:
    """Open a duel between `seats`; returns (winner, loser) at once in dice mode."""
    events.append(Event("duel_start", {"seats": list(seats), "purpose": purpose, "mode": state["options"]["duel_mode"]}))
    if state["options"]["duel_mode"] == "dice":
        return dice_off(state, seats, events)
    step: dict[str, Any] = {"kind": "duel", "purpose": purpose, "ctx": ctx, "seats": list(seats),
                            "third": third(*seats), "stage": "insult", "insults": [None, None],
                            "applauded": [False, False], "t0": None, "S": None, "snaps": [None, None]}
    open_timer(state, step, now_ms, "insult")
    state["step"] = step
    return None


def index_of(step: dict[str, Any], seat: int) -> int:
    if seat not in step["seats"]:
        raise IllegalAction("Only the duellists may do that.", rule="duel")
    return int(step["seats"].index(seat))


def verify_insult(state: State, seat: int, action: Action) -> None:
    """Each duellist has their say once, while the insults last."""
    step = state["step"]
    if phase(state).step != "insult":
        raise IllegalAction("The insults are over.", rule="duel")
    i = index_of(step, seat)
    if step["insults"][i] is not None:
        raise IllegalAction("You have already had your say.", rule="duel")
    if not isinstance(action.get("text"), str):
        raise IllegalAction("An insult is text.", rule="duel")


def insult(state: State, seat: int, text: str, now_ms: int, events: list[Event]) -> bool:
    """A duellist's insult ("" = Skip; `verify_insult` passed); True when the insult step is over."""
    step = state["step"]
    text = text.strip()[:INSULT_MAX]
    step["insults"][index_of(step, seat)] = text
    events.append(Event("duel_insult", {"seat": seat, "text": text, "skipped": not text}))
    return all(x is not None for x in step["insults"])


def applaudable(step: dict[str, Any]) -> list[int]:
    """Duellists whose posted insult the third player has not applauded yet."""
    return [s for i, s in enumerate(step["seats"]) if step["insults"][i] and not step["applauded"][i]]


def applause_open(step: dict[str, Any]) -> bool:
    """The third player is awaited (optionally) while an insult waits for its applause."""
    return duel_stage(step) == "insult" and bool(applaudable(step))


def verify_applaud(state: State, seat: int, action: Action) -> None:
    """The third player applauds a posted insult, once each (the stage is not checked: an
    insult may still be applauded after the Count)."""
    step = state["step"]
    who = action.get("who")
    if seat != step["third"]:
        raise IllegalAction("Only the third player applauds.", rule="duel")
    if who not in step["seats"]:
        raise IllegalAction("Applaud one of the duellists.", rule="duel")
    i = step["seats"].index(who)
    if not step["insults"][i] or step["applauded"][i]:
        raise IllegalAction("There is no insult of theirs to applaud.", rule="duel")


def applaud(state: State, seat: int, who: int, events: list[Event]) -> None:
    """The third player applauds an insult (statistics only; `verify_applaud` passed)."""
    step = state["step"]
    step["applauded"][step["seats"].index(who)] = True
    state["seats"][who]["applause"] += 1
    events.append(Event("duel_applause", {"seat": seat, "for": who}))


def to_count(state: State, now_ms: int, events: list[Event]) -> None:
    step = state["step"]
    step.update(stage="count", t0=None, S=None, snaps=[None, None])
    open_timer(state, step, now_ms, "count")
    events.append(Event("duel_count_prompt", {"seat": step["third"]}))


def verify_count(state: State, seat: int, action: Action) -> None:
    step = state["step"]
    if phase(state).step != "count" or seat != step["third"]:
        raise IllegalAction("Only {third} counts, once the insults are over.", rule="duel",
                            seats={"third": step["third"]})


def count(state: State, now_ms: int, events: list[Event], *, by_bot: bool) -> None:
    """"1, 2, 3 — THROW!": t0 is now; the hidden S is drawn in whole ms (3-9 s, scaled)."""
    step = state["step"]
    scale = factor(state)
    step.update(stage="snap", t0=now_ms, S=draw(state, "S", 3000, 9000) * scale, snaps=[None, None])
    open_timer(state, step, now_ms, "snap")
    events.append(Event("duel_count", {"seat": None if by_bot else step["third"]}))


def verify_snap(state: State, seat: int, action: Action) -> None:
    """Each duellist snaps back once, after the Count."""
    step = state["step"]
    if phase(state).step != "snap":
        raise IllegalAction("Wait for the Count.", rule="duel")
    if step["snaps"][index_of(step, seat)] is not None:
        raise IllegalAction("You have already snapped back.", rule="duel")


def snap(state: State, seat: int, now_ms: int, events: list[Event]) -> bool:
    """A duellist snaps back (`verify_snap` passed); True when both have (the duel is then judged)."""
    step = state["step"]
    step["snaps"][index_of(step, seat)] = now_ms - step["t0"]
    events.append(Event("duel_snap", {"seat": seat}))
    return all(s is not None for s in step["snaps"])


def judge(state: State, events: list[Event]) -> tuple[int, int]:
    """The longest successful snap (t <= S) wins; both fail or equal: green dice."""
    step = state["step"]
    s_ms = step["S"]
    times = step["snaps"]
    ok = [t is not None and t <= s_ms for t in times]
    events.append(Event("duel_snaps", {"seats": list(step["seats"]), "times": list(times), "S": s_ms, "ok": ok}))
    a, b = step["seats"]
    if ok[0] and ok[1] and times[0] != times[1]:
        return (a, b) if times[0] > times[1] else (b, a)
    if ok[0] != ok[1]:
        return (a, b) if ok[0] else (b, a)
    return dice_off(state, [a, b], events)
