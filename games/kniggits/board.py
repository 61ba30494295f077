"""The battlefield as the rules read it: kniggit records (2.4), live abilities (K5, K14,
V1-V5, V7), engagement (2.2), the terrain a mover sees (K6-K8), zones (2.6) and strength (K17).

State layout used here: `state["kniggits"]` is a list of records
`{id, army (0|1), owner, name, kind, two_swords, pos [x,y], facing, heading, M, A, D, status,
horse_lost, moved, attacks_made, guarded_double, carrying (0|1|None), hand}`;
`state["map"]` holds `obstacles`, `potions` and `flags`.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import orjson

from games.kniggits.geometry import ENGAGE_RANGE2, Cell, engaged
from games.kniggits.paths import Terrain

ARMIES = ("A", "B")
DIRECTION_NAMES = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")
ZONE_DEPTH = 6

K = dict[str, Any]


def cell(xy: list[int] | tuple[int, int]) -> Cell:
    return (int(xy[0]), int(xy[1]))


def other(army: int) -> int:
    return 1 - army


def home_row(state: dict[str, Any], army: int) -> int:
    """2.1: Army A's home row is y=1, Army B's y=H."""
    return 1 if army == 0 else state["height"]


def zone(state: dict[str, Any], army: int) -> tuple[int, int]:
    """2.6: rows within 6 inches of the army's own edge."""
    height = state["height"]
    return (1, ZONE_DEPTH) if army == 0 else (height - ZONE_DEPTH + 1, height)


def in_zone(state: dict[str, Any], army: int, xy: Cell) -> bool:
    low, high = zone(state, army)
    return 1 <= xy[0] <= state["width"] and low <= xy[1] <= high


def by_id(state: dict[str, Any], kid: Any) -> K | None:
    if not isinstance(kid, str):
        return None
    return next((k for k in state["kniggits"] if k["id"] == kid.upper()), None)


def id_number(kid: str) -> int:
    return int(kid[1:])


def on_board(state: dict[str, Any]) -> list[K]:
    """Kniggits standing on the battlefield (active or fled)."""
    return [k for k in state["kniggits"] if k["status"] != "gone"]


def active(k: K) -> bool:
    return bool(k["status"] == "active")


def army_active(state: dict[str, Any], army: int) -> list[K]:
    return [k for k in state["kniggits"] if k["army"] == army and active(k)]


# ----- abilities, live (K5, K14, V1-V5, V7) ---------------------------------------------
def mounted(state: dict[str, Any], k: K) -> bool:
    """V1: M ≥ 5 and the horse never lost."""
    return bool(state["options"]["horses"]) and k["M"] >= 5 and not k["horse_lost"]


def allowance(state: dict[str, Any], k: K) -> int:
    """K5: 2 inches per M token, capped at 12 (uncapped when mounted, V1); a 2-inch crawl at M=0."""
    m: int = k["M"]
    if m == 0:
        return 2
    if mounted(state, k):
        return 2 * m
    return min(2 * m, 12)


def magic_sword(state: dict[str, Any], k: K) -> bool:
    """V2: A ≥ 5, not two swords, not an archer (the threshold is followed live)."""
    return bool(state["options"]["magic_swords"]) and k["A"] >= 5 and not k["two_swords"] and k["kind"] != "archer"


def can_double_guard(state: dict[str, Any], k: K) -> bool:
    """V3: D ≥ 5, not an archer, not carrying."""
    return (bool(state["options"]["double_defence"]) and k["D"] >= 5 and k["kind"] != "archer"
            and k["carrying"] is None and not k["two_swords"])


def has_shield(k: K) -> bool:
    """K12: no shield with D=0, for an archer, a two-sword kniggit or a shield-hand carrier."""
    return (k["D"] >= 1 and k["kind"] != "archer" and not k["two_swords"]
            and not (k["carrying"] is not None and k["hand"] == "shield"))


def sword_barred(k: K) -> bool:
    """V7: a sword-hand carrier makes no attack, strike back or shot (two swords keep one)."""
    return k["carrying"] is not None and k["hand"] == "sword" and not k["two_swords"]


