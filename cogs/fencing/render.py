"""Table Fencing's map of Ohio as a PNG, drawn with Pillow from the public view and the static
region data only. No Discord here; `ohio_map` is pure (call it off the event loop).

Projection: equirectangular around Ohio's middle latitude (a degree of longitude is
cos 40.3° of a degree of latitude), `SCALE` px a degree of latitude, which puts the whole
state with its Lake Erie shore into a `WIDTH` x `HEIGHT` picture.

Sized for a picture shown about 500 px wide: no text is smaller than `MIN_FONT` (18 px at 800
wide is 11.25 px on a 500 px column), and the piece glyphs are bigger. Towns carry their ids
(what players type) and the big cities their names too; each label sits where it covers no
other label, town or piece place, chosen once by a deterministic search over spots around its
dot (close ones first, a leader line for the far ones: Ohio's northeast is crowded). Road
lengths sit on their road where a chip fits.

The static map (land, lake, border, roads for the difficulty, dots; then the labels as an
overlay) is drawn once per process and difficulty, supersampled for smooth lines and kept on
the game's fixed palette (`pictures.Palette`), and kept once more with the labels pasted over
it (`labelled`). Each picture copies that, draws the last move's route (dashed when off-road),
pastes back the labels of the route's box only, then the five pieces as cached sprites (the
attacked one ringed), the title and the legend, and goes through the one encoder
(`pictures.png`). Pictures are cached by what they show, so the same board posted again
costs a dictionary lookup.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from cogs.table import pictures
from cogs.table.pictures import FONT_SIZES, RGB, dashed, font
from games.fencing.region import CLASSES
from games.fencing.region import load as load_region
from games.fencing.schema import PublicView

# -- the projection -----------------------------------------------------------------------------------
WIDTH, HEIGHT = 800, 872
#: 18 px at 800 wide is 11.25 px on a 500 px column.
MIN_FONT = 18
TITLE_FONT = 22
GLYPH_FONT = 24  # a piece's chess glyph: 18 px of ink, 11.25 px on a 500 px column
WEST, EAST, NORTH, SOUTH = -84.93, -80.40, 42.08, 38.33
SHRINK = math.cos(math.radians(40.3))  # a degree of longitude, in degrees of latitude
SCALE = WIDTH / ((EAST - WEST) * SHRINK)  # px a degree of latitude
SUPER = 3  # the static map is drawn this many times bigger, then shrunk (smooth edges)


def project(lat: float, lon: float) -> tuple[float, float]:
    """Where a point of Ohio lands on the picture."""
    return (lon - WEST) * SHRINK * SCALE, (NORTH - lat) * SCALE


# -- geography (outline only: towns and roads come from the region data) ------------------------------
#: Ohio's border as (lat, lon), clockwise from the Michigan line at the Indiana corner: the
#: Indiana line, the Ohio River, the Pennsylvania line, the Lake Erie shore, the Michigan line.
BORDER: tuple[tuple[float, float], ...] = (
    (41.696, -84.806), (39.103, -84.820), (39.09, -84.75), (39.12, -84.62), (39.095, -84.51), (39.10, -84.46),
    (39.02, -84.32), (38.95, -84.28), (38.80, -84.22), (38.78, -84.05), (38.74, -83.86), (38.66, -83.76),
    (38.69, -83.61), (38.62, -83.42), (38.60, -83.32), (38.70, -83.12), (38.725, -82.997), (38.64, -82.85),
    (38.58, -82.82), (38.53, -82.68), (38.41, -82.60), (38.42, -82.50), (38.55, -82.30), (38.65, -82.20),
    (38.81, -82.20), (38.93, -82.10), (39.03, -82.03), (38.97, -81.90), (39.00, -81.76), (39.12, -81.75),
    (39.27, -81.58), (39.41, -81.46), (39.48, -81.30), (39.56, -81.00), (39.65, -80.87), (39.78, -80.82),
    (39.92, -80.75), (40.07, -80.73), (40.20, -80.67), (40.36, -80.61), (40.50, -80.62), (40.62, -80.57),
    (40.639, -80.519),
    (41.977, -80.519),
    (41.96, -80.56), (41.90, -80.80), (41.86, -80.95), (41.80, -81.10), (41.76, -81.28), (41.70, -81.38),
    (41.64, -81.47), (41.59, -81.53), (41.51, -81.70), (41.49, -81.83), (41.51, -82.03), (41.47, -82.18),
    (41.42, -82.36), (41.40, -82.55), (41.46, -82.66), (41.54, -82.73), (41.52, -82.94), (41.60, -83.07),
    (41.68, -83.28), (41.732, -83.455),
)
SHORE_FROM = BORDER.index((41.977, -80.519))  # the shore runs from here to the end of BORDER
#: Lake Erie beyond Ohio: up the Michigan shore and over the top of the picture, round to Pennsylvania.
LAKE_BEYOND: tuple[tuple[float, float], ...] = (
    (41.90, -83.36), (42.03, -83.20), (42.20, -83.12), (42.20, -80.20), (42.05, -80.30),
)
LAKE_LABEL = (41.83, -82.05)  # near the spec's pollution point (41.80, -82.00), clear of the shore towns

# -- colours ------------------------------------------------------------------------------------------
BACKGROUND = (54, 57, 63)  # the neighbouring states (and Discord's dark theme round the picture)
LAND = (232, 226, 204)
BORDER_INK = (120, 110, 90)
LAKE = (96, 150, 205)
LAKE_DEEP = (70, 120, 180)
LAKE_INK = (235, 245, 255)
INTERSTATE = (46, 92, 175)
STATE = (214, 126, 38)
BACKROAD = (150, 118, 84)
FADED = (198, 190, 166)  # a road not allowed at this difficulty
DOT, DOT_EDGE = (40, 40, 44), (250, 250, 250)
OFFROAD = (190, 40, 40)  # the ring round a town with no allowed road
CHIP, CHIP_EDGE, CHIP_INK = (255, 255, 250), (90, 90, 90), (25, 25, 30)
LEADER = (90, 90, 90)
KM_INK = {"I": (255, 255, 255), "S": (60, 30, 0), "B": (255, 255, 255)}
KM_CHIP = {"I": INTERSTATE, "S": (250, 200, 120), "B": BACKROAD}
ROUTE, ROUTE_EDGE = (220, 30, 130), (255, 255, 255)
BLACK_PIECE, WHITE_PIECE = (28, 28, 30), (252, 252, 248)
GOLD, GOLD_DARK = (241, 196, 15), (150, 105, 0)
TEXT, DIM_TEXT = (245, 245, 245), (185, 188, 195)
PANEL = (40, 42, 47)

#: Each road class (I interstate, S state, B backroad): its colour and width.
ROAD_STYLE = {"I": (INTERSTATE, 7), "S": (STATE, 5), "B": (BACKROAD, 3)}
DRAW_ORDER = ("B", "S", "I")  # the bigger roads on top

PALETTE = pictures.Palette(
    [BACKGROUND, LAND, BORDER_INK, LAKE, LAKE_DEEP, LAKE_INK, INTERSTATE, STATE, BACKROAD, FADED, DOT, DOT_EDGE,
     OFFROAD, CHIP, CHIP_EDGE, CHIP_INK, LEADER, *KM_CHIP.values(), ROUTE, ROUTE_EDGE, BLACK_PIECE, WHITE_PIECE,
     GOLD, GOLD_DARK, TEXT, DIM_TEXT, PANEL],
    [(CHIP_INK, CHIP), (LAKE_INK, LAKE), (TEXT, PANEL), (DIM_TEXT, PANEL), (GOLD, PANEL),
     *((KM_INK[c], KM_CHIP[c]) for c in KM_CHIP), (INTERSTATE, LAND), (STATE, LAND), (BACKROAD, LAND),
     (FADED, LAND), (LAND, LAKE), (LAND, BACKGROUND), (BORDER_INK, LAND), (DOT, LAND), (WHITE_PIECE, BLACK_PIECE),
     (BLACK_PIECE, LAND), (WHITE_PIECE, LAND), (GOLD, LAND)],
)


def ink(colour: RGB) -> int:
    return PALETTE.index[colour]


def text(image: Image.Image, xy: tuple[float, float], words: str, fill: RGB, size: int, anchor: str,
         ground: RGB) -> None:
    pictures.text(image, xy, words, fill, font(size), anchor, ground=ground, palette=PALETTE)


# -- the region ---------------------------------------------------------------------------------------
REGION = "ohio"  # the only region with an outline here (BORDER, LAKE_BEYOND)


@cache
def region() -> dict[str, Any]:
    """The static region: {"towns": {id: {"name", "lat", "lon"}}, "roads": [(a, b, km, class)]},
    the class as the region file spells it (I, S, B)."""
    data = load_region(REGION)
    towns = {town: {"name": t["name"], "lat": t["lat"], "lon": t["lon"]} for town, t in data.towns.items()}
    return {"towns": towns, "roads": [(r.a, r.b, r.km, r.cls) for r in data.roads]}


@cache
def spots() -> dict[str, tuple[float, float]]:
    """Each town's place on the picture."""
    return {town: project(t["lat"], t["lon"]) for town, t in region()["towns"].items()}


