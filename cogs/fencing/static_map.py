"""The static map, drawn once per process and difficulty: land, lake, border, the roads the
difficulty allows (the rest faded), the dots, supersampled and kept on the palette; and the
labels as an overlay."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from PIL import Image, ImageDraw

from cogs.fencing.geography import (
    BORDER,
    HEIGHT,
    LAKE_BEYOND,
    MIN_FONT,
    SHORE_FROM,
    SUPER,
    TITLE_FONT,
    WIDTH,
    project,
    region,
    spots,
)
from cogs.fencing.labels import PAD_X, label_text, lake_label_boxes, layout
from cogs.fencing.look import (
    BACKGROUND,
    BORDER_INK,
    CHIP,
    CHIP_EDGE,
    CHIP_INK,
    DOT,
    DOT_EDGE,
    DRAW_ORDER,
    FADED,
    KM_CHIP,
    KM_INK,
    LAKE,
    LAKE_INK,
    LAND,
    LEADER,
    OFFROAD,
    PALETTE,
    ROAD_STYLE,
)
from cogs.table import pictures
from cogs.table.pictures import font
from games.fencing.region import CLASSES


# -- the static map (once per process and difficulty) -------------------------------------------------
def _big(points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(x * SUPER, y * SUPER) for x, y in points]


def _lat_lon(points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    return [project(lat, lon) for lat, lon in points]


def allowed_classes(difficulty: str) -> frozenset[str]:
    return CLASSES.get(difficulty, CLASSES["interstate"])


def offroad_towns(difficulty: str) -> frozenset[str]:
    """Towns with no road allowed at `difficulty` (a piece there is off-road)."""
    classes = allowed_classes(difficulty)
    on_road = {t for a, b, _, c in region()["roads"] if c in classes for t in (a, b)}
    return frozenset(region()["towns"]) - on_road


@cache
def ground() -> Image.Image:
    """Land, lake and border, supersampled and shrunk (RGB)."""
    big = Image.new("RGB", (WIDTH * SUPER, HEIGHT * SUPER), BACKGROUND)
    draw = ImageDraw.Draw(big)
    ohio = _lat_lon(BORDER)
    draw.polygon(_big(ohio), fill=LAND)
    lake = _lat_lon([*BORDER[SHORE_FROM:], *LAKE_BEYOND])
    draw.polygon(_big(lake), fill=LAKE)
    draw.line(_big([*ohio[:SHORE_FROM + 1]]), fill=BORDER_INK, width=2 * SUPER, joint="curve")
    draw.line(_big([ohio[-1], ohio[0]]), fill=BORDER_INK, width=2 * SUPER)
    return big


@cache
def base(difficulty: str) -> Image.Image:
    """The static map for a difficulty: ground, roads (the allowed ones bold, the others faded),
    town dots (a red ring round the off-road ones), road lengths, as a palette image."""
    big = ground().copy()
    draw = ImageDraw.Draw(big)
    spot = spots()
    classes = allowed_classes(difficulty)
    roads = region()["roads"]
    for cls in DRAW_ORDER:  # the faded ones under the allowed
        if cls in classes:
            continue
        for a, b, _, c in roads:
            if c == cls:
                draw.line(_big([spot[a], spot[b]]), fill=FADED, width=ROAD_STYLE[c][1] // 2 * SUPER + SUPER)
    for cls in DRAW_ORDER:
        if cls not in classes:
            continue
        colour, width = ROAD_STYLE[cls]
        for a, b, _, c in roads:
            if c == cls:
                draw.line(_big([spot[a], spot[b]]), fill=colour, width=width * SUPER)
    off = offroad_towns(difficulty)
    for town, (x, y) in spot.items():
        x, y = x * SUPER, y * SUPER
        if town in off:
            r = 9 * SUPER
            draw.ellipse((x - r, y - r, x + r, y + r), outline=OFFROAD, width=3 * SUPER)
        r = 6 * SUPER
        draw.ellipse((x - r, y - r, x + r, y + r), fill=DOT_EDGE)
        r = 4 * SUPER
        draw.ellipse((x - r, y - r, x + r, y + r), fill=DOT)
    small = big.resize((WIDTH, HEIGHT), Image.Resampling.BOX)
    draw = ImageDraw.Draw(small)
    face = font(MIN_FONT)
    for i, box in layout()["lengths"].items():  # the route may cross them: they go under it
        cls = roads[i][3]
        draw.rounded_rectangle(box, radius=4, fill=KM_CHIP[cls])
        pictures.text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), str(roads[i][2]), KM_INK[cls], face,
                      "mm")
    return PALETTE.canvas(small)


@cache
def overlay() -> tuple[Image.Image, Image.Image]:
    """The town labels, their leader lines and the lake's name, as a palette layer and its
    mask: pasted over the route, under the pieces. Drawn in RGB and mapped onto the palette
    once (text over many grounds, no per-pair shade tables)."""
    layer = Image.new("RGB", (WIDTH, HEIGHT), CHIP)
    mask = Image.new("1", (WIDTH, HEIGHT), 0)
    draw, cover = ImageDraw.Draw(layer), ImageDraw.Draw(mask)
    plan = layout()
    face = font(MIN_FONT)
    for town, (box, leader) in plan["labels"].items():
        if leader is not None:
            draw.line(leader, fill=LEADER, width=2)
            cover.line(leader, fill=1, width=2)
        draw.rounded_rectangle(box, radius=4, fill=CHIP, outline=CHIP_EDGE, width=1)
        cover.rounded_rectangle(box, radius=4, fill=1)
        pictures.text(draw, (box[0] + PAD_X, (box[1] + box[3]) / 2), label_text(town), CHIP_INK, face, "lm")
    top, bottom = lake_label_boxes()
    for box, words, size in ((top, "Lake Erie", TITLE_FONT), (bottom, "no piece may enter", MIN_FONT)):
        cover.rectangle(box, fill=1)
        draw.rectangle(box, fill=LAKE)
        pictures.text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), words, LAKE_INK, font(size), "mm")
    return pictures.to_palette(layer, PALETTE), mask
