"""Kniggits geometry (spec 2.2–2.3, K6, V5): exact distances, blocked segments, path costs."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from games.kniggits.geometry import (
    DIRECTIONS,
    Cost,
    clear_shot,
    dist2,
    engaged,
    gap2,
    in_range,
    segment_blocked,
)


def test_directions_are_the_k7_tie_break_order() -> None:
    assert [d[0] for d in DIRECTIONS] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert DIRECTIONS[0] == ("N", 0, 1) and DIRECTIONS[2] == ("E", 1, 0)


def test_dist2_is_squared_euclidean() -> None:
    assert dist2((5, 5), (9, 10)) == 41
    assert dist2((1, 1), (1, 1)) == 0


def test_2_spacing_gaps() -> None:
    assert gap2((6, 10), (8, 10)) == 1  # gap 1: too close
    assert gap2((6, 10), (9, 10)) == 4  # gap 2: allowed
    assert gap2((6, 10), (7, 11)) == 0  # corners touch: they merge
    assert gap2((1, 1), (4, 5)) == 4 + 9


# --- Scenario 7: obstacle geometry ---------------------------------------------------------


def test_7_obstacle_between_prevents_engagement() -> None:
    assert not engaged((10, 10), (10, 12), {(10, 11)})
    assert engaged((10, 10), (10, 12), set())


def test_7_corner_pinch_blocks_sight_but_one_corner_does_not() -> None:
    assert segment_blocked((4, 4), (8, 8), {(6, 5), (5, 6)})
    assert not segment_blocked((4, 4), (8, 8), {(6, 5)})
    assert not segment_blocked((4, 4), (8, 8), {(5, 6)})
    assert not clear_shot((4, 4), (8, 8), {(6, 5), (5, 6)}, set())
    assert clear_shot((4, 4), (8, 8), {(6, 5)}, set())
    assert segment_blocked((1, 1), (4, 4), {(2, 1), (1, 2)})  # the pinch right by the shooter


def test_corner_pinch_blocks_diagonal_neighbours() -> None:
    assert engaged((5, 5), (6, 6), {(6, 5)})
    assert not engaged((5, 5), (6, 6), {(6, 5), (5, 6)})


def test_endpoint_cells_never_block() -> None:
    assert not segment_blocked((3, 3), (7, 5), {(3, 3), (7, 5)})


def test_engagement_range_is_two_inches() -> None:
    assert engaged((10, 10), (10, 12), ())
    assert engaged((10, 10), (11, 11), ())
    assert not engaged((10, 10), (11, 12), ())  # √5 > 2
    assert not engaged((10, 10), (10, 10), ())


# --- Scenario 19: archers' range and sight -------------------------------------------------


def test_19_range_and_sight() -> None:
    archer = (5, 5)
    assert in_range(archer, (5, 10), 3) and clear_shot(archer, (5, 10), set(), set())
    assert not in_range(archer, (9, 10), 3)  # 6.40 > 6
    assert not clear_shot(archer, (5, 10), {(5, 8)}, set())
    assert not clear_shot(archer, (5, 10), set(), {(5, 7)})


def test_a_steep_segment_through_a_grid_corner() -> None:
    # Centres (0.5, 0.5)→(1.5, 3.5) cross the corner (1, 2), going from cell (1,2) to (2,3).
    assert segment_blocked((1, 1), (2, 4), {(1, 2)})  # crosses its interior
    assert not segment_blocked((1, 1), (2, 4), {(2, 2)})  # touched at the corner only
    assert segment_blocked((1, 1), (2, 4), {(2, 2), (1, 3)})  # a pinch


# --- An independent oracle for segment_blocked ---------------------------------------------


def _oracle(a: tuple[int, int], b: tuple[int, int], cells: set[tuple[int, int]]) -> bool:
    """An independent check on exact fractions. Interiors: sample the segment finely (on a
    7×7 board every crossing spans more than 1/144 of it, the step is 1/512). Corners: solve
    for each grid corner whether the segment passes through it strictly between its ends."""
    cells = {c for c in cells if c != a and c != b}
    if a == b:
        return False
    dx, dy = b[0] - a[0], b[1] - a[1]
    steps = 512
    unit = 2 * steps  # sample k sits at ((2a−1)·steps + 2k·d) / unit on each axis
    for k in range(1, steps):
        x = (2 * a[0] - 1) * steps + 2 * k * dx
        y = (2 * a[1] - 1) * steps + 2 * k * dy
        if x % unit and y % unit and (x // unit + 1, y // unit + 1) in cells:
            return True
    ax, ay = Fraction(2 * a[0] - 1, 2), Fraction(2 * a[1] - 1, 2)
    for cx in range(0, 9):
        for cy in range(0, 9):
            if dx == 0 or dy == 0:
                continue  # a segment between centres parallel to an axis never meets a corner
            t = (cx - ax) / dx
            pinch = {(cx, cy), (cx + 1, cy + 1)} <= cells or {(cx + 1, cy), (cx, cy + 1)} <= cells
            if pinch and 0 < t < 1 and ay + t * dy == cy:
                return True
    return False


_small_cell = st.tuples(st.integers(1, 7), st.integers(1, 7))


@given(_small_cell, _small_cell, st.sets(_small_cell, max_size=14))
def test_segment_blocked_matches_sampling_oracle(a, b, cells) -> None:  # type: ignore[no-untyped-def]
    assert segment_blocked(a, b, cells) == _oracle(a, b, cells)
    assert segment_blocked(a, b, cells) == segment_blocked(b, a, cells)


def test_segment_blocked_exhaustive_single_cells() -> None:
    for a in [(2, 2), (1, 3)]:
        for b in [(x, y) for x in range(1, 7) for y in range(1, 7)]:
            for c in [(x, y) for x in range(1, 7) for y in range(1, 7)]:
                assert segment_blocked(a, b, {c}) == _oracle(a, b, {c}), (a, b, c)


# --- Costs (K6) ----------------------------------------------------------------------------


def test_5_exact_costs_against_allowance_six() -> None:
    assert Cost(0, 4).fits(6)  # (9,9): 5.657
    assert not Cost(1, 4).fits(6)  # (10,9): 6.657
    assert Cost(3, 2).fits(6)  # (7,10): 5.828
    assert not Cost(2, 3).fits(6)  # (8,10): 6.243
    assert str(Cost(0, 4)) == "5.66" and str(Cost(3, 2)) == "5.83" and str(Cost(3, 0)) == "3"


def test_fits_boundaries_are_exact() -> None:
    assert Cost(6, 0).fits(6) and not Cost(7, 0).fits(6)
    assert Cost(0, 4).fits(6) and not Cost(0, 5).fits(7)  # 7.07 > 7
    assert Cost(0, 0).fits(0)


_cost = st.builds(Cost, st.integers(0, 60), st.integers(0, 60))


@given(_cost, _cost)
def test_cost_order_is_exact_and_total(c1: Cost, c2: Cost) -> None:
    # For such small numbers floats are far from any tie, so they make a fair witness.
    f1, f2 = float(c1), float(c2)
    assert (c1 < c2) == (f1 < f2)
    assert (c1 == c2) == (c1.a == c2.a and c1.b == c2.b)
    assert (c1 <= c2) == (c1 < c2 or c1 == c2)
    assert (c1 > c2) == (c2 < c1) and (c1 >= c2) == (c2 <= c1)
    assert sum(1 for r in (c1 < c2, c1 == c2, c1 > c2) if r) == 1


@given(_cost, st.integers(0, 80))
def test_fits_agrees_with_the_real_inequality(cost: Cost, allowance: int) -> None:
    assert cost.fits(allowance) == (float(cost) <= allowance)


def test_cost_arithmetic() -> None:
    assert Cost(1, 2) + Cost(3, 4) == Cost(4, 6)
    assert Cost(1, 1).step(True) == Cost(1, 2) and Cost(1, 1).step(False) == Cost(2, 1)
    assert Cost(2, 3).steps == 5
    assert len({Cost(1, 2), Cost(1, 2)}) == 1