def swords(k: K) -> int:
    """How many swords strike: two for V4 unless one hand holds a flag."""
    if k["two_swords"]:
        return 1 if k["carrying"] is not None else 2
    return 1


def flees(k: K) -> bool:
    """K14: at most one nonzero pool."""
    return sum(1 for pool in ("M", "A", "D") if k[pool] > 0) <= 1


def strength(state: dict[str, Any], army: int) -> int:
    """K17: Σ(5+M+A+D) over the army's active kniggits."""
    return sum(5 + k["M"] + k["A"] + k["D"] for k in army_active(state, army))


# ----- engagement (2.2) ---------------------------------------------------------------
def obstacles(state: dict[str, Any]) -> frozenset[Cell]:
    return _obstacle_set(orjson.dumps(state["map"]["obstacles"]))


@lru_cache(maxsize=256)
def _obstacle_set(dumped: bytes) -> frozenset[Cell]:
    """A pure memo (same list, same set): the set is rebuilt for every question otherwise."""
    return frozenset((x, y) for x, y in orjson.loads(dumped))


def engaged_enemies(state: dict[str, Any], k: K, blocked: frozenset[Cell] | None = None) -> list[K]:
    """Active enemies engaged with an active kniggit, nearest first, then lowest id."""
    if not active(k):
        return []
    hx, hy = k["pos"]
    army = k["army"]
    near = []
    for e in state["kniggits"]:  # cheap distance test first: most pairs are far apart
        if e["army"] == army or e["status"] != "active":
            continue
        ex, ey = e["pos"]
        d2 = (ex - hx) ** 2 + (ey - hy) ** 2
        if 0 < d2 <= ENGAGE_RANGE2:
            near.append((d2, id_number(e["id"]), e))
    if not near:
        return []
    blocked = obstacles(state) if blocked is None else blocked
    here = (int(hx), int(hy))
    near.sort(key=lambda t: (t[0], t[1]))
    return [e for _d2, _n, e in near if engaged(here, cell(e["pos"]), blocked)]


def engaged_pairs(state: dict[str, Any]) -> list[list[str]]:
    blocked = obstacles(state)
    out = []
    for k in state["kniggits"]:
        if k["army"] == 0:
            out += [[k["id"], e["id"]] for e in engaged_enemies(state, k, blocked)]
    return sorted(out, key=lambda p: (id_number(p[0]), id_number(p[1])))


def facing_valid(state: dict[str, Any], k: K) -> bool:
    """K9: a facing counts only while the two are engaged."""
    target = by_id(state, k["facing"]) if k["facing"] else None
    return target is not None and any(e["id"] == target["id"] for e in engaged_enemies(state, k))


def heading_to(src: Cell, dst: Cell) -> str:
    """The nearest of the eight compass headings from `src` toward `dst` (cosmetic)."""
    angle = math.degrees(math.atan2(dst[1] - src[1], dst[0] - src[0])) % 360
    return DIRECTION_NAMES[int((angle + 22.5) // 45) % 8]


def face(state: dict[str, Any], k: K, target: K) -> None:
    k["facing"] = target["id"]
    k["heading"] = heading_to(cell(k["pos"]), cell(target["pos"]))


# ----- the terrain a mover sees (K6-K8, V7) ----------------------------------------------
def terrain_for(state: dict[str, Any], k: K) -> Terrain:
    """Obstacles; every enemy on the board impassable, the active ones engaging; friends
    passable; flag home cells reserved, except the enemy flag's home while it lies there."""
    enemies, enemy_active, friends = set(), set(), set()
    for other_k in on_board(state):
        if other_k is k:
            continue
        here = cell(other_k["pos"])
        if other_k["army"] != k["army"]:
            enemies.add(here)
            if active(other_k):
                enemy_active.add(here)
        else:
            friends.add(here)
    reserved = set()
    for flag in state["map"]["flags"]:
        home = cell(flag["home"])
        takeable = (flag["army"] != k["army"] and flag["carrier"] is None and flag["pos"] is not None
                    and cell(flag["pos"]) == home and active(k) and k["carrying"] is None)
        if not takeable:
            reserved.add(home)
    return Terrain(state["width"], state["height"], obstacles(state), frozenset(enemies),
                   frozenset(enemy_active), frozenset(friends), frozenset(reserved))
