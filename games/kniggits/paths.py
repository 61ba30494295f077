"""Kniggits movement (K6–K8, K15): legal steps, cheapest paths with the K7 tie-break, reach.

One search serves every question: Dijkstra on the legal-step graph with labels
(exact cost, step directions), queued in one bucket per exact cost. Equal costs mean equal
step counts (√2 is irrational), so comparing the direction sequences of equally cheap labels
is the K7 tie-break, and the prefix of a tie-break-first path is itself tie-break-first: the
labels form one tree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from games.kniggits.geometry import (
    DIRECTIONS,
    ENGAGE_RANGE2,
    ZERO,
    Cell,
    Cost,
    blocked_memo,
    dist2,
)
from games.kniggits.steps import Step, cost_table, step_graph

_ENGAGE_OFFSETS = tuple(
    (dx, dy)
    for dx in range(-2, 3)
    for dy in range(-2, 3)
    if 0 < dx * dx + dy * dy <= ENGAGE_RANGE2
)


@dataclass(frozen=True)
class Path:
    """A chosen route: every cell entered in order (not the start) and its exact cost."""

    cells: tuple[Cell, ...]
    cost: Cost

    @property
    def end(self) -> Cell | None:
        return self.cells[-1] if self.cells else None


@dataclass(frozen=True)
class Terrain:
    """What a mover sees this move; the engine builds one per kniggit."""

    width: int
    height: int
    obstacles: frozenset[Cell]
    enemies: frozenset[Cell]  # enemy kniggits, active or fled: never passable
    enemy_active: frozenset[Cell]  # the enemies that engage
    friends: frozenset[Cell]  # own side's other kniggits: passable, not a place to end
    reserved: frozenset[Cell] = frozenset()  # occupied for ending (flag home cells, V7)

    def inside(self, cell: Cell) -> bool:
        return 1 <= cell[0] <= self.width and 1 <= cell[1] <= self.height

    def endable(self, cell: Cell) -> bool:
        """A free cell: on the map, no obstacle, nobody standing there, not reserved."""
        return (
            self.inside(cell)
            and cell not in self.obstacles
            and cell not in self.enemies
            and cell not in self.friends
            and cell not in self.reserved
        )


def engaged_with(cell: Cell, terrain: Terrain) -> frozenset[Cell]:
    """The active enemies (by cell) a kniggit standing on `cell` is engaged with (2.2)."""
    return frozenset(
        enemy
        for enemy in terrain.enemy_active
        if enemy != cell
        and dist2(cell, enemy) <= ENGAGE_RANGE2
        and not blocked_memo(cell, enemy, terrain.obstacles)
    )


class _Mover:
    """The step rules for one kniggit's move, precomputed once per question."""

    def __init__(self, start: Cell, terrain: Terrain, ignore_engagement: bool) -> None:
        self.start = start
        self.terrain = terrain
        self.graph = step_graph(terrain.width, terrain.height, terrain.obstacles)
        self.impassable = terrain.obstacles | terrain.enemies
        self.engagements: dict[Cell, set[Cell]] = {}
        self.at_start: frozenset[Cell] = frozenset()
        if not ignore_engagement:
            for enemy in terrain.enemy_active:
                ex, ey = enemy
                for dx, dy in _ENGAGE_OFFSETS:
                    cell = (ex + dx, ey + dy)
                    if not blocked_memo(cell, enemy, terrain.obstacles):
                        self.engagements.setdefault(cell, set()).add(enemy)
            self.at_start = frozenset(self.engagements.get(start, ()))

    def safe(self, cell: Cell) -> bool:
        """K7: a cell a path may pass through — engaged with no enemy it did not start with."""
        found = self.engagements.get(cell)
        return not found or found <= self.at_start

    def steps(self, cell: Cell) -> list[Step]:
        """Legal single steps out of `cell` (K6, K8), in tie-break order."""
        enemies = self.terrain.enemies
        away = self.at_start
        return [
            step
            for step in self.graph.get(cell, ())
            if step[1] not in enemies
            and all(dist2(step[1], e) > dist2(cell, e) for e in away)
        ]

    def search(
        self,
        origin: Cell,
        allowance: int,
        base: Cost = ZERO,
        goal: Callable[[Cell], bool] | None = None,
    ) -> tuple[_Labels, bool]:
        """Tie-break-first cheapest labels from `origin` (in settling order), and whether any
        label was dropped for not fitting the allowance.

        Only safe cells are expanded (a new engagement ends the path). `base` is the cost
        already spent on earlier legs. With `goal`, the search stops at the first settled cell
        it accepts (the cheapest, then tie-break-first).

        A label is (cost rank, direction code): the code reads the step directions as base-8
        digits, and equally cheap labels have equally many steps, so comparing codes is the
        K7 tie-break without building tuples.
        """
        costs, ranks, orthogonal, diagonal_next = cost_table(allowance)
        start_rank = ranks.get((base.a, base.b))
        if start_rank is None:
            return _Labels(origin, base, {}, costs), True
        # A bucket per cost rank (there are few: about 60 for 12 inches) instead of a heap.
        # A step always raises the rank, so once a bucket's turn comes nothing can improve
        # it, and each cell in it settles with the least code it was offered there.
        buckets: list[dict[Cell, int]] = [{} for _ in costs]
        buckets[start_rank][origin] = 0
        settled: dict[Cell, tuple[int, int]] = {}
        closed = set(self.terrain.enemies)  # settled cells and enemies: never entered again
        graph = self.graph
        away = tuple(self.at_start)
        engagements = self.engagements
        at_start = self.at_start
        pruned = False
        for rank in range(start_rank, len(costs)):
            bucket = buckets[rank]
            if not bucket:
                continue
            next_orthogonal = orthogonal[rank]
            next_diagonal = diagonal_next[rank]
            if goal is not None:  # settle the tie-break-first cell of this cost first
                order = sorted(bucket.items(), key=lambda item: item[1])
            else:
                order = list(bucket.items())
            reached = False
            for cell, code in order:
                if cell in closed:
                    continue
                settled[cell] = (rank, code)
                closed.add(cell)
                if goal is not None and goal(cell):
                    reached = True
                    break
                if cell != origin:
                    found = engagements.get(cell)
                    if found and not found <= at_start:
                        continue  # K7: a new engagement ends the path here
                code8 = code << 3
                for index, nxt, diagonal in graph.get(cell, ()):
                    if nxt in closed:
                        continue
                    if away and not all(dist2(nxt, e) > dist2(cell, e) for e in away):
                        continue  # K8
                    nrank = next_diagonal if diagonal else next_orthogonal
                    if nrank < 0:
                        pruned = True
                        continue
                    target = buckets[nrank]
                    old = target.get(nxt)
                    if old is None or code8 | index < old:
                        target[nxt] = code8 | index
            if reached:
                break
        return _Labels(origin, base, settled, costs), pruned


