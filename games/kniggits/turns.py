"""The turn (K4): the fled run, the move phase, facings (K9), the opponent's turning (K10),
attacks one at a time (K11), the flags reset, and every victory check (K2, K17, V7).

Each function takes the state in place and returns the events it caused; the phase that
follows is entered here, so the engine's dispatcher only routes actions.
"""

from __future__ import annotations

from typing import Any

from games import afk
from games.core import Event, IllegalAction, Rng
from games.kniggits import board, exchange, moves
from games.kniggits.board import ARMIES, K, active, by_id, cell, id_number
from games.kniggits.geometry import dist2
from games.kniggits.state import phase

#: K17: an army that sat out this many of its own turns in a row may be claimed a forfeit from.
IDLE_TURNS = 3


def army_of(state: dict[str, Any], seat: int) -> int:
    return 0 if seat in state["armies"][0] else 1


def claimable(state: dict[str, Any]) -> int | None:
    """K17: the army the other may claim a forfeit from (it sat out its last turns), if any."""
    if state["over"] is not None:
        return None
    for army in (0, 1):
        if state["idle"][army] >= IDLE_TURNS:
            return army
    return None


def can_claim(state: dict[str, Any], seat: int) -> bool:
    return claimable(state) == 1 - army_of(state, seat)


def verify_claim(state: dict[str, Any], seat: int) -> None:
    idle = claimable(state)
    if idle is None or idle == army_of(state, seat):
        raise IllegalAction("A forfeit can be claimed only after the other army sat out "
                            f"{IDLE_TURNS} of its own turns in a row.", rule="K17")


def finish(state: dict[str, Any], winner: int | None, reason: str, **detail: Any) -> list[Event]:
    """The game is over: `winner` an army index, None for a draw."""
    state["phase"] = "over"
    state["exchange"] = None
    state["over"] = {"winner": winner, "reason": reason,
                     "strength": [board.strength(state, 0), board.strength(state, 1)], **detail}
    return [Event("victory", {"winner": ARMIES[winner] if winner is not None else None, "reason": reason,
                              "strength": {"A": state["over"]["strength"][0], "B": state["over"]["strength"][1]},
                              **detail})]


def annihilation(state: dict[str, Any]) -> list[Event]:
    """K17: an army with no active kniggits loses; both at once is a draw."""
    left = [len(board.army_active(state, a)) for a in (0, 1)]
    if left[0] == 0 and left[1] == 0:
        return finish(state, None, "annihilation")
    if left[0] == 0 or left[1] == 0:
        return finish(state, 0 if left[0] else 1, "annihilation")
    return []


# ----- the turn ------------------------------------------------------------------------
def start_game(state: dict[str, Any], first: int) -> list[Event]:
    state["turn"] = {"round": 1, "army": first, "first": first, "done": [], "held": [], "faced": [],
                     "turned": [], "history": [], "facing": {}, "exchanges": 0, "acted": False}
    return start_turn(state)


def start_turn(state: dict[str, Any]) -> list[Event]:
    """K4 (0) the fled run, then (1) the move phase."""
    turn = state["turn"]
    turn.update({"done": [], "held": [], "faced": [], "turned": [], "history": [], "facing": {},
                 "exchanges": 0, "acted": False})
    state["plans"] = [None] * state["players"]
    state["cursor"] = [None] * state["players"]
    events = [Event("turn", {"army": ARMIES[turn["army"]], "round": turn["round"]})]
    events += moves.run_fled(state, turn["army"])
    state["phase"] = "move"
    turn["done"] = [s for s in state["armies"][turn["army"]] if not _commands_active(state, s)]
    if _all_done(state, turn["army"]):
        events += end_move_phase(state)
    return events


def _commands_active(state: dict[str, Any], seat: int) -> bool:
    return any(k["owner"] == seat and active(k) for k in state["kniggits"])


def _all_done(state: dict[str, Any], army: int) -> bool:
    return all(s in state["turn"]["done"] for s in state["armies"][army])


