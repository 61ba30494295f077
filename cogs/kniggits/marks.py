"""A kniggit on the field: its disc with the label and the pips on the rim, its marks (horse,
magic sword, bow, two swords, flags) and the small shapes they are drawn with; each disc drawn
once per look and pasted."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from cogs.kniggits.look import (
    ARMY,
    ARMY_DARK,
    BACKGROUND,
    BLACK,
    FLED_FILL,
    FLED_INK,
    GOLD,
    GOLD_DARK,
    HORSE,
    ID_FONT,
    POOL,
    STEEL,
    TRACK,
    WHITE,
    blank,
    condensed,
    ink,
    text,
)
from cogs.kniggits.shown import KniggitLook
from cogs.table import pictures
from cogs.table.pictures import RGB


# -- shapes --------------------------------------------------------------------------------------------
def star_points(x: float, y: float, r: float, points: int = 5, inner: float = 0.45) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
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


def kniggit_mark(image: Image.Image, draw: ImageDraw.ImageDraw, k: KniggitLook, x: float, y: float, cell: int,
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
    if k["magic_sword"]:
        draw.polygon(star_points(x + corner, y - corner, mark * 0.62), fill=ink(GOLD), outline=ink(GOLD_DARK))
    if k["kind"] == "archer":
        bow(draw, x - corner, y - corner, mark * 1.1)
    elif k["two_swords"]:
        swords(draw, x - corner, y - corner, mark)
    if k["status"] == "fled":
        flag_shape(draw, x + corner - mark * 0.25, y - corner + mark * 0.55, mark * 1.2, WHITE)
    if k["carrying"]:
        flag_shape(draw, x + corner - mark * 0.2, y + corner + mark * 0.55, mark * 1.3, ARMY[k["carrying"]])


def disc(image: Image.Image, k: KniggitLook, x: float, y: float, cell: int, *, ghost: bool = False) -> None:
    """A kniggit's disc (mounted ring, pip rim, disc, label), drawn once per look and place
    within a pixel and pasted through its round mask: the same pixels as drawing it here (the
    sprite sits at even coordinates, so rounding .5 to even comes out the same)."""
    fled = k["status"] != "active" or ghost
    pools = (0, 0, 0) if ghost else (k["M"], k["A"], k["D"])
    reach = cell * (0.5 if k["mounted"] else 0.45)
    left, top = 2 * math.floor((x - reach - 2) / 2), 2 * math.floor((y - reach - 2) / 2)
    sprite, mask = _disc(k["army"], fled, ghost, k["mounted"], pools, label_for(k["id"], cell), cell,
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
