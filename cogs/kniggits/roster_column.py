"""The roster beside or under the field: a line per kniggit with its id, coloured token chips,
marks and where it stands, each line drawn once and pasted. Every part is laid out by its inked
box (`line_layout`, `header_layout`), so none overlaps another: what does not fit beside the
chips flows onto a second row of the line, and the picture makes room for it."""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import Literal, NamedTuple, cast

from PIL import Image, ImageDraw

from cogs.kniggits.look import (
    ARMY,
    ARMY_BRIGHT,
    CHIP_W,
    DIM_TEXT,
    GOLD,
    GOLD_DARK,
    HORSE,
    ID_W,
    MIN_FONT,
    PANEL,
    POOL,
    POOL_BRIGHT,
    ROW,
    WHITE,
    Box,
    blank,
    ink,
    text,
    text_box,
)
from cogs.kniggits.marks import bow, flag_shape, star_points, swords
from cogs.kniggits.shown import KniggitLook, Status
from cogs.table import pictures
from games.kniggits.schema import Army

# -- the roster ----------------------------------------------------------------------------------------
NARROW_ID_W = 56  # a narrow column's id column ("A10" is 48 px): its title goes to the right
WIDE = 400  # a column this wide keeps `ID_W`, its title at the left over the ids
GAP = 8  # between a line's parts
MARK_GAP = 5  # between two marks
TOP, BOTTOM = 6, 4  # the panel's margins above the first row and below the last
MARGIN = 16  # the panel's margins left and right
BETWEEN = 44  # between two columns: Army A's positions are not read as Army B's ids

Mark = Literal["horse", "star", "bow", "swords", "flag A", "flag B", "fled"]


class Part(NamedTuple):
    """One thing a roster draws: what it is, where it is drawn (a text's anchor point, a mark's
    origin) and the box it inks."""

    what: str
    x: float
    y: float
    box: Box


class Line(NamedTuple):
    """What a roster line shows of a kniggit: the key of the line's sprite."""

    id: str
    army: Army
    status: Status
    M: int
    A: int
    D: int
    mounted: bool
    magic_sword: bool
    archer: bool
    two_swords: bool
    carrying: Army | None
    where: str  # where it stands ("12,9"; a fled one too), or "gone"


def line_of(k: KniggitLook) -> Line:
    where = "gone" if k["status"] == "gone" else f"{k['pos'][0]},{k['pos'][1]}"
    return Line(k["id"], k["army"], k["status"], k["M"], k["A"], k["D"], k["mounted"], k["magic_sword"],
                k["kind"] == "archer", k["two_swords"], k["carrying"], where)


def marks_of(k: Line) -> list[Mark]:
    """A line's marks in order: horse, magic sword, bow or two swords, the flag carried, the
    white flag of a fled kniggit."""
    out: list[Mark] = []
    if k.mounted:
        out.append("horse")
    if k.magic_sword:
        out.append("star")
    if k.archer:
        out.append("bow")
    elif k.two_swords:
        out.append("swords")
    if k.carrying:
        out.append("flag A" if k.carrying == "A" else "flag B")
    if k.status == "fled":
        out.append("fled")
    return out


def draw_mark(draw: ImageDraw.ImageDraw, mark: Mark, x: float, y: float) -> None:
    """A mark with its origin at (x, y): the left of its slot, on the row's middle."""
    if mark == "horse":
        draw.ellipse((x, y - 9, x + 18, y + 9), outline=ink(HORSE), width=4)
    elif mark == "star":
        draw.polygon(star_points(x + 10, y, 11), fill=ink(GOLD), outline=ink(GOLD_DARK))
    elif mark == "bow":
        bow(draw, x + 10, y, 22, DIM_TEXT)
    elif mark == "swords":
        swords(draw, x + 10, y, 22 * 0.9, DIM_TEXT)
    else:
        flag_shape(draw, x + 4, y + 11, 22, WHITE if mark == "fled" else ARMY[mark[-1]], pole=DIM_TEXT)


@cache
def mark_extent(mark: Mark) -> Box:
    """The box a mark inks round its origin, measured once by drawing it (a pixel of margin, for
    where a fraction of a pixel rounds the other way)."""
    scratch = blank((80, 80), PANEL)
    draw_mark(ImageDraw.Draw(scratch), mark, 40, 40)
    left, top, right, bottom = scratch.point([int(v != ink(PANEL)) * 255 for v in range(256)], "L").getbbox() or (
        40, 40, 40, 40)
    return left - 41, top - 41, right - 39, bottom - 39


def id_column(width: float) -> int:
    return ID_W if width >= WIDE else NARROW_ID_W