def verify_done_moving(state: dict[str, Any], seat: int) -> None:
    if army_of(state, seat) != state["turn"]["army"]:
        raise IllegalAction("It is the other army's turn to move.", rule="K4")
    if seat in state["turn"]["done"]:
        raise IllegalAction("You are already done moving this turn.", rule="K4")


def done_moving(state: dict[str, Any], seat: int) -> list[Event]:
    turn = state["turn"]
    turn["done"].append(seat)
    state["plans"][seat] = None
    events = [Event("done", {"seat": seat, "phase": "move"})]
    if _all_done(state, turn["army"]):
        events += end_move_phase(state)
    return events


def end_move_phase(state: dict[str, Any]) -> list[Event]:
    """Unmoved kniggits hold; V7 the flag win; then K9 facings."""
    turn = state["turn"]
    army = turn["army"]
    state["plans"] = [None] * state["players"]
    if state["options"]["scenario"] == "flag":
        for k in sorted(board.army_active(state, army), key=lambda k: id_number(k["id"])):
            if k["carrying"] is not None and board.in_zone(state, army, cell(k["pos"])):
                return finish(state, army, "flag", carrier=k["id"], carrier_owner=k["owner"])
    pending: dict[str, list[str]] = {}
    for k in board.army_active(state, army):
        if k["kind"] == "archer":
            continue  # archers never melee
        enemies = board.engaged_enemies(state, k)
        if len(enemies) == 1:
            board.face(state, k, enemies[0])
        elif len(enemies) > 1:
            if k["id"] in turn["faced"] and board.facing_valid(state, k):
                continue
            pending[k["id"]] = [e["id"] for e in enemies]
    turn["facing"] = pending
    turn["done"] = []
    if pending:
        state["phase"] = "facing"
        return [Event("phase", {"phase": "facing", "army": ARMIES[army], "ids": sorted(pending, key=id_number)})]
    return start_turning(state)


def facing_seats(state: dict[str, Any]) -> list[int]:
    pending = state["turn"]["facing"]
    return sorted({k["owner"] for kid in pending if (k := by_id(state, kid)) is not None})


def _already_faced(state: dict[str, Any]) -> list[str]:
    """The kniggits turned by hand in this phase: the move phase's and the turning phase's."""
    at, turn = phase(state).name, state["turn"]
    faced: list[str] = turn["faced"] if at == "move" else turn["turned"] if at == "turning" else []
    return faced


