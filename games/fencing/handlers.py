"""Doing it (issue 22 item 2, as in Two Fat Dudes): `HANDLERS`, each action kind a seat sends
and what it does, each running its rule check (`checks.VERIFY`) first; `TIMERS`, the game's
own timer actions (seat None). AFK counting for the decision prompts (spec §4) is here too.

A handler is told `auto` when the action is not the seat's own choice: the runtime pressed it
when the seat's time ran out, or it arrived after the prompt's deadline. Then a decision
prompt takes its default (the same piece, the next seat, chocolate if any), a group or reflex
prompt closes as its timer would (the hat race, the insults, the snap, the anthem), and the
golf window closes.
"""

from __future__ import annotations

from collections.abc import Callable

from games import afk
from games.core import Action, Event, IllegalAction, State
from games.fencing import anthem, controller, duel, flow, golf_moves, penalties, trick
from games.fencing.checks import VERIFY, when
from games.fencing.schema import Kind
from games.fencing.state import AFK_FORFEIT, RESUME_GRACE_MS, new_wid, open_timer, phase, set_step

#: A seat's action: (state, seat, action, now in ms, the events so far, auto).
Handler = Callable[[State, int, Action, int, list[Event], bool], None]
#: The game's own action: (state, now in ms, the events so far).
Timer = Callable[[State, int, list[Event]], None]

#: Kinds answered beside every prompt, keeping their own time (a penalty's deadline) or none.
BESIDE: frozenset[Kind] = frozenset({"pay", "hat"})


# ----- AFK (spec §4) -------------------------------------------------------------------
def clicked(state: State, seat: int) -> None:
    afk.tally(state["seats"][seat], "afk_misses", missed=False)


def missed(state: State, seat: int, events: list[Event]) -> None:
    """A decision prompt ran out (spec §4 AFK): 3 in a row shrink the limits, 5 forfeit."""
    p = state["seats"][seat]
    misses = afk.tally(p, "afk_misses", missed=True)
    events.append(Event("missed", {"seat": seat, "misses": misses}))
    if misses >= AFK_FORFEIT:
        state["afk_out"] = seat
        events.append(Event("afk_forfeit", {"seat": seat}))


