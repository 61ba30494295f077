"""Kniggits movement's ground (K6, K7): the steps the map itself allows out of each cell (no
corner cutting), cached per map, and the exact order of path costs a + b√2 that the search in
games.kniggits.paths queues its labels by.
"""

from __future__ import annotations

from functools import lru_cache
from math import isqrt

from games.kniggits.geometry import DIRECTIONS, Cell, Cost

#: (direction index, dx, dy, diagonal) in tie-break order.
_STEPS: tuple[tuple[int, int, int, bool], ...] = tuple(
    (i, dx, dy, dx != 0 and dy != 0) for i, (_name, dx, dy) in enumerate(DIRECTIONS)
)


@lru_cache(maxsize=64)
def cost_table(
    allowance: int,
) -> tuple[tuple[Cost, ...], dict[tuple[int, int], int], tuple[int, ...], tuple[int, ...]]:
    """Every cost that fits `allowance`, in exact order, with each rank's successor ranks.

    Dijkstra then keys its heap on plain integers: rank r plus an orthogonal step is rank
    `orthogonal[r]`, plus a diagonal one `diagonal[r]` (−1: does not fit).
    """
    fitting = [Cost(a, b) for a in range(allowance + 1) for b in range(allowance + 1)]
    costs = sorted((c for c in fitting if c.fits(allowance)), key=order_key)
    rank = {(c.a, c.b): r for r, c in enumerate(costs)}
    orthogonal = tuple(rank.get((c.a + 1, c.b), -1) for c in costs)
    diagonal = tuple(rank.get((c.a, c.b + 1), -1) for c in costs)
    return tuple(costs), rank, orthogonal, diagonal


_SCALE = 1 << 64


def order_key(cost: Cost) -> int:
    """⌊(a + b√2)·2⁶⁴⌋ on integers (isqrt). Two different costs with a, b below 10⁶ differ by
    more than 10⁻⁷ (|p + q√2| = |p² − 2q²| / |p − q√2| ≥ 1 / (|p| + |q|√2)), so the floors
    keep their exact order; `Cost.fits` bounds a and b by the allowance."""
    return cost.a * _SCALE + isqrt(2 * cost.b * cost.b * _SCALE * _SCALE)


Step = tuple[int, Cell, bool]


#: Maps whose step graphs are kept: one per live game (a 36-inch map's is ~240 KiB, so 128 hold
#: ~30 MiB). With 16, a bot with a hundred live games rebuilt one on nearly every view that
#: asked where a kniggit could go (~3% of its CPU in a 100-game e2e run).
STEP_GRAPHS = 128


@lru_cache(maxsize=STEP_GRAPHS)
def step_graph(width: int, height: int, obstacles: frozenset[Cell]) -> dict[Cell, tuple[Step, ...]]:
    """The steps the map itself allows out of each free cell: on the map, not into an
    obstacle, no corner cutting (K6). Cached: obstacles never change during a game.

    Built from the open map's graph: only cells next to an obstacle lose steps."""
    graph = dict(_open_graph(width, height))
    near = {(x + dx, y + dy) for x, y in obstacles for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    for cell in near:
        if cell in graph:
            graph[cell] = _cell_steps(cell, width, height, obstacles)
    for cell in obstacles:
        graph.pop(cell, None)
    return graph


@lru_cache(maxsize=4)
def _open_graph(width: int, height: int) -> dict[Cell, tuple[Step, ...]]:
    empty: frozenset[Cell] = frozenset()
    return {(x, y): _cell_steps((x, y), width, height, empty)
            for x in range(1, width + 1) for y in range(1, height + 1)}


def _cell_steps(cell: Cell, width: int, height: int, obstacles: frozenset[Cell]) -> tuple[Step, ...]:
    x, y = cell
    out = []
    for index, dx, dy, diagonal in _STEPS:
        nx, ny = x + dx, y + dy
        if not (1 <= nx <= width and 1 <= ny <= height) or (nx, ny) in obstacles:
            continue
        if diagonal and ((nx, y) in obstacles or (x, ny) in obstacles):
            continue
        out.append((index, (nx, ny), diagonal))
    return tuple(out)
