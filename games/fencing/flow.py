"""The order of play (spec §3): bumper open, the golf balls' throws and catches, the tally
and control, the move prompt, bumper end and game end. The rooms beside it take their parts:
`trick` (Thrust, war, hat race), `golf_moves` (quick-switch, hose, handout), `controller`
(move or stay, theme, attack call) call in here, never the other way; `anthem` (rule 25)
is called from here and calls nothing back.

`state["step"]` is the main prompt open now (`state.set_step` writes it, `state.phase`
reads it); `state["penalties"]` run beside it. Each function here moves the game from one
prompt to the next and appends its events.
"""

from __future__ import annotations

from typing import Any

from games.core import Event, State
from games.fencing import duel, penalties
from games.fencing.anthem import open_anthem
from games.fencing.cards import fresh_decks
from games.fencing.golf import wild_roll
from games.fencing.moves import region_of
from games.fencing.region import PIECES
from games.fencing.state import die, draw, factor, ms, next_seat, phase, set_step

TARGET = 50
BUMPERS_TO_WIN = 2
CHOC_SUPPLY = 24


def player() -> dict[str, Any]:
    return {"score": 0, "bumpers_won": 0, "bumper_scores": [], "chocolate": 0, "hat_on": False,
            "hat_keep": False, "stamps": [], "afk_misses": 0, "miscues": 0, "butt_kicks": 0,
            "choc_eaten": 0, "themes": 0, "builds": 0, "hats": 0, "applause": 0}


# ----- game start (rule 1) -------------------------------------------------------------
def fire(state: State, seat: int | None, now_ms: int, events: list[Event]) -> None:
    state["clock_started_at"] = now_ms
    events.append(Event("gun", {"seat": seat}))
    start_bumper(state, now_ms, events)


# ----- bumper open (rules 2-4) ---------------------------------------------------------
def start_bumper(state: State, now_ms: int, events: list[Event]) -> None:
    """The reset of rule 4. `miscuers` is not in it: it counts since the last Thrust (rule 24)."""
    state["bumper_no"] += 1
    state.update(control=None, mitt=None, yellow=None, yellow_box=None, purple=None, trick_no=0, trick=None,
                 last_trick=None, attacked=None, streak={"owner": None, "last_move": None},
                 last_move=None, pieces=dict(region_of(state).start), theme=None)
    for p in state["seats"]:
        p.update(score=0, hat_on=False, hat_keep=False)
        p["stamps"].append({"open": None, "close": None})
    fresh_decks(state)
    events.append(Event("bumper", {"no": state["bumper_no"], "start": state["start"]}))
    set_step(state, "stamp", now_ms, "stamp", which="open")


def stamps_done(state: State, now_ms: int, events: list[Event]) -> None:
    which = state["step"]["which"]
    if which == "open":
        for seat, p in enumerate(state["seats"]):
            p["chocolate"] = min(p["chocolate"], 1) + 2
            events.append(Event("chocolate_dealt", {"seat": seat, "chocolate": p["chocolate"]}))
        state["choc_supply"] -= 6
        distribute_golf(state, now_ms, events)
    else:
        finish_bumper(state, now_ms, events)


def distribute_golf(state: State, now_ms: int, events: list[Event]) -> None:
    """Rule 3: green dice; top two tied duel for yellow, lower two tied duel for purple,
    a three-way tie rerolls."""
    while True:
        rolls = [die(state, "green") for _ in range(3)]
        events.append(Event("golf_roll", {"rolls": rolls}))
        if not rolls[0] == rolls[1] == rolls[2]:
            break
    order = sorted(range(3), key=lambda s: -rolls[s])
    top, mid, low = order
    if rolls[top] == rolls[mid]:
        pair = sorted([top, mid])
        result = duel.start(state, pair, "golf_top", {}, now_ms, events)
    else:
        state["yellow"] = top
        events.append(Event("golf_ball", {"seat": top, "ball": "yellow"}))
        if rolls[mid] == rolls[low]:
            pair = sorted([mid, low])
            result = duel.start(state, pair, "golf_low", {}, now_ms, events)
        else:
            state["purple"] = mid
            events.append(Event("golf_ball", {"seat": mid, "ball": "purple"}))
            open_first_attack(state, now_ms)
            return
    if result is not None:
        after_duel(state, "golf_top" if rolls[top] == rolls[mid] else "golf_low", {}, *result,
                   now_ms=now_ms, events=events)


