"""Theme planning for the computer player (rule 22), from the public board alone.

Why a plan: a bumper goes at once to whoever makes a theme, two moves in a row by the same
controller, one black and one white piece, whose routes share a town. Between the
controller's attack call and its next move nothing moves the pieces, so when it moves
(or stays) it can already know whether the piece it is about to call will have a theme
route next trick. Winning that next trick is luck; being ready for it is the skill.

Routes here are the engine's own (`region.road_paths`, `region.offroad_targets`, the same
rules as `games.fencing.moves`): a road path may pass occupied towns but not end on one;
a straight line costs a penalty when the piece leaves the road.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from games.fencing.region import COLOUR, Region, load
from games.fencing.schema import Move, SeatView


@dataclass(frozen=True)
class Route:
    """One legal way for a piece to move: the towns it enters (the last is where it ends)."""

    piece: str
    route: tuple[str, ...]
    km: int
    offroad: bool
    penalty: int

    @property
    def to(self) -> str:
        return self.route[-1]

    def action(self) -> Move:
        via = [] if self.offroad else list(self.route[:-1])
        return {"type": "move", "piece": self.piece, "to": self.to, "via": via, "offroad": self.offroad}


@dataclass
class Board:
    """The pieces' towns and the map rules of this game, as the view shows them."""

    region: Region
    difficulty: str
    offroad_on: bool
    towns: dict[str, str]  # piece -> town

    @classmethod
    def of(cls, view: SeatView) -> Board:
        return cls(load(view["region"]), view["difficulty"], view["options"].get("offroad", "on") == "on",
                   {piece: p["town"] for piece, p in view["pieces"].items()})

    def moved(self, piece: str, town: str) -> Board:
        return Board(self.region, self.difficulty, self.offroad_on, {**self.towns, piece: town})

    def routes(self, piece: str) -> Iterator[Route]:
        """Every legal move of `piece` now (rules 17-18)."""
        origin = self.towns[piece]
        taken = set(self.towns.values())
        for town, paths in self.region.road_paths(origin, self.difficulty).items():
            if town not in taken:
                for path, km in paths:
                    yield Route(piece, tuple(path), km, False, 0)
        if self.offroad_on:
            cost = 1 if self.region.on_road(origin, self.difficulty) else 0
            for town, km in self.region.offroad_targets(origin).items():
                if town not in taken:
                    yield Route(piece, (town,), km, True, cost)

    def theme_routes(self, piece: str, through: set[str]) -> list[Route]:
        """Moves of `piece` whose route shares a town with `through` (a theme's second move)."""
        return [r for r in self.routes(piece) if not through.isdisjoint(r.route)]

    def partners(self, piece: str) -> list[str]:
        """Pieces of the other colour: only they can complete a theme with `piece`."""
        return [p for p in self.towns if COLOUR[p] != COLOUR[piece]]


def cheapest(routes: list[Route]) -> Route:
    return min(routes, key=lambda r: (r.penalty, r.km, len(r.route), r.route))


def reach(board: Board, piece: str) -> dict[str, frozenset[str]]:
    """Every town `piece` could enter, by the destination of the route entering it, ignoring
    occupancy (the caller filters destinations: one move changes which are free)."""
    key = (board.region.id, board.towns[piece], board.difficulty, board.offroad_on)
    memo = REACH.get(key)
    if memo is None:
        memo = REACH[key] = reach_from(board.region, *key[1:])
    return memo


#: Reach by (region, origin, difficulty, off-road): a pure function of the map, asked often.
REACH: dict[tuple[str, str, str, bool], dict[str, frozenset[str]]] = {}


def reach_from(region: Region, origin: str, difficulty: str, offroad_on: bool) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for town, paths in region.road_paths(origin, difficulty).items():
        out[town] = {t for path, _ in paths for t in path}
    if offroad_on:
        for town in region.offroad_targets(origin):
            out.setdefault(town, set()).add(town)
    return {town: frozenset(towns) for town, towns in out.items()}


def crosses(reach_of: dict[str, frozenset[str]], taken: set[str], through: set[str]) -> bool:
    """Whether a legal route (its end free) of the piece whose `reach_of` this is enters a
    town of `through`."""
    return any(town not in taken and not towns.isdisjoint(through) for town, towns in reach_of.items())


def follow_ups(board: Board, first: str, route: tuple[str, ...] | list[str]) -> dict[str, int]:
    """With the pieces as on `board` (after `first` moved along `route`): the partners that
    would have a theme route, each with how many of the route's towns it can enter."""
    through = set(route)
    taken = set(board.towns.values())
    out = {}
    for partner in board.partners(first):
        hits = {t for town, towns in reach(board, partner).items() if town not in taken for t in towns & through}
        if hits:
            out[partner] = len(hits)
    return out


def touchable(board: Board) -> dict[str, frozenset[str]]:
    """By colour, every town some piece of that colour could enter on a legal move now."""
    taken = set(board.towns.values())
    out: dict[str, set[str]] = {"B": set(), "W": set()}
    for piece in board.towns:
        bucket = out[COLOUR[piece]]
        for town, towns in reach(board, piece).items():
            if town not in taken:
                bucket |= towns
    return {colour: frozenset(towns) for colour, towns in out.items()}


def readiness(board: Board, piece: str, touch: dict[str, frozenset[str]] | None = None) -> int:
    """How many destinations of `piece` would leave a theme ready for the next trick: a
    partner could then cross the route. (An estimate: it ignores that the move frees one
    town and fills another, which rarely matters and keeps a decision fast.)"""
    touch = touch if touch is not None else touchable(board)
    other = touch["W" if COLOUR[piece] == "B" else "B"]
    taken = set(board.towns.values())
    return sum(1 for town, towns in reach(board, piece).items() if town not in taken and not towns.isdisjoint(other))


def closeness(board: Board, piece: str) -> int:
    """Minus the straight-line km from `piece` to its nearest partner: with no theme in sight,
    pieces of the two colours drawn together make one likelier later."""
    town = board.towns[piece]
    return -min(board.region.straight_km(town, board.towns[p]) for p in board.partners(piece))