# -- label placement (once per process) ----------------------------------------------------------------
Box = tuple[float, float, float, float]
PIECE_R = 17  # a piece's disc radius: every town keeps this much round its dot free of labels
RING = 4  # the attacked piece's gold ring, outside the disc
ZONE = PIECE_R + RING + 1
PAD_X, PAD_Y = 4, 3  # a chip's padding round its text
#: The cities that carry their names as well as their ids.
NAMED = ("COL", "CIN", "CLE", "TOL", "DAY")
#: Gaps (px, beyond a piece's ring) tried between a town and its label, near to far; from the
#: second on, a leader line joins them.
GAPS = (1, 8, 18, 30, 44, 60, 80)
DIRECTIONS = 16
TITLE_BOX: Box = (8, 8, 330, 70)
LEGEND_ROW = 34
LEGEND_BOX: Box = (WIDTH - 318, HEIGHT - 8 - 5 * LEGEND_ROW - 12, WIDTH - 8, HEIGHT - 8)
#: The banner that names a theme (bottom left, beside the legend); labels keep off it always.
THEME_BOX: Box = (8, HEIGHT - 8 - 66, LEGEND_BOX[0] - 10, HEIGHT - 8)


def label_text(town: str) -> str:
    return f"{town} {region()['towns'][town]['name']}" if town in NAMED else town