def chip_box(x: float, y: float) -> Box:
    return x, y - ROW / 2 + 4, x + CHIP_W - 4 + 1, y + ROW / 2 - 4 + 1


@lru_cache(maxsize=4096)
def line_layout(k: Line, x: float, top: float, width: float) -> tuple[int, tuple[Part, ...]]:
    """The rows a line takes and its parts, in a column `width` wide from `x`, its top at `top`:
    the id, the M A D chips, then the marks and where it stands on the chips' row as far as they
    fit, the rest on the rows under it (marks from under the chips, where it stands at the right)."""
    y = top + ROW / 2
    id_w = id_column(width)
    parts = [Part("id", x, y, text_box((x, y), k.id, MIN_FONT, "lm"))]
    for n, pool in enumerate("MAD"):
        cx = x + id_w + n * CHIP_W
        parts.append(Part(pool, cx, y, chip_box(cx, y)))
    row, edge, right = 0, x + id_w + 3 * CHIP_W - 4, x + width
    cursor = edge + GAP
    for mark in marks_of(k):
        left, up, far, down = mark_extent(mark)
        if cursor + far - left > right:
            row, cursor = row + 1, x + id_w
        cy = y + row * ROW
        parts.append(Part(mark, cursor - left, cy, (cursor, cy + up, cursor + far - left, cy + down)))
        edge, cursor = cursor + far - left, cursor + far - left + MARK_GAP
    where = text_box((right, y + row * ROW), k.where, MIN_FONT, "rm")
    if where[0] < edge + GAP:
        row += 1
    cy = y + row * ROW
    parts.append(Part("where", right, cy, text_box((right, cy), k.where, MIN_FONT, "rm")))
    return row + 1, tuple(parts)


def header_layout(army: Army, x: float, y: float, width: float) -> list[Part]:
    """An army's heading row round `y`: "Army A" over the ids when the id column holds it, else at
    the right, and M A D over the chips."""
    id_w = id_column(width)
    letters = []
    for n, pool in enumerate("MAD"):
        cx = x + id_w + n * CHIP_W + (CHIP_W - 4) / 2
        letters.append(Part(f"{pool} head", cx, y, text_box((cx, y), pool, MIN_FONT, "mm")))
    title = f"Army {army}"
    box = text_box((x, y), title, MIN_FONT, "lm")
    if box[2] + GAP > letters[0].box[0]:
        return [Part("title", x + width, y, text_box((x + width, y), title, MIN_FONT, "rm")), *letters]
    return [Part("title", x, y, box), *letters]


def line_rows(k: KniggitLook, width: float) -> int:
    """The rows of `k`'s line: one without marks (where it stands fits after the chips in the
    narrowest column), else as laid out."""
    if not (k["mounted"] or k["magic_sword"] or k["kind"] == "archer" or k["two_swords"] or k["carrying"]
            or k["status"] == "fled"):
        return 1
    return _rows(k["mounted"], k["magic_sword"], k["kind"] == "archer", k["two_swords"], k["carrying"],
                 k["status"], f"{k['pos'][0]},{k['pos'][1]}" if k["status"] != "gone" else "gone", width)


@lru_cache(maxsize=1024)
def _rows(mounted: bool, magic_sword: bool, archer: bool, two_swords: bool, carrying: Army | None, status: Status,
          where: str, width: float) -> int:
    """The rows of a line with these marks (neither its id nor its chips change them)."""
    line = Line("A1", "A", status, 0, 0, 0, mounted, magic_sword, archer, two_swords, carrying, where)
    return line_layout(line, 0, 0, width)[0]


def chip(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, pool: str, value: int) -> None:
    draw.rounded_rectangle((x, y - ROW / 2 + 4, x + CHIP_W - 4, y + ROW / 2 - 4), radius=5, fill=ink(POOL[pool]))
    text(image, (x + (CHIP_W - 4) / 2, y + 1), str(value), WHITE, MIN_FONT, "mm", POOL[pool])


def roster_line(image: Image.Image, draw: ImageDraw.ImageDraw, k: KniggitLook, x: float, top: float,
                width: float) -> None:
    """One kniggit's line, its top at `top`, on the roster's panel: drawn once per kniggit as
    shown (and place within a pixel) and pasted, as most lines of a roster are the same as on
    the last picture. The sprite sits at an even x, so the line's own rounding (of .5 to even)
    comes out as drawn in place."""
    if top != int(top):  # rows are whole pixels; drawn in place otherwise
        draw_roster_line(image, draw, k, x, top, width)
        return
    left = 2 * math.floor((x - 2) / 2)
    pictures.stamp(image, _line_sprite(line_of(k), x - left, width), None, left, int(top))


