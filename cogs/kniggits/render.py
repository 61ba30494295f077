"""Kniggits pictures, drawn with Pillow from a view only (no state, no Discord): the public
battlefield, and a seat's private move preview, reach and sight overlays and deployment
preview. Every function here is pure (dicts in, PNG bytes out): call it off the event loop.

Scale and crop, from the legibility rule every game's pictures pass (`tests/
test_pictures_legible.check`: Discord shows a picture about 500 px wide, and the smallest text
must still be 11 px there). Pictures are `WIDTH` = 1000 px wide, so no text is smaller than
`MIN_FONT` = 22 px. A kniggit's label sits inside its 1-inch cell, so a cell must be at least
`CELL_MIN` = 34 px to hold a two-digit number: at most 27 columns fit. A whole 36- or 48-inch
field cannot be legible at 500 px (a cell would be 13.9 or 10.4 px there, under the 11 px
text it must hold), so the battlefield shows a **window**: the cells round every kniggit on
the board, the last move and the last exchange, with a margin, widened to whole 6-inch grid
blocks (the labelled lines, so the frame moves seldom), at least 12 x 12 inches, and the
cell as big as fits (`CELL_MAX` = 64 px). A battle taller than `ROWS_MAX` (the armies at both
ends) leaves out its widest empty band, drawn as a torn strip, so both armies stay in view.
When the kniggits spread wider than 27 columns (or taller, with no empty band), the window
keeps the part with the action (the last exchange and move first, then the most kniggits)
and marks the others with arrows at its edge; the roster always lists all of them. A board
with nobody on it (the map accept) is drawn whole, small.

Labels: the full id ("A10") when it fits in the disc (cells of 56 px and more), else the
number in the army's colour (orange A, blue B: told apart by every common colour blindness).
Each disc's rim carries the pips: Attack on top (red), Movement lower left (green), Defense
lower right (blue), one pip per token up to 5, ten slots up to 10, a full arc with a white
dot past 10; exact counts are in the roster (coloured chips with numbers) under or beside
the field. Marks: a brown ring round a mounted kniggit, a gold star for a magic sword, two
crossed blades or a bow at the top left, a white flag on a fled kniggit (drawn faded), the
carried flag as a pennant; a gold wedge on the rim toward the enemy it faces (a small pale
one for its cosmetic heading), dashed lines between engaged pairs, the last move as an
arrowed path from a hollow start ring, the last exchange as a burst between the pair (the
open exchange as a white one).

The static layer (ground, zones, grid, obstacles, axis labels) is cached per map and window,
and whole pictures are cached by what they show (a JSON key of the fields they read), so the
same board posted again costs a dictionary lookup.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Any, NamedTuple

import orjson
from PIL import Image, ImageDraw, ImageFont

from cogs.table import pictures
from cogs.table.pictures import FONT_SIZES, RGB, dashed, fit, font

# -- sizes ---------------------------------------------------------------------------------------------
WIDTH = 1000
MIN_FONT = 22  # 22 px at 1000 wide is 11 px on a 500 px column
TITLE_FONT = 24
ID_FONT = 22  # condensed bold, inside the discs
PAD = 14
AXIS_W = 44  # the y labels' column
AXIS_H = 30  # the x labels' row
HEADER = 46
SUBLINE = 32  # a second header line (previews)
BOARD_W = WIDTH - AXIS_W - PAD  # room for the cells
CELL_MAX, CELL_MIN = 64, 34
ROWS_MAX = 30  # rows at most (at CELL_MIN, 1020 px): a taller battle leaves out an empty band
BLOCK = 6  # grid lines and labels every 6 inches
MIN_SPAN = 12
ROSTER_W = 330  # the roster column when it fits beside the field
ROW = 34  # a roster row
CHIP_W = 40
ID_W = 92  # a roster line's id column ("Army A" heads it)

# -- colours -------------------------------------------------------------------------------------------
BACKGROUND = (43, 45, 49)
PANEL = (54, 57, 63)
TEXT, DIM_TEXT = (245, 245, 245), (185, 188, 195)
GROUND = (228, 222, 196)
GRID = (206, 199, 170)
BLOCK_LINE = (150, 142, 115)
ZONE = {"A": (246, 214, 186), "B": (202, 218, 242)}
ZONE_GRID = {"A": (226, 192, 162), "B": (180, 198, 226)}
ROCK, ROCK_EDGE = (128, 128, 132), (88, 88, 92)
ARMY = {"A": (222, 110, 20), "B": (36, 98, 206)}
ARMY_DARK = {"A": (120, 52, 0), "B": (12, 44, 110)}
ARMY_BRIGHT = {"A": (255, 160, 80), "B": (120, 170, 255)}  # ids on the dark panel
FLED_FILL = (200, 196, 186)
FLED_INK = (70, 70, 70)
POOL = {"M": (38, 160, 72), "A": (214, 40, 40), "D": (40, 92, 224)}
POOL_BRIGHT = {"M": (90, 210, 120), "A": (255, 110, 110), "D": (120, 160, 255)}  # letters on the panel
TRACK = (64, 64, 64)
WHITE, BLACK = (255, 255, 255), (20, 20, 20)
GOLD, GOLD_DARK = (241, 196, 15), (150, 105, 0)
HORSE = (110, 66, 24)
STEEL = (60, 64, 72)
PATH = (220, 30, 130)
BURST, BURST_EDGE = (255, 214, 0), (226, 110, 0)
ENGAGED = (40, 40, 40)
REACH = (166, 222, 150)
REACH_EDGE = (110, 180, 100)
SHOOT, BLOCKED = (20, 160, 60), (210, 30, 30)
RANGE = (40, 120, 60)

BLENDS = frozenset([(TEXT, BACKGROUND), (DIM_TEXT, BACKGROUND), (GOLD, BACKGROUND), (TEXT, PANEL), (DIM_TEXT, PANEL),
     *((ARMY_BRIGHT[a], PANEL) for a in ARMY), *((WHITE, ARMY[a]) for a in ARMY), (FLED_INK, FLED_FILL),
     *((WHITE, colour) for colour in POOL.values()), *((colour, PANEL) for colour in POOL_BRIGHT.values()),
     (BLACK, WHITE)])  # a route's number (the move panel's reach picture)
PALETTE = pictures.Palette(
    [BACKGROUND, PANEL, TEXT, DIM_TEXT, GROUND, GRID, BLOCK_LINE, *ZONE.values(), *ZONE_GRID.values(), ROCK,
     ROCK_EDGE, *ARMY.values(), *ARMY_DARK.values(), *ARMY_BRIGHT.values(), FLED_FILL, FLED_INK, *POOL.values(),
     *POOL_BRIGHT.values(), TRACK, WHITE, BLACK, GOLD, GOLD_DARK, HORSE, STEEL, PATH, BURST, BURST_EDGE, ENGAGED, REACH, REACH_EDGE, SHOOT,
     BLOCKED, RANGE],
    sorted(BLENDS),
)


def ink(colour: RGB) -> int:
    return PALETTE.index[colour]


@cache
def _palette_list() -> list[int]:
    return PALETTE.image.getpalette() or []


def blank(size: tuple[int, int], colour: RGB) -> Image.Image:
    """A palette picture of one colour (no RGB image to map)."""
    image = Image.new("P", size, ink(colour))
    image.putpalette(_palette_list())
    return image


# -- text ----------------------------------------------------------------------------------------------
CONDENSED = ("DejaVuSansCondensed-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf")


@cache
def _condensed(size: int) -> pictures.Font:
    for path in CONDENSED:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return font(size)


def condensed(size: int) -> pictures.Font:
    """DejaVu Sans Condensed Bold (ids in discs), noted in `FONT_SIZES` like `font`."""
    FONT_SIZES.add(size)
    return _condensed(size)


def text(image: Image.Image, xy: tuple[float, float], words: str, fill: RGB, size: int, anchor: str,
         ground: RGB, *, narrow: bool = False) -> None:
    """A line of text pasted on a palette picture over `ground` (a declared blend pair's edges
    are looked up in a table, not searched for: the shared `pictures.text` searches the whole
    palette once per colour pair, seconds for this game's palette)."""
    if not words:
        return
    face = condensed(size) if narrow else font(size)
    if (fill, ground) not in BLENDS:
        pictures.text(image, xy, words, fill, face, anchor, ground=ground, palette=PALETTE)
        return
    sprite, inked, left, top = _sprite(words, face, anchor, fill, ground)
    pictures.stamp(image, sprite, inked, round(xy[0]) + left, round(xy[1]) + top)


@lru_cache(maxsize=4096)
def _sprite(words: str, face: pictures.Font, anchor: str, fill: RGB, ground: RGB
            ) -> tuple[Image.Image, Image.Image, int, int]:
    left, top, right, bottom = (int(v) for v in ImageDraw.Draw(Image.new("L", (1, 1))).textbbox(
        (0, 0), words, font=face, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), words, fill=255, font=face, anchor=anchor)
    entries = mask.point(_shade_table(fill, ground))  # palette entries, as a P sprite: no conversion per paste
    return Image.frombytes("P", mask.size, entries.tobytes()), mask.point([0] + [255] * 255, "1"), left, top


@cache
def _shade_table(fill: RGB, ground: RGB) -> list[int]:
    """Coverage 0-255 -> the palette entry of the nearest declared shade of `fill` over `ground`."""
    steps = pictures.SHADES + 1
    entries = [ink(ground), *(ink(pictures.mix(ground, fill, n / steps)) for n in range(1, steps)), ink(fill)]
    return [entries[round(v * steps / 255)] for v in range(256)]


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


@lru_cache(maxsize=64)
def field_layer(key: str, win: Window) -> Image.Image:
    """The static layer of `win`: its rows over the gap, a strip for the rows left out, its rows
    under the gap with the x labels."""
    if win.gap is None:
        return _rows_layer(key, win, True)
    upper = _rows_layer(key, win._replace(y0=win.gap[1] + 1, gap=None), False)
    lower = _rows_layer(key, win._replace(y1=win.gap[0] - 1, gap=None), True)
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


@lru_cache(maxsize=64)
def _rows_layer(key: str, win: Window, x_labels: bool) -> Image.Image:
    """Ground, zones, the 1-inch grid (every 6th line darker), obstacles and the axis labels,
    for the cells of `win` (no gap), with the field's top left at (AXIS_W, 0)."""
    bf = json.loads(key)
    x0, x1, y0, y1, c = win.x0, win.x1, win.y0, win.y1, win.cell
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    image = blank((AXIS_W + cols * c + 2, rows * c + (AXIS_H if x_labels else 2)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left = AXIS_W
    draw.rectangle((left, 0, left + cols * c, rows * c), fill=ink(GROUND))
    row_of = {}
    for army, (lo, hi) in bf["zones"].items():
        for y in range(max(lo, y0), min(hi, y1) + 1):
            row_of[y] = army
    for y, army in row_of.items():
        top = (y1 - y) * c
        draw.rectangle((left, top, left + cols * c, top + c), fill=ink(ZONE[army]))
    if c >= 12:  # the 1-inch grid, in each row's own shade
        for y in range(y0, y1 + 1):
            top = (y1 - y) * c
            colour = ink(ZONE_GRID[row_of[y]] if y in row_of else GRID)
            draw.line((left, top, left + cols * c, top), fill=colour)
            draw.line((left, top + c, left + cols * c, top + c), fill=colour)
            for i in range(cols + 1):
                draw.line((left + i * c, top, left + i * c, top + c), fill=colour)
    for x in range(x0, x1 + 1):
        if x % BLOCK == 0 and x < x1:
            px = left + (x - x0 + 1) * c
            draw.line((px, 0, px, rows * c), fill=ink(BLOCK_LINE), width=2)
    for y in range(y0, y1 + 1):
        if y % BLOCK == 0 and y < y1:
            py = (y1 - y) * c
            draw.line((left, py, left + cols * c, py), fill=ink(BLOCK_LINE), width=2)
    blocked = {tuple(o) for o in bf["obstacles"]}
    for x, y in blocked:
        if x0 <= x <= x1 and y0 <= y <= y1:
            px, py = left + (x - x0) * c, (y1 - y) * c
            draw.rectangle((px, py, px + c, py + c), fill=ink(ROCK))
            for dx, dy, edge in ((0, 1, (px, py, px + c, py)), (0, -1, (px, py + c, px + c, py + c)),
                                 (-1, 0, (px, py, px, py + c)), (1, 0, (px + c, py, px + c, py + c))):
                if (x + dx, y + dy) not in blocked:
                    draw.line(edge, fill=ink(ROCK_EDGE), width=2 if c >= 20 else 1)
    draw.rectangle((left, 0, left + cols * c, rows * c), outline=ink(BLOCK_LINE), width=2)
    for x in _labels(x0, x1, c) if x_labels else ():
        text(image, (left + (x - x0 + 0.5) * c, rows * c + AXIS_H / 2 + 1), str(x), DIM_TEXT, MIN_FONT, "mm",
             BACKGROUND)
    for y in _labels(y0, y1, c):
        text(image, (AXIS_W - 8, (y1 - y + 0.5) * c), str(y), DIM_TEXT, MIN_FONT, "rm", BACKGROUND)
    return image


# -- shapes --------------------------------------------------------------------------------------------
def star_points(x: float, y: float, r: float, points: int = 5, inner: float = 0.45) -> list[tuple[float, float]]:
    out = []
    for i in range(2 * points):
        radius = r if i % 2 == 0 else r * inner
        angle = -math.pi / 2 + i * math.pi / points
        out.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    return out


def arrowhead(draw: ImageDraw.ImageDraw, tail: tuple[float, float], tip: tuple[float, float], size: float,
              fill: int) -> None:
    angle = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    back = (tip[0] - size * math.cos(angle), tip[1] - size * math.sin(angle))
    side = size * 0.6
    draw.polygon([tip, (back[0] + side * math.sin(angle), back[1] - side * math.cos(angle)),
                  (back[0] - side * math.sin(angle), back[1] + side * math.cos(angle))], fill=fill)


def flag_shape(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, colour: RGB, *,
               pole: RGB = BLACK) -> None:
    """A pennant on a pole, its foot at (x, y), `size` px tall."""
    w = max(1, round(size / 9))
    draw.line((x, y, x, y - size), fill=ink(pole), width=w)
    draw.polygon([(x + w / 2, y - size), (x + size * 0.75, y - size * 0.78), (x + w / 2, y - size * 0.52)],
                 fill=ink(colour), outline=ink(pole))


def bow(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, colour: RGB = STEEL) -> None:
    """A bow bulging up and right, its string, and an arrow across it."""
    r = size * 0.5
    w = max(2, round(size / 7))
    cx, cy = x - r * 0.25, y + r * 0.25
    draw.arc((cx - r, cy - r, cx + r, cy + r), 225, 45, fill=ink(colour), width=w)
    ends = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in (225, 45)]
    draw.line((*ends[0], *ends[1]), fill=ink(colour), width=1)
    tip = (x + r * 0.75, y - r * 0.75)
    draw.line((x - r * 0.75, y + r * 0.75, *tip), fill=ink(colour), width=max(1, w - 1))
    arrowhead(draw, (x, y), tip, r * 0.6, ink(colour))


def swords(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, colour: RGB = STEEL) -> None:
    """Two crossed blades with their cross-guards."""
    r = size / 2
    w = max(2, round(size / 6))
    for sx in (-1, 1):
        draw.line((x - sx * r, y + r, x + sx * r, y - r), fill=ink(colour), width=w)
        gx, gy = x - sx * r * 0.55, y + r * 0.55
        draw.line((gx - r * 0.3, gy - sx * r * 0.3, gx + r * 0.3, gy + sx * r * 0.3), fill=ink(colour),
                  width=w)


def burst(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: RGB, edge: RGB) -> None:
    draw.polygon(star_points(x, y, r, 8, 0.5), fill=ink(fill), outline=ink(edge))


# -- a kniggit -----------------------------------------------------------------------------------------
HEADINGS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1), "S": (0, -1), "SW": (-1, -1), "W": (-1, 0),
            "NW": (-1, 1)}
