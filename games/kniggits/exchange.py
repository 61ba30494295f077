"""Attacks and the gesture exchange (K11-K16, V1-V5, V7): who may attack whom, what each
side is asked for, the secret simultaneous picks, and the resolution.

An open exchange is `state["exchange"]`: the two kniggits, the mode, each side's prompt
(`sides`), a `games.choices` round (committed: 🔒 and sha256 per lock) and each seat's
current selection (`drafts`, K16: it counts once clicked and may change until the reveal).
"""

from __future__ import annotations

from typing import Any, Literal

from games import choices
from games.core import Event, IllegalAction, Rng
from games.kniggits import board
from games.kniggits.board import ARMIES, K, active, by_id, cell, id_number
from games.kniggits.geometry import clear_shot, in_range
from games.kniggits.schema import AttackOption, SightLine

HEIGHTS = ("high", "mid", "low")
#: K12: High removes an Attack token, Mid a Defense token, Low a Movement token.
POOL = {"high": "A", "mid": "D", "low": "M"}


# ----- who may attack (K11, V2, V5, V7) ---------------------------------------------------
def melee_ready(state: dict[str, Any], k: K) -> bool:
    """K11: active, not an archer, A ≥ 1, not barred by V7, and an attack left (V2: two)."""
    if not active(k) or k["kind"] == "archer" or k["A"] < 1 or board.sword_barred(k):
        return False
    made = len(k["attacks_made"])
    return made == 0 or (made == 1 and board.magic_sword(state, k))


def melee_targets(state: dict[str, Any], k: K) -> list[K]:
    """K11: the enemy it faces (engaged, active); V2: any engaged active enemy."""
    if not melee_ready(state, k):
        return []
    engaged = board.engaged_enemies(state, k)
    if board.magic_sword(state, k):
        return engaged
    return [e for e in engaged if e["id"] == k["facing"]]


def shot_ready(state: dict[str, Any], k: K) -> bool:
    """V5: an archer that has not moved, active, A ≥ 1, D ≥ 1, not carrying, no shot yet."""
    return (bool(state["options"]["archers"]) and k["kind"] == "archer" and active(k) and not k["moved"]
            and k["A"] >= 1 and k["D"] >= 1 and k["carrying"] is None and not k["attacks_made"])


def shot_targets(state: dict[str, Any], k: K) -> list[K]:
    """V5: active enemies within 2 inches per Range token, in clear line of sight past
    obstacles and every other kniggit on the board."""
    if not shot_ready(state, k):
        return []
    here = cell(k["pos"])
    blocked = board.obstacles(state)
    out = []
    for e in state["kniggits"]:
        if e["army"] == k["army"] or not active(e):
            continue
        there = cell(e["pos"])
        if not in_range(here, there, k["D"]):
            continue
        others = {cell(o["pos"]) for o in board.on_board(state) if o is not k and o is not e}
        if clear_shot(here, there, blocked, others):
            out.append(e)
    return sorted(out, key=lambda e: id_number(e["id"]))


def sight(state: dict[str, Any], k: K) -> list[SightLine]:
    """The `los` overlay (V5): for every active enemy, whether the line is clear past obstacles
    and every other kniggit, and whether it is within 2 inches per Range token, in id order.
    A target is shootable when both hold (and the archer may shoot at all)."""
    here = cell(k["pos"])
    blocked = board.obstacles(state)
    standing = [o for o in board.on_board(state) if o is not k]
    out: list[SightLine] = []
    for e in sorted(state["kniggits"], key=lambda e: id_number(e["id"])):
        if e["army"] == k["army"] or not active(e):
            continue
        there = cell(e["pos"])
        others = {cell(o["pos"]) for o in standing if o is not e}
        out.append({"id": e["id"], "clear": clear_shot(here, there, blocked, others),
                    "in_range": in_range(here, there, k["D"])})
    return out


def strikes_back(state: dict[str, Any], attacker: K, target: K, *, shot: bool) -> bool:
    """K12: the target faces the attacker, is active with A ≥ 1, is not an archer, and is not
    barred by V2 (a repeated attack needs its own magic sword), V3 or V7."""
    if shot or target["facing"] != attacker["id"] or not active(target):
        return False
    if target["A"] < 1 or target["kind"] == "archer" or board.sword_barred(target) or target["guarded_double"]:
        return False
    return target["id"] not in attacker["attacks_made"] or board.magic_sword(state, target)