def chip_size(words: str, size: int = MIN_FONT) -> tuple[float, float]:
    face = font(size)
    _, top, _, bottom = face.getbbox("ABC0123456789")
    return face.getlength(words) + 2 * PAD_X, bottom - top + 2 * PAD_Y


def overlaps(a: Box, b: Box, gap: float = 2) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def box_distance(box: Box, x: float, y: float) -> float:
    """How far (x, y) is from `box` (0 inside it)."""
    dx = box[0] - x if x < box[0] else x - box[2] if x > box[2] else 0.0
    dy = box[1] - y if y < box[1] else y - box[3] if y > box[3] else 0.0
    return math.hypot(dx, dy)


def segment_hits_box(p: tuple[float, float], q: tuple[float, float], box: Box, grow: float = 0) -> bool:
    """Whether the segment p-q crosses `box` grown by `grow` (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow
    if max(p[0], q[0]) < x0 or min(p[0], q[0]) > x1 or max(p[1], q[1]) < y0 or min(p[1], q[1]) > y1:
        return False
    dx, dy = q[0] - p[0], q[1] - p[1]
    low, high = 0.0, 1.0
    for step, room in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if step == 0:
            if room < 0:
                return False
            continue
        t = room / step
        if step < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def segments_cross(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float],
                   s: tuple[float, float]) -> bool:
    def side(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


def centred_box(cx: float, cy: float, w: float, h: float) -> Box:
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def reach(x: float, y: float, ux: float, uy: float, w: float, h: float, clear: float) -> Box:
    """The w x h box nearest to (x, y) along the unit direction (ux, uy) that stays `clear` away."""
    a, b, hw, hh = abs(ux), abs(uy), w / 2, h / 2
    if b * (clear + hw) <= hh * a + 1e-9:  # clear beside the dot: only the x gap counts
        t = (clear + hw) / a
    elif a * (clear + hh) <= hw * b + 1e-9:  # clear above or below: only the y gap counts
        t = (clear + hh) / b
    else:  # clear past a corner: (t a - hw)^2 + (t b - hh)^2 = clear^2
        half = a * hw + b * hh
        t = half + math.sqrt(half * half - (hw * hw + hh * hh - clear * clear))
    return centred_box(x + ux * t, y + uy * t, w, h)


def inside(box: Box, margin: float = 4) -> bool:
    return box[0] >= margin and box[1] >= margin and box[2] <= WIDTH - margin and box[3] <= HEIGHT - margin


def lake_label_boxes() -> list[Box]:
    x, y = project(*LAKE_LABEL)
    w1, h1 = chip_size("Lake Erie", TITLE_FONT)
    w2, h2 = chip_size("no piece may enter")
    return [centred_box(x, y - h1 / 2, w1, h1), centred_box(x, y + h2 / 2 + 2, w2, h2)]


@cache
def layout() -> dict[str, Any]:
    """Where every town label (and its leader line) and every road length goes, chosen once.

    Labels go greedily, the most crowded towns first (ties by id), each to the cheapest free
    spot round its dot: near before far, fewer roads under it, the usual right-hand side
    first; a spot is free if it keeps off every other label and leader, every town's piece
    place, the title, the legend, the lake's name and the picture's edge."""
    spot = spots()
    roads = [(spot[a], spot[b]) for a, b, _, _ in region()["roads"]]
    fixed = [TITLE_BOX, LEGEND_BOX, THEME_BOX, *lake_label_boxes()]
    placed: list[Box] = []
    leaders: list[tuple[tuple[float, float], tuple[float, float]]] = []
    labels: dict[str, tuple[Box, tuple[tuple[float, float], tuple[float, float]] | None]] = {}
    # a road's length chip goes best in its middle: a label there costs as much as a road under it
    middles = [centred_box((p[0] + q[0]) / 2, (p[1] + q[1]) / 2, *chip_size(str(km)))
               for (p, q), (_, _, km, _) in zip(roads, region()["roads"], strict=True)]

    def crowd(town: str) -> int:
        x, y = spot[town]
        return sum(1 for other, (ox, oy) in spot.items() if other != town and math.hypot(ox - x, oy - y) < 90)

    def free(box: Box, leader: tuple[tuple[float, float], tuple[float, float]] | None, others: list[str],
             boxes: list[Box], lines: list[tuple[tuple[float, float], tuple[float, float]]]) -> bool:
        """Whether a label at `box` (with `leader`) keeps off the near towns, boxes and leaders."""
        if not inside(box) or any(overlaps(box, other) for other in boxes):
            return False
        if any(box_distance(box, *spot[other]) < ZONE for other in others):
            return False
        if any(segment_hits_box(p, q, box, 1) for p, q in lines):
            return False
        if leader is not None:
            p, q = leader
            if any(segment_hits_box(p, q, other, 1) for other in boxes):
                return False
            if any(math.hypot(*_minus(spot[o], _nearest(p, q, spot[o]))) < ZONE - 4 for o in others):
                return False
            if any(segments_cross(p, q, r, s) for r, s in lines):
                return False
        return True

    for town in sorted(spot, key=lambda t: (-crowd(t), t)):
        x, y = spot[town]
        w, h = chip_size(label_text(town))
        # every candidate box (and leader) lies within `far` of the dot: only what is that near can touch it
        far = ZONE + GAPS[-1] + math.hypot(w, h) + 2
        others = [o for o in spot if o != town and math.dist(spot[o], (x, y)) < far + ZONE]
        near_roads = [(p, q) for p, q in roads if math.dist(_nearest(p, q, (x, y)), (x, y)) < far]
        near_middles = [chip for chip in middles if box_distance(chip, x, y) < far]
        area = (x - far, y - far, x + far, y + far)
        boxes = [b for b in (*placed, *fixed) if overlaps(b, area, 0)]
        lines = [line for line in leaders if segment_hits_box(*line, area)]
        best: tuple[float, Box, Any] | None = None
        for n, gap in enumerate(GAPS):
            for k in range(DIRECTIONS):
                angle = 2 * math.pi * k / DIRECTIONS
                ux, uy = math.cos(angle), math.sin(angle)
                box = reach(x, y, ux, uy, w, h, ZONE + gap)
                leader = None
                if n:
                    end = (min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3]))
                    leader = ((x + ux * (PIECE_R + 1), y + uy * (PIECE_R + 1)), end)
                if not free(box, leader, others, boxes, lines):
                    continue
                under = sum(1 for p, q in near_roads if segment_hits_box(p, q, box))
                under += sum(1 for chip in near_middles if overlaps(box, chip, 1))
                side = 0 if abs(uy) < 0.4 else 3  # beside the dot reads best, then above / below
                cost = gap * 1.5 + under * 14 + side + (2 if ux < -0.1 else 0)
                if best is None or cost < best[0]:
                    best = (cost, box, leader)
            if best is not None and n >= 1:
                break
        if best is None:
            raise RuntimeError(f"no room for {town}'s label")
        _, box, leader = best
        placed.append(box)
        if leader is not None:
            leaders.append(leader)
        labels[town] = (box, leader)
    return {"labels": labels, "lengths": length_chips(placed, leaders, fixed)}


def _minus(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return a[0] - b[0], a[1] - b[1]


def _nearest(p: tuple[float, float], q: tuple[float, float], c: tuple[float, float]) -> tuple[float, float]:
    """The point of segment p-q nearest to c."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((c[0] - p[0]) * dx + (c[1] - p[1]) * dy) / length))
    return p[0] + t * dx, p[1] + t * dy