#: Each pool's sector on the rim, in Pillow's degrees (clockwise from east, y down).
SECTORS = {"A": 215, "D": 335, "M": 95}
SECTOR_SPAN = 110


@lru_cache(maxsize=1024)
def label_for(kid: str, cell: int) -> str:
    """The id when it fits in the disc, else its number (the colour gives the army)."""
    inner = 2 * (cell * 0.45 - rim(cell)) + 4
    return kid if condensed(ID_FONT).getlength(kid) <= inner else kid[1:]


def rim(cell: int) -> int:
    return max(3, round(cell * 0.1))


def pips(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, width: int, pool: str, count: int) -> None:
    """One pool's pips on its sector of the rim: a slot per token (5 or 10 slots), a full arc
    with a white dot past 10."""
    start = SECTORS[pool]
    box = (x - r, y - r, x + r, y + r)
    if count > 10:
        draw.arc(box, start, start + SECTOR_SPAN, fill=ink(POOL[pool]), width=width)
        mid = math.radians(start + SECTOR_SPAN / 2)
        d = r - width / 2
        dot = max(1.5, width / 2.6)
        draw.ellipse((x + d * math.cos(mid) - dot, y + d * math.sin(mid) - dot, x + d * math.cos(mid) + dot,
                      y + d * math.sin(mid) + dot), fill=ink(WHITE))
        return
    slots = 5 if count <= 5 else 10
    step = SECTOR_SPAN / slots
    gap = min(4.0, step * 0.3)
    for n in range(count):
        a = start + n * step
        draw.arc(box, a + gap / 2, a + step - gap / 2, fill=ink(POOL[pool]), width=width)


