"""Kniggits' handlers: every action kind of the schema (`schema_actions.Kind`) and what it
does (`HANDLERS`), as in Two Fat Dudes; `play` runs the kind's rule check (`checks.verify`)
first, so a handler only does what a passed check allows (it may still refuse a payload, like
a path out of reach). The rules stay in the modules the handlers route to: `prelude`, `moves`,
`turns` and `exchange`.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core import Action, Event, Rng, State
from games.kniggits import moves, prelude, turns
from games.kniggits.board import ARMIES, K, by_id
from games.kniggits.schema import Kind
from games.kniggits.state import stage

#: A kind's handler: the state (a private copy, changed in place), the seat, the checked action.
Handler = Callable[[State, int, Action], list[Event]]


def _rng(state: State) -> Rng:
    return Rng(state)


def _kniggit(state: State, kid: object) -> K:
    """A kniggit the check found: the handler's copy of it."""
    k = by_id(state, kid)
    assert k is not None
    return k


# ----- any phase ------------------------------------------------------------------------------
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
def _lock(state: State, seat: int, action: Action) -> list[Event]:
    at = stage(state)
    if at == "build":
        return prelude.lock_army(state, seat, _rng(state))
    if at == "deploy":
        return prelude.lock_deploy(state, seat, _rng(state))
    return turns.lock_gesture(state, seat, _rng(state), timed_out=bool(action.get("timeout")))


# ----- the move phase (K5-K8, V7) ---------------------------------------------------------------
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


def _hand(state: State, seat: int, action: Action) -> list[Event]:
    state["plans"][seat]["hand"] = action["hand"]
    return []


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


# ----- Done: the move, facing, turning and fight phases' own (K4, K9-K11) ------------------------
def _done(state: State, seat: int, action: Action) -> list[Event]:
    at = stage(state)
    if at == "move":
        return turns.done_moving(state, seat)
    if at == "facing":
        return turns.done_facing(state, seat)
    if at == "turning":
        return turns.done_turning(state, seat)
    return turns.end_fighting(state, seat)


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
