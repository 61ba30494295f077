"""The order of play (spec §3): bumper open, the trick (Thrust and war, golf window,
tally, control and catch, move, theme, attack call), bumper end and game end.

`state["step"]` is the main prompt open now; `state["penalties"]` run beside it. Each
function here moves the game from one prompt to the next and appends its events.
"""

from __future__ import annotations

from typing import Any

from games.core import Event, IllegalAction, State
from games.fencing import duel, penalties
from games.fencing.cards import card_value, draw_card, fresh_decks, judge_thrust, judge_war
from games.fencing.common import die, draw, factor, ms, next_seat, open_timer, third
from games.fencing.golf import wild_roll
from games.fencing.moves import region_of
from games.fencing.region import COLOUR, PIECES
from games.fencing.schema import RouteView

TARGET = 50
BUMPERS_TO_WIN = 2
CHOC_SUPPLY = 24


def player() -> dict[str, Any]:
    return {"score": 0, "bumpers_won": 0, "bumper_scores": [], "chocolate": 0, "hat_on": False,
            "hat_keep": False, "stamps": [], "afk_misses": 0, "miscues": 0, "butt_kicks": 0,
            "choc_eaten": 0, "themes": 0, "builds": 0, "hats": 0, "applause": 0}


def set_step(state: State, kind: str, now_ms: int, limit: str | None = None, seat: int | None = None,
             **data: Any) -> dict[str, Any]:
    step: dict[str, Any] = {"kind": kind, "wid": 0, "opened_at": now_ms, "deadline": None, **data}
    if limit is not None:
        open_timer(state, step, now_ms, limit, seat)
    else:
        step["wid"] = state["wseq"] = state["wseq"] + 1
    state["step"] = step
    return step


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


# ----- the Thrust and the war (rules 5-9) ----------------------------------------------
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
            if state["step"]["kind"] == "hat":
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
    open_golf(state, now_ms, "golf", events)


def open_hat_race(state: State, now_ms: int, events: list[Event]) -> None:
    """Rule 9: hats already on pay at once; bare heads race to don within 10 s."""
    events.append(Event("triple", {"trick": state["trick_no"]}))
    hatted = [s for s in range(3) if state["seats"][s]["hat_on"]]
    for s in hatted:
        penalties.add(state, s, "9", now_ms, events)
    bare = [s for s in range(3) if s not in hatted]
    if bare:
        set_step(state, "hat", now_ms, "hat", bare=bare, presses={})


def hat_press(state: State, seat: int, now_ms: int, events: list[Event]) -> bool:
    """A bare head dons; True when every bare head has."""
    step = state["step"]
    if seat not in step["bare"] or str(seat) in step["presses"]:
        raise IllegalAction("Your hat is already on.", rule="9")
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


# ----- golf window (rules 10-13) --------------------------------------------------------
def open_golf(state: State, now_ms: int, limit: str, events: list[Event]) -> None:
    trick = state["trick"]
    holder = state["purple"]
    if holder is None or (trick["qs_used"] and trick["hose_used"]):
        open_tally(state, now_ms, events)
        return
    set_step(state, "golf", now_ms, limit, holder=holder)


def qs_available(state: State) -> bool:
    trick = state["trick"]
    return (not trick["qs_used"] and state["yellow"] is not None and state["purple"] is not None
            and state["yellow"] != state["purple"])


def quick_switch(state: State, seat: int, now_ms: int, events: list[Event]) -> None:
    check_golf_holder(state, seat, "11")
    if state["trick"]["qs_used"]:
        raise IllegalAction("Only one quick-switch is allowed per trick.", rule="11")
    if not qs_available(state):
        raise IllegalAction("Both balls must be in play to quick-switch.", rule="11")
    state["trick"]["qs_used"] = True
    events.append(Event("quick_switch", {"seat": seat, "yellow": state["yellow"]}))
    throw(state, "qs1", seat, state["yellow"], "purple", now_ms, events)


def check_golf_holder(state: State, seat: int, rule: str) -> None:
    if state["step"]["kind"] != "golf":
        raise IllegalAction("The golf window is not open.", rule="10")
    if seat != state["step"]["holder"]:
        raise IllegalAction("Only {holder}, who holds the purple ball, may do that.", rule=rule,
                            seats={"holder": state["step"]["holder"]})


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


def hose(state: State, seat: int, target: Any, now_ms: int, events: list[Event]) -> None:
    check_golf_holder(state, seat, "12")
    if state["trick"]["hose_used"]:
        raise IllegalAction("Only one hose is allowed per trick.", rule="12")
    if target not in (0, 1, 2) or target == seat or isinstance(target, bool):
        raise IllegalAction("Hose one of the other players.", rule="12")
    state["trick"]["hose_used"] = True
    rolls = [die(state, "green"), die(state, "green")]
    events.append(Event("hose", {"seat": seat, "target": target, "rolls": rolls, "pollution": "ERIE"}))
    if rolls[0] == rolls[1]:
        result = duel.start(state, [seat, target], "hose", {"hoser": seat, "target": target}, now_ms, events)
        if result is not None:
            after_duel(state, "hose", {"hoser": seat, "target": target}, *result, now_ms=now_ms, events=events)
        return
    after_hose(state, seat, target, rolls[0] > rolls[1], now_ms, events)


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