def kniggit_mark(image: Image.Image, draw: ImageDraw.ImageDraw, k: dict[str, Any], x: float, y: float, cell: int,
                 toward: tuple[float, float] | None, facing: bool, *, ghost: bool = False) -> None:
    """A kniggit centred on (x, y) in a `cell` px cell: mounted ring, pip rim, disc and label,
    facing wedge (toward a screen direction), marks."""
    r = cell * 0.45
    w = rim(cell)
    disc(image, k, x, y, cell, ghost=ghost)
    if toward is not None and k["status"] == "active" and not ghost:
        ux, uy = toward
        norm = math.hypot(ux, uy) or 1
        ux, uy = ux / norm, uy / norm
        tip_r = r + cell * (0.16 if facing else 0.08)
        base_r, half = r - w * 0.6, cell * (0.17 if facing else 0.11)
        tip = (x + ux * tip_r, y + uy * tip_r)
        bx, by = x + ux * base_r, y + uy * base_r
        draw.polygon([tip, (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)],
                     fill=ink(GOLD if facing else WHITE), outline=ink(GOLD_DARK if facing else TRACK))
    mark = cell * 0.3
    corner = cell * 0.36
    if k.get("magic_sword"):
        draw.polygon(star_points(x + corner, y - corner, mark * 0.62), fill=ink(GOLD), outline=ink(GOLD_DARK))
    if k.get("kind") == "archer":
        bow(draw, x - corner, y - corner, mark * 1.1)
    elif k.get("two_swords"):
        swords(draw, x - corner, y - corner, mark)
    if k["status"] == "fled":
        flag_shape(draw, x + corner - mark * 0.25, y - corner + mark * 0.55, mark * 1.2, WHITE)
    if k.get("carrying"):
        flag_shape(draw, x + corner - mark * 0.2, y + corner + mark * 0.55, mark * 1.3, ARMY[k["carrying"]])


def disc(image: Image.Image, k: dict[str, Any], x: float, y: float, cell: int, *, ghost: bool = False) -> None:
    """A kniggit's disc (mounted ring, pip rim, disc, label), drawn once per look and place
    within a pixel and pasted through its round mask: the same pixels as drawing it here (the
    sprite sits at even coordinates, so rounding .5 to even comes out the same)."""
    fled = k["status"] != "active" or ghost
    pools = (0, 0, 0) if ghost else tuple(int(k.get(pool, 0)) for pool in ("M", "A", "D"))
    reach = cell * (0.5 if k.get("mounted") else 0.45)
    left, top = 2 * math.floor((x - reach - 2) / 2), 2 * math.floor((y - reach - 2) / 2)
    sprite, mask = _disc(k["army"], fled, ghost, bool(k.get("mounted")), pools, label_for(k["id"], cell), cell,
                         x - left, y - top)
    pictures.stamp(image, sprite, mask, left, top)


