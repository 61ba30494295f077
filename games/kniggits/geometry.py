"""Kniggits geometry on the 1-inch grid (spec 2.1–2.3): distances, blocked segments, path costs.

Every decision is exact integer arithmetic. Cell (x, y) covers [x−1, x]×[y−1, y], so its
centre is (x−½, y−½); doubling every coordinate puts centres on odd integers and grid corners
on even ones, and a segment test never needs a fraction that is not a ratio of two integers.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Cell = tuple[int, int]

#: The eight steps, in the order that breaks ties between equally cheap paths (K7).
DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("N", 0, 1),
    ("NE", 1, 1),
    ("E", 1, 0),
    ("SE", 1, -1),
    ("S", 0, -1),
    ("SW", -1, -1),
    ("W", -1, 0),
    ("NW", -1, 1),
)

ENGAGE_RANGE2 = 4  # 2 inches, squared (2.2)


def dist2(a: Cell, b: Cell) -> int:
    """Squared Euclidean distance between two cell centres."""
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    return dx * dx + dy * dy


def gap2(c1: Cell, c2: Cell) -> int:
    """Squared gap between two cells' squares (2.3): 0 when they touch, even at a corner."""
    gx = max(abs(c1[0] - c2[0]) - 1, 0)
    gy = max(abs(c1[1] - c2[1]) - 1, 0)
    return gx * gx + gy * gy


def _less(n1: int, d1: int, n2: int, d2: int) -> bool:
    """n1/d1 < n2/d2 for positive denominators, without leaving the integers."""
    return n1 * d2 < n2 * d1


def _axis_window(p: int, d: int, lo: int, hi: int) -> tuple[int, int, int] | Literal[True] | None:
    """The open t-window (entry, exit, denominator) in which p + t·d lies strictly in (lo, hi).

    True means "every t" (the segment runs parallel inside the slab), None "no t".
    """
    if d == 0:
        return True if lo < p < hi else None
    if d > 0:
        return (lo - p, hi - p, d)
    return (p - hi, p - lo, -d)


def _crosses_interior(px: int, py: int, dx: int, dy: int, cell: Cell) -> bool:
    """Does the doubled segment P + t·D, t ∈ [0, 1], meet the open square of `cell`?"""
    x, y = cell
    windows: list[tuple[int, int, int]] = []
    for p, d, lo, hi in ((px, dx, 2 * x - 2, 2 * x), (py, dy, 2 * y - 2, 2 * y)):
        window = _axis_window(p, d, lo, hi)
        if window is None:
            return False
        if window is not True:
            windows.append(window)
    # Intersect the open windows with the closed [0, 1]: entry < exit, entry < 1, exit > 0.
    en, ed = windows[0][0], windows[0][2]
    xn, xd = windows[0][1], windows[0][2]
    for n_in, n_out, den in windows[1:]:
        if _less(en, ed, n_in, den):
            en, ed = n_in, den
        if _less(n_out, den, xn, xd):
            xn, xd = n_out, den
    return _less(en, ed, xn, xd) and en < ed and xn > 0


def _through_corner(px: int, py: int, dx: int, dy: int, corner: Cell) -> bool:
    """Does the doubled segment pass through grid corner (cx, cy) strictly between its ends?"""
    ux = 2 * corner[0] - px
    uy = 2 * corner[1] - py
    if ux * dy - uy * dx != 0:
        return False
    along = ux * dx + uy * dy
    return 0 < along < dx * dx + dy * dy


