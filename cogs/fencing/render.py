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

This module draws each picture from parts, each a room with one job (imports flow from here to
them): `geography.py` (projection, outline, the region's towns), `look.py` (colours, palette,
text), `labels.py` (where labels and length chips go), `static_map.py` (the map drawn once per
difficulty) and `piece_sprites.py` (the five pieces).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from cogs.fencing.geography import GLYPH_FONT, HEIGHT, MIN_FONT, REGION, TITLE_FONT, WIDTH, region, spots
from cogs.fencing.labels import LEGEND_BOX, LEGEND_ROW, PIECE_R, RING, THEME_BOX, TITLE_BOX, Box, layout
from cogs.fencing.look import DIM_TEXT, GOLD, GOLD_DARK, PALETTE, PANEL, ROUTE, ROUTE_EDGE, TEXT, ink
from cogs.fencing.piece_sprites import PIECE_NAMES, PIECES, has_chess_glyphs, paste_piece, piece_sprite
from cogs.fencing.static_map import base, ground, overlay
from cogs.table import pictures
from cogs.table.pictures import FONT_SIZES, dashed, font
from games.fencing.schema import PublicView


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