def attack_options(state: dict[str, Any], seat: int) -> list[AttackOption]:
    """Every legal attacker → target pair of the seat, labelled mutual / one-way / shot."""
    out: list[AttackOption] = []
    mine = sorted((k for k in state["kniggits"] if k["owner"] == seat and k["army"] == state["turn"]["army"]),
                  key=lambda k: id_number(k["id"]))
    for k in mine:
        for e in melee_targets(state, k):
            mode: Literal["mutual", "one_way"] = "mutual" if strikes_back(state, k, e, shot=False) else "one_way"
            out.append({"attacker": k["id"], "target": e["id"], "mode": mode,
                        "action": {"type": "attack", "id": k["id"], "target": e["id"]}})
        for e in shot_targets(state, k):
            out.append({"attacker": k["id"], "target": e["id"], "mode": "shot",
                        "action": {"type": "shoot", "id": k["id"], "target": e["id"]}})
    return out


def check_attack(state: dict[str, Any], seat: int, action: dict[str, Any], *, shot: bool) -> tuple[K, K]:
    """The one check behind both the attack menu and a typed attack."""
    k = by_id(state, action.get("id"))
    target = by_id(state, action.get("target"))
    if k is None or target is None:
        raise IllegalAction("Name your kniggit and its target by id, like A1 B2.", rule="K11")
    if k["owner"] != seat:
        raise IllegalAction("{owner} commands that kniggit.", rule="K1", seats={"owner": k["owner"]})
    if k["army"] != state["turn"]["army"]:
        raise IllegalAction("Only the army whose turn it is attacks.", rule="K11")
    if target["army"] == k["army"]:
        raise IllegalAction("Attack an enemy, not a friend.", rule="K11")
    if not active(target):
        raise IllegalAction(f"{target['id']} has fled: it cannot be targeted.", rule="K14")
    if shot:
        if k["kind"] != "archer" or not state["options"]["archers"]:
            raise IllegalAction(f"{k['id']} has no bow.", rule="V5")
        if k["moved"]:
            raise IllegalAction(f"{k['id']} moved this turn: loading takes the whole turn.", rule="V5")
        if k["carrying"] is not None:
            raise IllegalAction(f"{k['id']} carries a flag: a bow needs both hands.", rule="V7")
        if not shot_ready(state, k):
            raise IllegalAction(f"{k['id']} cannot shoot now (it needs A ≥ 1, D ≥ 1 and no shot yet).", rule="V5")
        if target not in shot_targets(state, k):
            raise IllegalAction(f"{target['id']} is out of range or out of sight of {k['id']}.", rule="V5")
        return k, target
    if k["kind"] == "archer":
        raise IllegalAction("Archers never melee: use shoot.", rule="V5")
    if not active(k):
        raise IllegalAction(f"{k['id']} has fled and cannot attack.", rule="K14")
    if k["A"] < 1:
        raise IllegalAction(f"{k['id']} has no Attack tokens left.", rule="K13")
    if board.sword_barred(k):
        raise IllegalAction(f"{k['id']} holds a flag in its sword hand.", rule="V7")
    if k["attacks_made"] and (len(k["attacks_made"]) >= 2 or not board.magic_sword(state, k)):
        rule = "V2" if state["options"]["magic_swords"] and len(k["attacks_made"]) == 1 else "K11"
        raise IllegalAction(f"{k['id']} has already attacked this turn.", rule=rule)
    if target not in melee_targets(state, k):
        if board.magic_sword(state, k):
            raise IllegalAction(f"{k['id']} is not engaged with {target['id']}.", rule="V2")
        raise IllegalAction(f"{k['id']} attacks only the enemy it faces, engaged.", rule="K11")
    return k, target


# ----- opening an exchange (K12) -----------------------------------------------------
def sword_heights(state: dict[str, Any], k: K, other: K, *, shot: bool) -> list[str]:
    """V1: on foot against a mounted kniggit, no High in melee (arrows are exempt)."""
    if not shot and board.mounted(state, other) and not board.mounted(state, k):
        return ["mid", "low"]
    return list(HEIGHTS)


def open_exchange(state: dict[str, Any], attacker: K, target: K, *, shot: bool) -> list[Event]:
    back = strikes_back(state, attacker, target, shot=shot)
    mode = "shot" if shot else ("mutual" if back else "one_way")
    sides = [{"id": attacker["id"], "seat": attacker["owner"], "role": "attacker",
              "swords": board.swords(attacker), "heights": sword_heights(state, attacker, target, shot=shot),
              "shield": back and board.has_shield(attacker), "double": False}]
    target_side = {"id": target["id"], "seat": target["owner"], "role": "target",
                   "swords": board.swords(target) if back else 0,
                   "heights": sword_heights(state, target, attacker, shot=False) if back else [],
                   "shield": board.has_shield(target), "double": board.can_double_guard(state, target)}
    if target_side["swords"] or target_side["shield"] or target_side["double"]:
        sides.append(target_side)
    state["exchange_no"] += 1
    number = state["exchange_no"]
    box = choices.open_round(f"gesture-{number}", [s["seat"] for s in sides], state["players"],
                             actions=("gesture", "lock"), commit=True)
    state["exchange"] = {"number": number, "attacker": attacker["id"], "target": target["id"], "mode": mode,
                         "sides": sides, "box": box, "drafts": [None] * state["players"]}
    return [Event("attack", {"attacker": attacker["id"], "target": target["id"], "mode": mode,
                             "seats": [s["seat"] for s in sides], "number": number,
                             "attacker_owner": attacker["owner"], "target_owner": target["owner"]})]