#: Where along its road a length chip is tried: the middle first, then outwards.
SLIDES = tuple(sorted((n / 40 for n in range(6, 35)), key=lambda t: (abs(t - 0.5), t)))


def length_chips(labels: list[Box], leaders: list[Any], fixed: list[Box]) -> dict[int, Box]:
    """Each road's length chip (by its index in the region's roads), where one fits on the road
    itself with no other road, label, leader or piece place under it."""
    spot = spots()
    roads = region()["roads"]
    ends = [(spot[a], spot[b]) for a, b, _, _ in roads]
    chips: dict[int, Box] = {}
    order = sorted(range(len(roads)), key=lambda i: (DRAW_ORDER[::-1].index(roads[i][3]), i))
    for i in order:
        p, q = ends[i]
        w, h = chip_size(str(roads[i][2]))
        # only what lies near this road can touch its chip
        near: Box = (min(p[0], q[0]) - w, min(p[1], q[1]) - h, max(p[0], q[0]) + w, max(p[1], q[1]) + h)
        towns = [xy for xy in spot.values() if box_distance(near, *xy) < ZONE]
        boxes = [o for o in (*labels, *fixed, *chips.values()) if overlaps(near, o, 2)]
        lines = [line for line in leaders if segment_hits_box(line[0], line[1], near, 2)]
        lines += [ends[j] for j in range(len(roads))
                  if j != i and segment_hits_box(ends[j][0], ends[j][1], near, 3)]
        for t in SLIDES:
            box = centred_box(p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t, w, h)
            if (inside(box) and not any(box_distance(box, *xy) < ZONE - 2 for xy in towns)
                    and not any(overlaps(box, o, 1) for o in boxes)
                    and not any(segment_hits_box(line[0], line[1], box, 2) for line in lines)):
                chips[i] = box
                break
    return chips


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


