"""The trick (spec §3, rules 5-9): the Thrust, the war a trump starts, the build the winner
rolls, and the hat race a triple opens. The golf window follows (`flow.open_golf`)."""

from __future__ import annotations

from games.core import Action, Event, IllegalAction, State
from games.fencing import flow, penalties
from games.fencing.cards import card_value, draw_card, judge_thrust, judge_war
from games.fencing.state import die, phase, set_step, third


def thrust(state: State, seat: int | None, now_ms: int, events: list[Event]) -> None:
    state["trick_no"] += 1
    state["miscuers"] = [0, 0, 0]
    state["trick"] = {"no": state["trick_no"], "attacked": state["attacked"], "level": 0, "steps": [],
                      "warriors": None, "parrier": None, "winner": None, "how": None, "build": None,
                      "qs_used": False, "hose_used": False}
    events.append(Event("thrust_called", {"seat": seat, "trick": state["trick_no"]}))
    draw_round(state, now_ms, events)


def draw_round(state: State, now_ms: int, events: list[Event]) -> None:
    """Draw steps until the trick has a winner or a triple opens a hat race."""
    trick = state["trick"]
    while True:
        cards = [draw_card(state, s) for s in range(3)]
        values = [card_value(c) for c in cards]
        if trick["warriors"] is None:
            result, seats = judge_thrust(values)
            kind = "thrust"
        else:
            result, seats = judge_war(values, trick["warriors"], trick["parrier"])
            kind = "war"
        step = {"kind": kind, "cards": cards, "warriors": trick["warriors"], "parrier": trick["parrier"],
                "result": result}
        if result == "trump":
            trick["level"] += 1
            trick["warriors"], trick["parrier"] = seats, third(*seats)
        step["level"] = trick["level"]
        step["winner"] = seats[0] if result in ("high", "parry", "war_win") else None
        trick["steps"].append(step)
        events.append(Event("thrust" if kind == "thrust" else "war_step",
                            {"cards": cards, "result": result, "level": trick["level"],
                             "warriors": trick["warriors"], "parrier": trick["parrier"]}))
        if result == "triple":
            open_hat_race(state, now_ms, events)
            if phase(state).name == "hat":
                return
            continue
        if result == "trump":
            continue
        won(state, seats[0], result, now_ms, events)
        return


def won(state: State, winner: int, result: str, now_ms: int, events: list[Event]) -> None:
    """Rule 8: roll the build (1 die; 2 dice x level; 3 dice x level) and open the golf window."""
    trick = state["trick"]
    level = trick["level"]
    count, mult = (1, 1) if result == "high" else (2, level) if result == "war_win" else (3, level)
    dice = [die(state) for _ in range(count)]
    trick.update(winner=winner, how=result, build={"dice": dice, "mult": mult, "total": sum(dice) * mult})
    events.append(Event("trick_won", {"seat": winner, "how": result, "level": level, "dice": dice,
                                      "mult": mult, "total": sum(dice) * mult}))
    flow.open_golf(state, now_ms, "golf", events)


def open_hat_race(state: State, now_ms: int, events: list[Event]) -> None:
    """Rule 9: hats already on pay at once; bare heads race to don within 10 s."""
    events.append(Event("triple", {"trick": state["trick_no"]}))
    hatted = [s for s in range(3) if state["seats"][s]["hat_on"]]
    for s in hatted:
        penalties.add(state, s, "9", now_ms, events)
    bare = [s for s in range(3) if s not in hatted]
    if bare:
        set_step(state, "hat", now_ms, "hat", bare=bare, presses={})


def verify_don(state: State, seat: int, action: Action) -> None:
    """Only a bare head that has not pressed yet dons (rule 9)."""
    step = state["step"]
    if seat not in step["bare"] or str(seat) in step["presses"]:
        raise IllegalAction("Your hat is already on.", rule="9")


def hat_press(state: State, seat: int, now_ms: int, events: list[Event]) -> bool:
    """A bare head dons (`verify_don` passed); True when every bare head has."""
    step = state["step"]
    step["presses"][str(seat)] = now_ms
    p = state["seats"][seat]
    p["hat_on"] = True
    p["hats"] += 1
    events.append(Event("hat", {"seat": seat, "at": now_ms - step["opened_at"]}))
    return len(step["presses"]) == len(step["bare"])


def resolve_hat(state: State, now_ms: int, events: list[Event]) -> None:
    """All in time: the latest `now` pays (ties all pay); anyone missing: the non-pressers
    pay and the pressers pay nothing. Then the same step is redrawn."""
    step = state["step"]
    presses = {int(s): t for s, t in step["presses"].items()}
    bare = step["bare"]
    if len(presses) == len(bare):
        last = max(presses.values())
        payers = sorted(s for s, t in presses.items() if t == last)
    else:
        payers = sorted(s for s in bare if s not in presses)
    events.append(Event("hat_race", {"presses": {str(s): t - step["opened_at"] for s, t in sorted(presses.items())},
                                     "payers": payers, "missed": sorted(s for s in bare if s not in presses)}))
    for s in payers:
        penalties.add(state, s, "9", now_ms, events)
    state["step"] = {"kind": "drawing", "wid": 0, "opened_at": now_ms, "deadline": None}
    draw_round(state, now_ms, events)
