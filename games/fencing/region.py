"""A region (the road map) as data: towns, roads by class, the thread's length, the
pollution and the start squares, loaded from `regions/<id>.json` and checked once.

Why data: the rules say regions differ by convention (spec §2), so nothing about Ohio
is written in code; the engine only asks a `Region` for distances and road paths.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

REGIONS_DIR = Path(__file__).with_name("regions")
EARTH_KM = 6371.0
#: Road classes allowed at each difficulty (rule 17).
CLASSES: dict[str, frozenset[str]] = {
    "interstate": frozenset("I"),
    "state": frozenset("IS"),
    "backroads": frozenset("ISB"),
}
PIECES = ("BK", "WR", "BN", "WN", "WB")
#: A piece's colour decides themes (rule 22): the first letter of its id.
COLOUR: dict[str, Literal["B", "W"]] = {"BK": "B", "WR": "W", "BN": "B", "WN": "W", "WB": "W"}


class RegionError(ValueError):
    """The region file breaks a map check (spec §2, "Map checks")."""


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance with R = 6371 km, as the spec measures roads and off-road lines."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_KM * math.asin(math.sqrt(h))


@dataclass(frozen=True)
class Road:
    a: str
    b: str
    cls: str
    km: int
    route: str = ""


@dataclass
class Region:
    id: str
    name: str
    max_km: int
    capital: str
    pollution: dict[str, Any]
    start: dict[str, str]
    towns: dict[str, dict[str, Any]]
    roads: list[Road]
    _adjacent: dict[str, list[tuple[str, Road]]] = field(default_factory=dict, repr=False)
    #: Memos: a region never changes once loaded, and random playouts ask the same questions often.
    _paths_memo: dict[tuple[str, str], dict[str, list[tuple[list[str], int]]]] = field(
        default_factory=dict, repr=False)
    _line_memo: dict[str, dict[str, int]] = field(default_factory=dict, repr=False)
    _road_memo: dict[tuple[str, str], bool] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for town in self.towns:
            self._adjacent[town] = []
        for road in self.roads:
            self._adjacent[road.a].append((road.b, road))
            self._adjacent[road.b].append((road.a, road))
        for town in self._adjacent:
            self._adjacent[town].sort(key=lambda pair: pair[0])

    # ----- distances ---------------------------------------------------------------
    def straight_km(self, a: str, b: str) -> int:
        """The off-road distance (rule 18): rounded haversine, so 69.4 counts as 69."""
        ta, tb = self.towns[a], self.towns[b]
        return round(haversine_km(ta["lat"], ta["lon"], tb["lat"], tb["lon"]))

    def neighbours(self, town: str, difficulty: str) -> list[tuple[str, Road]]:
        allowed = CLASSES[difficulty]
        return [(other, road) for other, road in self._adjacent[town] if road.cls in allowed]

    def on_road(self, town: str, difficulty: str) -> bool:
        """A town with no allowed road is an off-road town (rule 18)."""
        memo = self._road_memo.get((town, difficulty))
        if memo is None:
            memo = self._road_memo[(town, difficulty)] = any(
                road.cls in CLASSES[difficulty] for _, road in self._adjacent[town])
        return memo

    def road_paths(self, origin: str, difficulty: str) -> dict[str, list[tuple[list[str], int]]]:
        """Every simple road path from `origin` of at most `max_km` (rule 17), by destination:
        (route = towns entered, km). Paths may pass through any town (occupancy is the caller's).
        The answer is memoised and shared: callers copy before changing it."""
        memo = self._paths_memo.get((origin, difficulty))
        if memo is not None:
            return memo
        out: dict[str, list[tuple[list[str], int]]] = {}

        def walk(town: str, route: list[str], km: int) -> None:
            for other, road in self.neighbours(town, difficulty):
                total = km + road.km
                if other == origin or other in route or total > self.max_km:
                    continue
                path = [*route, other]
                out.setdefault(other, []).append((path, total))
                walk(other, path, total)

        walk(origin, [], 0)
        for paths in out.values():
            paths.sort(key=path_order)
        self._paths_memo[(origin, difficulty)] = out
        return out

    def offroad_targets(self, origin: str) -> dict[str, int]:
        """Towns within `max_km` in a straight line (rule 18); memoised and shared like road_paths."""
        memo = self._line_memo.get(origin)
        if memo is None:
            memo = {t: d for t in self.towns if t != origin and (d := self.straight_km(origin, t)) <= self.max_km}
            self._line_memo[origin] = memo
        return memo


def path_order(entry: tuple[list[str], int]) -> tuple[int, int, list[str]]:
    """Rule 19's default: shortest, then fewer towns, then alphabetically first."""
    route, km = entry
    return (km, len(route), route)


def parse(data: dict[str, Any]) -> Region:
    towns = {t["id"]: dict(t) for t in data["towns"]}
    roads = [Road(r["a"], r["b"], r["class"], int(r["km"]), r.get("route", "")) for r in data["roads"]]
    return Region(id=data["id"], name=data["name"], max_km=int(data["max_km"]), capital=data["capital"],
                  pollution=dict(data["pollution"]), start=dict(data["start"]), towns=towns, roads=roads)


def problems(region: Region) -> list[str]:
    """The spec's map checks that hold for every region (empty when the file is sound)."""
    out: list[str] = []
    for road in region.roads:
        for end in (road.a, road.b):
            if end not in region.towns:
                out.append(f"road {road.a}-{road.b} ends at an unknown town {end}")
        if out:
            continue
        if road.km > region.max_km:
            out.append(f"road {road.a}-{road.b} is {road.km} km, longer than the thread")
        if road.km != region.straight_km(road.a, road.b):
            out.append(f"road {road.a}-{road.b} is {road.km} km, not its rounded haversine")
        if road.cls not in "ISB":
            out.append(f"road {road.a}-{road.b} has an unknown class {road.cls}")
    if set(region.start) != set(PIECES):
        out.append("the start squares must name exactly the five pieces")
    if len(set(region.start.values())) != len(PIECES) or not set(region.start.values()) <= set(region.towns):
        out.append("the pieces must start on five different towns")
    if region.capital not in region.towns:
        out.append("the capital is not a town")
    if region.pollution.get("id") in region.towns:
        out.append("the pollution must not be a town")
    if out:
        return out
    if not connected(region, set(region.towns), "backroads"):
        out.append("the map is not connected over its roads")
    hop = {t: set(region.offroad_targets(t)) for t in region.towns}
    seen, todo = {region.capital}, [region.capital]
    while todo:
        for nxt in hop[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    if seen != set(region.towns):
        out.append("off-road hops do not link every town")
    return out


def connected(region: Region, towns: set[str], difficulty: str) -> bool:
    if not towns:
        return True
    first = min(towns)
    seen, todo = {first}, [first]
    while todo:
        for other, _road in region.neighbours(todo.pop(), difficulty):
            if other in towns and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen == towns


@cache
def load(region_id: str) -> Region:
    """The region named `region_id`, checked (cached: every game of a region shares it)."""
    path = REGIONS_DIR / f"{region_id}.json"
    region = parse(json.loads(path.read_text(encoding="utf-8")))
    found = problems(region)
    if found:
        raise RegionError(f"region {region_id}: " + "; ".join(found))
    return region


def region_ids() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in REGIONS_DIR.glob("*.json")))
