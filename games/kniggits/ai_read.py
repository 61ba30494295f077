"""The computer player's reading of a Kniggits view: kniggits by id, who is engaged, what a
kniggit is worth, the terrain a mover sees, and which cells a foe could threaten.

Everything here reads the seat's view (`KniggitsEngine.view(state, seat)`) and the engine's
pure geometry helpers, never the state: the view's kniggits, obstacles, flags and engaged
pairs are public, so the computer knows exactly what a player at the table knows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from games.kniggits.geometry import Cell, dist2, engaged
from games.kniggits.paths import Path, Terrain, reachable
from games.kniggits.schema import Kniggit, Options, SeatView

#: A kniggit as the view shows it.
K = Kniggit
POOLS = ("M", "A", "D")
#: K12: High removes an Attack token, Mid a Defense token, Low a Movement token.
POOL_OF = {"high": "A", "mid": "D", "low": "M"}


def cell(xy: list[int] | tuple[int, int]) -> Cell:
    return (int(xy[0]), int(xy[1]))


def id_number(kid: str) -> int:
    return int(kid[1:])


def flees(m: int, a: int, d: int) -> bool:
    """K14: at most one nonzero pool."""
    return (m > 0) + (a > 0) + (d > 0) <= 1


def hits_to_rout(m: int, a: int, d: int) -> int:
    """The fewest hits that leave at most one nonzero pool: the two smallest pools."""
    low = sorted((m, a, d))
    return low[0] + low[1]


def worth(k: K, options: Options, tokens: tuple[int, int, int] | None = None) -> float:
    """What a kniggit is worth to its army, in points: K17's strength (5+M+A+D), plus its
    toughness (hits still needed to rout it) and what it can still do (strike, guard, and
    the V1-V3 thresholds). A routed kniggit is worth nothing, so the hit that routs one is
    worth the whole kniggit."""
    m, a, d = tokens if tokens is not None else (k["M"], k["A"], k["D"])
    if flees(m, a, d):
        return 0.0
    value = 5.0 + m + a + d + 3.0 * hits_to_rout(m, a, d)
    archer = k["kind"] == "archer"
    if a > 0:
        value += 3.0
    if d > 0:
        value += 1.0 if archer else 2.0  # a shield (or, for an archer, a range)
    if m > 0:
        value += 0.5
    if options.get("magic_swords") and a >= 5 and not archer and not k["two_swords"]:
        value += 3.0
    if options.get("double_defence") and d >= 5 and not archer and not k["two_swords"]:
        value += 2.0
    if options.get("horses") and m >= 5 and not k.get("horse_lost"):
        value += 2.0
    if k.get("carrying") is not None:
        value += 6.0  # a flag on its way home
    return value


def loss(k: K, pool: str, options: Options, hits: int = 1) -> float:
    """How much `k` loses when `hits` tokens go from `pool` (a pool at 0 loses nothing)."""
    m, a, d = k["M"], k["A"], k["D"]
    after = {"M": m, "A": a, "D": d}
    after[pool] = max(0, after[pool] - hits)
    return worth(k, options) - worth(k, options, (after["M"], after["A"], after["D"]))


def allowance(k: K, options: Options) -> int:
    """K5 / V1 from public tokens: 2 per M token capped at 12, 2M mounted, a 2-inch crawl."""
    m: int = k["M"]
    if m == 0:
        return 2
    if k.get("mounted") or (options.get("horses") and m >= 5 and not k.get("horse_lost")):
        return 2 * m
    return min(2 * m, 12)


def has_shield(k: K) -> bool:
    """K12: no shield with D=0, for an archer, two swords or a shield-hand carrier."""
    return (k["D"] >= 1 and k["kind"] != "archer" and not k["two_swords"]
            and not (k.get("carrying") is not None and k.get("hand") == "shield"))


def can_melee(k: K) -> bool:
    return (k["status"] == "active" and k["kind"] != "archer" and k["A"] >= 1
            and not (k.get("carrying") is not None and k.get("hand") == "sword" and not k["two_swords"]))


@dataclass
class Board:
    """The public battlefield as one seat reads it."""

    view: SeatView
    seat: int
    army: str = field(init=False)

    def __post_init__(self) -> None:
        self.army = self.view["me"]["army"]

    @property
    def options(self) -> Options:
        return self.view["options"]

    @cached_property
    def width(self) -> int:
        return int(self.view["battlefield"]["width"])

    @cached_property
    def height(self) -> int:
        return int(self.view["battlefield"]["height"])

    @cached_property
    def by_id(self) -> dict[str, K]:
        return {k["id"]: k for k in self.view["kniggits"]}

    @cached_property
    def obstacles(self) -> frozenset[Cell]:
        return frozenset(cell(o) for o in self.view["battlefield"]["obstacles"])

    @cached_property
    def ours(self) -> list[K]:
        return [k for k in self.view["kniggits"] if k["army"] == self.army and k["status"] == "active"]

    @cached_property
    def foes(self) -> list[K]:
        return [k for k in self.view["kniggits"] if k["army"] != self.army and k["status"] == "active"]

    @cached_property
    def mine(self) -> list[K]:
        return [k for k in self.ours if k["owner"] == self.seat]

    @cached_property
    def engaged_with(self) -> dict[str, list[str]]:
        """Kniggit id → the ids of the enemies it is engaged with (the view's public pairs)."""
        out: dict[str, list[str]] = {}
        for a, b in self.view["engaged"]:
            out.setdefault(a, []).append(b)
            out.setdefault(b, []).append(a)
        return out

    def engaged_at(self, xy: Cell, army: str, skip: str | None = None) -> list[K]:
        """Active enemies of `army` that a kniggit standing on `xy` would be engaged with."""
        return [e for e in self.view["kniggits"]
                if e["army"] != army and e["status"] == "active" and e["id"] != skip
                and engaged(xy, cell(e["pos"]), self.obstacles)]

    def home_row(self, army: str) -> int:
        return 1 if army == "A" else self.height

    def zone(self, army: str) -> tuple[int, int]:
        low, high = self.view["battlefield"]["zones"][army]
        return int(low), int(high)

    def terrain(self, k: K, moved: dict[str, Cell] | None = None) -> Terrain:
        """What `k` sees when it moves (board.terrain_for, from the view): obstacles; every
        enemy on the board impassable and the active ones engaging; friends passable; flag
        homes reserved unless it may take the enemy flag lying there. `moved` overrides
        positions of kniggits this plan already placed."""
        moved = moved or {}
        enemies, enemy_active, friends = set(), set(), set()
        for other in self.view["kniggits"]:
            if other["id"] == k["id"] or other["status"] == "gone":
                continue
            here = moved.get(other["id"]) or cell(other["pos"])
            if other["army"] != k["army"]:
                enemies.add(here)
                if other["status"] == "active":
                    enemy_active.add(here)
            else:
                friends.add(here)
        reserved = set()
        for flag in self.view["battlefield"]["flags"]:
            home = cell(flag["home"])
            takeable = (flag["army"] != k["army"] and flag["carrier"] is None and flag["pos"] is not None
                        and cell(flag["pos"]) == home and k["status"] == "active" and k.get("carrying") is None)
            if not takeable:
                reserved.add(home)
        return Terrain(self.width, self.height, self.obstacles, frozenset(enemies), frozenset(enemy_active),
                       frozenset(friends), frozenset(reserved))

    def reach(self, k: K, moved: dict[str, Cell] | None = None) -> dict[Cell, Path]:
        """Every legal end cell of `k`'s move with its path (the engine's memoised search)."""
        return dict(reachable(cell(k["pos"]), self.terrain(k, moved), allowance(k, self.options)))

    def threat_range2(self, foe: K) -> int:
        """Squared distance within which `foe` might engage a cell next turn: its allowance
        plus the 2-inch engagement (an upper bound: obstacles only lengthen paths)."""
        reach = allowance(foe, self.options) + 2
        return reach * reach

    def threatened_by(self, xy: Cell, army: str) -> list[K]:
        """Active enemies of `army` that could come to blows with a kniggit on `xy` next turn."""
        return [e for e in self.view["kniggits"]
                if e["army"] != army and e["status"] == "active" and (e["A"] >= 1 or e["kind"] == "archer")
                and dist2(xy, cell(e["pos"])) <= self.threat_range2(e)]