@lru_cache(maxsize=4096)
def _line_sprite(line: Line, x: float, width: float) -> Image.Image:
    rows, _ = line_layout(line, x, 0, width)
    sprite = blank((math.ceil(x + width) + 3, rows * ROW), PANEL)
    draw_line(sprite, ImageDraw.Draw(sprite), line, x, 0, width)
    return sprite


def draw_roster_line(image: Image.Image, draw: ImageDraw.ImageDraw, k: KniggitLook, x: float, top: float,
                     width: float) -> None:
    """One kniggit's line drawn in place."""
    draw_line(image, draw, line_of(k), x, top, width)


def draw_line(image: Image.Image, draw: ImageDraw.ImageDraw, k: Line, x: float, top: float, width: float) -> None:
    """One kniggit: its id, M A D chips, marks (a white flag if it fled) and where it is, as laid out."""
    values = {"M": k.M, "A": k.A, "D": k.D}
    for part in line_layout(k, x, top, width)[1]:
        if part.what == "id":
            text(image, (part.x, part.y), k.id, DIM_TEXT if k.status == "gone" else ARMY_BRIGHT[k.army], MIN_FONT,
                 "lm", PANEL)
        elif part.what in values:
            chip(image, draw, part.x, part.y, part.what, values[part.what])
        elif part.what == "where":
            text(image, (part.x, part.y), k.where, DIM_TEXT, MIN_FONT, "rm", PANEL)
        else:
            draw_mark(draw, cast(Mark, part.what), part.x, part.y)


class Placed(NamedTuple):
    """Where a roster puts an army's heading (`kniggit` None) or a kniggit's line."""

    army: Army
    kniggit: KniggitLook | None
    x: float
    top: float
    width: float


def placements(kniggits: list[KniggitLook], box: tuple[float, float, float, float], columns: int
               ) -> tuple[list[Placed], float]:
    """Each heading and line of a roster in `box` (the armies side by side in two columns, or one
    under the other), and the bottom of its last row."""
    x0, y0, x1, _ = box
    col_w = column_width(x1 - x0, columns)
    out: list[Placed] = []
    y = bottom = y0 + TOP
    armies: tuple[Army, Army] = ("A", "B")
    for n, army in enumerate(armies):
        cx = x0 + MARGIN + (n % columns) * (col_w + BETWEEN)
        cy = y0 + TOP if columns == 2 else y
        out.append(Placed(army, None, cx, cy, col_w))
        cy += ROW
        for k in kniggits:
            if k["army"] == army:
                out.append(Placed(army, k, cx, cy, col_w))
                cy += line_rows(k, col_w) * ROW
        y = cy
        bottom = max(bottom, cy)
    return out, bottom


def column_width(width: float, columns: int) -> float:
    return (width - 2 * MARGIN - (columns - 1) * BETWEEN) / columns


def roster_height(kniggits: list[KniggitLook], columns: int, width: float) -> int:
    """The height of a roster `width` wide (its lines' second rows counted), as `placements` lays it."""
    col_w = column_width(width, columns)
    rows = [1 + sum(line_rows(k, col_w) for k in kniggits if k["army"] == army) for army in ("A", "B")]
    return TOP + (max(rows) if columns == 2 else sum(rows)) * ROW + BOTTOM


def roster_parts(kniggits: list[KniggitLook], box: tuple[float, float, float, float], columns: int) -> list[Part]:
    """Every part a roster draws, with its box (the test that no two overlap reads these)."""
    parts: list[Part] = []
    for place in placements(kniggits, box, columns)[0]:
        if place.kniggit is None:
            parts += header_layout(place.army, place.x, place.top + ROW / 2, place.width)
        else:
            parts += line_layout(line_of(place.kniggit), place.x, place.top, place.width)[1]
    return parts


def roster(image: Image.Image, kniggits: list[KniggitLook], box: tuple[int, int, int, int],
           columns: int) -> None:
    """Every kniggit with its exact token counts: the armies side by side (two columns) or one
    under the other."""
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(box, radius=10, fill=ink(PANEL))
    for place in placements(kniggits, box, columns)[0]:
        if place.kniggit is None:
            for part in header_layout(place.army, place.x, place.top + ROW / 2, place.width):
                if part.what == "title":
                    text(image, (part.x, part.y), f"Army {place.army}", ARMY_BRIGHT[place.army], MIN_FONT,
                         "lm" if part.x == place.x else "rm", PANEL)
                else:
                    text(image, (part.x, part.y), part.what[0], POOL_BRIGHT[part.what[0]], MIN_FONT, "mm", PANEL)
        else:
            roster_line(image, draw, place.kniggit, place.x, place.top, place.width)