@lru_cache(maxsize=4096)
def _disc(army: str, fled: bool, ghost: bool, mounted: bool, pools: tuple[int, int, int], label: str, cell: int,
          x: float, y: float) -> tuple[Image.Image, Image.Image]:
    size = (math.ceil(x + cell * 0.5) + 3, math.ceil(y + cell * 0.5) + 3)
    sprite, mask = blank(size, BACKGROUND), Image.new("1", size, 0)
    draw, shape = ImageDraw.Draw(sprite), ImageDraw.Draw(mask)
    r = cell * 0.45
    w = rim(cell)
    if mounted:
        rr = cell * 0.5
        draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=ink(HORSE))
        shape.ellipse((x - rr, y - rr, x + rr, y + rr), fill=1)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=ink(TRACK))
    shape.ellipse((x - r, y - r, x + r, y + r), fill=1)
    if not ghost:
        for pool, count in zip(("M", "A", "D"), pools, strict=True):
            pips(draw, x, y, r, w, pool, count)
    inner = r - w
    fill = FLED_FILL if fled else ARMY[army]
    draw.ellipse((x - inner, y - inner, x + inner, y + inner), fill=ink(fill),
                 outline=ink(ARMY[army] if fled else ARMY_DARK[army]), width=2 if fled else 1)
    text(sprite, (x, y + 1), label, FLED_INK if fled else WHITE, ID_FONT, "mm", fill, narrow=True)
    return sprite, mask


# -- what a picture reads from the view ----------------------------------------------------------------
KNIGGIT_FIELDS = ("id", "army", "kind", "two_swords", "pos", "facing", "heading", "M", "A", "D", "status",
                  "mounted", "magic_sword", "carrying", "hand")


def facts(view: dict[str, Any]) -> dict[str, Any]:
    """The public view's fields the battlefield shows (and nothing else: they key the cache)."""
    bf = view["battlefield"]
    last_move, last_ex, open_ex = view.get("last_move"), view.get("last_exchange"), view.get("exchange")
    turn, result = view.get("turn"), view.get("result")
    return {
        "field": {"width": bf["width"], "height": bf["height"], "zones": bf["zones"], "obstacles": bf["obstacles"]},
        "potions": [{"id": p["id"], "pos": p["pos"], "kind": p["kind"]} for p in bf.get("potions", [])],
        "flags": [{"army": f["army"], "home": f["home"], "pos": f["pos"], "carrier": f["carrier"]}
                  for f in bf.get("flags", [])],
        "kniggits": [{f: k.get(f) for f in KNIGGIT_FIELDS} for k in view.get("kniggits", [])],
        "engaged": [list(p) for p in view.get("engaged", [])],
        "phase": view.get("phase"),
        "preset": (view.get("options") or {}).get("preset"),
        "turn": {"round": turn["round"], "rounds": turn["rounds"], "army": turn["army"]} if turn else None,
        "last_move": ({"id": last_move["id"], "path": last_move["path"], "cost": last_move.get("cost")}
                      if last_move else None),
        "last_exchange": ({"attacker": last_ex["attacker"], "target": last_ex["target"], "mode": last_ex["mode"],
                           "number": last_ex.get("number")} if last_ex else None),
        "exchange": ({"attacker": open_ex["attacker"], "target": open_ex["target"], "mode": open_ex["mode"]}
                     if open_ex else None),
        "result": {"winner": result.get("winner"), "reason": result.get("reason")} if result else None,
    }


PHASE_WORDS = {"move": "moves", "facing": "sets facings", "turning": "is turning", "fight": "fights",
               "exchange": "fights"}


def headline(shown: dict[str, Any]) -> str:
    phase, turn, result = shown["phase"], shown["turn"], shown["result"]
    field = shown["field"]
    size = f"{field['width']}×{field['height']}"
    if result is not None:
        winner = result["winner"]
        reason = str(result.get("reason") or "").replace("_", " ")
        return (f"Army {winner} wins" if winner else "A draw") + (f" · {reason}" if reason else "")
    if turn is not None and phase in PHASE_WORDS:
        who = turn["army"] if phase != "turning" else ("B" if turn["army"] == "A" else "A")
        return f"Round {turn['round']} of {turn['rounds']} · Army {who} {PHASE_WORDS[phase]}"
    words = {"map": f"Battlefield {size}" + (f" · {shown['preset']}" if shown.get("preset") else ""),
             "build": f"Battlefield {size} · armies being built", "deploy": f"Battlefield {size} · deployment",
             "rps": f"Battlefield {size} · rock-paper-scissors"}
    return words.get(phase or "", f"Battlefield {size}")