# ----- a seat's actions, by kind -------------------------------------------------------
def _game(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    VERIFY["game"](state, seat, action)
    step = state["step"]
    step["pressed"][seat] = True
    events.append(Event("game", {"seat": seat}))
    if all(step["pressed"]):
        set_step(state, "gun", now_ms, "gun")


def _fire(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    VERIFY["fire"](state, seat, action)
    flow.fire(state, None if auto else seat, now_ms, events)


def _stamp(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    VERIFY["stamp"](state, seat, action)
    which = state["step"]["which"]
    state["seats"][seat]["stamps"][-1][which] = "bot" if auto else "self"
    events.append(Event("stamp", {"seat": seat, "which": which, "by_bot": auto}))
    if auto:
        missed(state, seat, events)
    if all(p["stamps"][-1][which] is not None for p in state["seats"]) and state["afk_out"] is None:
        flow.stamps_done(state, now_ms, events)


def _missed_out(state: State, seat: int, events: list[Event], auto: bool) -> bool:
    """Count a timed-out seat's missed prompt; True when that miss put the seat out of the game
    (the prompt's default is then not played)."""
    if not auto:
        return False
    missed(state, seat, events)
    return state["afk_out"] is not None


def _attack(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    if auto:
        when(state, "attack")
        action = controller.default_attack(state)
    VERIFY["attack"](state, seat, action)
    if _missed_out(state, seat, events, auto):
        return
    controller.attack_call(state, seat, action["piece"], now_ms, events)


def _thrust(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    VERIFY["thrust"](state, seat, action)
    if _missed_out(state, seat, events, auto):
        return
    trick.thrust(state, None if auto else seat, now_ms, events)


def _don(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    if auto:  # after the race's deadline: it ends, as its timer would
        when(state, "don")
        trick.resolve_hat(state, now_ms, events)
        return
    VERIFY["don"](state, seat, action)
    if trick.hat_press(state, seat, now_ms, events):
        trick.resolve_hat(state, now_ms, events)


def _done(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    VERIFY["done"](state, seat, action)
    events.append(Event("golf_closed", {"seat": seat, "timeout": auto}))
    flow.open_tally(state, now_ms, events)


def _quickswitch(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    if auto:  # a late call closes the window, as its timer would
        when(state, "quickswitch")
        _done(state, seat, action, now_ms, events, auto)
        return
    VERIFY["quickswitch"](state, seat, action)
    golf_moves.quick_switch(state, seat, now_ms, events)


def _hose(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    if auto:  # a late hose closes the window, as its timer would
        when(state, "hose")
        _done(state, seat, action, now_ms, events, auto)
        return
    VERIFY["hose"](state, seat, action)
    golf_moves.hose(state, seat, action["target"], now_ms, events)


def _catch(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    VERIFY["catch"](state, seat, action)
    step = state["step"]
    flow.resolve_catch(state, step["purpose"], step["thrower"], seat, not auto, now_ms, events)


def _handout(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    if auto:
        when(state, "handout")
        action = golf_moves.default_handout(state)
    VERIFY["handout"](state, seat, action)
    if _missed_out(state, seat, events, auto):
        return
    golf_moves.handout(state, action["yellow"], now_ms, events, timed_out=auto)


def _insult(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    if auto and phase(state).step == "insult":  # the insults end, as their timer would
        duel.to_count(state, now_ms, events)
        return
    VERIFY["insult"](state, seat, action)
    if duel.insult(state, seat, action["text"], now_ms, events):
        duel.to_count(state, now_ms, events)


def _applaud(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    VERIFY["applaud"](state, seat, action)
    duel.applaud(state, seat, action["who"], events)


def _count(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    VERIFY["count"](state, seat, action)
    duel.count(state, now_ms, events, by_bot=bool(action.get("timeout")))


def _snap(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    if auto and phase(state).step == "snap":  # the sleepers stop spinning, as their timer would
        judged(state, now_ms, events)
        return
    VERIFY["snap"](state, seat, action)
    if duel.snap(state, seat, now_ms, events):
        judged(state, now_ms, events)


def judged(state: State, now_ms: int, events: list[Event]) -> None:
    """The duel is judged and its winner gets what it was fought for."""
    step = state["step"]
    winner, loser = duel.judge(state, events)
    flow.after_duel(state, step["purpose"], step["ctx"], winner, loser, now_ms=now_ms, events=events)


def _stay(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    VERIFY["stay"](state, seat, action)
    if _missed_out(state, seat, events, auto):
        return
    controller.stayed(state, seat, now_ms, events, timed_out=auto)


def _move(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    if auto:  # a late move stays, as the timer would
        when(state, "move")
        _stay(state, seat, action, now_ms, events, auto)
        return
    VERIFY["move"](state, seat, action)
    piece = state["step"]["piece"]
    controller.moved(state, seat, piece, controller.route(state, action), now_ms, events)


def _anthem(state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
    if auto:  # the anthem ends, as its timer would
        when(state, "anthem")
        anthem.anthem_done(state, now_ms, events, auto=True)
        return
    VERIFY["anthem"](state, seat, action)
    if anthem.anthem_part(state, seat, action["part"], events):
        anthem.anthem_done(state, now_ms, events, auto=False)


def _pay(state: State, seat: int, action: Action, now_ms: int, events: list[Event], timed_out: bool) -> None:
    """Beside the prompt, on the penalty's own deadline: late or timed out, it eats chocolate if any."""
    queue = state["penalties"][seat]
    late = bool(queue) and not timed_out and queue[0]["deadline"] is not None and now_ms > queue[0]["deadline"]
    if late:
        events.append(Event("too_late", {"seat": seat, "prompt": "penalty"}))
    auto = timed_out or late
    if auto:
        action = penalties.default_pay(state, seat)
    VERIFY["pay"](state, seat, action)
    penalties.pay(state, seat, action["how"], now_ms, events, timed_out=auto)
    if auto:
        missed(state, seat, events)
    else:
        clicked(state, seat)


def _hat(state: State, seat: int, action: Action, now_ms: int, events: list[Event], timed_out: bool) -> None:
    """`/fencing hat`: keep the hat on after the trick or not, at any time (no AFK count)."""
    VERIFY["hat"](state, seat, action)
    state["seats"][seat]["hat_keep"] = action["keep"]
    events.append(Event("hat_keep", {"seat": seat, "keep": action["keep"]}))


#: Every kind a seat sends and its handler; `play` looks the kind up here.
HANDLERS: dict[Kind, Handler] = {
    "game": _game, "fire": _fire, "stamp": _stamp, "attack": _attack, "thrust": _thrust, "don": _don,
    "quickswitch": _quickswitch, "hose": _hose, "done": _done, "catch": _catch, "handout": _handout,
    "insult": _insult, "applaud": _applaud, "count": _count, "snap": _snap, "stay": _stay, "move": _move,
    "anthem": _anthem, "pay": _pay, "hat": _hat,
}


# ----- the game's own actions (seat None) ------------------------------------------------
def _nothing() -> IllegalAction:
    return IllegalAction("Nothing is timed out now.")


def _gun(state: State, now_ms: int, events: list[Event]) -> None:
    """Nobody fired in time: the gun goes off by itself."""
    if phase(state).name != "gun":
        raise _nothing()
    flow.fire(state, None, now_ms, events)


def _catch_open(state: State, now_ms: int, events: list[Event]) -> None:
    """The ball in the air comes down: the receiver's Catch! opens."""
    step = state["step"]
    if phase(state).name != "catch" or step["open"]:
        raise _nothing()
    flow.catch_opens(state, now_ms)
    events.append(Event("catch_open", {"seat": step["receiver"], "ball": step["ball"]}))


def _expire(state: State, now_ms: int, events: list[Event]) -> None:
    """A group or reflex prompt's time is up: it closes with whoever answered."""
    step = state["step"]
    at = phase(state)
    if at.name == "game":
        state["cancelled"] = True
        events.append(Event("cancelled", {"missing": [s for s in range(3) if not step["pressed"][s]]}))
    elif at.name == "hat":
        trick.resolve_hat(state, now_ms, events)
    elif at.name == "catch" and step["open"]:
        flow.resolve_catch(state, step["purpose"], step["thrower"], step["receiver"], False, now_ms, events)
    elif at.name == "anthem":
        anthem.anthem_done(state, now_ms, events, auto=True)
    elif at.step == "insult":
        duel.to_count(state, now_ms, events)
    elif at.step == "snap":
        judged(state, now_ms, events)
    else:
        raise _nothing()


def _resume(state: State, now_ms: int, events: list[Event]) -> None:
    """After a restart (spec §4): deadlines that passed move to now + 30 s, reflex waits
    restart from now, and every wait gets a new key so the runtime re-derives its timeout."""
    step = state["step"]
    timers = [step, *(q[0] for q in state["penalties"] if q)]
    for timer in timers:
        timer["wid"] = new_wid(state)
        if timer.get("deadline") is not None and timer["deadline"] < now_ms:
            timer["deadline"] = now_ms + RESUME_GRACE_MS
        timer["opened_at"] = now_ms
    at = phase(state)
    if at.name == "catch":
        flow.open_catch(state, step["purpose"], step["thrower"], step["receiver"], step["ball"], now_ms)
    elif at.name == "hat":
        open_timer(state, step, now_ms, "hat")
    elif at.step == "snap":
        duel.to_count(state, now_ms, events)
    events.append(Event("resumed", {"at": now_ms}))


#: The game's own kinds (seat None; `fire` is a seat's too): the timers' defaults and the restart.
TIMERS: dict[Kind, Timer] = {"fire": _gun, "catch_open": _catch_open, "expire": _expire, "resume": _resume}
