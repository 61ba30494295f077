"""Kniggits' rule checks: every action kind of the schema (`schema_actions.Kind`) with its
check (`VERIFY`), as in Two Fat Dudes; the handlers that do each kind are in `handlers.py`.

`verify` is the one check of an action: the game is on, the seat is at the table, the kind
may be sent where the game is (`WHEN`), then the kind's own check. `legal_actions` lists the
candidates it accepts and `play` runs it before the handler, so a handler only does what a
passed check allows (it may still refuse a payload, like a path out of reach). The rules stay
in the modules the checks route to: `prelude`, `moves`, `turns` and `exchange`.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core import Action, IllegalAction, State
from games.kniggits import exchange, moves, prelude, turns
from games.kniggits.schema import Kind
from games.kniggits.schema import Phase as PhaseName
from games.kniggits.state import stage

#: A kind's rule check: raises IllegalAction, changes nothing.
Check = Callable[[State, int, Action], None]

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


# ----- any phase ------------------------------------------------------------------------------
def _verify_handed(state: State, seat: int, action: Action) -> None:
    if not isinstance(action.get("left", True), bool):
        raise IllegalAction("Say `left: true` or `left: false`.", rule="K1")


# ----- the prelude: the map, armies, deployment, rock-paper-scissors ----------------------------
def _verify_lock(state: State, seat: int, action: Action) -> None:
    at = stage(state)
    if at == "build":
        prelude.verify_build(state, seat)
    elif at == "deploy":
        prelude.verify_deploy(state, seat)
    else:
        exchange.verify_pick(state, seat)


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


def _verify_hand(state: State, seat: int, action: Action) -> None:
    _verify_moving(state, seat)
    plan = state["plans"][seat]
    if plan is None or plan["flag_action"] != "take":
        raise IllegalAction("Choose a hand when the previewed move takes a flag.", rule="V7")
    if action.get("hand") not in ("sword", "shield"):
        raise IllegalAction("A flag is held in the sword hand or the shield hand.", rule="V7")


def _verify_confirm(state: State, seat: int, action: Action) -> None:
    _verify_moving(state, seat)
    moves.verify_confirm(state, seat)


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