class _Labels:
    """A search's settled labels: (cost rank, direction code) per cell, in settling order."""

    def __init__(
        self, origin: Cell, base: Cost, settled: dict[Cell, tuple[int, int]], costs: tuple[Cost, ...]
    ) -> None:
        self.origin = origin
        self.base = base
        self.settled = settled
        self.costs = costs

    def __contains__(self, cell: object) -> bool:
        return cell in self.settled

    def cost(self, cell: Cell) -> Cost:
        return self.costs[self.settled[cell][0]]

    def dirs(self, cell: Cell) -> tuple[int, ...]:
        rank, code = self.settled[cell]
        return _digits(code, self.costs[rank].steps - self.base.steps)


def _digits(code: int, length: int) -> tuple[int, ...]:
    """The step directions a label code stands for (base-8 digits, most significant first)."""
    out = [0] * length
    for i in range(length - 1, -1, -1):
        code, out[i] = divmod(code, 8)
    return tuple(out)


def _walk(origin: Cell, dirs: Sequence[int]) -> tuple[Cell, ...]:
    x, y = origin
    cells = []
    for index in dirs:
        _name, dx, dy = DIRECTIONS[index]
        x, y = x + dx, y + dy
        cells.append((x, y))
    return tuple(cells)


def allowed_steps(
    start: Cell,
    terrain: Terrain,
    *,
    engaged_at_start: frozenset[Cell] | None = None,
    ignore_engagement: bool = False,
) -> list[Cell]:
    """The cells a first step from `start` may enter (K6, K8), in tie-break order.

    Empty for an engaged kniggit means pinned (K8). `engaged_at_start` defaults to what the
    terrain says; pass it only to override.
    """
    mover = _Mover(start, terrain, ignore_engagement)
    if engaged_at_start is not None and not ignore_engagement:
        mover.at_start = frozenset(engaged_at_start)
    return [cell for _index, cell, _diagonal in mover.steps(start)]


def _reaches(stop: tuple[int, ...]) -> Callable[[Cell], bool]:
    """A leg's goal test: the search may stop once it settles `stop`."""
    return lambda c: c == stop


def plan(
    start: Cell,
    goal: Cell,
    terrain: Terrain,
    allowance: int,
    *,
    via: Sequence[Cell] = (),
    ignore_engagement: bool = False,
) -> Path | None:
    """The path a move to `goal` (through the waypoints `via`, in order) takes, or None.

    Each leg is its own cheapest, tie-break-first path; the whole path must fit the allowance,
    waypoints count as cells passed (K7: only the very last step may engage), and the goal
    must be a free cell other than the start.
    """
    if goal == start or not terrain.endable(goal):
        return None
    mover = _Mover(start, terrain, ignore_engagement)
    origin = start
    spent = Cost()
    cells: list[Cell] = []
    stops: list[Cell] = [(x, y) for x, y in via] + [goal]  # each a tuple, whatever `via` held
    for number, stop in enumerate(stops):
        last = number == len(stops) - 1
        if stop == origin:
            continue
        if not last and (
            not terrain.inside(stop) or stop in mover.impassable or not mover.safe(stop)
        ):
            return None
        labels, _pruned = mover.search(origin, allowance, spent, goal=_reaches(stop))
        if stop not in labels:
            return None
        cells.extend(_walk(origin, labels.dirs(stop)))
        spent = labels.cost(stop)
        origin = stop
    if not cells or cells[-1] != goal:
        return None
    return Path(tuple(cells), spent)