# -- the pieces ---------------------------------------------------------------------------------------
PIECES = ("BK", "WR", "BN", "WN", "WB")
PIECE_NAMES = {"BK": "Black King", "WR": "White Rook", "BN": "Black Knight", "WN": "White Knight",
               "WB": "White Bishop"}
#: The filled chess silhouettes (drawn in the colour opposite the disc), and letters if the
#: font has no chess glyphs.
GLYPHS = {"K": "♚", "R": "♜", "N": "♞", "B": "♝"}


@cache
def has_chess_glyphs() -> bool:
    face = font(GLYPH_FONT)
    return bool(face.getmask("♚").getbbox() != face.getmask("\uffff").getbbox())


def glyph(piece: str) -> str:
    return GLYPHS[piece[1]] if has_chess_glyphs() else piece[1]


@cache
def piece_sprite(piece: str, attacked: bool) -> tuple[Image.Image, Image.Image]:
    """A piece as a disc of its colour with its glyph in the other colour (the attacked one in a
    gold ring), drawn big and shrunk, on the palette, with its paste mask."""
    black = piece[0] == "B"
    disc, mark = (BLACK_PIECE, WHITE_PIECE) if black else (WHITE_PIECE, BLACK_PIECE)
    edge = WHITE_PIECE if black else BLACK_PIECE
    r = PIECE_R + (RING + 1 if attacked else 0)
    size = 2 * r + 2
    big = Image.new("RGB", (size * SUPER, size * SUPER), LAND)
    mask = Image.new("L", big.size, 0)
    draw, cover = ImageDraw.Draw(big), ImageDraw.Draw(mask)
    c = size * SUPER / 2
    if attacked:
        outer = r * SUPER
        draw.ellipse((c - outer, c - outer, c + outer, c + outer), fill=GOLD_DARK)
        draw.ellipse((c - outer + SUPER, c - outer + SUPER, c + outer - SUPER, c + outer - SUPER), fill=GOLD)
        cover.ellipse((c - outer, c - outer, c + outer, c + outer), fill=255)
    outer = PIECE_R * SUPER
    cover.ellipse((c - outer, c - outer, c + outer, c + outer), fill=255)
    draw.ellipse((c - outer, c - outer, c + outer, c + outer), fill=edge)
    inner = outer - 2 * SUPER
    draw.ellipse((c - inner, c - inner, c + inner, c + inner), fill=disc)
    small = big.resize((size, size), Image.Resampling.BOX)
    pictures.text(ImageDraw.Draw(small), (size / 2, size / 2 + 1), glyph(piece), mark, font(GLYPH_FONT), "mm")
    bits = mask.resize((size, size), Image.Resampling.BOX).point(lambda v: 255 if v >= 128 else 0, "1")
    return pictures.to_palette(small, PALETTE), bits


