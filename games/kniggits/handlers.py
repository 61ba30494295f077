"""Kniggits' dispatch: every action kind of the schema (`schema_actions.Kind`) with its rule
check (`VERIFY`) and its handler (`HANDLERS`), as in Two Fat Dudes.

`verify` is the one check of an action: the game is on, the seat is at the table, the kind
may be sent where the game is (`WHEN`), then the kind's own check. `legal_actions` lists the
candidates it accepts and `play` runs it before the handler, so a handler only does what a
passed check allows (it may still refuse a payload, like a path out of reach). The rules stay
in the modules the handlers route to: `prelude`, `moves`, `turns` and `exchange`.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core import Action, Event, IllegalAction, Rng, State
from games.kniggits import exchange, moves, prelude, turns
from games.kniggits.board import ARMIES, K, by_id
from games.kniggits.schema import Kind
from games.kniggits.schema import Phase as PhaseName
from games.kniggits.state import stage

#: A kind's rule check: raises IllegalAction, changes nothing.
Check = Callable[[State, int, Action], None]
#: A kind's handler: the state (a private copy, changed in place), the seat, the checked action.
Handler = Callable[[State, int, Action], list[Event]]

#: Where each kind may be sent: the phases (an open exchange is "exchange", K12-K16); the
#: kinds not listed (concede, claim_forfeit, handed) may be sent anywhere.
WHEN: dict[Kind, tuple[PhaseName, ...]] = {
    "accept": ("map",), "reroll": ("map",), "army": ("build",), "lock": ("build", "deploy", "exchange"),
    "deploy": ("deploy",), "throw": ("rps",), "gesture": ("exchange",),
    "select": ("move",), "plan": ("move",), "hand": ("move",), "confirm": ("move",), "move": ("move",),
    "cancel": ("move",), "hold": ("move",), "undo": ("move",),
    "done": ("move", "facing", "turning", "fight"), "face": ("move", "facing", "turning"),
    "attack": ("fight",), "shoot": ("fight",), "end_turn": ("fight",),
}
#: How the wrong-phase refusal names each phase.
DURING = {"map": "accepting the map", "build": "army building", "deploy": "deployment",
          "rps": "rock-paper-scissors", "move": "the move phase", "facing": "setting facings",
          "turning": "the turning phase", "fight": "the fight phase", "exchange": "an exchange"}


def verify(state: State, seat: int, action: Action) -> None:
    """The check `legal_actions` and `play` share: refuses what the rules forbid now."""
    kind = action["type"]
    if state["over"] is not None:
        raise IllegalAction("This game is already over.")
    if not isinstance(seat, int) or not 0 <= seat < state["players"]:
        raise IllegalAction("You are not at this table.")
    at = stage(state)
    check = VERIFY.get(kind)
    if check is None or (kind in WHEN and at not in WHEN[kind]):
        raise IllegalAction(f"`{kind}` is not something you can do during {DURING.get(at, at)}.", rule="K4")
    check(state, seat, action)


def _rng(state: State) -> Rng:
    return Rng(state)


def _kniggit(state: State, kid: object) -> K:
    """A kniggit the check found: the handler's copy of it."""
    k = by_id(state, kid)
    assert k is not None
    return k


# ----- any phase ------------------------------------------------------------------------------
def _verify_handed(state: State, seat: int, action: Action) -> None:
    if not isinstance(action.get("left", True), bool):
        raise IllegalAction("Say `left: true` or `left: false`.", rule="K1")


def _handed(state: State, seat: int, action: Action) -> list[Event]:
    """§4 left-handedness: any seat, any phase; it mirrors the art and relabels panels only,
    so it is no turn's action (the forfeit count ignores it) and never listed for random play."""
    left = action.get("left", True)
    hands = state.get("left_handed") or [False] * state["players"]
    hands[seat] = left
    state["left_handed"] = hands
    return [Event("handed", {"seat": seat, "left": left})]


