"""Kniggits pictures, drawn with Pillow from a view only (no state, no Discord): the public
battlefield, and a seat's private move preview, reach and sight overlays and deployment
preview. Every function here is pure (a view in, PNG bytes out): call it off the event loop.

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

The static layer's ground (zones, grid, axis labels) is cached per zones and window, shared by
every map, the obstacles drawn over it per map, and whole pictures are cached by what they show
(a JSON key of the fields they read), so the same board posted again costs a dictionary lookup.

This module draws the whole pictures from parts, each a room with one job (imports flow from
here to them): `look.py` (sizes, colours, palette, text), `window.py` (the window and the
static layer), `marks.py` (a kniggit's disc, pips and marks), `board.py` (what a picture reads),
`field.py` (the field drawn from it) and `roster_column.py` (the roster lines).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

import orjson
from PIL import Image

from cogs.kniggits.board import _by_id, facts, ground, on_field
from cogs.kniggits.field import Board
from cogs.kniggits.look import (
    AXIS_H,
    AXIS_W,
    BACKGROUND,
    BLOCK,
    BLOCKED,
    BOARD_W,
    CELL_MAX,
    DIM_TEXT,
    GOLD_DARK,
    HEADER,
    ID_FONT,
    MIN_FONT,
    PAD,
    PALETTE,
    REACH,
    REACH_EDGE,
    ROSTER_W,
    SHOOT,
    SUBLINE,
    TEXT,
    TITLE_FONT,
    WIDTH,
    blank,
    ink,
    text,
)
from cogs.kniggits.marks import _disc, kniggit_mark
from cogs.kniggits.roster_column import _line_sprite, _rows, line_layout, roster, roster_height
from cogs.kniggits.shown import Bought, Ground, KniggitLook, Route, Shown, Target
from cogs.kniggits.window import GAP_PX, Window, _ground, _snap, field_ground, window
from cogs.table import pictures
from cogs.table.pictures import FONT_SIZES, dashed, fit
from games.kniggits.schema import Army, Plan, PublicView, Xy


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


def framed(shown: Shown, win: Window, lines: Sequence[str], listed: list[KniggitLook] | None = None) -> Board:
    """A picture: the header lines, the window of the field, and the roster of `listed` beside
    the field when it fits there, else under it."""
    board_w, board_h = layer_size(win)
    top = header_height(lines)
    beside = False
    height = top + board_h + PAD
    if listed:
        one_column = roster_height(listed, 1, ROSTER_W)
        beside = WIDTH - board_w - 2 * PAD >= ROSTER_W and one_column <= board_h
        if not beside:
            two_columns = roster_height(listed, 2, WIDTH - 2 * PAD)
            height += two_columns + PAD
    left = 0 if beside or board_w + PAD >= WIDTH else (WIDTH - board_w - AXIS_W // 2) // 2
    image = canvas(height)
    header(image, lines)
    board = Board(image, shown, win, left, top)
    if listed:
        if beside:
            roster(image, listed, (WIDTH - PAD - ROSTER_W, top, WIDTH - PAD, top + one_column), 1)
        else:
            y = top + board_h + PAD
            roster(image, listed, (PAD, y, WIDTH - PAD, y + two_columns), 2)
    return board


def scene(board: Board, shown: Shown, *, skip: str | None = None, move: bool = True) -> None:
    """Everything on the field: items, the last move, engaged pairs, kniggits, exchanges."""
    kniggits = shown["kniggits"]
    everyone = _by_id(on_field(kniggits))
    board.items()
    if move and shown["last_move"]:
        board.path(shown["last_move"])
    board.engaged(shown["engaged"], everyone)
    board.kniggits(kniggits, shown["engaged"], skip)
    board.exchange(shown["last_exchange"], everyone, open_=False)
    board.exchange(shown["exchange"], everyone, open_=True)


def positions(shown: Shown, ids: Iterable[str]) -> list[Xy]:
    everyone = _by_id(on_field(shown["kniggits"]))
    return [everyone[i]["pos"] for i in ids if i in everyone]


def battlefield(view: PublicView) -> bytes:
    """The board for the table, from the public view (seat None): the window round the action
    (see the module's docstring), the last move and exchange, and the roster."""
    FONT_SIZES.update((MIN_FONT, TITLE_FONT, ID_FONT))
    return _battlefield(orjson.dumps(facts(view), option=orjson.OPT_SORT_KEYS))


@lru_cache(maxsize=128)
def _battlefield(key: bytes) -> bytes:
    shown: Shown = orjson.loads(key)
    field = shown["field"]
    cells = [k["pos"] for k in on_field(shown["kniggits"])]
    focus: list[Xy] = []
    for pair in (shown["exchange"], shown["last_exchange"]):
        if pair:
            focus += positions(shown, (pair["attacker"], pair["target"]))
    if shown["last_move"] and cells:
        focus += shown["last_move"][-1:]
        cells += shown["last_move"]
    win = window(field["width"], field["height"], cells, focus)
    board = framed(shown, win, [shown["headline"]], shown["kniggits"] or None)
    scene(board, shown)
    return pictures.png(board.image, PALETTE)


def preview(view: PublicView, plan: Plan) -> bytes:
    """A seat's private move preview: the path from the start ring to the cell reached, its
    cost against the allowance ("4.83 of 6"), the new engagements (gold dashes), potions drunk
    and a flag taken (with the hand)."""
    FONT_SIZES.update((MIN_FONT, TITLE_FONT, ID_FONT))
    planned: Plan = {"id": plan["id"], "path": plan["path"], "cost": plan["cost"], "allowance": plan["allowance"],
                     "engages": plan["engages"], "potions": plan["potions"], "flag": plan["flag"], "hand": plan["hand"]}
    return _preview(orjson.dumps({"shown": facts(view), "plan": planned}, option=orjson.OPT_SORT_KEYS))


def plan_lines(plan: Plan) -> list[str]:
    start, end = plan["path"][0], plan["path"][-1]
    first = f"{plan['id']} from {start[0]},{start[1]} to {end[0]},{end[1]} · {plan['cost']} of {plan['allowance']} in"
    if len(plan["path"]) < 2:
        first = f"{plan['id']} holds at {start[0]},{start[1]}"
    notes = [f"engages {', '.join(plan['engages'])}" if plan["engages"] else "no new engagement"]
    if plan["potions"]:
        notes.append(f"drinks {', '.join(plan['potions'])}")
    if plan["flag"]:  # a hand is chosen only when the flag is taken; else it goes home
        notes.append(f"takes Army {plan['flag']}'s flag ({plan['hand']} hand)" if plan["hand"]
                     else f"sends Army {plan['flag']}'s flag home")
    return [first, "Preview: " + " · ".join(notes)]


@lru_cache(maxsize=64)
def _preview(key: bytes) -> bytes:
    data = orjson.loads(key)
    shown: Shown = data["shown"]
    plan: Plan = data["plan"]
    field = shown["field"]
    mover = _by_id(shown["kniggits"]).get(plan["id"])
    engages = plan["engages"]
    cells = [*plan["path"], *positions(shown, engages)]
    win = window(field["width"], field["height"], cells, cells, snap=False)
    board = framed(shown, win, plan_lines(plan))
    board.items()
    board.engaged(shown["engaged"], _by_id(on_field(shown["kniggits"])))
    board.path(plan["path"])
    if mover is not None:
        end: KniggitLook = {**mover, "pos": plan["path"][-1]}
        others = [k for k in shown["kniggits"] if k["id"] != mover["id"]]
        enemies = _by_id(on_field(others))
        board.engaged([(mover["id"], e) for e in engages], enemies | {mover["id"]: end}, colour=GOLD_DARK)
        board.kniggits(others, shown["engaged"])
        if len(plan["path"]) > 1 and board.visible(mover["pos"]):
            x, y = board.at(mover["pos"])
            kniggit_mark(board.image, board.draw, mover, x, y, board.cell, None, False, ghost=True)
        x, y = board.at(end["pos"])
        target = enemies.get(engages[0]) if engages else None
        toward: tuple[float, float] | None
        if target is not None:
            tx, ty = board.at(target["pos"])
            toward, facing = (tx - x, ty - y), True
        else:
            (px, py), (qx, qy) = board.at(plan["path"][max(0, len(plan["path"]) - 2)]), (x, y)
            toward, facing = ((qx - px, qy - py) if len(plan["path"]) > 1 else None), False
        kniggit_mark(board.image, board.draw, end, x, y, board.cell, toward, facing)
    return pictures.png(board.image, PALETTE)


def reach(view: PublicView, kniggit_id: str, cells: Sequence[Sequence[int]], routes: Sequence[Route] = ()) -> bytes:
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
    shown: Shown = data["shown"]
    kid: str = data["id"]
    cells: list[Xy] = data["cells"]
    routes: list[tuple[int, list[Xy]]] = data["routes"]
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


def sight(view: PublicView, kniggit_id: str, targets: Sequence[Target | str]) -> bytes:
    """A private overlay for an archer: the cells in its range tinted, each target in clear sight
    ringed in green, each blocked line crossed in red. `targets`: ids (clear) or `Target`s."""
    FONT_SIZES.update((MIN_FONT, TITLE_FONT, ID_FONT))
    listed: list[Target] = [{"id": t, "clear": True} if isinstance(t, str) else {"id": t["id"], "clear": t["clear"]}
                            for t in targets]
    return _sight(orjson.dumps({"shown": facts(view), "id": kniggit_id, "targets": listed}, option=orjson.OPT_SORT_KEYS))


@lru_cache(maxsize=64)
def _sight(key: bytes) -> bytes:
    data = orjson.loads(key)
    shown: Shown = data["shown"]
    kid: str = data["id"]
    targets: list[Target] = data["targets"]
    field = shown["field"]
    everyone = _by_id(on_field(shown["kniggits"]))
    archer = everyone.get(kid)
    spots = positions(shown, [t["id"] for t in targets])
    reach_in = 2 * archer["D"] if archer is not None and archer["kind"] == "archer" else 0
    clear = [t["id"] for t in targets if t["clear"]]
    lines = [f"{kid} · range {reach_in} in · " + (f"can shoot {', '.join(clear)}" if clear else "no clear shot")]
    me = [archer["pos"]] if archer is not None else []
    in_range: list[Xy] = []
    if archer is not None:
        gx, gy = archer["pos"]
        in_range = [[x, y] for x in range(max(1, gx - reach_in), min(field["width"], gx + reach_in) + 1)
                    for y in range(max(1, gy - reach_in), min(field["height"], gy + reach_in) + 1)
                    if (x - gx) ** 2 + (y - gy) ** 2 <= reach_in ** 2]
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


def deployment(view: PublicView, army: str | None, placements: Mapping[str, Sequence[int]]) -> bytes:
    """A private preview of an army's zone with its draft placements: the zone's rows in one
    strip, so neighbouring cells look neighbouring (a 48-inch field shows the 36 columns round
    the placements when they fit there)."""
    FONT_SIZES.update((MIN_FONT, TITLE_FONT, ID_FONT))
    if army not in ("A", "B"):  # not told: the placements' army (A when there are none)
        army = next(iter(placements), "A")[0]
    revealed = (view["revealed"] or {}).get(army) or []
    bought: dict[str, Bought] = {p["id"]: {"M": p["M"], "A": p["A"], "D": p["D"], "kind": p["kind"],
                                           "two_swords": p["two_swords"]} for p in revealed}
    key = {"shown": ground(view), "army": army, "placements": {k: list(v) for k, v in sorted(placements.items())},
           "bought": bought}  # the strip shows the ground only: a lock or a new phase draws nothing again
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
    shown: Ground = data["shown"]
    army: Army = data["army"]
    placements: dict[str, Xy] = data["placements"]
    bought: dict[str, Bought] = data["bought"]
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
    unknown: Bought = {"M": 0, "A": 0, "D": 0, "kind": "normal", "two_swords": False}
    tokens: list[KniggitLook] = [{"id": kid, "army": army, "pos": xy, "status": "active", "heading": heading,
                                  "facing": None, "mounted": False, "magic_sword": False, "carrying": None,
                                  "hand": None, **bought.get(kid, unknown)} for kid, xy in placements.items()]
    board = Board(image, shown, win, (WIDTH - layer_size(win)[0] - AXIS_W // 2) // 2, top)
    board.items()
    board.kniggits(tokens, [], arrows=False)
    return pictures.png(image, PALETTE)


def clear_caches() -> None:
    """Forget every drawn layer and picture (the bench measures cold pictures)."""
    for cached in (field_ground, _ground, _line_sprite, line_layout, _rows, _disc, _battlefield, _preview, _reach,
                   _sight, _deployment):
        cached.cache_clear()
