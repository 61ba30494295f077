"""What the player in control does (rules 17-22): move the attacked piece (or stay), score a
theme with it, then call the next attacked piece; the Start calls the first (rule 2). Each
move's rule check (`verify_*`, run by `checks.VERIFY`) apart from what it does."""

from __future__ import annotations

from games.core import Action, Event, IllegalAction, State
from games.fencing import flow, moves, penalties
from games.fencing.region import COLOUR, PIECES
from games.fencing.schema import RouteView
from games.fencing.state import phase, set_step


# ----- move or stay (rules 17-19) ------------------------------------------------------
def verify_stay(state: State, seat: int, action: Action) -> None:
    if seat != state["control"]:
        raise IllegalAction("{who} has control and moves.", rule="15", seats={"who": state["control"]})


def verify_move(state: State, seat: int, action: Action) -> None:
    verify_stay(state, seat, action)
    route(state, action)


def route(state: State, action: Action) -> RouteView:
    """The road (or line) a move action names, or IllegalAction citing the rule it breaks."""
    piece = state["step"]["piece"]
    if action.get("piece", piece) != piece:
        raise IllegalAction("The attacked piece is {piece}.".replace("{piece}", piece), rule="20")
    return moves.chosen_route(state, piece, action.get("to"), action.get("via"), bool(action.get("offroad")))


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
        flow.bumper_won(state, seat, "theme", now_ms, events)
        return
    set_step(state, "attack", now_ms, "attack", seat)


def stayed(state: State, seat: int, now_ms: int, events: list[Event], *, timed_out: bool) -> None:
    events.append(Event("stay", {"seat": seat, "piece": state["attacked"], "timeout": timed_out}))
    set_step(state, "attack", now_ms, "attack", seat)


# ----- the attack call (rules 2, 20) -----------------------------------------------------
def verify_attack(state: State, seat: int, action: Action) -> None:
    first = phase(state).name == "first_attack"
    chooser = state["start"] if first else state["control"]
    if seat != chooser:
        raise IllegalAction("{who} calls the attack.", rule="2" if first else "20", seats={"who": chooser})
    if action.get("piece") not in PIECES:
        raise IllegalAction("Name one of the pieces: BK, WR, BN, WN, WB.", rule="20")


def default_attack(state: State) -> Action:
    """What an attack call that ran out names: the Black King first, then the same piece."""
    return {"type": "attack", "piece": "BK" if phase(state).name == "first_attack" else state["attacked"]}


def attack_call(state: State, seat: int, piece: str, now_ms: int, events: list[Event]) -> None:
    first = phase(state).name == "first_attack"
    state["attacked"] = piece
    events.append(Event("attack_call", {"seat": seat, "piece": piece, "first": first}))
    if not first:
        end_trick(state, events)
    flow.open_thrust(state, now_ms)


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