def _concede(state: State, seat: int, action: Action) -> list[Event]:
    army = turns.army_of(state, seat)
    return [Event("concede", {"seat": seat, "army": ARMIES[army]}),
            *turns.finish(state, 1 - army, "concede", seat=seat)]


def _claim_forfeit(state: State, seat: int, action: Action) -> list[Event]:
    idle = turns.claimable(state)
    assert idle is not None
    return turns.finish(state, 1 - idle, "forfeit_claim", seat=seat, idle=ARMIES[idle])


# ----- the prelude: the map, armies, deployment, rock-paper-scissors ----------------------------
def _verify_lock(state: State, seat: int, action: Action) -> None:
    at = stage(state)
    if at == "build":
        prelude.verify_build(state, seat)
    elif at == "deploy":
        prelude.verify_deploy(state, seat)
    else:
        exchange.verify_pick(state, seat)


def _lock(state: State, seat: int, action: Action) -> list[Event]:
    at = stage(state)
    if at == "build":
        return prelude.lock_army(state, seat, _rng(state))
    if at == "deploy":
        return prelude.lock_deploy(state, seat, _rng(state))
    return turns.lock_gesture(state, seat, _rng(state), timed_out=bool(action.get("timeout")))


# ----- the move phase (K5-K8, V7) ---------------------------------------------------------------
def _verify_moving(state: State, seat: int) -> None:
    """The seat's army moves and the seat has not pressed Done."""
    turn = state["turn"]
    if turns.army_of(state, seat) != turn["army"]:
        raise IllegalAction("It is the other army's turn to move.", rule="K4")
    if seat in turn["done"]:
        raise IllegalAction("You are done moving this turn.", rule="K4")


def _verify_mover(state: State, seat: int, action: Action) -> None:
    """A move-panel action on one of the seat's kniggits that may still move (K6)."""
    _verify_moving(state, seat)
    moves.own_mover(state, seat, action.get("id"))


def _select(state: State, seat: int, action: Action) -> list[Event]:
    k = _kniggit(state, action.get("id"))
    state["cursor"][seat] = k["id"]
    if k["id"] in state["turn"]["held"]:
        state["turn"]["held"].remove(k["id"])
    return []


def _plan(state: State, seat: int, action: Action) -> list[Event]:
    plan = moves.make_plan(state, seat, action)
    state["plans"][seat] = plan
    state["cursor"][seat] = plan["id"]
    return []


def _verify_hand(state: State, seat: int, action: Action) -> None:
    _verify_moving(state, seat)
    plan = state["plans"][seat]
    if plan is None or plan["flag_action"] != "take":
        raise IllegalAction("Choose a hand when the previewed move takes a flag.", rule="V7")
    if action.get("hand") not in ("sword", "shield"):
        raise IllegalAction("A flag is held in the sword hand or the shield hand.", rule="V7")


def _hand(state: State, seat: int, action: Action) -> list[Event]:
    state["plans"][seat]["hand"] = action["hand"]
    return []


def _verify_confirm(state: State, seat: int, action: Action) -> None:
    _verify_moving(state, seat)
    moves.verify_confirm(state, seat)


def _confirm(state: State, seat: int, action: Action) -> list[Event]:
    events = moves.confirm(state, seat)
    state["cursor"][seat] = None
    return events


def _move(state: State, seat: int, action: Action) -> list[Event]:
    """Plan and confirm at once (the slash command): the plan is fresh, so no re-check."""
    plan = moves.make_plan(state, seat, action)
    state["cursor"][seat] = None
    return moves.apply_move(state, seat, plan)


def _cancel(state: State, seat: int, action: Action) -> list[Event]:
    state["plans"][seat] = None
    return []


def _hold(state: State, seat: int, action: Action) -> list[Event]:
    k = _kniggit(state, action.get("id"))
    if k["id"] not in state["turn"]["held"]:
        state["turn"]["held"].append(k["id"])
    if state["cursor"][seat] == k["id"]:
        state["cursor"][seat] = None
    if state["plans"][seat] is not None and state["plans"][seat]["id"] == k["id"]:
        state["plans"][seat] = None
    return [Event("held", {"id": k["id"], "seat": seat, "owner": k["owner"]})]