def paste_piece(image: Image.Image, piece: str, attacked: bool, x: float, y: float) -> None:
    sprite, bits = piece_sprite(piece, attacked)
    image.paste(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), bits)


# -- the route ----------------------------------------------------------------------------------------
def draw_route(image: Image.Image, origin: str, route: Sequence[str], offroad: bool) -> None:
    """The last move: a thick magenta line over the roads it took (one dashed straight line
    off-road), from a ring on its origin to an arrowhead at its destination."""
    spot = spots()
    draw = ImageDraw.Draw(image)
    points = [spot[origin], *(spot[t] for t in route)]
    for p, q in itertools.pairwise(points):
        if offroad:
            dashed(draw, p, q, ink(ROUTE_EDGE), 10)
            dashed(draw, p, q, ink(ROUTE), 6)
        else:
            draw.line((p, q), fill=ink(ROUTE_EDGE), width=11)
            draw.line((p, q), fill=ink(ROUTE), width=7)
    for x, y in points[1:-1]:
        draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=ink(ROUTE), outline=ink(ROUTE_EDGE), width=2)
    x, y = points[0]
    draw.ellipse((x - 11, y - 11, x + 11, y + 11), outline=ink(ROUTE), width=4)
    (px, py), (qx, qy) = points[-2], points[-1]
    length = math.hypot(qx - px, qy - py) or 1
    ux, uy = (qx - px) / length, (qy - py) / length
    tip = (qx - ux * (PIECE_R + RING + 2), qy - uy * (PIECE_R + RING + 2))
    back = (tip[0] - ux * 18, tip[1] - uy * 18)
    wing = (-uy * 11, ux * 11)
    head = [tip, (back[0] + wing[0], back[1] + wing[1]), (back[0] - wing[0], back[1] - wing[1])]
    draw.polygon(head, fill=ink(ROUTE), outline=ink(ROUTE_EDGE))


# -- the picture --------------------------------------------------------------------------------------
def last_move(view: PublicView) -> dict[str, Any] | None:
    """The move to highlight: the view's `last_move` when it has one, else the current
    streak's last move (rule 22's M1)."""
    move = view.get("last_move")
    if move is None:
        move = (view.get("streak") or {}).get("last_move")
    if not move or not move.get("route"):
        return None
    return {"piece": move["piece"], "from": move["from"], "route": list(move["route"]),
            "offroad": bool(move.get("offroad"))}


