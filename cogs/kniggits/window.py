"""Which part of the field a picture shows (the window: whole 6-inch blocks round the action,
a torn strip for an empty band) and its static layer: the ground (zones, grid, axis labels,
frame), cached per zones and window and shared by every map, with the map's obstacles on it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from cogs.kniggits.look import (
    AXIS_H,
    AXIS_W,
    BACKGROUND,
    BLOCK,
    BLOCK_LINE,
    BOARD_W,
    CELL_MAX,
    CELL_MIN,
    DIM_TEXT,
    GRID,
    GROUND,
    MIN_FONT,
    MIN_SPAN,
    ROCK,
    ROCK_EDGE,
    ROWS_MAX,
    ZONE,
    ZONE_GRID,
    blank,
    ink,
    text,
)
from cogs.kniggits.shown import FieldLook


# -- the window onto the field --------------------------------------------------------------------------
class Window(NamedTuple):
    """The cells drawn (inclusive), the cell size in px, and the rows left out (an empty band
    of a tall battle, drawn as a thin strip) if any."""

    x0: int
    x1: int
    y0: int
    y1: int
    cell: int
    gap: tuple[int, int] | None = None

    def rows(self) -> int:
        return self.y1 - self.y0 + 1 - (self.gap[1] - self.gap[0] + 1 if self.gap else 0)


GAP_PX = 36  # the strip standing for the rows left out


def _snap(lo: int, hi: int, size: int) -> tuple[int, int]:
    """`lo..hi` widened to whole 6-inch blocks, within `1..size`."""
    return max(1, (lo - 1) // BLOCK * BLOCK + 1), min(size, -(-hi // BLOCK) * BLOCK)


def _grow(lo: int, hi: int, size: int, least: int, step: int) -> tuple[int, int]:
    """`lo..hi` grown `step` cells at a time on both sides until it spans `least` (or the field)."""
    while hi - lo + 1 < min(least, size):
        lo, hi = max(1, lo - step), min(size, hi + step)
    return lo, hi


def _fit(lo: int, hi: int, size: int, most: int, important: list[int], others: list[int]) -> tuple[int, int]:
    """A span of at most `most` cells inside `lo..hi`: the one that holds the most important
    points, then the most others, then the one nearest the middle (block starts preferred)."""
    if hi - lo + 1 <= most:
        return lo, hi
    starts = sorted({*range(lo, hi - most + 2, BLOCK), hi - most + 1, *(p - most // 2 for p in important)})
    middle = (lo + hi) / 2

    def score(start: int) -> tuple[int, int, float, int]:
        end = start + most - 1
        return (sum(start <= p <= end for p in important), sum(start <= p <= end for p in others),
                -abs(start + (most - 1) / 2 - middle), -start)

    start = max((s for s in starts if lo <= s <= hi - most + 1), key=score)
    return start, start + most - 1


def window(width: int, height: int, cells: Sequence[Sequence[int]], focus: Sequence[Sequence[int]] = (),
           *, margin: int = 2, labelled: bool = True, snap: bool = True) -> Window:
    """The part of the field to draw and its cell size: round `cells` (and `focus`, kept first
    when everything does not fit), or the whole field when there is nothing to show. `snap`
    widens it to whole 6-inch blocks (a table picture's frame then moves seldom)."""
    points = [*cells, *focus]
    if not points:
        x0, x1, y0, y1 = 1, width, 1, height
    else:
        x0, x1 = max(1, min(p[0] for p in points) - margin), min(width, max(p[0] for p in points) + margin)
        y0, y1 = max(1, min(p[1] for p in points) - margin), min(height, max(p[1] for p in points) + margin)
        if snap:
            (x0, x1), (y0, y1) = _snap(x0, x1, width), _snap(y0, y1, height)
        x0, x1 = _grow(x0, x1, width, MIN_SPAN, BLOCK if snap else 1)
        y0, y1 = _grow(y0, y1, height, MIN_SPAN, BLOCK if snap else 1)
    gap = None
    if labelled and points:
        x0, x1 = _fit(x0, x1, width, BOARD_W // CELL_MIN, [p[0] for p in focus], [p[0] for p in cells])
        gap = _gap(y0, y1, [p[1] for p in points])
        if gap is None:
            y0, y1 = _fit(y0, y1, height, ROWS_MAX, [p[1] for p in focus], [p[1] for p in cells])
    rows = y1 - y0 + 1 - (gap[1] - gap[0] + 1 if gap else 0)
    cell = min(CELL_MAX, BOARD_W // (x1 - x0 + 1), (ROWS_MAX * CELL_MIN) // rows)
    return Window(x0, x1, y0, y1, cell, gap)


def _gap(y0: int, y1: int, rows: list[int], keep: int = 4) -> tuple[int, int] | None:
    """The rows to leave out when `y0..y1` is taller than `ROWS_MAX`: the widest band with
    nothing within `keep` rows (the approach a move of 6-8 inches needs stays in view), whole,
    so the cells grow. None when no band is wide enough (the window is then cut instead)."""
    excess = y1 - y0 + 1 - ROWS_MAX
    if excess <= 0:
        return None
    best: tuple[int, int] | None = None
    start = None
    for y in range(y0, y1 + 2):
        empty = y <= y1 and all(abs(y - r) > keep for r in rows)
        if empty and start is None:
            start = y
        elif not empty and start is not None:
            if best is None or y - start > best[1] - best[0] + 1:
                best = (start, y - 1)
            start = None
    if best is None or best[1] - best[0] + 1 < max(excess, 4):
        return None
    return best


def screen_row(win: Window, y: int) -> float:
    """Px from the window's top to the top of row `y` (rows under the gap sit a strip lower)."""
    if win.gap is None or y > win.gap[1]:
        return (win.y1 - y) * win.cell
    return (win.y1 - y - (win.gap[1] - win.gap[0] + 1)) * win.cell + GAP_PX + 2  # + the upper border


def centre(win: Window, xy: Sequence[int], left: int, top: int) -> tuple[float, float]:
    return left + (xy[0] - win.x0 + 0.5) * win.cell, top + screen_row(win, xy[1]) + 0.5 * win.cell


def inside(win: Window, xy: Sequence[int]) -> bool:
    hidden = win.gap is not None and win.gap[0] <= xy[1] <= win.gap[1]
    return win.x0 <= xy[0] <= win.x1 and win.y0 <= xy[1] <= win.y1 and not hidden


# -- the static layer ----------------------------------------------------------------------------------
def _labels(lo: int, hi: int, cell: int) -> list[int]:
    """The coordinates labelled on an axis: every 6th, and the window's ends when clear of them."""
    room = math.ceil(34 / cell)
    chosen = [v for v in range(lo, hi + 1) if v % BLOCK == 0]
    for end in (lo, hi):
        if all(abs(end - v) > room for v in chosen):
            chosen.append(end)
    return sorted(chosen)


def paste_field(image: Image.Image, field: FieldLook, win: Window, left: int, top: int) -> None:
    """The static layer of `win` on `image` at (left, top): the ground (`field_ground`, shared
    by every map with the same zones), then the map's obstacles and the frame over them, drawn
    on the picture itself (an obstacle's edge never leaves its part of the layer: wide lines
    grow right and down), so no layer is copied or kept per map."""
    zones = tuple((army, lo, hi) for army, (lo, hi) in sorted(field["zones"].items()))  # A's rows, then B's
    image.paste(field_ground(zones, win), (left, top))
    blocked = {(o[0], o[1]) for o in field["obstacles"]}
    draw = ImageDraw.Draw(image)
    if win.gap is None:
        _rocks(draw, blocked, win, left + AXIS_W, top)
        return
    upper = win._replace(y0=win.gap[1] + 1, gap=None)
    _rocks(draw, blocked, upper, left + AXIS_W, top)
    _rocks(draw, blocked, win._replace(y1=win.gap[0] - 1, gap=None), left + AXIS_W,
           top + upper.rows() * win.cell + 2 + GAP_PX)


@lru_cache(maxsize=64)
def field_ground(zones: tuple[tuple[str, int, int], ...], win: Window) -> Image.Image:
    """The ground of `win` (zones: army, first row, last row): its rows over the gap, a strip
    for the rows left out, its rows under the gap with the x labels."""
    if win.gap is None:
        return _ground(zones, win, True)
    upper = _ground(zones, win._replace(y0=win.gap[1] + 1, gap=None), False)
    lower = _ground(zones, win._replace(y1=win.gap[0] - 1, gap=None), True)
    image = blank((upper.width, upper.height + GAP_PX + lower.height), BACKGROUND)
    image.paste(upper, (0, 0))
    image.paste(lower, (0, upper.height + GAP_PX))
    draw = ImageDraw.Draw(image)
    x_end = AXIS_W + (win.x1 - win.x0 + 1) * win.cell
    for y in (upper.height + 5, upper.height + GAP_PX - 6):  # a torn edge: two zig-zag lines
        draw.line([(AXIS_W + i * 8, y + (4 if i % 2 else -3)) for i in range((x_end - AXIS_W) // 8 + 1)],
                  fill=ink(BLOCK_LINE), width=2)
    text(image, ((AXIS_W + x_end) / 2, upper.height + GAP_PX / 2), f"rows {win.gap[0]}–{win.gap[1]} left out",
         DIM_TEXT, MIN_FONT, "mm", BACKGROUND)
    return image


def _grid(draw: ImageDraw.ImageDraw, win: Window, left: int, shades: list[int]) -> None:
    """The 1-inch grid of `win`'s rows (`shades`: each row's ink, bottom row first), a line
    through each band of rows of one shade rather than one per row (a layer drew ~700 lines, now
    ~100). The pixels are the row-by-row drawing's: bands go bottom up, so the line between two
    rows takes the upper row's shade, as it did when each row was drawn after the one under it."""
    core, c, cols = draw.draw, win.cell, win.x1 - win.x0 + 1
    right, rows = left + cols * c, len(shades)
    lo = 0
    while lo < rows:
        hi = lo
        while hi + 1 < rows and shades[hi + 1] == shades[lo]:
            hi += 1
        colour = core.draw_ink(shades[lo])
        top, bottom = (rows - 1 - hi) * c, (rows - lo) * c
        for y in range(top, bottom + 1, c):
            core.draw_lines((left, y, right, y), colour, 1)
        for x in range(left, right + 1, c):
            core.draw_lines((x, top, x, bottom), colour, 1)
        lo = hi + 1


def _rocks(draw: ImageDraw.ImageDraw, blocked: set[tuple[int, int]], win: Window, left: int, top: int) -> None:
    """The obstacles in `win`'s cells (no gap), the field's top left at (left, top), and the
    frame again over them (nothing when no obstacle is in the window: the ground has the frame)."""
    x0, x1, y0, y1, c = win.x0, win.x1, win.y0, win.y1, win.cell
    if not any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in blocked):
        return
    core = draw.draw  # the calls ImageDraw.rectangle (fill only) and .line make, without their checks
    rock, edge_ink, width = core.draw_ink(ink(ROCK)), core.draw_ink(ink(ROCK_EDGE)), 2 if c >= 20 else 1
    for x, y in blocked:
        if x0 <= x <= x1 and y0 <= y <= y1:
            px, py = left + (x - x0) * c, top + (y1 - y) * c
            core.draw_rectangle((px, py, px + c, py + c), rock, 1)
            for dx, dy, edge in ((0, 1, (px, py, px + c, py)), (0, -1, (px, py + c, px + c, py + c)),
                                 (-1, 0, (px, py, px, py + c)), (1, 0, (px + c, py, px + c, py + c))):
                if (x + dx, y + dy) not in blocked:
                    core.draw_lines(edge, edge_ink, width)
    draw.rectangle((left, top, left + (x1 - x0 + 1) * c, top + (y1 - y0 + 1) * c), outline=ink(BLOCK_LINE), width=2)


@lru_cache(maxsize=64)
def _ground(zones: tuple[tuple[str, int, int], ...], win: Window, x_labels: bool) -> Image.Image:
    """Ground, zones (army, first row, last row), the 1-inch grid (every 6th line darker), the
    axis labels and the frame of `win`'s cells: all of a layer but the obstacles, which
    `_rocks` draws over it before the frame again (the labels sit outside the field, so the
    order is the same)."""
    x0, x1, y0, y1, c = win.x0, win.x1, win.y0, win.y1, win.cell
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    image = blank((AXIS_W + cols * c + 2, rows * c + (AXIS_H if x_labels else 2)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left = AXIS_W
    draw.rectangle((left, 0, left + cols * c, rows * c), fill=ink(GROUND))
    row_of: dict[int, str] = {}
    for army, lo, hi in zones:
        for y in range(max(lo, y0), min(hi, y1) + 1):
            row_of[y] = army
    for y, army in row_of.items():
        top = (y1 - y) * c
        draw.rectangle((left, top, left + cols * c, top + c), fill=ink(ZONE[army]))
    if c >= 12:  # the 1-inch grid, in each row's own shade
        _grid(draw, win, left, [ink(ZONE_GRID[row_of[y]] if y in row_of else GRID) for y in range(y0, y1 + 1)])
    for x in range(x0, x1 + 1):
        if x % BLOCK == 0 and x < x1:
            px = left + (x - x0 + 1) * c
            draw.line((px, 0, px, rows * c), fill=ink(BLOCK_LINE), width=2)
    for y in range(y0, y1 + 1):
        if y % BLOCK == 0 and y < y1:
            py = (y1 - y) * c
            draw.line((left, py, left + cols * c, py), fill=ink(BLOCK_LINE), width=2)
    for x in _labels(x0, x1, c) if x_labels else ():
        text(image, (left + (x - x0 + 0.5) * c, rows * c + AXIS_H / 2 + 1), str(x), DIM_TEXT, MIN_FONT, "mm",
             BACKGROUND)
    for y in _labels(y0, y1, c):
        text(image, (AXIS_W - 8, (y1 - y + 0.5) * c), str(y), DIM_TEXT, MIN_FONT, "rm", BACKGROUND)
    draw.rectangle((left, 0, left + cols * c, rows * c), outline=ink(BLOCK_LINE), width=2)
    return image