def side_of(exchange: dict[str, Any], seat: int) -> dict[str, Any]:
    side: dict[str, Any] | None = next((s for s in exchange["sides"] if s["seat"] == seat), None)
    if side is None:
        raise IllegalAction("Not your fight: only the two kniggits' commanders pick gestures.", rule="K12")
    return side


def _height(value: Any, allowed: list[str] | tuple[str, ...], rule: str, what: str) -> str | None:
    if value is None:
        return None
    if value not in HEIGHTS:
        raise IllegalAction(f"A {what} goes high, mid or low.", rule="K12")
    if value not in allowed:
        raise IllegalAction("On foot you cannot strike High at a mounted kniggit.", rule=rule)
    return str(value)


def verify_pick(state: dict[str, Any], seat: int) -> None:
    """A gesture (or its lock) is the seat's while its side of the open exchange is unlocked."""
    exchange = state["exchange"]
    side_of(exchange, seat)
    choices.verify(exchange["box"], seat)


def set_gesture(state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    """K16: a selection counts once clicked and may change until the reveal (`verify_pick`
    passed; the picks themselves are checked here)."""
    exchange = state["exchange"]
    side = side_of(exchange, seat)
    draft = dict(exchange["drafts"][seat] or {})
    if "double" in action:
        if action["double"] and not side["double"]:
            raise IllegalAction("Guarding with both hands needs D ≥ 5, no bow and no flag.", rule="V3")
        draft["double"] = bool(action["double"])
    double = bool(draft.get("double"))
    if action.get("asked"):  # the panel asked "Lock with no shield?" once (a note in the draft, never a pick)
        draft["asked"] = True
    if "swords" in action:
        picks = action["swords"]
        if side["swords"] != 2 or not isinstance(picks, list) or len(picks) != 2:
            raise IllegalAction("Only a kniggit with two swords picks two sword heights.", rule="V4")
        draft["swords"] = [_height(p, side["heights"], "V1", "sword") for p in picks]
    if "sword" in action:
        if side["swords"] == 0 and not double:
            raise IllegalAction("This kniggit only guards in this exchange: pick a shield.", rule="K12")
        if side["swords"] == 2:
            draft["swords"] = [_height(action["sword"], side["heights"], "V1", "sword")] * 2
        else:
            draft["sword"] = _height(action["sword"], HEIGHTS if double else side["heights"], "V1", "sword")
    if "shield" in action:
        if not side["shield"]:
            raise IllegalAction("This kniggit has no shield to guard with here.", rule="K12")
        draft["shield"] = _height(action["shield"], HEIGHTS, "K12", "shield")
    if not double and draft.get("sword") is not None and side["swords"] == 1 \
            and draft["sword"] not in side["heights"]:
        raise IllegalAction("On foot you cannot strike High at a mounted kniggit.", rule="V1")
    if not double and side["swords"] == 0:
        draft.pop("sword", None)
    if double and draft.get("sword") is not None and draft.get("sword") == draft.get("shield"):
        raise IllegalAction("Guarding with both hands covers two different heights.", rule="V3")
    exchange["drafts"][seat] = draft


def lock(state: dict[str, Any], seat: int, rng: Rng, *, timed_out: bool = False) -> bool:
    """Lock the seat's selection (missing hands fumble, K16); True when every side locked.
    A lock by the timer is remembered, so the reveal says "time ran out" only for those."""
    exchange = state["exchange"]
    if timed_out:
        exchange.setdefault("timed_out", []).append(seat)
    pick = {k: v for k, v in (exchange["drafts"][seat] or {}).items() if k != "asked"}
    return choices.choose(exchange["box"], seat, pick, rng)


# ----- resolution (K13, K14, V1, V3, V4, V7) -----------------------------------------------
def resolve(state: dict[str, Any]) -> list[Event]:
    exchange = state["exchange"]
    picks = choices.reveal(exchange["box"])
    attacker = by_id(state, exchange["attacker"])
    target = by_id(state, exchange["target"])
    assert attacker is not None and target is not None
    strikes: dict[str, list[str]] = {}
    guards: dict[str, set[str]] = {}
    shown: dict[str, dict[str, Any]] = {}
    fumbled: dict[str, list[str]] = {}
    for k in (attacker, target):
        side = next((s for s in exchange["sides"] if s["id"] == k["id"]), None)
        pick = picks.get(side["seat"]) if side is not None else None
        pick = pick or {}
        missing: list[str] = []
        double = bool(side and side["double"] and pick.get("double"))
        hits: list[str] = []
        guard: set[str] = set()
        if side is not None:
            if double:
                guard = {h for h in (pick.get("sword"), pick.get("shield")) if h is not None}
                if len(guard) < 2:
                    missing.append("sword" if pick.get("sword") is None else "shield")
            else:
                if side["swords"] == 2:
                    chosen = list(pick.get("swords") or [None, None])
                    hits = [h for h in chosen if h is not None]
                    missing += ["sword"] * (2 - len(hits))
                elif side["swords"] == 1:
                    if pick.get("sword") is None:
                        missing.append("sword")
                    else:
                        hits = [pick["sword"]]
                if side["shield"]:
                    if pick.get("shield") is None:
                        missing.append("shield")
                    elif k["D"] >= 1:
                        guard = {pick["shield"]}
        strikes[k["id"]], guards[k["id"]] = hits, guard
        shown[k["id"]] = {"sword": pick.get("sword"), "swords": pick.get("swords"),
                          "shield": pick.get("shield"), "double": double}
        if missing:
            fumbled[k["id"]] = missing
        if double:
            k["guarded_double"] = True
    m_before = {k["id"]: k["M"] for k in (attacker, target)}
    lost: list[dict[str, Any]] = []
    for striker, struck in ((attacker, target), (target, attacker)):
        for height in strikes[striker["id"]]:
            if height in guards[struck["id"]]:
                continue
            pool = POOL[height]
            if struck[pool] > 0:  # a pool already at 0 loses nothing
                struck[pool] -= 1
                lost.append({"id": struck["id"], "pool": pool, "lost": 1})
    hits_merged: dict[tuple[str, str], int] = {}
    for hit in lost:
        hits_merged[(hit["id"], hit["pool"])] = hits_merged.get((hit["id"], hit["pool"]), 0) + 1
    attacker["attacks_made"].append(target["id"])
    events: list[Event] = []
    fled: list[str] = []
    dismounted: list[str] = []
    for k in (attacker, target):
        events += settle(state, k, m_before[k["id"]], fled, dismounted)
    result = {
        "number": exchange["number"], "attacker": attacker["id"], "target": target["id"],
        "mode": exchange["mode"], "gestures": shown, "fumbled": fumbled,
        "timed_out": [s["id"] for s in exchange["sides"] if s["seat"] in exchange.get("timed_out", [])],
        "hits": [{"id": i, "pool": p, "lost": n} for (i, p), n in hits_merged.items()],
        "tokens": {k["id"]: [k["M"], k["A"], k["D"]] for k in (attacker, target)},
        "fled": fled, "dismounted": dismounted,
        "round": choices.public(exchange["box"], revealed=True),
    }
    state["last_exchange"] = result
    state["exchange"] = None
    owners = {"attacker_owner": attacker["owner"], "target_owner": target["owner"],
              "owners": {k["id"]: k["owner"] for k in (attacker, target)}}
    return [Event("exchange", {**result, **owners}), *events]


def settle(state: dict[str, Any], k: K, m_before: int, fled: list[str], dismounted: list[str]) -> list[Event]:
    """After hits: V1 dismount below M=5, K14 flight (permanent), V7 the flag drops."""
    events: list[Event] = []
    if not k["horse_lost"] and k["M"] < 5 <= m_before:
        k["horse_lost"] = True
        if state["options"]["horses"]:  # without Horses nobody rode: nothing to tell
            dismounted.append(k["id"])
            events.append(Event("dismounted", {"id": k["id"], "owner": k["owner"]}))
    if active(k) and board.flees(k):
        k["status"] = "fled"
        k["facing"] = None
        fled.append(k["id"])
        events.append(Event("fled", {"id": k["id"], "owner": k["owner"], "pos": list(k["pos"]), "tokens": [k["M"], k["A"], k["D"]]}))
        if k["carrying"] is not None:
            flag = next(f for f in state["map"]["flags"] if f["army"] == k["carrying"])
            flag.update({"carrier": None, "pos": list(k["pos"]), "hand": None})
            events.append(Event("flag_dropped", {"id": k["id"], "owner": k["owner"], "flag": ARMIES[k["carrying"]], "pos": list(k["pos"])}))
            k["carrying"], k["hand"] = None, None
    return events