def theme_of(view: PublicView) -> dict[str, Any] | None:
    """The theme that won the bumper (rule 22), as the map draws it: both moves and the towns
    they shared."""
    theme = view.get("theme")
    if not theme or len(theme.get("moves") or []) != 2:
        return None
    moves = [{"piece": m["piece"], "from": m["from"], "route": list(m["route"]), "offroad": bool(m.get("offroad"))}
             for m in theme["moves"]]
    return {"moves": moves, "through": sorted(theme.get("through") or [])}


def facts(view: PublicView) -> dict[str, Any]:
    """What the map shows, read from the public view (`games.fencing.schema.PublicView`):
    these fields and no others."""
    if view.get("region", REGION) != REGION:
        raise ValueError(f"no map outline for region {view['region']!r}")
    return {
        "pieces": {p: view["pieces"][p]["town"] for p in PIECES if p in view["pieces"]},
        "attacked": view.get("attacked"),
        "difficulty": view["difficulty"],
        "bumper": view.get("bumper_no"),
        "trick": view.get("trick_no"),
        "last": last_move(view),
        "theme": theme_of(view),
    }


def ohio_map(view: PublicView) -> bytes:
    """The map for the table from its public view: towns, roads by class (those of the game's
    difficulty bold), Lake Erie, the last move's route, the five pieces (the attacked one
    ringed in gold), the bumper and trick, and a legend of where each piece stands."""
    FONT_SIZES.update((MIN_FONT, TITLE_FONT, GLYPH_FONT))  # drawn on cached layers, on every picture
    return _map(json.dumps(facts(view), sort_keys=True))


@lru_cache(maxsize=128)  # about 8 MB of PNGs at most
def _map(key: str) -> bytes:
    shown = json.loads(key)
    image = labelled(shown["difficulty"]).copy()
    last, theme = shown["last"], shown.get("theme")
    moves = theme["moves"] if theme else [last] if last and last["route"] else []
    for move in moves:
        draw_route(image, move["from"], move["route"], move["offroad"])
    if moves:  # the labels the routes cover, back over them
        box = route_box(moves)
        layer, mask = overlay()
        image.paste(layer.crop(box), box[:2], mask.crop(box))
    spot = spots()
    attacked = shown["attacked"]
    for piece, town in sorted(shown["pieces"].items(), key=lambda item: item[0] == attacked):
        paste_piece(image, piece, piece == attacked, *spot[town])
    if theme:
        mark_shared(image, theme["through"])
        corner = (round(THEME_BOX[0]), round(THEME_BOX[1]))
        moves = tuple(m["piece"] for m in theme["moves"])
        image.paste(theme_banner(moves, tuple(theme["through"])), corner, rounded(THEME_BOX))
    corner = (round(TITLE_BOX[0]), round(TITLE_BOX[1]))
    image.paste(title(shown["bumper"], shown["trick"], attacked), corner, rounded(TITLE_BOX))
    places = tuple(sorted(shown["pieces"].items()))
    corner = (round(LEGEND_BOX[0]), round(LEGEND_BOX[1]))
    image.paste(legend(places, attacked), corner, rounded(LEGEND_BOX))
    return pictures.png(image, PALETTE)


@cache
def labelled(difficulty: str) -> Image.Image:
    """The static map with the labels over it, where every picture starts: a route drawn on
    it gets the labels of its own box pasted back over it (the same pixels as pasting the
    whole label layer over every picture, in a fraction of the time)."""
    image = base(difficulty).copy()
    layer, mask = overlay()
    image.paste(layer, (0, 0), mask)
    return image


#: How far a route's drawing reaches past its towns' spots (its arrowhead, rings and width).
ROUTE_REACH = 32


def route_box(moves: Iterable[dict[str, Any]]) -> tuple[int, int, int, int]:
    """The box round every town of the routes, wide enough for all that `draw_route` draws."""
    spot = spots()
    points = [spot[town] for move in moves for town in (move["from"], *move["route"])]
    return (max(0, math.floor(min(x for x, _ in points)) - ROUTE_REACH),
            max(0, math.floor(min(y for _, y in points)) - ROUTE_REACH),
            min(WIDTH, math.ceil(max(x for x, _ in points)) + ROUTE_REACH),
            min(HEIGHT, math.ceil(max(y for _, y in points)) + ROUTE_REACH))


