"""Where each town's label and each road's length chip go: a deterministic search over spots
round each dot (close ones first, a leader line for the far ones), once per process."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from cogs.fencing.geography import HEIGHT, LAKE_LABEL, MIN_FONT, TITLE_FONT, WIDTH, project, region, spots
from cogs.fencing.look import DRAW_ORDER
from cogs.table.pictures import font

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