def after_duel(state: State, purpose: str, ctx: dict[str, Any], winner: int, loser: int, *,
               now_ms: int, events: list[Event]) -> None:
    events.append(Event("duel_won", {"seat": winner, "loser": loser, "purpose": purpose}))
    if purpose == "golf_top":
        state["yellow"], state["purple"] = winner, loser
        events.append(Event("golf_ball", {"seat": winner, "ball": "yellow"}))
        events.append(Event("golf_ball", {"seat": loser, "ball": "purple"}))
        open_first_attack(state, now_ms)
    elif purpose == "golf_low":
        state["purple"] = winner
        events.append(Event("golf_ball", {"seat": winner, "ball": "purple"}))
        open_first_attack(state, now_ms)
    else:  # hose
        after_hose(state, ctx["hoser"], ctx["target"], winner == ctx["hoser"], now_ms, events)


def open_first_attack(state: State, now_ms: int) -> None:
    set_step(state, "first_attack", now_ms, "first_attack", state["start"])


def open_thrust(state: State, now_ms: int) -> None:
    set_step(state, "thrust", now_ms, "thrust", state["start"])


# ----- the golf balls: window, throws, catches, hand-outs (rules 10-13; moves: golf_moves)
def open_golf(state: State, now_ms: int, limit: str, events: list[Event]) -> None:
    trick = state["trick"]
    holder = state["purple"]
    if holder is None or (trick["qs_used"] and trick["hose_used"]):
        open_tally(state, now_ms, events)
        return
    set_step(state, "golf", now_ms, limit, holder=holder)


def throw(state: State, purpose: str, thrower: int, receiver: int, ball: str, now_ms: int,
          events: list[Event]) -> None:
    """Rule 11: a hidden d6 may make the throw wild (caught, the thrower pays); otherwise the
    receiver must Catch once the button opens."""
    wild = purpose != "pinkie" and wild_roll(state)
    events.append(Event("throw", {"seat": thrower, "to": receiver, "ball": ball, "wild": wild}))
    if wild:
        penalties.add(state, thrower, "11", now_ms, events)
        resolve_catch(state, purpose, thrower, receiver, True, now_ms, events)
        return
    open_catch(state, purpose, thrower, receiver, ball, now_ms)


def open_catch(state: State, purpose: str, thrower: int, receiver: int, ball: str, now_ms: int) -> None:
    scale = factor(state)
    delay = draw(state, "delay", 500, 2500) * scale
    step = set_step(state, "catch", now_ms, None, purpose=purpose, thrower=thrower, receiver=receiver,
                    ball=ball, open=False, opens_at=now_ms + delay)
    step["deadline"] = step["opens_at"] + round(5000 * scale)


def catch_opens(state: State, now_ms: int) -> None:
    step = state["step"]
    step["open"] = True
    step["wid"] = state["wseq"] = state["wseq"] + 1
    step["opened_at"] = max(now_ms, step["opens_at"])


def resolve_catch(state: State, purpose: str, thrower: int, receiver: int, caught: bool, now_ms: int,
                  events: list[Event]) -> None:
    ball = {"qs1": "purple", "qs2": "yellow", "pinkie": "pinkie"}[purpose]
    events.append(Event("catch" if caught else "drop", {"seat": receiver, "ball": ball, "from": thrower}))
    if purpose == "qs1":
        state["purple"] = receiver
        if not caught:
            penalties.add(state, receiver, "11", now_ms, events)
        throw(state, "qs2", receiver, thrower, "yellow", now_ms, events)
    elif purpose == "qs2":
        if caught:
            state["yellow"] = receiver
        else:
            state["yellow"] = None
            state["yellow_box"] = state["trick_no"] + 2
            events.append(Event("box", {"ball": "yellow", "release_after_trick": state["yellow_box"]}))
        both_balls(state, now_ms, "golf", events)
    else:
        if not caught:
            penalties.add(state, receiver, "15", now_ms, events)
        state["mitt"] = thrower
        events.append(Event("mitt", {"seat": thrower}))
        release_yellow(state, now_ms, events)


def after_hose(state: State, hoser: int, target: int, hoser_won: bool, now_ms: int, events: list[Event]) -> None:
    events.append(Event("hose_result", {"seat": hoser, "target": target, "hoser_won": hoser_won}))
    if hoser_won:
        state["purple"] = target
    else:
        penalties.add(state, hoser, "12", now_ms, events)
    both_balls(state, now_ms, "golf", events)


def both_balls(state: State, now_ms: int, then: str, events: list[Event]) -> None:
    """Rule 13: one player holding both balls hands them out at once."""
    if state["yellow"] is not None and state["yellow"] == state["purple"]:
        set_step(state, "handout", now_ms, "handout", state["yellow"], holder=state["yellow"], then=then)
        events.append(Event("both_balls", {"seat": state["yellow"]}))
        return
    carry_on(state, now_ms, then, events)


def carry_on(state: State, now_ms: int, then: str, events: list[Event]) -> None:
    if then == "golf":
        open_golf(state, now_ms, "golf_again", events)
    else:
        open_move(state, now_ms)