def mark_shared(image: Image.Image, towns: Sequence[str]) -> None:
    """A theme's shared town: a wide gold ring round it (outside any piece standing there)."""
    draw = ImageDraw.Draw(image)
    spot = spots()
    r = PIECE_R + RING + 9
    for town in towns:
        x, y = spot[town]
        draw.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=ink(GOLD_DARK), width=9)
        draw.ellipse((x - r, y - r, x + r, y + r), outline=ink(GOLD), width=5)


def town_name(town: str) -> str:
    return f"{town} {region()['towns'][town]['name']}"


@lru_cache(maxsize=64)
def theme_banner(moves: tuple[str, ...], through: tuple[str, ...]) -> Image.Image:
    """Names the theme: the towns both moves passed (ringed in gold on the map), and the moves."""
    image, draw = panel(THEME_BOX)
    towns = town_name(through[0]) if len(through) == 1 else " and ".join(through)
    width = image.width - 20
    headline = pictures.fit(f"THEME through {towns}", TITLE_FONT, width)
    pictures.text(draw, (10, 18), headline, GOLD, font(TITLE_FONT), "lm")
    first, second = moves
    line = f"{first} {PIECE_NAMES[first]}, then {second} {PIECE_NAMES[second]}"
    pictures.text(draw, (10, image.height - 17), pictures.fit(line, MIN_FONT, width), TEXT, font(MIN_FONT), "lm")
    return pictures.to_palette(image, PALETTE)


def panel(box: Box) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A dark panel the size of `box`, in RGB, to write on (pasted through `rounded`)."""
    image = Image.new("RGB", (round(box[2] - box[0]), round(box[3] - box[1])), PANEL)
    return image, ImageDraw.Draw(image)


@cache
def rounded(box: Box) -> Image.Image:
    """The paste mask of a panel: its rounded rectangle."""
    mask = Image.new("1", (round(box[2] - box[0]), round(box[3] - box[1])), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, mask.width - 1, mask.height - 1), radius=8, fill=1)
    return mask


@lru_cache(maxsize=64)
def title(bumper: int | None, trick: int | None, attacked: str | None) -> Image.Image:
    """The strip at the top left: the bumper and trick, and the attacked piece."""
    image, draw = panel(TITLE_BOX)
    parts = [f"Bumper {bumper}" if bumper else "Table Fencing"]
    if trick:
        parts.append(f"trick {trick}")
    pictures.text(draw, (10, 17), " · ".join(parts), TEXT, font(TITLE_FONT), "lm")
    line = f"Attacked: {attacked} {PIECE_NAMES[attacked]}" if attacked else "No piece attacked yet"
    pictures.text(draw, (10, image.height - 16), line, GOLD if attacked else DIM_TEXT, font(MIN_FONT), "lm")
    return pictures.to_palette(image, PALETTE)


@lru_cache(maxsize=256)
def legend(places: tuple[tuple[str, str], ...], attacked: str | None) -> Image.Image:
    """The box at the bottom right: each piece, its name and its town (the attacked one in gold)."""
    image, draw = panel(LEGEND_BOX)
    where = dict(places)
    face = font(MIN_FONT)
    for n, piece in enumerate(PIECES):
        y = 6 + LEGEND_ROW * n + LEGEND_ROW / 2
        pictures.text(draw, (2 * (PIECE_R + RING) + 16, y), f"{piece} {PIECE_NAMES[piece]}",
                      GOLD if piece == attacked else TEXT, face, "lm")
        pictures.text(draw, (image.width - 10, y), where.get(piece, "–"), GOLD if piece == attacked else DIM_TEXT,
                      face, "rm")
    image = pictures.to_palette(image, PALETTE)
    for n, piece in enumerate(PIECES):
        paste_piece(image, piece, piece == attacked, 8 + PIECE_R + RING, 6 + LEGEND_ROW * n + LEGEND_ROW / 2)
    return image


def clear_caches() -> None:
    """Forget every drawn layer and picture (the bench measures a process's first picture)."""
    for cached in (region, spots, layout, ground, base, overlay, labelled, has_chess_glyphs, piece_sprite, title,
                   legend, theme_banner, rounded, _map):
        cached.cache_clear()