def segment_blocked(a: Cell, b: Cell, cells: Collection[Cell]) -> bool:
    """Is the centre-to-centre segment a→b blocked by `cells` (2.2)?

    Blocked: it crosses a cell's interior, or passes exactly through a grid corner between two
    diagonally opposite cells of the set (a corner pinch). The endpoints' own cells never block.
    """
    if a == b or not cells:
        return False
    x_lo, x_hi = min(a[0], b[0]), max(a[0], b[0])
    y_lo, y_hi = min(a[1], b[1]), max(a[1], b[1])
    if (x_hi - x_lo + 1) * (y_hi - y_lo + 1) <= len(cells):
        candidates = [
            (x, y) for x in range(x_lo, x_hi + 1) for y in range(y_lo, y_hi + 1) if (x, y) in cells
        ]
    else:
        candidates = [c for c in cells if x_lo <= c[0] <= x_hi and y_lo <= c[1] <= y_hi]
    candidates = [c for c in candidates if c != a and c != b]
    if not candidates:
        return False
    px, py = 2 * a[0] - 1, 2 * a[1] - 1
    dx, dy = 2 * (b[0] - a[0]), 2 * (b[1] - a[1])
    members = set(candidates)
    for cell in candidates:
        if _crosses_interior(px, py, dx, dy, cell):
            return True
        x, y = cell
        # The corner at this cell's top right pairs it with its NE neighbour; the corner at
        # its top left pairs it with its NW neighbour. Together they cover every pinch once.
        if (x + 1, y + 1) in members and _through_corner(px, py, dx, dy, (x, y)):
            return True
        if (x - 1, y + 1) in members and _through_corner(px, py, dx, dy, (x - 1, y)):
            return True
    return False


def engaged(a: Cell, b: Cell, obstacles: Collection[Cell]) -> bool:
    """Two figures within 2 inches with no obstacle between them (2.2); status is the caller's."""
    if a == b or dist2(a, b) > ENGAGE_RANGE2:
        return False
    if isinstance(obstacles, frozenset):
        return not blocked_memo(a, b, obstacles)
    return not segment_blocked(a, b, obstacles)


@lru_cache(maxsize=1 << 16)
def blocked_memo(a: Cell, b: Cell, obstacles: frozenset[Cell]) -> bool:
    """A pure memo: the map's obstacles never change in a game, and views, legal actions and
    every phase ask about the same few pairs again and again."""
    return segment_blocked(a, b, obstacles)


def clear_shot(a: Cell, b: Cell, obstacles: Collection[Cell], others: Collection[Cell]) -> bool:
    """Archery line of sight (V5): neither obstacles nor any other kniggit block a→b."""
    return not segment_blocked(a, b, obstacles) and not segment_blocked(a, b, others)


def in_range(a: Cell, b: Cell, range_tokens: int) -> bool:
    """Within 2 inches per Range token (V5)."""
    reach = 2 * range_tokens
    return dist2(a, b) <= reach * reach


def _sign(p: int, q: int) -> int:
    """Sign of p + q·√2, decided on integers."""
    if p >= 0 and q >= 0:
        return 0 if p == 0 and q == 0 else 1
    if p <= 0 and q <= 0:
        return -1
    # Opposite signs: compare p² with 2q²; √2 is irrational so they are never equal.
    if p > 0:
        return 1 if p * p > 2 * q * q else -1
    return 1 if 2 * q * q > p * p else -1


@dataclass(frozen=True, slots=True)
class Cost:
    """The length a + b·√2 of a path of `a` orthogonal and `b` diagonal steps (K6).

    √2 is irrational, so equal costs have equal (a, b) and dataclass equality is exact; the
    order compares signs on integers. `float` is for display only.
    """

    a: int = 0
    b: int = 0

    def _cmp(self, other: Cost) -> int:
        return _sign(self.a - other.a, self.b - other.b)

    def __lt__(self, other: Cost) -> bool:
        return self._cmp(other) < 0

    def __le__(self, other: Cost) -> bool:
        return self._cmp(other) <= 0

    def __gt__(self, other: Cost) -> bool:
        return self._cmp(other) > 0

    def __ge__(self, other: Cost) -> bool:
        return self._cmp(other) >= 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.a + other.a, self.b + other.b)

    def step(self, diagonal: bool) -> Cost:
        return Cost(self.a, self.b + 1) if diagonal else Cost(self.a + 1, self.b)

    @property
    def steps(self) -> int:
        return self.a + self.b

    def fits(self, allowance: int) -> bool:
        """a + b√2 ≤ L, exactly: a ≤ L and 2b² ≤ (L − a)²."""
        rest = allowance - self.a
        return rest >= 0 and 2 * self.b * self.b <= rest * rest

    def __float__(self) -> float:
        return self.a + self.b * 2**0.5

    def __str__(self) -> str:
        """'3' for a whole number of inches, else two decimals ('4.83')."""
        return str(self.a) if self.b == 0 else f"{float(self):.2f}"


ZERO = Cost()