# ----- tally and control (rules 14-16) --------------------------------------------------
def open_tally(state: State, now_ms: int, events: list[Event]) -> None:
    set_step(state, "tally", now_ms)
    gates(state, now_ms, events)


def gates(state: State, now_ms: int, events: list[Event]) -> None:
    """The tally and the bumper end wait until no penalty is owed (rule 23)."""
    kind = phase(state).name
    if penalties.any_open(state):
        return
    if kind == "tally":
        tally(state, now_ms, events)
    elif kind == "end":
        open_anthem(state, now_ms, events)


def build(state: State, seat: int, points: int, why: str, events: list[Event]) -> bool:
    p = state["seats"][seat]
    p["score"] += points
    p["builds"] += points
    events.append(Event("build", {"seat": seat, "points": points, "why": why, "score": p["score"]}))
    return bool(p["score"] >= TARGET)


def tally(state: State, now_ms: int, events: list[Event]) -> None:
    """Rule 14: the winner's build, then (after a trump) yellow +2 and purple -2; the first to
    reach 50 in this order wins the bumper."""
    trick = state["trick"]
    winner = trick["winner"]
    if build(state, winner, trick["build"]["total"], "dice", events):
        bumper_won(state, winner, "build", now_ms, events)
        return
    if trick["level"] >= 1:
        if state["yellow"] is not None and build(state, state["yellow"], 2, "yellow", events):
            bumper_won(state, state["yellow"], "build", now_ms, events)
            return
        if state["purple"] is not None:
            penalties.slide(state, state["purple"], 2, events, reason="14")
    take_control(state, winner, now_ms, events)


def take_control(state: State, winner: int, now_ms: int, events: list[Event]) -> None:
    old = state["control"]
    state["control"] = winner
    if old != winner:
        state["streak"] = {"owner": winner, "last_move": None}
    events.append(Event("control", {"seat": winner, "from": old}))
    if old is None or old == winner:
        release_yellow(state, now_ms, events)
        return
    if state["mitt"] == winner:
        events.append(Event("catch_call", {"seat": old, "to": winner}))
        throw(state, "pinkie", old, winner, "pinkie", now_ms, events)
        return
    state["mitt"] = old
    events.append(Event("mitt", {"seat": old}))
    release_yellow(state, now_ms, events)


def release_yellow(state: State, now_ms: int, events: list[Event]) -> None:
    """Rule 16: a boxed yellow goes to the controller after trick `release_after_trick`'s control."""
    box = state["yellow_box"]
    if box is not None and state["trick_no"] >= box:
        state["yellow"], state["yellow_box"] = state["control"], None
        events.append(Event("unbox", {"seat": state["control"], "ball": "yellow"}))
        both_balls(state, now_ms, "move", events)
        return
    open_move(state, now_ms)


# ----- the move prompt (rule 17; the moves and the attack call: controller) ---------------
def open_move(state: State, now_ms: int) -> None:
    control = state["control"]
    set_step(state, "move", now_ms, "move", control, piece=state["attacked"])


# ----- bumper end and game end (rules 23, 25) -------------------------------------------
def bumper_won(state: State, seat: int, how: str, now_ms: int, events: list[Event]) -> None:
    state["seats"][seat]["bumpers_won"] += 1
    events.append(Event("bumper_won", {"seat": seat, "how": how, "bumper": state["bumper_no"],
                                       "scores": [p["score"] for p in state["seats"]]}))
    set_step(state, "end", now_ms, winner=seat, how=how)
    gates(state, now_ms, events)


def finish_bumper(state: State, now_ms: int, events: list[Event]) -> None:
    """Rule 25 after the close stamps: carry at most one chocolate, rotate the Start, end
    the game at two bumpers."""
    fate = "eaten" if state["options"]["carpet"] == "blue" else "audience"
    for seat, p in enumerate(state["seats"]):
        if p["chocolate"] > 1:
            events.append(Event("surplus", {"seat": seat, "count": p["chocolate"] - 1, "fate": fate}))
            p["chocolate"] = 1
        p["bumper_scores"].append(p["score"])
    winners = [s for s, p in enumerate(state["seats"]) if p["bumpers_won"] >= BUMPERS_TO_WIN]
    if winners:
        game_over(state, winners[0], events)
        return
    state["start"] = next_seat(state, state["start"])
    start_bumper(state, now_ms, events)


def game_over(state: State, winner: int, events: list[Event]) -> None:
    old = state["champion"]
    state.update(over=True, winner=winner, champion=winner, step={"kind": "over", "wid": 0,
                                                                  "opened_at": 0, "deadline": None})
    events.append(Event("champion", {"old": old, "new": winner, "map": "delivered with great force"}))


def piece_list() -> list[str]:
    return list(PIECES)


def now_ms_of(now: float) -> int:
    return ms(now)