def verify_face(state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    """K9 / K10: an engaged kniggit of the seat's may turn toward one of its engaged active
    enemies (in the move, facing or turning phase)."""
    k = by_id(state, action.get("id"))
    target = by_id(state, action.get("target"))
    at, turn = phase(state).name, state["turn"]
    rule = "K10" if at == "turning" else "K9"
    if k is None or target is None:
        raise IllegalAction("Name the kniggit and the enemy it faces, like A1 B2.", rule=rule)
    if k["owner"] != seat:
        raise IllegalAction("{owner} commands that kniggit.", rule="K1", seats={"owner": k["owner"]})
    own_turn = k["army"] == turn["army"]
    if at == "turning" and own_turn:
        raise IllegalAction("Now the other army turns to face its attackers.", rule="K10")
    if at in ("move", "facing") and not own_turn:
        raise IllegalAction("You turn your kniggits in the turning phase, after the moves.", rule="K10")
    if at == "turning" and seat in turn["done"]:
        raise IllegalAction("You are done turning this phase.", rule="K10")
    if k["kind"] == "archer":
        raise IllegalAction("Archers never melee, so they never face an enemy.", rule="K9")
    enemies = board.engaged_enemies(state, k)
    if target["id"] not in [e["id"] for e in enemies]:
        raise IllegalAction(f"{k['id']} can face only an active enemy it is engaged with.", rule=rule)
    # The same turn twice (a double press, a command sent again) is refused, not logged twice.
    if k["id"] in _already_faced(state) and k["facing"] == target["id"]:
        raise IllegalAction(f"{k['id']} already faces {target['id']}.", rule=rule)


def face(state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[Event]:
    """Turn the kniggit (`verify_face` passed); in the facing phase, the last one starts K10."""
    k, target = by_id(state, action["id"]), by_id(state, action["target"])
    assert k is not None and target is not None
    turn, already = state["turn"], _already_faced(state)
    board.face(state, k, target)
    events = [Event("faced", {"id": k["id"], "target": target["id"], "owner": k["owner"],
                              "target_owner": target["owner"]})]
    if phase(state).name == "facing":
        turn["facing"].pop(k["id"], None)
        if not turn["facing"]:
            events += start_turning(state)
    elif k["id"] not in already:
        already.append(k["id"])
    return events


def done_facing(state: dict[str, Any], seat: int) -> list[Event]:
    """K9 timeout (or Done): the rest face the nearest enemy, then the lowest id."""
    turn = state["turn"]
    events = []
    for kid in sorted(turn["facing"], key=id_number):
        k = by_id(state, kid)
        if k is not None and k["owner"] == seat:
            target = board.engaged_enemies(state, k)[0]
            board.face(state, k, target)
            del turn["facing"][kid]
            events.append(Event("faced", {"id": kid, "target": target["id"], "default": True,
                                          "owner": k["owner"], "target_owner": target["owner"]}))
    if not turn["facing"]:
        events += start_turning(state)
    return events


def turners(state: dict[str, Any]) -> list[K]:
    """K10: the opponent's engaged non-archer active kniggits."""
    army = board.other(state["turn"]["army"])
    return [k for k in board.army_active(state, army) if k["kind"] != "archer" and board.engaged_enemies(state, k)]


def turning_seats(state: dict[str, Any]) -> list[int]:
    return sorted({k["owner"] for k in turners(state)} - set(state["turn"]["done"]))


def start_turning(state: dict[str, Any]) -> list[Event]:
    state["turn"]["done"] = []
    if not turners(state):
        return start_fight(state)
    state["phase"] = "turning"
    return [Event("phase", {"phase": "turning", "army": ARMIES[board.other(state["turn"]["army"])]})]


def k10_default(state: dict[str, Any], k: K) -> K:
    """K10 timeout: keep a valid facing; else the nearest engaged enemy facing it; else the
    nearest engaged enemy (equally near: lowest id)."""
    enemies = board.engaged_enemies(state, k)
    current = next((e for e in enemies if e["id"] == k["facing"]), None)
    if current is not None:
        return current
    facing_me = [e for e in enemies if e["facing"] == k["id"]]
    return facing_me[0] if facing_me else enemies[0]


def verify_done_facing(state: dict[str, Any], seat: int) -> None:
    if seat not in facing_seats(state):
        raise IllegalAction("None of your kniggits has a facing to choose.", rule="K9")


def verify_done_turning(state: dict[str, Any], seat: int) -> None:
    if seat not in turning_seats(state):
        raise IllegalAction("You have no engaged kniggit to turn now.", rule="K10")
    if seat in state["turn"]["done"]:
        raise IllegalAction("You are done turning this phase.", rule="K10")


def done_turning(state: dict[str, Any], seat: int) -> list[Event]:
    turn = state["turn"]
    events = []
    for k in sorted(turners(state), key=lambda k: id_number(k["id"])):
        if k["owner"] == seat and k["id"] not in turn["turned"]:
            target = k10_default(state, k)
            if k["facing"] != target["id"]:
                events.append(Event("faced", {"id": k["id"], "target": target["id"], "default": True,
                                              "owner": k["owner"], "target_owner": target["owner"]}))
            board.face(state, k, target)
    turn["done"].append(seat)
    events.append(Event("done", {"seat": seat, "phase": "turning"}))
    if not turning_seats(state):
        events += start_fight(state)
    return events


# ----- fighting (K11) ----------------------------------------------------------------
def fight_seats(state: dict[str, Any]) -> list[int]:
    """The active army's seats not done that still have a legal attack."""
    turn = state["turn"]
    return [s for s in state["armies"][turn["army"]]
            if s not in turn["done"] and exchange.attack_options(state, s)]


def start_fight(state: dict[str, Any]) -> list[Event]:
    state["phase"] = "fight"
    state["turn"]["done"] = []
    if not fight_seats(state):
        return end_turn(state)
    return [Event("phase", {"phase": "fight", "army": ARMIES[state["turn"]["army"]]})]


def verify_attack(state: dict[str, Any], seat: int, action: dict[str, Any], *, shot: bool) -> None:
    if seat in state["turn"]["done"]:
        raise IllegalAction("You ended your fighting this turn.", rule="K11")
    exchange.check_attack(state, seat, action, shot=shot)


def attack(state: dict[str, Any], seat: int, action: dict[str, Any], *, shot: bool) -> list[Event]:
    """Open the exchange of an attack `verify_attack` passed."""
    attacker, target = by_id(state, action["id"]), by_id(state, action["target"])
    assert attacker is not None and target is not None
    state["turn"]["exchanges"] += 1
    return exchange.open_exchange(state, attacker, target, shot=shot)


def gesture(state: dict[str, Any], seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
    exchange.set_gesture(state, seat, action)
    if action.get("lock"):
        return lock_gesture(state, seat, rng)
    return []


def lock_gesture(state: dict[str, Any], seat: int, rng: Rng, *, timed_out: bool = False) -> list[Event]:
    number = state["exchange"]["number"]
    events = [Event("locked", {"seat": seat, "exchange": number})]
    if exchange.lock(state, seat, rng, timed_out=timed_out):
        events += exchange.resolve(state)
        events += after_exchange(state)
    return events


def after_exchange(state: dict[str, Any]) -> list[Event]:
    """K4: victory after every exchange; then the next attack, or the turn ends."""
    over = annihilation(state)
    if over:
        return over
    if not fight_seats(state):
        return end_turn(state)
    return []


def verify_end_fighting(state: dict[str, Any], seat: int) -> None:
    if army_of(state, seat) != state["turn"]["army"]:
        raise IllegalAction("Only the army whose turn it is fights.", rule="K11")
    if seat in state["turn"]["done"]:
        raise IllegalAction("You already ended your turn.", rule="K11")


def end_fighting(state: dict[str, Any], seat: int) -> list[Event]:
    turn = state["turn"]
    turn["done"].append(seat)
    events = [Event("done", {"seat": seat, "phase": "fight"})]
    if not fight_seats(state):
        events += end_turn(state)
    return events


def end_turn(state: dict[str, Any]) -> list[Event]:
    """K4 (4) the turn flags reset; K17 the turn limit when a round ends; the forfeit count."""
    turn = state["turn"]
    army = turn["army"]
    for k in state["kniggits"]:
        k["moved"], k["attacks_made"], k["guarded_double"] = False, [], False
    idle = afk.tally(state["idle"], army, missed=not turn["acted"])
    events = [Event("turn_end", {"army": ARMIES[army], "round": turn["round"]})]
    if idle == IDLE_TURNS:  # its commanders are away: the other army may claim
        events += [Event("afk", {"seat": seat, "army": ARMIES[army], "turns": IDLE_TURNS})
                   for seat in state["armies"][army]]
    if army != turn["first"]:
        if turn["round"] >= state["options"]["rounds"]:
            strength = [board.strength(state, 0), board.strength(state, 1)]
            winner = None if strength[0] == strength[1] else (0 if strength[0] > strength[1] else 1)
            return events + finish(state, winner, "on_points", on_points=True)
        turn["round"] += 1
    turn["army"] = board.other(army)
    return events + start_turn(state)


def nearest_first(state: dict[str, Any], k: K, ids: list[str]) -> list[str]:
    here = cell(k["pos"])
    found = [e for e in (by_id(state, i) for i in ids) if e is not None]
    return [e["id"] for e in sorted(found, key=lambda e: (dist2(here, cell(e["pos"])), id_number(e["id"])))]
