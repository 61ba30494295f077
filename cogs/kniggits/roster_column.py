"""The roster beside or under the field: a line per kniggit with its id, coloured token chips
and marks, each line drawn once and pasted."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

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
    blank,
    ink,
    text,
)
from cogs.kniggits.marks import bow, flag_shape, star_points, swords
from cogs.kniggits.shown import KniggitLook, Status
from cogs.table import pictures
from games.kniggits.schema import Army


# -- the roster ----------------------------------------------------------------------------------------
def roster_height(rows: int, armies: int) -> int:
    return armies * ROW + rows * ROW + 10


def chip(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, pool: str, value: int) -> None:
    draw.rounded_rectangle((x, y - ROW / 2 + 4, x + CHIP_W - 4, y + ROW / 2 - 4), radius=5, fill=ink(POOL[pool]))
    text(image, (x + (CHIP_W - 4) / 2, y + 1), str(value), WHITE, MIN_FONT, "mm", POOL[pool])


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


def roster_line(image: Image.Image, draw: ImageDraw.ImageDraw, k: KniggitLook, x: float, y: float,
                width: float) -> None:
    """One kniggit's line, `ROW` px tall round `y` on the roster's panel: drawn once per
    kniggit as shown (and place within a pixel) and pasted, as most lines of a roster are the
    same as on the last picture. The sprite sits at an even x, so the line's own rounding (of .5
    to even) comes out as drawn in place."""
    top = y - ROW / 2
    if top != int(top):  # rows are whole pixels; drawn in place otherwise
        draw_roster_line(image, draw, k, x, y, width)
        return
    left = 2 * math.floor((x - 2) / 2)
    pictures.stamp(image, _line_sprite(line_of(k), x - left, width), None, left, int(top))


@lru_cache(maxsize=4096)
def _line_sprite(line: Line, x: float, width: float) -> Image.Image:
    sprite = blank((math.ceil(x + width) + 3, ROW), PANEL)
    draw_line(sprite, ImageDraw.Draw(sprite), line, x, ROW / 2, width)
    return sprite


def draw_roster_line(image: Image.Image, draw: ImageDraw.ImageDraw, k: KniggitLook, x: float, y: float,
                     width: float) -> None:
    """One kniggit's line drawn in place."""
    draw_line(image, draw, line_of(k), x, y, width)


def draw_line(image: Image.Image, draw: ImageDraw.ImageDraw, k: Line, x: float, y: float, width: float) -> None:
    """One kniggit: its id, M A D chips, marks (a white flag if it fled) and where it is."""
    gone = k.status == "gone"
    text(image, (x, y), k.id, DIM_TEXT if gone else ARMY_BRIGHT[k.army], MIN_FONT, "lm", PANEL)
    cx = x + ID_W
    for pool, value in (("M", k.M), ("A", k.A), ("D", k.D)):
        chip(image, draw, cx, y, pool, value)
        cx += CHIP_W
    cx += 14
    mark = 22
    if k.mounted:
        draw.ellipse((cx, y - 9, cx + 18, y + 9), outline=ink(HORSE), width=4)
        cx += 26
    if k.magic_sword:
        draw.polygon(star_points(cx + 10, y, 11), fill=ink(GOLD), outline=ink(GOLD_DARK))
        cx += 26
    if k.archer:
        bow(draw, cx + 10, y, mark, DIM_TEXT)
        cx += 26
    elif k.two_swords:
        swords(draw, cx + 10, y, mark * 0.9, DIM_TEXT)
        cx += 26
    if k.carrying:
        flag_shape(draw, cx + 4, y + 11, 22, ARMY[k.carrying], pole=DIM_TEXT)
        cx += 26
    if k.status == "fled":
        flag_shape(draw, cx + 4, y + 11, 22, WHITE, pole=DIM_TEXT)
    text(image, (x + width, y), k.where, DIM_TEXT, MIN_FONT, "rm", PANEL)


def roster(image: Image.Image, kniggits: list[KniggitLook], box: tuple[int, int, int, int],
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
