"""Moving the attacked piece (rules 17-19): road paths on the classes the difficulty
allows, within the thread, to an empty town; or, with `offroad` on, the straight line,
costing a penalty when the piece leaves the road. The engine lists every choice so the
interface decides no rule.
"""

from __future__ import annotations

from typing import Any

from games.core import IllegalAction, State
from games.fencing.region import Region, load
from games.fencing.schema import DestinationView, RouteView


def region_of(state: State) -> Region:
    return load(state["options"]["region"])


def is_offroad(state: State, town: str) -> bool:
    """A piece is off-road while it stands on a town with no allowed road (rule 18)."""
    return not region_of(state).on_road(town, state["options"]["difficulty"])


def occupied(state: State) -> set[str]:
    return set(state["pieces"].values())


def routes_by_destination(state: State, piece: str) -> dict[str, list[RouteView]]:
    """Every legal route of `piece` by destination: road paths (rule 17, default first by
    rule 19) and the straight line (rule 18) when off-road moves are on."""
    region = region_of(state)
    origin = state["pieces"][piece]
    taken = occupied(state)
    out: dict[str, list[RouteView]] = {}
    for town, paths in region.road_paths(origin, state["options"]["difficulty"]).items():
        if town in taken:
            continue
        out[town] = [{"via": route[:-1], "route": list(route), "km": km, "offroad": False, "penalty": 0,
                      "default": i == 0} for i, (route, km) in enumerate(paths)]
    if state["options"]["offroad"] == "on":
        cost = 0 if is_offroad(state, origin) else 1
        for town, km in region.offroad_targets(origin).items():
            if town in taken:
                continue
            line: RouteView = {"via": [], "route": [town], "km": km, "offroad": True, "penalty": cost,
                              "default": town not in out}
            out.setdefault(town, []).append(line)
    return out


def menu(state: State, piece: str) -> list[DestinationView]:
    """Destinations for the select: Stay first, then by cheapest km, then id; each with its
    cheapest cost and its routes."""
    entries: list[DestinationView] = []
    for town, routes in routes_by_destination(state, piece).items():
        km = min(r["km"] for r in routes)
        penalty = min(r["penalty"] for r in routes if r["km"] == km)
        entries.append({"to": town, "km": km, "penalty": penalty, "routes": routes})
    entries.sort(key=lambda e: (e["km"], e["penalty"], e["to"]))
    return [{"to": None, "km": 0, "penalty": 0, "routes": []}, *entries]


def chosen_route(state: State, piece: str, to: Any, via: Any, offroad: Any) -> RouteView:
    """The route a move action names, or IllegalAction citing the rule it breaks."""
    region = region_of(state)
    if not isinstance(to, str) or to not in region.towns:
        raise IllegalAction("That is not a town of this region.", rule="17")
    if to == state["pieces"][piece]:
        raise IllegalAction("The piece is already there: choose Stay to stay.", rule="17")
    if to in occupied(state):
        raise IllegalAction("Another piece stands on that town.", rule="17")
    routes = routes_by_destination(state, piece).get(to, [])
    if offroad:
        if state["options"]["offroad"] != "on":
            raise IllegalAction("Off-road moves are off in this game.", rule="18")
        if via:
            raise IllegalAction("An off-road move is a straight line: it has no via.", rule="19")
        line = [r for r in routes if r["offroad"]]
        if not line:
            raise IllegalAction("That town is farther than the thread in a straight line.", rule="18")
        return line[0]
    road = [r for r in routes if not r["offroad"]]
    if not road:
        raise IllegalAction("No road of this difficulty reaches that town within the thread.", rule="17")
    if via is None or via == []:
        if via == [] and not any(r["via"] == [] for r in road):
            raise IllegalAction("No direct road reaches that town within the thread.", rule="19")
        return road[0] if via is None else next(r for r in road if r["via"] == [])
    if not isinstance(via, list) or not all(isinstance(t, str) for t in via):
        raise IllegalAction("`via` is a list of towns in order.", rule="19")
    for route in road:
        if route["via"] == via:
            return route
    raise IllegalAction("No road path through those towns is within the thread.", rule="17")