def reachable(
    start: Cell, terrain: Terrain, allowance: int, *, ignore_engagement: bool = False
) -> Mapping[Cell, Path]:
    """Every legal end cell of a move from `start` (not the start) with the path it takes.

    Memoised on its (immutable) inputs: the move panel, its preview, legal actions and every
    view of one board ask the same question; callers only read the answer."""
    return _reachable(start, terrain, allowance, ignore_engagement)


@lru_cache(maxsize=256)
def _reachable(start: Cell, terrain: Terrain, allowance: int, ignore_engagement: bool) -> Mapping[Cell, Path]:
    mover = _Mover(start, terrain, ignore_engagement)
    labels, _pruned = mover.search(start, allowance)
    routes: dict[Cell, tuple[Cell, ...]] = {start: ()}
    result: dict[Cell, Path] = {}
    occupied = terrain.friends | terrain.reserved
    costs = labels.costs
    # Settled order puts every parent before its children, so each route extends its parent's;
    # the last step's direction is the code's last base-8 digit.
    for cell, (rank, code) in labels.settled.items():
        if cell == start:
            continue
        _name, dx, dy = DIRECTIONS[code & 7]
        route = routes[(cell[0] - dx, cell[1] - dy)] + (cell,)
        routes[cell] = route
        if cell not in occupied:
            result[cell] = Path(route, costs[rank])
    return MappingProxyType(result)


def nearest_reachable(goal: Cell, reach: Mapping[Cell, Path], n: int = 5) -> list[Cell]:
    """Up to `n` reachable cells nearest `goal`: by distance, then lower x, then lower y (K7)."""
    return sorted(reach, key=lambda c: (dist2(c, goal), c[0], c[1]))[:n]


def run(start: Cell, home_row: int, terrain: Terrain, allowance: int) -> Path | None:
    """A fled kniggit's run (K15), or None when no path leads to its home row at all.

    The cheapest, tie-break-first path to any cell of the home row (engagement ignored) is cut
    where the allowance runs out, then back to the last free cell; it may be empty (stays).
    """
    if start[1] == home_row:
        return Path((), Cost())
    straight = _straight_run(start, home_row, terrain)
    if straight is not None:
        return _cut(start, straight, terrain, allowance)
    mover = _Mover(start, terrain, ignore_engagement=True)
    bound = 2 * (abs(home_row - start[1]) + 4)
    while True:
        # Dijkstra under a bound finds the overall cheapest path as soon as one fits; a search
        # that dropped nothing has seen every cell the runner can reach.
        labels, pruned = mover.search(start, bound, goal=lambda c: c[1] == home_row)
        end = next((c for c in labels.settled if c[1] == home_row), None)
        if end is not None or not pruned:
            break
        bound *= 2
    if end is None:
        return None
    return _cut(start, labels.dirs(end), terrain, allowance)


def _straight_run(start: Cell, home_row: int, terrain: Terrain) -> tuple[int, ...] | None:
    """The straight run along the column when nothing stands in it, else None.

    Any route to the home row takes at least |dy| steps of cost ≥ 1, and the only route of
    cost exactly |dy| is |dy| orthogonal steps all toward the row: the straight column. So
    when that column is open it is the unique cheapest path and no search is needed.
    """
    x, y = start
    step = 1 if home_row > y else -1
    impassable = terrain.obstacles | terrain.enemies
    for row in range(y + step, home_row + step, step):
        if (x, row) in impassable:
            return None
    index = next(i for i, (_name, dx, dy) in enumerate(DIRECTIONS) if dx == 0 and dy == step)
    return (index,) * abs(home_row - y)


def _cut(start: Cell, dirs: Sequence[int], terrain: Terrain, allowance: int) -> Path:
    """K15: the run's route cut where the allowance runs out, then back to a free cell."""
    cells = _walk(start, dirs)
    spent = Cost()
    taken = 0
    for index in dirs:
        after = spent.step(DIRECTIONS[index][1] != 0 and DIRECTIONS[index][2] != 0)
        if not after.fits(allowance):
            break
        spent = after
        taken += 1
    while taken and not terrain.endable(cells[taken - 1]):
        taken -= 1
    kept = dirs[:taken]
    diagonals = sum(1 for i in kept if DIRECTIONS[i][1] != 0 and DIRECTIONS[i][2] != 0)
    return Path(cells[:taken], Cost(taken - diagonals, diagonals))