def handout(state: State, seat: int, yellow_to: Any, now_ms: int, events: list[Event], *, timed_out: bool) -> None:
    step = state["step"]
    holder = step["holder"]
    if seat != holder:
        raise IllegalAction("Only {holder} hands out the balls.", rule="13", seats={"holder": holder})
    if timed_out:
        yellow_to = next_seat(state, holder)
    if yellow_to not in (0, 1, 2) or yellow_to == holder or isinstance(yellow_to, bool):
        raise IllegalAction("Give the yellow ball to one of the other players.", rule="13")
    purple_to = third(holder, yellow_to)
    state["yellow"], state["purple"] = yellow_to, purple_to
    events.append(Event("handout", {"seat": holder, "yellow": yellow_to, "purple": purple_to, "timeout": timed_out}))
    carry_on(state, now_ms, step["then"], events)


# ----- tally and control (rules 14-16) --------------------------------------------------
def open_tally(state: State, now_ms: int, events: list[Event]) -> None:
    set_step(state, "tally", now_ms)
    gates(state, now_ms, events)


def gates(state: State, now_ms: int, events: list[Event]) -> None:
    """The tally and the bumper end wait until no penalty is owed (rule 23)."""
    kind = state["step"]["kind"]
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


# ----- move, theme, attack (rules 17-22) -------------------------------------------------
def open_move(state: State, now_ms: int) -> None:
    control = state["control"]
    set_step(state, "move", now_ms, "move", control, piece=state["attacked"])


def moved(state: State, seat: int, piece: str, route: RouteView, now_ms: int, events: list[Event]) -> None:
    origin = state["pieces"][piece]
    state["pieces"][piece] = route["route"][-1]
    record = {"piece": piece, "from": origin, "to": route["route"][-1], "route": list(route["route"]),
              "km": route["km"], "offroad": route["offroad"]}
    events.append(Event("move", {"seat": seat, **record, "penalty": route["penalty"]}))
    if route["offroad"]:
        events.append(Event("offroad", {"seat": seat, "piece": piece, "penalty": route["penalty"]}))
    if route["penalty"]:
        penalties.add(state, seat, "18", now_ms, events)
    last = state["streak"]["last_move"]
    state["streak"]["last_move"] = record
    state["last_move"] = record  # the map's route, kept when control changes hands
    if (last is not None and COLOUR[last["piece"]] != COLOUR[piece]
            and set(last["route"]) & set(record["route"])):
        shared = sorted(set(last["route"]) & set(record["route"]))
        state["seats"][seat]["themes"] += 1
        # the map shows the theme until the next bumper opens
        state["theme"] = {"seat": seat, "moves": [dict(last), dict(record)], "through": list(shared)}
        events.append(Event("theme", {"seat": seat, "moves": [last, record], "through": shared}))
        bumper_won(state, seat, "theme", now_ms, events)
        return
    set_step(state, "attack", now_ms, "attack", seat)


def stayed(state: State, seat: int, now_ms: int, events: list[Event], *, timed_out: bool) -> None:
    events.append(Event("stay", {"seat": seat, "piece": state["attacked"], "timeout": timed_out}))
    set_step(state, "attack", now_ms, "attack", seat)


def attack_call(state: State, seat: int, piece: str, now_ms: int, events: list[Event]) -> None:
    first = state["step"]["kind"] == "first_attack"
    state["attacked"] = piece
    events.append(Event("attack_call", {"seat": seat, "piece": piece, "first": first}))
    if not first:
        end_trick(state, events)
    open_thrust(state, now_ms)


def end_trick(state: State, events: list[Event]) -> None:
    off = []
    for seat, p in enumerate(state["seats"]):
        if p["hat_on"] and not p["hat_keep"]:
            p["hat_on"] = False
            off.append(seat)
    if off:
        events.append(Event("hats_off", {"seats": off}))
    state["last_trick"] = state["trick"]
    state["trick"] = None


# ----- bumper end and game end (rules 23, 25) -------------------------------------------
def bumper_won(state: State, seat: int, how: str, now_ms: int, events: list[Event]) -> None:
    state["seats"][seat]["bumpers_won"] += 1
    events.append(Event("bumper_won", {"seat": seat, "how": how, "bumper": state["bumper_no"],
                                       "scores": [p["score"] for p in state["seats"]]}))
    set_step(state, "end", now_ms, winner=seat, how=how)
    gates(state, now_ms, events)


def anthem_reader(state: State) -> int | None:
    champion = state["champion"]
    return champion if champion in (0, 1, 2) else None


def open_anthem(state: State, now_ms: int, events: list[Event]) -> None:
    events.append(Event("anthem_start", {"reader": anthem_reader(state)}))
    set_step(state, "anthem", now_ms, "anthem", parts=[[], [], []])


def anthem_part(state: State, seat: int, part: Any, events: list[Event]) -> bool:
    """📯 noise (non-champions), 📖 lyrics (the seated champion), 🎩 hat, 🐟 hail; True when all hailed."""
    step = state["step"]
    parts = step["parts"][seat]
    reader = anthem_reader(state)
    allowed = {"hat", "hail", "lyrics" if seat == reader else "noise"}
    if part not in allowed or part in parts:
        raise IllegalAction("That is not your part of the anthem now.", rule="25")
    parts.append(part)
    if part == "hat":
        state["seats"][seat]["hat_on"] = True
    events.append(Event("anthem", {"seat": seat, "part": part}))
    return all("hail" in p for p in step["parts"])


def anthem_done(state: State, now_ms: int, events: list[Event], *, auto: bool) -> None:
    missing = [s for s in range(3) if "hail" not in state["step"]["parts"][s]]
    events.append(Event("anthem_end", {"auto": missing if auto else [], "words": "Hail to the fish!"}))
    set_step(state, "stamp", now_ms, "stamp", which="close")


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