def _verify_undo(state: State, seat: int, action: Action) -> None:
    _verify_moving(state, seat)
    moves.verify_undo(state, seat)


# ----- Done: the move, facing, turning and fight phases' own (K4, K9-K11) ------------------------
def _verify_done(state: State, seat: int, action: Action) -> None:
    at = stage(state)
    if at == "move":
        turns.verify_done_moving(state, seat)
    elif at == "facing":
        turns.verify_done_facing(state, seat)
    elif at == "turning":
        turns.verify_done_turning(state, seat)
    else:
        turns.verify_end_fighting(state, seat)


def _done(state: State, seat: int, action: Action) -> list[Event]:
    at = stage(state)
    if at == "move":
        return turns.done_moving(state, seat)
    if at == "facing":
        return turns.done_facing(state, seat)
    if at == "turning":
        return turns.done_turning(state, seat)
    return turns.end_fighting(state, seat)


def _nothing(state: State, seat: int, action: Action) -> None:
    """No check beyond the phase: the kind may always be sent there."""


#: Every action kind of the schema and its rule check, shared by `legal_actions` and `play`
#: (through `verify`, after `WHEN`).
VERIFY: dict[Kind, Check] = {
    "accept": lambda state, seat, action: prelude.verify_accept(state, seat),
    "reroll": lambda state, seat, action: prelude.verify_reroll(state, seat),
    "army": lambda state, seat, action: prelude.verify_build(state, seat),
    "lock": _verify_lock,
    "deploy": lambda state, seat, action: prelude.verify_deploy(state, seat),
    "throw": prelude.verify_throw,
    "gesture": lambda state, seat, action: exchange.verify_pick(state, seat),
    "select": _verify_mover,
    "plan": _verify_mover,
    "move": _verify_mover,
    "hand": _verify_hand,
    "confirm": _verify_confirm,
    "cancel": lambda state, seat, action: _verify_moving(state, seat),
    "hold": _verify_mover,
    "undo": _verify_undo,
    "done": _verify_done,
    "face": turns.verify_face,
    "attack": lambda state, seat, action: turns.verify_attack(state, seat, action, shot=False),
    "shoot": lambda state, seat, action: turns.verify_attack(state, seat, action, shot=True),
    "end_turn": lambda state, seat, action: turns.verify_end_fighting(state, seat),
    "claim_forfeit": lambda state, seat, action: turns.verify_claim(state, seat),
    "concede": _nothing,
    "handed": _verify_handed,
}

#: Every action kind of the schema and its handler; `play` looks the kind up here.
HANDLERS: dict[Kind, Handler] = {
    "accept": lambda state, seat, action: prelude.accept(state, seat),
    "reroll": lambda state, seat, action: prelude.reroll(state, seat),
    "army": prelude.draft_army,
    "lock": _lock,
    "deploy": prelude.deploy,
    "throw": lambda state, seat, action: prelude.throw(state, seat, action, _rng(state)),
    "gesture": lambda state, seat, action: turns.gesture(state, seat, action, _rng(state)),
    "select": _select,
    "plan": _plan,
    "move": _move,
    "hand": _hand,
    "confirm": _confirm,
    "cancel": _cancel,
    "hold": _hold,
    "undo": lambda state, seat, action: moves.undo(state, seat),
    "done": _done,
    "face": turns.face,
    "attack": lambda state, seat, action: turns.attack(state, seat, action, shot=False),
    "shoot": lambda state, seat, action: turns.attack(state, seat, action, shot=True),
    "end_turn": lambda state, seat, action: turns.end_fighting(state, seat),
    "claim_forfeit": _claim_forfeit,
    "concede": _concede,
    "handed": _handed,
}