# -- drawing a window ----------------------------------------------------------------------------------
def _by_id(kniggits: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {k["id"]: k for k in kniggits}


def on_field(kniggits: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [k for k in kniggits if k["status"] in ("active", "fled")]


class Board:
    """A window of the field pasted on a picture at (0, top), with helpers to draw in it."""

    def __init__(self, image: Image.Image, shown: dict[str, Any], win: Window, left: int, top: int) -> None:
        self.image, self.win, self.left, self.top = image, win, left, top
        self.draw = ImageDraw.Draw(image)
        self.cell = win[4]
        image.paste(field_layer(json.dumps(shown["field"], sort_keys=True), win), (left, top))
        self.shown = shown

    def at(self, xy: Sequence[int]) -> tuple[float, float]:
        return centre(self.win, xy, self.left + AXIS_W, self.top)

    def visible(self, xy: Sequence[int]) -> bool:
        return inside(self.win, xy)

    def tint(self, cells: Iterable[Sequence[int]], colour: RGB, edge: RGB) -> None:
        """Each cell filled and outlined, by the two calls to Pillow's core that
        `ImageDraw.rectangle` makes (a reach tints a hundred cells; its checks cost more)."""
        c, core = self.cell, self.draw.draw
        fill, outline = ink(colour), ink(edge)
        for xy in cells:
            if self.visible(xy):
                x, y = self.at(xy)
                box = (x - c / 2 + 1, y - c / 2 + 1, x + c / 2 - 1, y + c / 2 - 1)
                core.draw_rectangle(box, fill, 1)
                core.draw_rectangle(box, outline, 0, 1)

    def items(self) -> None:
        """Potions (a flask in its colour, the letter when it fits) and flags (a pennant where it
        lies; a dashed square on an empty home cell)."""
        c, draw = self.cell, self.draw
        for potion in self.shown["potions"]:
            if not self.visible(potion["pos"]):
                continue
            x, y = self.at(potion["pos"])
            colour = POOL[potion["kind"]]
            r = c * 0.36
            draw.rectangle((x - r * 0.32, y - r * 1.25, x + r * 0.32, y - r * 0.5), fill=ink(colour),
                           outline=ink(BLACK))
            draw.ellipse((x - r, y - r * 0.75, x + r, y + r * 1.1), fill=ink(colour), outline=ink(BLACK), width=2)
            if c >= 40:
                text(self.image, (x, y + r * 0.2), potion["kind"], WHITE, MIN_FONT, "mm", colour)
        for flag in self.shown["flags"]:
            home = flag["home"]
            if self.visible(home) and flag["pos"] != home:
                x, y = self.at(home)
                h = c * 0.42
                dashed(draw, (x - h, y - h), (x + h, y - h), ink(ARMY[flag["army"]]), 2, 4, 3)
                dashed(draw, (x - h, y + h), (x + h, y + h), ink(ARMY[flag["army"]]), 2, 4, 3)
                dashed(draw, (x - h, y - h), (x - h, y + h), ink(ARMY[flag["army"]]), 2, 4, 3)
                dashed(draw, (x + h, y - h), (x + h, y + h), ink(ARMY[flag["army"]]), 2, 4, 3)
            if flag["pos"] is not None and self.visible(flag["pos"]):
                x, y = self.at(flag["pos"])
                flag_shape(draw, x - c * 0.22, y + c * 0.38, c * 0.78, ARMY[flag["army"]])

    def path(self, cells: Sequence[Sequence[int]], colour: RGB = PATH) -> None:
        """A move's path: a hollow ring on its start, a line through its cells, an arrowhead."""
        if len(cells) < 2:
            return
        c, draw = self.cell, self.draw
        points = [self.at(xy) for xy in cells]
        width = max(3, round(c / 9))
        draw.line(points, fill=ink(colour), width=width, joint="curve")
        sx, sy = points[0]
        r = c * 0.3
        draw.ellipse((sx - r, sy - r, sx + r, sy + r), outline=ink(colour), width=width)
        for px, py in points[1:-1]:
            d = width * 0.9
            draw.ellipse((px - d, py - d, px + d, py + d), fill=ink(colour))
        arrowhead(draw, points[-2], points[-1], c * 0.42, ink(colour))

    def route(self, cells: Sequence[Sequence[int]], colour: RGB = PATH) -> None:
        """A destination's route on the reach picture: a plain line (the badge marks its end)."""
        points = [self.at(xy) for xy in cells if self.visible(xy)]
        if len(points) >= 2:
            self.draw.line(points, fill=ink(colour), width=max(3, round(self.cell / 10)), joint="curve")

    def badge(self, xy: Sequence[int], words: str, colour: RGB = PATH) -> None:
        """A route's number on its end cell: a white disc ringed in the route's colour."""
        if not self.visible(xy):
            return
        x, y = self.at(xy)
        r = max(self.cell * 0.42, 15)
        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=ink(WHITE), outline=ink(colour),
                          width=max(3, round(self.cell / 12)))
        text(self.image, (x, y + 1), words, BLACK, MIN_FONT, "mm", WHITE)

    def engaged(self, pairs: Iterable[Sequence[str]], kniggits: dict[str, dict[str, Any]],
                colour: RGB = ENGAGED) -> None:
        c = self.cell
        for a, b in pairs:
            if a in kniggits and b in kniggits:
                dashed(self.draw, self.at(kniggits[a]["pos"]), self.at(kniggits[b]["pos"]), ink(colour),
                       max(2, round(c / 12)), max(4, c / 6), max(3, c / 9))

    def kniggits(self, kniggits: list[dict[str, Any]], pairs: list[list[str]], skip: str | None = None,
                 *, arrows: bool = True) -> None:
        """Every kniggit in the window; the others as arrows at the window's edge."""
        everyone = _by_id(kniggits)
        engaged_with = {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}
        for k in on_field(kniggits):
            if k["id"] == skip:
                continue
            if not self.visible(k["pos"]):
                if arrows:
                    self.edge_arrow(k)
                continue
            x, y = self.at(k["pos"])
            target = everyone.get(k.get("facing") or "")
            facing = target is not None and (k["id"], target["id"]) in engaged_with
            if facing:
                tx, ty = self.at(target["pos"])
                toward = (tx - x, ty - y)
            else:
                dx, dy = HEADINGS.get(k.get("heading") or "", (0, 1 if k["army"] == "A" else -1))
                toward = (dx, -dy)
            kniggit_mark(self.image, self.draw, k, x, y, self.cell, toward, facing)

    def edge_arrow(self, k: dict[str, Any]) -> None:
        """A kniggit outside the window: a triangle in its army's colour on the nearest edge."""
        x0, x1, y0, y1, c = self.win[:5]
        px = min(max(k["pos"][0], x0), x1)
        py = min(max(k["pos"][1], y0), y1)
        x, y = self.at((px, py))
        dx = (k["pos"][0] > x1) - (k["pos"][0] < x0)
        dy = (k["pos"][1] < y0) - (k["pos"][1] > y1)  # screen y grows downward
        x += dx * c * 0.3
        y += dy * c * 0.3
        s = c * 0.22
        norm = math.hypot(dx, dy) or 1
        ux, uy = dx / norm, dy / norm
        tip = (x + ux * s, y + uy * s)
        self.draw.polygon([tip, (x - ux * s - uy * s, y - uy * s + ux * s), (x - ux * s + uy * s, y - uy * s - ux * s)],
                          fill=ink(FLED_FILL if k["status"] == "fled" else ARMY[k["army"]]), outline=ink(BLACK))

    def exchange(self, pair: dict[str, Any] | None, kniggits: dict[str, dict[str, Any]], *, open_: bool) -> None:
        """The last exchange (a burst between the pair; a shot: a line from the archer, the burst
        at its target) or the open one (a white burst)."""
        if not pair or pair["attacker"] not in kniggits or pair["target"] not in kniggits:
            return
        a, t = kniggits[pair["attacker"]]["pos"], kniggits[pair["target"]]["pos"]
        if not (self.visible(a) or self.visible(t)):
            return
        (ax, ay), (tx, ty) = self.at(a), self.at(t)
        c = self.cell
        fill, edge = (WHITE, BLACK) if open_ else (BURST, BURST_EDGE)
        if pair["mode"] == "shot":
            norm = math.hypot(tx - ax, ty - ay) or 1
            ux, uy = (tx - ax) / norm, (ty - ay) / norm
            end = (tx - ux * c * 0.5, ty - uy * c * 0.5)
            self.draw.line((ax + ux * c * 0.5, ay + uy * c * 0.5, *end), fill=ink(edge), width=max(2, c // 14))
            arrowhead(self.draw, (ax, ay), end, c * 0.3, ink(edge))
            bx, by = end
        else:
            bx, by = (ax + tx) / 2, (ay + ty) / 2
        burst(self.draw, bx, by, c * 0.24, fill, edge)


# -- the roster ----------------------------------------------------------------------------------------
def roster_height(rows: int, armies: int) -> int:
    return armies * ROW + rows * ROW + 10


def chip(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, pool: str, value: int) -> None:
    draw.rounded_rectangle((x, y - ROW / 2 + 4, x + CHIP_W - 4, y + ROW / 2 - 4), radius=5, fill=ink(POOL[pool]))
    text(image, (x + (CHIP_W - 4) / 2, y + 1), str(value), WHITE, MIN_FONT, "mm", POOL[pool])


#: What a roster line shows of a kniggit (with its position): the key of the line's sprite.
LINE_FIELDS = ("id", "army", "status", "M", "A", "D", "mounted", "magic_sword", "kind", "two_swords", "carrying")


def roster_line(image: Image.Image, draw: ImageDraw.ImageDraw, k: dict[str, Any], x: float, y: float,
                width: float) -> None:
    """One kniggit's line, `ROW` px tall round `y` on the roster's panel: drawn once per
    kniggit as shown (and place within a pixel) and pasted, as most lines of a roster are the
    same as on the last picture. The sprite sits at an even x, so the line's own rounding (of
    .5 to even) comes out as drawn in place."""
    top = y - ROW / 2
    if top != int(top):  # rows are whole pixels; drawn in place otherwise
        draw_roster_line(image, draw, k, x, y, width)
        return
    left = 2 * math.floor((x - 2) / 2)
    shown = (*(k.get(name) for name in LINE_FIELDS), tuple(k["pos"]) if k.get("pos") else None)
    pictures.stamp(image, _line_sprite(shown, x - left, width), None, left, int(top))


@lru_cache(maxsize=4096)
def _line_sprite(shown: tuple[Any, ...], x: float, width: float) -> Image.Image:
    k = dict(zip(LINE_FIELDS, shown[:-1], strict=True)) | {"pos": shown[-1]}
    sprite = blank((math.ceil(x + width) + 3, ROW), PANEL)
    draw_roster_line(sprite, ImageDraw.Draw(sprite), k, x, ROW / 2, width)
    return sprite


def draw_roster_line(image: Image.Image, draw: ImageDraw.ImageDraw, k: dict[str, Any], x: float, y: float,
                     width: float) -> None:
    """One kniggit: its id, M A D chips, marks and where it is (or that it fled or is gone)."""
    gone = k["status"] == "gone"
    text(image, (x, y), k["id"], DIM_TEXT if gone else ARMY_BRIGHT[k["army"]], MIN_FONT, "lm", PANEL)
    cx = x + ID_W
    for pool in ("M", "A", "D"):
        chip(image, draw, cx, y, pool, k[pool])
        cx += CHIP_W
    cx += 14
    mark = 22
    if k.get("mounted"):
        draw.ellipse((cx, y - 9, cx + 18, y + 9), outline=ink(HORSE), width=4)
        cx += 26
    if k.get("magic_sword"):
        draw.polygon(star_points(cx + 10, y, 11), fill=ink(GOLD), outline=ink(GOLD_DARK))
        cx += 26
    if k.get("kind") == "archer":
        bow(draw, cx + 10, y, mark, DIM_TEXT)
        cx += 26
    elif k.get("two_swords"):
        swords(draw, cx + 10, y, mark * 0.9, DIM_TEXT)
        cx += 26
    if k.get("carrying"):
        flag_shape(draw, cx + 4, y + 11, 22, ARMY[k["carrying"]], pole=DIM_TEXT)
        cx += 26
    where = {"fled": "fled", "gone": "gone"}.get(k["status"], f"{k['pos'][0]},{k['pos'][1]}")
    if k["status"] == "fled":
        flag_shape(draw, cx + 4, y + 11, 22, WHITE, pole=DIM_TEXT)
        where = f"{k['pos'][0]},{k['pos'][1]}"
    text(image, (x + width, y), where, DIM_TEXT, MIN_FONT, "rm", PANEL)


def roster(image: Image.Image, kniggits: list[dict[str, Any]], box: tuple[int, int, int, int],
           columns: int) -> None:
    """Every kniggit with its exact token counts: the armies side by side (two columns) or one
    under the other."""
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(box, radius=10, fill=ink(PANEL))
    x0, y0, x1, _ = box
    armies = [(a, [k for k in kniggits if k["army"] == a]) for a in ("A", "B")]
    col_w = (x1 - x0 - 16 * (columns + 1)) / columns
    y = y0 + 6 + ROW / 2
    for n, (army, mine) in enumerate(armies):
        cx = x0 + 16 + (n % columns) * (col_w + 16)
        cy = y0 + 6 + ROW / 2 if columns == 2 else y
        text(image, (cx, cy), f"Army {army}", ARMY_BRIGHT[army], MIN_FONT, "lm", PANEL)
        hx = cx + ID_W
        for pool in ("M", "A", "D"):
            text(image, (hx + (CHIP_W - 4) / 2, cy), pool, POOL_BRIGHT[pool], MIN_FONT, "mm", PANEL)
            hx += CHIP_W
        cy += ROW
        for k in mine:
            roster_line(image, draw, k, cx, cy, col_w)
            cy += ROW
        y = cy



# -- pictures ------------------------------------------------------------------------------------------
def layer_size(win: Window) -> tuple[int, int]:
    upper = (win.y1 - win.gap[1]) * win.cell + 2 + GAP_PX if win.gap else 0
    lower = ((win.gap[0] if win.gap else win.y1 + 1) - win.y0) * win.cell + AXIS_H
    return AXIS_W + (win.x1 - win.x0 + 1) * win.cell + 2, upper + lower


def header(image: Image.Image, lines: Sequence[str]) -> None:
    text(image, (PAD, HEADER / 2), fit(lines[0], TITLE_FONT, WIDTH - 2 * PAD), TEXT, TITLE_FONT, "lm", BACKGROUND)
    for n, line in enumerate(lines[1:]):
        text(image, (PAD, HEADER + n * SUBLINE + SUBLINE / 2 - 6), fit(line, MIN_FONT, WIDTH - 2 * PAD), DIM_TEXT,
             MIN_FONT, "lm", BACKGROUND)


def header_height(lines: Sequence[str]) -> int:
    return HEADER + (len(lines) - 1) * SUBLINE


def canvas(height: int) -> Image.Image:
    return blank((WIDTH, height), BACKGROUND)


def framed(shown: dict[str, Any], win: Window, lines: Sequence[str],
           listed: list[dict[str, Any]] | None = None) -> Board:
    """A picture: the header lines, the window of the field, and the roster of `listed` beside
    the field when it fits there, else under it."""
    board_w, board_h = layer_size(win)
    top = header_height(lines)
    beside = False
    height = top + board_h + PAD
    if listed:
        per_army = [sum(k["army"] == a for k in listed) for a in ("A", "B")]
        one_column = roster_height(sum(per_army), 2)
        beside = WIDTH - board_w - 2 * PAD >= ROSTER_W and one_column <= board_h
        if not beside:
            height += roster_height(max(per_army), 1) + PAD
    left = 0 if beside or board_w + PAD >= WIDTH else (WIDTH - board_w - AXIS_W // 2) // 2
    image = canvas(height)
    header(image, lines)
    board = Board(image, shown, win, left, top)
    if listed:
        if beside:
            box = (WIDTH - PAD - ROSTER_W, top, WIDTH - PAD, top + roster_height(len(listed), 2))
            roster(image, listed, box, 1)
        else:
            y = top + board_h + PAD
            roster(image, listed, (PAD, y, WIDTH - PAD, y + roster_height(max(per_army), 1)), 2)
    return board


def scene(board: Board, shown: dict[str, Any], *, skip: str | None = None, move: bool = True) -> None:
    """Everything on the field: items, the last move, engaged pairs, kniggits, exchanges."""
    kniggits = shown["kniggits"]
    everyone = _by_id(on_field(kniggits))
    board.items()
    if move and shown["last_move"]:
        board.path(shown["last_move"]["path"])
    board.engaged(shown["engaged"], everyone)
    board.kniggits(kniggits, shown["engaged"], skip)
    board.exchange(shown["last_exchange"], everyone, open_=False)
    board.exchange(shown["exchange"], everyone, open_=True)


def positions(shown: dict[str, Any], ids: Iterable[str]) -> list[list[int]]:
    everyone = _by_id(on_field(shown["kniggits"]))
    return [everyone[i]["pos"] for i in ids if i in everyone]


def battlefield(view: dict[str, Any]) -> bytes:
    """The board for the table, from the public view (seat None): the window round the action
    (see the module's docstring), the last move and exchange, and the roster."""
    FONT_SIZES.update((MIN_FONT, TITLE_FONT, ID_FONT))
    return _battlefield(orjson.dumps(facts(view), option=orjson.OPT_SORT_KEYS))


@lru_cache(maxsize=128)
def _battlefield(key: bytes) -> bytes:
    shown = orjson.loads(key)
    field = shown["field"]
    cells = [k["pos"] for k in on_field(shown["kniggits"])]
    focus = []
    for pair in (shown["exchange"], shown["last_exchange"]):
        if pair:
            focus += positions(shown, (pair["attacker"], pair["target"]))
    if shown["last_move"] and cells:
        focus += shown["last_move"]["path"][-1:]
        cells += shown["last_move"]["path"]
    win = window(field["width"], field["height"], cells, focus)
    board = framed(shown, win, [headline(shown)], shown["kniggits"] or None)
    scene(board, shown)
    return pictures.png(board.image, PALETTE)


PLAN_FIELDS = ("id", "path", "cost", "allowance", "engages", "potions", "flag", "hand")


def preview(view: dict[str, Any], plan: dict[str, Any]) -> bytes:
    """A seat's private move preview: the path from the start ring to the cell reached, its
    cost against the allowance ("4.83 of 6"), the new engagements (gold dashes), potions drunk
    and a flag taken (with the hand)."""
    FONT_SIZES.update((MIN_FONT, TITLE_FONT, ID_FONT))
    planned = {f: plan.get(f) for f in PLAN_FIELDS}
    return _preview(orjson.dumps({"shown": facts(view), "plan": planned}, option=orjson.OPT_SORT_KEYS))


def plan_lines(plan: dict[str, Any]) -> list[str]:
    start, end = plan["path"][0], plan["path"][-1]
    first = f"{plan['id']} from {start[0]},{start[1]} to {end[0]},{end[1]} · {plan['cost']} of {plan['allowance']} in"
    if len(plan["path"]) < 2:
        first = f"{plan['id']} holds at {start[0]},{start[1]}"
    notes = [f"engages {', '.join(plan['engages'])}" if plan.get("engages") else "no new engagement"]
    if plan.get("potions"):
        notes.append(f"drinks {', '.join(plan['potions'])}")
    if plan.get("flag"):  # a hand is chosen only when the flag is taken; else it goes home
        notes.append(f"takes Army {plan['flag']}'s flag ({plan['hand']} hand)" if plan.get("hand")
                     else f"sends Army {plan['flag']}'s flag home")
    return [first, "Preview: " + " · ".join(notes)]


@lru_cache(maxsize=64)
def _preview(key: bytes) -> bytes:
    data = orjson.loads(key)
    shown, plan = data["shown"], data["plan"]
    field = shown["field"]
    mover = _by_id(shown["kniggits"]).get(plan["id"])
    engages = plan.get("engages") or []
    cells = [*plan["path"], *positions(shown, engages)]
    win = window(field["width"], field["height"], cells, cells, snap=False)
    board = framed(shown, win, plan_lines(plan))
    board.items()
    board.engaged(shown["engaged"], _by_id(on_field(shown["kniggits"])))
    board.path(plan["path"])
    if mover is not None:
        end = dict(mover, pos=plan["path"][-1])
        others = [k for k in shown["kniggits"] if k["id"] != mover["id"]]
        enemies = _by_id(on_field(others))
        board.engaged([(mover["id"], e) for e in engages], {**enemies, mover["id"]: end}, colour=GOLD_DARK)
        board.kniggits(others, shown["engaged"])
        if len(plan["path"]) > 1 and board.visible(mover["pos"]):
            x, y = board.at(mover["pos"])
            kniggit_mark(board.image, board.draw, mover, x, y, board.cell, None, False, ghost=True)
        x, y = board.at(end["pos"])
        target = enemies.get(engages[0]) if engages else None
        if target is not None:
            tx, ty = board.at(target["pos"])
            toward, facing = (tx - x, ty - y), True
        else:
            (px, py), (qx, qy) = board.at(plan["path"][max(0, len(plan["path"]) - 2)]), (x, y)
            toward, facing = ((qx - px, qy - py) if len(plan["path"]) > 1 else None), False
        kniggit_mark(board.image, board.draw, end, x, y, board.cell, toward, facing)
    return pictures.png(board.image, PALETTE)


def reach(view: dict[str, Any], kniggit_id: str, cells: Sequence[Sequence[int]],
          routes: Sequence[Sequence[Any]] = ()) -> bytes:
    """A private overlay: the cells `kniggit_id` can reach this turn, tinted, and `routes`
    ([number, path] each: the move panel's named destinations) drawn and numbered at their
    ends, so a destination picked from the list moves along a route already seen."""
    FONT_SIZES.update((MIN_FONT, TITLE_FONT, ID_FONT))
    drawn = [[int(n), [list(c) for c in path]] for n, path in routes]
    return _reach(orjson.dumps({"shown": facts(view), "id": kniggit_id, "cells": [list(c) for c in cells],
                                "routes": drawn}, option=orjson.OPT_SORT_KEYS))


@lru_cache(maxsize=64)
def _reach(key: bytes) -> bytes:
    data = orjson.loads(key)
    shown, kid, cells, routes = data["shown"], data["id"], data["cells"], data.get("routes") or []
    field = shown["field"]
    me = positions(shown, [kid])
    win = window(field["width"], field["height"], [*cells, *me], me, snap=False)
    count = f"{len(cells)} cell{'s' if len(cells) != 1 else ''}"
    lines = [f"{kid} can reach {count} this turn" if cells else f"{kid} cannot move this turn"]
    if routes:
        lines[0] += f" · routes 1–{len(routes)} as listed" if len(routes) > 1 else " · route 1 as listed"
    board = framed(shown, win, lines)
    board.tint(cells, REACH, REACH_EDGE)
    for _, path in routes:
        board.route(path)
    scene(board, shown, move=False)
    for number, path in routes:
        board.badge(path[-1], str(number))
    return pictures.png(board.image, PALETTE)


def sight(view: dict[str, Any], kniggit_id: str, targets: Sequence[dict[str, Any] | str]) -> bytes:
    """A private overlay for an archer: the cells in its range tinted, each target in clear sight
    ringed in green, each blocked line crossed in red. `targets`: ids (clear) or dicts
    {"id", "clear": bool}."""
    FONT_SIZES.update((MIN_FONT, TITLE_FONT, ID_FONT))
    listed = [{"id": t, "clear": True} if isinstance(t, str) else {"id": t["id"], "clear": bool(t.get("clear"))}
              for t in targets]
    return _sight(orjson.dumps({"shown": facts(view), "id": kniggit_id, "targets": listed}, option=orjson.OPT_SORT_KEYS))


@lru_cache(maxsize=64)
def _sight(key: bytes) -> bytes:
    data = orjson.loads(key)
    shown, kid, targets = data["shown"], data["id"], data["targets"]
    field = shown["field"]
    everyone = _by_id(on_field(shown["kniggits"]))
    archer = everyone.get(kid)
    spots = positions(shown, [t["id"] for t in targets])
    reach_in = 2 * archer["D"] if archer is not None and archer.get("kind") == "archer" else 0
    clear = [t["id"] for t in targets if t["clear"]]
    lines = [f"{kid} · range {reach_in} in · " + (f"can shoot {', '.join(clear)}" if clear else "no clear shot")]
    me = [archer["pos"]] if archer is not None else []
    in_range = []
    if archer is not None:
        ax, ay = archer["pos"]
        in_range = [[x, y] for x in range(max(1, ax - reach_in), min(field["width"], ax + reach_in) + 1)
                    for y in range(max(1, ay - reach_in), min(field["height"], ay + reach_in) + 1)
                    if (x - ax) ** 2 + (y - ay) ** 2 <= reach_in ** 2]
    win = window(field["width"], field["height"], [*me, *spots], [*me, *spots], snap=False)
    board = framed(shown, win, lines)
    board.tint(in_range, REACH, REACH)
    scene(board, shown, move=False)
    if archer is not None:
        c, draw = board.cell, board.draw
        ax, ay = board.at(archer["pos"])
        for target in targets:
            if target["id"] not in everyone:
                continue
            tx, ty = board.at(everyone[target["id"]]["pos"])
            colour = SHOOT if target["clear"] else BLOCKED
            norm = math.hypot(tx - ax, ty - ay) or 1
            ux, uy = (tx - ax) / norm, (ty - ay) / norm
            start, end = (ax + ux * c * 0.5, ay + uy * c * 0.5), (tx - ux * c * 0.5, ty - uy * c * 0.5)
            width = max(3, c // 12)
            if target["clear"]:
                draw.line((*start, *end), fill=ink(colour), width=width)
                r = c * 0.5
                draw.ellipse((tx - r, ty - r, tx + r, ty + r), outline=ink(colour), width=width)
            else:
                dashed(draw, start, end, ink(colour), width, c / 4, c / 6)
                mx, my, s = (ax + tx) / 2, (ay + ty) / 2, c * 0.22
                draw.line((mx - s, my - s, mx + s, my + s), fill=ink(colour), width=width + 1)
                draw.line((mx - s, my + s, mx + s, my - s), fill=ink(colour), width=width + 1)
    return pictures.png(board.image, PALETTE)


def deployment(view: dict[str, Any], army: str | None, placements: dict[str, Sequence[int]]) -> bytes:
    """A private preview of an army's zone with its draft placements: the zone's rows in one
    strip, so neighbouring cells look neighbouring (a 48-inch field shows the 36 columns round
    the placements when they fit there)."""
    FONT_SIZES.update((MIN_FONT, TITLE_FONT, ID_FONT))
    if army not in ("A", "B"):  # not told: the placements' army (A when there are none)
        army = next(iter(placements), "A")[0]
    revealed = (view.get("revealed") or {}).get(army) or []
    bought = {p["id"]: {f: p.get(f) for f in ("M", "A", "D", "kind", "two_swords")} for p in revealed}
    key = {"shown": facts(view), "army": army, "placements": {k: list(v) for k, v in sorted(placements.items())},
           "bought": bought}
    return _deployment(orjson.dumps(key, option=orjson.OPT_SORT_KEYS))


STRIP_CELL = 26  # the smallest cell of the deployment strip: a 36-inch zone fits whole


def strip_columns(width: int, xs: Sequence[int]) -> tuple[int, int]:
    """The columns of the deployment strip: the whole zone when it fits at `STRIP_CELL`, else the
    widest span that does, round the placed kniggits (whole 6-inch blocks), else all of it."""
    most = BOARD_W // STRIP_CELL
    if width <= most or not xs:
        return 1, width
    lo, hi = _snap(max(1, min(xs) - 2), min(width, max(xs) + 2), width)
    if hi - lo + 1 > most:
        return 1, width
    while hi - lo + 1 + BLOCK <= most:  # grow by whole blocks, toward the side with more room
        if lo > 1 and (width - hi <= lo - 1 or hi == width):
            lo -= BLOCK
        elif hi < width:
            hi += BLOCK
        else:
            break
    return max(1, lo), min(width, hi)


@lru_cache(maxsize=64)
def _deployment(key: bytes) -> bytes:
    data = orjson.loads(key)
    shown, army, placements, bought = data["shown"], data["army"], data["placements"], data["bought"]
    field = shown["field"]
    lo, hi = field["zones"][army]
    x0, x1 = strip_columns(field["width"], [xy[0] for xy in placements.values()])
    win = Window(x0, x1, lo, hi, min(CELL_MAX, BOARD_W // (x1 - x0 + 1)))
    columns = "" if (x0, x1) == (1, field["width"]) else f" · columns {x0}–{x1} of {field['width']}"
    lines = [f"Army {army} deployment · rows {lo}–{hi}{columns} · {len(placements)} placed"]
    top = header_height(lines)
    image = canvas(top + layer_size(win)[1] + PAD)
    header(image, lines)
    heading = "N" if army == "A" else "S"
    tokens = [{"id": kid, "army": army, "pos": xy, "status": "active", "heading": heading, "facing": None,
               "mounted": False, "magic_sword": False, "carrying": None, "hand": None,
               **{"M": 0, "A": 0, "D": 0, "kind": "normal", "two_swords": False}, **bought.get(kid, {})}
              for kid, xy in placements.items()]
    board = Board(image, shown, win, (WIDTH - layer_size(win)[0] - AXIS_W // 2) // 2, top)
    board.items()
    board.kniggits(tokens, [], arrows=False)
    return pictures.png(image, PALETTE)


def clear_caches() -> None:
    """Forget every drawn layer and picture (the bench measures cold pictures)."""
    for cached in (field_layer, _rows_layer, _line_sprite, _disc, _battlefield, _preview, _reach, _sight, _deployment):
        cached.cache_clear()
