"""Kniggits movement (K6–K8, K15): the spec's path scenarios and an exhaustive oracle."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from games.kniggits.geometry import DIRECTIONS, Cell, Cost, dist2, engaged
from games.kniggits.paths import (
    Path,
    Terrain,
    allowed_steps,
    engaged_with,
    nearest_reachable,
    plan,
    reachable,
    run,
)


def terrain(
    obstacles: Iterable[Cell] = (),
    enemies: Iterable[Cell] = (),
    fled: Iterable[Cell] = (),
    friends: Iterable[Cell] = (),
    reserved: Iterable[Cell] = (),
    size: int = 36,
) -> Terrain:
    active = frozenset(enemies)
    return Terrain(
        size,
        size,
        frozenset(obstacles),
        active | frozenset(fled),
        active,
        frozenset(friends),
        frozenset(reserved),
    )


OPEN = terrain()


# --- Scenario 5: exact cost ----------------------------------------------------------------


def test_5_exact_cost_with_allowance_six() -> None:
    diagonal = plan((5, 5), (9, 9), OPEN, 6)
    assert diagonal is not None and diagonal.cost == Cost(0, 4) and str(diagonal.cost) == "5.66"
    assert plan((5, 5), (10, 9), OPEN, 6) is None  # 6.657
    mixed = plan((5, 5), (7, 10), OPEN, 6)
    assert mixed is not None and mixed.cost == Cost(3, 2) and str(mixed.cost) == "5.83"
    assert plan((5, 5), (8, 10), OPEN, 6) is None  # 6.243
    reach = reachable((5, 5), OPEN, 6)
    assert (9, 9) in reach and (7, 10) in reach and (10, 9) not in reach and (8, 10) not in reach


def test_tie_break_prefers_north_first() -> None:
    # (7,10): three orthogonal and two diagonal steps; N, N, N, NE, NE is first in N, NE, … order.
    path = plan((5, 5), (7, 10), OPEN, 6)
    assert path is not None and path.cells == ((5, 6), (5, 7), (5, 8), (6, 9), (7, 10))
    east = plan((5, 5), (8, 5), OPEN, 6)
    assert east is not None and east.cells == ((6, 5), (7, 5), (8, 5))


# --- Scenario 6: engagement stop -----------------------------------------------------------


def test_6_engagement_stop() -> None:
    field = terrain(enemies=[(10, 15)])
    stop = plan((10, 10), (10, 13), field, 6)
    assert stop is not None and stop.cost == Cost(3, 0)
    assert engaged_with((10, 13), field) == {(10, 15)}
    around = plan((10, 10), (10, 14), field, 6)
    assert around is not None
    assert around.cells == ((10, 11), (10, 12), (11, 13), (10, 14))
    assert str(around.cost) == "4.83"
    assert plan((10, 10), (10, 16), field, 6) is None
    assert plan((10, 10), (10, 17), field, 6) is None
    reach = reachable((10, 10), field, 6)
    assert reach[(10, 13)] == stop and reach[(10, 14)] == around
    assert (10, 16) not in reach and (10, 17) not in reach
    # Nothing is reached through a cell that engages B1.
    for path in reach.values():
        assert all(not engaged_with(c, field) for c in path.cells[:-1])


# --- Scenario 7: corner rule ----------------------------------------------------------------


def test_7_corner_rule() -> None:
    field = terrain(obstacles=[(6, 5)])
    assert (6, 6) not in allowed_steps((5, 5), field, engaged_at_start=frozenset())
    path = plan((5, 5), (6, 6), field, 6)
    assert path is not None and path.cells == ((5, 6), (6, 6)) and path.cost == Cost(2, 0)


def test_7_obstacle_stops_engagement_so_no_stop() -> None:
    field = terrain(obstacles=[(10, 11)], enemies=[(10, 12)])
    assert engaged_with((10, 10), field) == frozenset()


# --- Scenario 8: leaving combat --------------------------------------------------------------


def test_8_leaving_combat_first_steps() -> None:
    field = terrain(enemies=[(10, 11)])
    steps = set(allowed_steps((10, 10), field, engaged_at_start=frozenset({(10, 11)})))
    assert steps == {(10, 9), (9, 9), (11, 9), (9, 10), (11, 10)}
    assert set(allowed_steps((10, 10), field)) == steps  # the default reads the terrain
    reach = reachable((10, 10), field, 6)
    assert {p.cells[0] for p in reach.values()} <= steps
    assert (9, 11) not in reach and (11, 11) not in reach
    for path in reach.values():  # every step moves away from B1
        previous = (10, 10)
        for cell in path.cells:
            assert dist2(cell, (10, 11)) > dist2(previous, (10, 11))
            previous = cell


def test_8_pinned() -> None:
    field = terrain(enemies=[(10, 11), (10, 9), (11, 10)], obstacles=[(9, 10)])
    assert allowed_steps((10, 10), field) == []
    assert reachable((10, 10), field, 6) == {}


# --- Occupied cells, fled enemies, waypoints ---------------------------------------------------


def test_friends_and_reserved_cells_are_passed_but_not_ended_on() -> None:
    field = terrain(friends=[(5, 6)], reserved=[(5, 7)])
    path = plan((5, 5), (5, 8), field, 6)
    assert path is not None and path.cells == ((5, 6), (5, 7), (5, 8))
    assert plan((5, 5), (5, 6), field, 6) is None and plan((5, 5), (5, 7), field, 6) is None
    reach = reachable((5, 5), field, 6)
    assert (5, 6) not in reach and (5, 7) not in reach and reach[(5, 8)] == path


def test_13_fled_enemies_block_the_way_but_do_not_engage() -> None:
    field = terrain(fled=[(10, 12)])
    assert engaged_with((10, 11), field) == frozenset()
    path = plan((10, 10), (10, 14), field, 6)
    assert path is not None and (10, 12) not in path.cells
    assert path.cells == ((10, 11), (11, 12), (11, 13), (10, 14))  # N, NE, N, NW
    assert plan((10, 10), (10, 12), field, 6) is None


def test_waypoints_are_visited_in_order() -> None:
    path = plan((5, 5), (9, 5), OPEN, 8, via=[(7, 7)])
    assert path is not None and path.cells == ((6, 6), (7, 7), (8, 6), (9, 5))
    assert path.cost == Cost(0, 4)
    assert plan((5, 5), (9, 5), OPEN, 5, via=[(7, 7)]) is None  # 5.66 > 5


def test_a_waypoint_may_not_engage() -> None:
    field = terrain(enemies=[(10, 15)])
    assert plan((10, 10), (11, 10), field, 12, via=[(10, 13)]) is None
    assert plan((10, 10), (10, 12), field, 12, via=[(11, 11)]) is not None


def test_nearest_reachable_orders_by_distance_then_x_then_y() -> None:
    reach = reachable((10, 10), terrain(enemies=[(10, 15)]), 6)
    # (8,15) and (12,15) are √8 from (10,17), then (10,14) at 3, then (9,14) before (11,14).
    assert nearest_reachable((10, 17), reach) == [(8, 15), (12, 15), (10, 14), (9, 14), (11, 14)]
    assert nearest_reachable((10, 17), reach, 2) == [(8, 15), (12, 15)]


# --- Scenario 13: running ------------------------------------------------------------------


def test_13_fled_b1_runs_home_two_inches_a_turn() -> None:
    position = (10, 30)
    visited = []
    for _turn in range(3):
        path = run(position, 36, OPEN, 2)
        assert path is not None
        position = path.cells[-1]
        visited.append(position)
    assert visited == [(10, 32), (10, 34), (10, 36)]


def test_13_runner_steps_around_an_obstacle_east_first() -> None:
    path = run((10, 12), 1, terrain(obstacles=[(10, 11)]), 2)
    assert path is not None and path.cells == ((11, 12), (11, 11)) and path.cost == Cost(2, 0)


def test_13_runner_stops_before_an_occupied_cell() -> None:
    path = run((10, 12), 1, terrain(obstacles=[(10, 11)], friends=[(11, 11)]), 2)
    assert path is not None and path.cells == ((11, 12),)


def test_runner_with_no_way_home_stays() -> None:
    walled = terrain(obstacles=[(x, 5) for x in range(1, 37)])
    assert run((10, 12), 1, walled, 6) is None

def test_runner_blocked_by_a_friend_on_its_first_step_stays() -> None:
    boxed = terrain(obstacles=[(9, 11), (10, 11), (11, 11)], friends=[(9, 12), (11, 12)])
    assert run((10, 12), 1, boxed, 1) == Path((), Cost())


def test_runner_already_home_stays() -> None:
    path = run((4, 1), 1, OPEN, 6)
    assert path == Path((), Cost())


def test_runner_ignores_engagement() -> None:
    field = terrain(enemies=[(11, 8)])
    path = run((10, 10), 1, field, 6)
    assert path is not None and path.cells[:3] == ((10, 9), (10, 8), (10, 7))


# --- Performance sanity (the number for the docs comes from a script) -----------------------


def test_reach_on_a_full_map_is_complete() -> None:
    reach = reachable((18, 18), OPEN, 12)
    # Every cell within 12 inches by the octile metric, minus the start.
    expected = {
        (x, y)
        for x in range(1, 37)
        for y in range(1, 37)
        if (x, y) != (18, 18)
        and Cost(abs(abs(x - 18) - abs(y - 18)), min(abs(x - 18), abs(y - 18))).fits(12)
    }
    assert set(reach) == expected


# --- Properties: legality, plan = reachable, and an exhaustive oracle ----------------------


def _is_diagonal(frm: Cell, to: Cell) -> bool:
    return frm[0] != to[0] and frm[1] != to[1]


def check_legal(
    start: Cell, path: Path, field: Terrain, allowance: int, *, ignore_engagement: bool = False
) -> None:
    """Every step of `path` obeys K6–K8, its cost is right and fits, and it ends on a free cell."""
    at_start = (
        frozenset()
        if ignore_engagement
        else frozenset(e for e in field.enemy_active if engaged(start, e, field.obstacles))
    )
    previous = start
    orthogonal = diagonal = 0
    for number, cell in enumerate(path.cells):
        dx, dy = cell[0] - previous[0], cell[1] - previous[1]
        assert max(abs(dx), abs(dy)) == 1
        assert 1 <= cell[0] <= field.width and 1 <= cell[1] <= field.height
        assert cell not in field.obstacles and cell not in field.enemies
        if dx and dy:
            diagonal += 1
            assert (previous[0] + dx, previous[1]) not in field.obstacles
            assert (previous[0], previous[1] + dy) not in field.obstacles
        else:
            orthogonal += 1
        for enemy in at_start:
            assert dist2(cell, enemy) > dist2(previous, enemy)
        if number < len(path.cells) - 1 and not ignore_engagement:
            now = {e for e in field.enemy_active if engaged(cell, e, field.obstacles)}
            assert now <= at_start
        previous = cell
    assert path.cost == Cost(orthogonal, diagonal) and path.cost.fits(allowance)
    assert path.cells and path.cells[-1] != start and field.endable(path.cells[-1])


def brute_force(start: Cell, field: Terrain, allowance: int) -> dict[Cell, tuple[Cost, tuple[int, ...]]]:
    """Every legal path by depth-first search in direction order; per end cell the cheapest,
    then (the search visits equal-length sequences in order) the first found."""
    at_start = frozenset(e for e in field.enemy_active if engaged(start, e, field.obstacles))
    best: dict[Cell, tuple[Cost, tuple[int, ...]]] = {}

    def extend(cell: Cell, cost: Cost, dirs: tuple[int, ...]) -> None:
        if dirs:
            if cell != start and field.endable(cell):
                old = best.get(cell)
                if old is None or cost < old[0]:
                    best[cell] = (cost, dirs)
            if {e for e in field.enemy_active if engaged(cell, e, field.obstacles)} - at_start:
                return
        for index, (_name, dx, dy) in enumerate(DIRECTIONS):
            nxt = (cell[0] + dx, cell[1] + dy)
            diagonal = dx != 0 and dy != 0
            after = cost.step(diagonal)
            if not after.fits(allowance):
                continue
            if not (1 <= nxt[0] <= field.width and 1 <= nxt[1] <= field.height):
                continue
            if nxt in field.obstacles or nxt in field.enemies:
                continue
            if diagonal and ((cell[0] + dx, cell[1]) in field.obstacles or (cell[0], cell[1] + dy) in field.obstacles):
                continue
            if any(dist2(nxt, e) <= dist2(cell, e) for e in at_start):
                continue
            extend(nxt, after, (*dirs, index))

    extend(start, Cost(), ())
    return best


@st.composite
def fields(draw: st.DrawFn, max_size: int = 9) -> tuple[Cell, Terrain]:
    width = draw(st.integers(3, max_size))
    height = draw(st.integers(3, max_size))
    cells = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1)]
    order = draw(st.permutations(cells))
    counts = [draw(st.integers(0, len(cells) // 5)) for _ in range(5)]
    chunks = []
    at = 1
    for count in counts:
        chunks.append(frozenset(order[at : at + count]))
        at += count
    obstacles, active, fled, friends, reserved = chunks
    field = Terrain(width, height, obstacles, active | fled, active, friends, reserved)
    return order[0], field


def _dirs_of(start: Cell, path: Path) -> tuple[int, ...]:
    out = []
    previous = start
    for cell in path.cells:
        step = (cell[0] - previous[0], cell[1] - previous[1])
        out.append(next(i for i, (_n, dx, dy) in enumerate(DIRECTIONS) if (dx, dy) == step))
        previous = cell
    return tuple(out)


@settings(max_examples=120)
@given(fields(max_size=7), st.integers(0, 3))
def test_reachable_equals_the_exhaustive_oracle(case: tuple[Cell, Terrain], allowance: int) -> None:
    start, field = case
    reach = reachable(start, field, allowance)
    oracle = brute_force(start, field, allowance)
    assert set(reach) == set(oracle)
    for cell, path in reach.items():
        assert (path.cost, _dirs_of(start, path)) == oracle[cell]


@settings(max_examples=25)
@given(fields(max_size=6), st.just(4))
def test_reachable_equals_the_oracle_at_four_inches(case: tuple[Cell, Terrain], allowance: int) -> None:
    test_reachable_equals_the_exhaustive_oracle.hypothesis.inner_test(case, allowance)  # type: ignore[attr-defined]


@settings(max_examples=60)
@given(fields(max_size=11), st.integers(0, 9))
def test_every_path_is_legal_and_plan_agrees_with_reachable(
    case: tuple[Cell, Terrain], allowance: int
) -> None:
    start, field = case
    reach = reachable(start, field, allowance)
    for cell, path in reach.items():
        check_legal(start, path, field, allowance)
        assert plan(start, cell, field, allowance) == path
    for x in range(1, field.width + 1):
        for y in range(1, field.height + 1):
            if (x, y) not in reach:
                assert plan(start, (x, y), field, allowance) is None


@given(fields(max_size=10), st.integers(0, 8), st.data())
def test_paths_through_waypoints_are_legal(case: tuple[Cell, Terrain], allowance: int, data: st.DataObject) -> None:
    start, field = case
    goal = data.draw(st.tuples(st.integers(1, field.width), st.integers(1, field.height)))
    via = data.draw(st.lists(st.tuples(st.integers(1, field.width), st.integers(1, field.height)), max_size=2))
    path = plan(start, goal, field, allowance, via=via)
    if path is not None:
        check_legal(start, path, field, allowance)
        visited = (start, *path.cells)
        position = 0
        for waypoint in via:  # each waypoint is passed, in order (index raises if not)
            position = visited.index(waypoint, position)


@given(fields(max_size=10), st.integers(1, 8), st.sampled_from(["low", "high"]))
def test_runs_are_legal(case: tuple[Cell, Terrain], allowance: int, side: str) -> None:
    start, field = case
    home = 1 if side == "low" else field.height
    path = run(start, home, field, allowance)
    if path is not None and path.cells:
        check_legal(start, path, field, allowance, ignore_engagement=True)


@given(fields(max_size=10), st.integers(1, 8), st.sampled_from(["low", "high"]))
def test_the_straight_run_shortcut_agrees_with_the_search(
    case: tuple[Cell, Terrain], allowance: int, side: str
) -> None:
    """K15: an open column is the unique cheapest route, so the shortcut changes no run."""
    from games.kniggits import paths

    start, field = case
    home = 1 if side == "low" else field.height
    fast = run(start, home, field, allowance)
    original = paths._straight_run
    paths._straight_run = lambda *args: None  # type: ignore[assignment]
    try:
        searched = run(start, home, field, allowance)
    finally:
        paths._straight_run = original
    assert fast == searched


def test_a_hundred_live_maps_keep_their_step_graphs() -> None:
    """A bot with a hundred live games asks about a hundred maps in turn: each map's graph is
    built once, not again on every view (an LRU of 16 rebuilt nearly all of them)."""
    from games.kniggits.steps import step_graph

    maps = [frozenset({(n % 30 + 3, n // 30 + 3), (n % 30 + 4, n // 30 + 3)}) for n in range(100)]
    step_graph.cache_clear()
    for _ in range(2):
        for obstacles in maps:
            step_graph(36, 36, obstacles)
    assert step_graph.cache_info().misses == 100
