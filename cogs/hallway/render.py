"""The hallway as a PNG, drawn with Pillow from the public view only.

Drawn at about the width Discord shows a picture (`WIDTH`), so that its smallest text
(`MIN_FONT`) is still 12 px or more on a 500 px wide chat column. The static part (walls,
coloured spaces with their points, the start semicircles, the score cards' frames and dots,
the encounters' label) is drawn once and cached, kept on the game's fixed palette
(`pictures.Palette`). Each picture copies it and pastes the dudes (the one that moved last
ringed in gold, the winner smiling), the encounter boxes, the offer's box, the Edge badge and
the ★ as cached pieces (`piece`: drawn once where they go, the same pixels as drawing them
there), and the banner, the last roll, the offer and the cards' text from cached sprites, lines
in parts measured from their parts (`pictures.line`, `pictures.parts_length`: a new round,
roll or score renders only its number), then goes through the one encoder (`pictures.png`).

Every font size asked for goes through `font`, which notes it in `FONT_SIZES` (the legibility
test reads it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from cogs.table import pictures
from cogs.table.pictures import FONT_SIZES, Ink, Piece, drawable, fit, font, length, put
from games.hallway.schema import PublicView

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Box = tuple[int, int, int, int]

WIDTH, HEIGHT = 680, 372
#: The smallest text on the picture: 17 px at 680 wide is 12.5 px on a 500 px column.
MIN_FONT = 17
NUMBER_FONT = 17  # the points on the spaces
CELL, GAP = 27, 2
RADIUS = 30  # the start semicircles
LEFT = (WIDTH - (19 * (CELL + GAP) - GAP)) // 2  # x of the first space; the semicircles sit outside
RIGHT = LEFT + 19 * (CELL + GAP) - GAP
HALL_TOP, HALL_BOTTOM = 96, 140
DUDE = 17  # a dude's radius
INFO_Y = 182  # the last roll / offer line
PANEL_TOP = 258
HALF = (WIDTH - 16 * 2 - 12) // 2  # a score card's width
#: The two score cards, the red dude's on the left.
PANELS: tuple[tuple[int, int, int, int], ...] = ((16, PANEL_TOP, 16 + HALF, HEIGHT - 14),
                                                 (WIDTH - 16 - HALF, PANEL_TOP, WIDTH - 16, HEIGHT - 14))
ENCOUNTERS_X = WIDTH - 16 - 5 * 26 + 4  # the first encounter box

BACKGROUND = (43, 45, 49)
FLOOR = (92, 74, 60)
WALL = (190, 170, 140)
INK = (245, 245, 245)
DIM = (185, 188, 195)
FILLS = {"R": (214, 69, 65), "B": (52, 120, 214), "G": (46, 174, 96)}
DARK = {"R": (150, 40, 38), "B": (30, 75, 150), "G": (25, 115, 60)}
TOKEN = ((235, 64, 52), (58, 134, 255))
TOKEN_EDGE = ((120, 20, 15), (15, 50, 120))
GOLD, GOLD_DARK = (241, 196, 15), (160, 120, 0)
CARD, LAST_BOX = (54, 57, 63), (70, 60, 40)
OFFER = (64, 58, 36)
SHADOW, PUPIL, MOUTH, EDGE_INK = (30, 30, 30), (20, 20, 20), (25, 25, 25), (60, 45, 0)
#: Every colour of the picture, and the text-on-ground pairs whose antialiased edges need shades.
PALETTE = pictures.Palette(
    [BACKGROUND, FLOOR, WALL, INK, DIM, *FILLS.values(), *DARK.values(), *TOKEN, *TOKEN_EDGE, GOLD, GOLD_DARK,
     CARD, LAST_BOX, OFFER, SHADOW, PUPIL, MOUTH, EDGE_INK],
    [(INK, BACKGROUND), *((INK, fill) for fill in FILLS.values()), (DIM, BACKGROUND), (GOLD, BACKGROUND),
     (INK, CARD), (DIM, CARD), (EDGE_INK, GOLD), (INK, OFFER), (GOLD, CARD)],
)
NAMES = ("RED", "BLUE")
NAME_ROOM = 18  # characters of a player's name kept at most (then cut to the card's width)
#: Sizes drawn on the cached board and pieces, noted again on every picture that reuses them.
BOARD_SIZES = (NUMBER_FONT, MIN_FONT)




def centre_x(pos: int) -> int:
    if pos == 0:
        return LEFT - RADIUS // 2 - 2
    if pos == 20:
        return RIGHT + RADIUS // 2 + 2
    return LEFT + (pos - 1) * (CELL + GAP) + CELL // 2


@cache
def hallway(spaces: tuple[tuple[str, int | None], ...]) -> Image.Image:
    """The board itself: walls, semicircle ends, and the 19 coloured spaces with their points."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    mid = (HALL_TOP + HALL_BOTTOM) // 2
    x0, x1 = LEFT - RADIUS - 6, RIGHT + RADIUS + 6
    draw.rectangle((x0, HALL_TOP - 8, x1, HALL_BOTTOM + 8), fill=FLOOR)
    for y in (HALL_TOP - 12, HALL_BOTTOM + 8):
        draw.rectangle((x0, y, x1, y + 4), fill=WALL)
    # the start semicircles: Red's on the left (position 0), Blue's on the right (20)
    draw.pieslice((LEFT - RADIUS - 2, mid - RADIUS, LEFT + RADIUS - 2, mid + RADIUS), 90, 270,
                  fill=FILLS["R"], outline=DARK["R"], width=3)
    draw.pieslice((RIGHT - RADIUS + 2, mid - RADIUS, RIGHT + RADIUS + 2, mid + RADIUS), 270, 90,
                  fill=FILLS["B"], outline=DARK["B"], width=3)
    number = font(NUMBER_FONT)
    for pos in range(1, 20):
        colour, points = spaces[pos]
        x = LEFT + (pos - 1) * (CELL + GAP)
        draw.rounded_rectangle((x, HALL_TOP, x + CELL, HALL_BOTTOM), radius=4, fill=FILLS[colour],
                               outline=DARK[colour], width=2)
        pictures.text(draw, (x + CELL / 2 + 0.5, HALL_BOTTOM - 13), str(points), INK, number, "mm")
    board = PALETTE.canvas(image)
    draw = ImageDraw.Draw(board)
    for seat, box in enumerate(PANELS):  # the score cards' frames and colour dots: the same on every picture
        x0, y0 = box[0], box[1]
        draw.rounded_rectangle(box, radius=10, fill=ink(CARD), outline=ink(TOKEN[seat]), width=3)
        draw.ellipse((x0 + 12, y0 + 13, x0 + 30, y0 + 31), fill=ink(TOKEN[seat]))
    text(board, (ENCOUNTERS_X - 10, INFO_Y), "ENCOUNTERS", DIM, MIN_FONT, "rm", BACKGROUND)
    return board




def piece(box: Box, paint: Callable[[Image.Image, ImageDraw.ImageDraw, Ink], None]) -> Piece:
    """What `paint` draws within `box`, drawn once where it goes on the picture (`pictures.piece`)."""
    return pictures.piece(box, paint, PALETTE)


def ink(colour: pictures.RGB) -> int:
    """The palette entry of a colour, to draw with on the picture."""
    return PALETTE.index[colour]


def text(image: Image.Image, xy: tuple[float, float], words: str, fill: pictures.RGB, size: int,
         anchor: str, ground: pictures.RGB) -> None:
    """A line of text on the picture, over the `ground` colour it sits on."""
    pictures.text(image, xy, words, fill, font(size), anchor, ground=ground, palette=PALETTE)


def star(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, ink: Ink = ink) -> None:
    """The start player's ★, drawn (fonts rarely carry it)."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    draw.polygon(points, fill=ink(GOLD), outline=ink(GOLD_DARK))


@lru_cache(maxsize=512)
def _star(x: float, y: float) -> Piece:
    """The ★ after a name (where it stands depends on the name: a few per game)."""
    return piece((math.floor(x) - 11, math.floor(y) - 11, math.ceil(x) + 11, math.ceil(y) + 11),
                 lambda image, draw, ink: star(draw, x, y, 10, ink))


def dude(draw: ImageDraw.ImageDraw, seat: int, x: int, y: int, *, moved: bool = False,
         happy: bool = False, r: int = DUDE, ink: Ink = ink) -> None:
    """A fat dude from above: a round belly, two eyes and a worried little mouth (a big smile
    for the winner); the dude that moved last wears a gold ring, with a gold arrow over him."""
    if moved:
        draw.ellipse((x - r - 5, y - r - 5, x + r + 5, y + r + 5), outline=ink(GOLD), width=3)
        draw.polygon(((x - 7, y - r - 18), (x + 7, y - r - 18), (x, y - r - 9)), fill=ink(GOLD))
    draw.ellipse((x - r - 2, y - r + 4, x + r + 2, y + r + 4), fill=ink(SHADOW))
    draw.ellipse((x - r, y - r, x + r, y + r), fill=ink(TOKEN[seat]), outline=ink(TOKEN_EDGE[seat]), width=2)
    look = 2 if seat == 0 else -2
    eye = max(2, r // 5)
    for dx in (-r // 3, r // 3):
        cx, cy = x + dx + look // 2, y - r // 4
        draw.ellipse((cx - eye - 1, cy - eye - 1, cx + eye + 1, cy + eye + 1), fill=ink(INK))
        draw.ellipse((cx + look // 2 - eye // 2 - 1, cy - eye // 2 - 1, cx + look // 2 + eye // 2 + 1,
                      cy + eye // 2 + 1), fill=ink(PUPIL))
    m = r // 2
    if happy:
        draw.chord((x - m - 2, y - m // 2, x + m + 2, y + m + 3), 0, 180, fill=ink(MOUTH))
    else:
        draw.arc((x - m + 2, y + 1, x + m - 2, y + m + 3), 200, 340, fill=ink(MOUTH), width=2)


@lru_cache(maxsize=512)
def _dude(seat: int, x: int, moved: bool, happy: bool) -> Piece:
    """A dude where he stands in the hallway (a few dozen places, each drawn once)."""
    y, reach = HALL_TOP - 2, DUDE + 19
    return piece((x - reach, y - reach, x + reach, y + reach),
                 lambda image, draw, ink: dude(draw, seat, x, y, moved=moved, happy=happy, ink=ink))


def short(name: str, fallback: str = "") -> str:
    """A player's name cut to `NAME_ROOM` characters, without the emoji and symbols the font
    has no glyph for (they would print as boxes)."""
    kept = drawable(name) or fallback
    return kept if len(kept) <= NAME_ROOM else kept[:NAME_ROOM - 1] + "…"




def winners(view: PublicView) -> set[int]:
    leaver = view.get("forfeit")
    if leaver is not None:
        return {1 - leaver}
    final = view.get("final")
    if final:
        ranks = final["ranks"]
        return {s for s in (0, 1) if ranks[s] == 0}
    return set()


def panel(image: Image.Image, view: PublicView, seat: int, name: str) -> None:
    """One dude's score card (its frame and colour dot are on the board): name, ★, points, the
    Edge, and what staying inside would cost."""
    x0, y0, x1, y1 = PANELS[seat]
    final = view.get("final")
    score = str(final["totals"][seat] if final else view["score"][seat]).replace("-", "−")
    score_room = pictures.parts_length(tuple(score), 32) + 16  # from its digits' lengths: nothing laid out
    shown = fit(name, 20, x1 - x0 - 40 - score_room - (26 if view["start"] == seat else 0) - 12)
    text(image, (x0 + 38, y0 + 22), shown, INK, 20, "lm", CARD)
    if view["start"] == seat:
        put(image, _star(x0 + 38 + length(shown, 20) + 14, y0 + 21))
    pictures.number(image, (x1 - 14, y0 + 26), score, INK, font(32), "rm", ground=CARD, palette=PALETTE)
    note: Parts
    if seat in view["exited"]:
        note = ("out of the hallway",)
    else:
        note = (f"on {view['pos'][seat]},", f" −{view['penalty'][seat]}", " if it ended now")
    if final:
        note = ((str(view["score"][seat]), f" − {view['penalty'][seat]}", " for steps left")
                if seat not in view["exited"] else ("got out: no penalty",))
    note = tuple(part.replace("-", "−") for part in note)
    parts_text(image, (x0 + 14, y0 + 56), note, DIM, MIN_FONT, x1 - x0 - 28, CARD)
    if seat in winners(view):
        text(image, (x0 + 14, y1 - 22), "WINNER", GOLD, 20, "lm", CARD)
    elif view["edge"] == seat and not final and view.get("forfeit") is None:
        put(image, _badge(seat))


@cache
def _badge(seat: int) -> Piece:
    """HAS THE EDGE, on a dude's card."""
    x0, _, _, y1 = PANELS[seat]
    ex, ey = x0 + 14, y1 - 36
    room = length("HAS THE EDGE", MIN_FONT) + 24

    def paint(image: Image.Image, draw: ImageDraw.ImageDraw, ink: Ink) -> None:
        draw.rounded_rectangle((ex, ey, ex + room, ey + 26), radius=13, fill=ink(GOLD), outline=ink(GOLD_DARK),
                               width=2)
        if image.mode == "P":  # the words sit inside the badge, so the mask has them already
            text(image, (ex + room / 2, ey + 13), "HAS THE EDGE", EDGE_INK, MIN_FONT, "mm", GOLD)

    return piece((ex, ey, math.ceil(ex + room), ey + 26), paint)


@cache
def _encounters(done: int) -> Piece:
    """The five encounter boxes (right of their label, on the board), `done` of them ticked."""
    x, y = ENCOUNTERS_X, INFO_Y - 11

    def paint(image: Image.Image, draw: ImageDraw.ImageDraw, ink: Ink) -> None:
        for n in range(5):
            bx = x + n * 26
            draw.rectangle((bx, y, bx + 22, y + 22), fill=ink(CARD if n < 4 else LAST_BOX), outline=ink(DIM),
                           width=2)
            if n < done:
                draw.line((bx + 4, y + 12, bx + 9, y + 17, bx + 18, y + 5), fill=ink(GOLD), width=3)

    return piece((x, y, x + 4 * 26 + 22, y + 22), paint)


@cache
def _offer_box(maker: int) -> Piece:
    """The pending offer's box, in its maker's colour."""
    box = (16, INFO_Y + 22, WIDTH - 16, INFO_Y + 56)

    def paint(image: Image.Image, draw: ImageDraw.ImageDraw, ink: Ink) -> None:
        draw.rounded_rectangle(box, radius=8, fill=ink(OFFER), outline=ink(TOKEN[maker]), width=3)
        draw.ellipse((box[0] + 10, INFO_Y + 30, box[0] + 28, INFO_Y + 48), fill=ink(TOKEN[maker]))

    return piece(box, paint)


@cache
def _roller(seat: int) -> Piece:
    """The colour dot before the last roll."""
    return piece((16, INFO_Y + 2, 32, INFO_Y + 18),
                 lambda image, draw, ink: draw.ellipse((16, INFO_Y + 2, 32, INFO_Y + 18), fill=ink(TOKEN[seat])))


def called(names: tuple[str, str], seat: int | None) -> str:
    """A dude's name; "?" for a seat the view has not set yet (the turn before the roll-off)."""
    return "?" if seat is None else names[seat]


#: A line as its parts: the players' names apart from the words around them, which meet them
#: at a space (`pictures.line` renders only the parts it has not rendered before).
Parts = tuple[str, ...]


def banner(view: PublicView, names: tuple[str, str]) -> Parts:
    phase = view["phase"]
    leaver = view.get("forfeit")
    if leaver is not None:
        return names[1 - leaver], " WINS BY FORFEIT"
    final = view.get("final")
    if final:
        ranks = final["ranks"]
        if ranks[0] == ranks[1]:
            return ("SHARED VICTORY: TWO SKINNY DUDES",)
        return "SKINNY DUDE: ", names[ranks.index(0)]
    if phase == "rolloff":
        return ("ROLL-OFF FOR THE START PLAYER",)
    if phase == "negotiate":
        return (f"ENCOUNTER {view['encounters']}: HAGGLING",)
    if phase == "edge":
        return "NO DEAL: ", called(names, view["edge"]), " USES THE EDGE"
    if view["passed"]:
        return "RACE TO THE EXITS · ", called(names, view["turn"]), " TO ROLL"
    return f"ROUND {view['round']} · ", called(names, view["turn"]), " TO ROLL"


def offer_line(view: PublicView, names: tuple[str, str]) -> tuple[int, Parts] | None:
    """The pending offer, from its maker's mouth: (maker, "ALICE offers: “I pay you 5”")."""
    nego = view["negotiation"]
    offer = nego["pending"] if nego else None
    if not offer or view["phase"] != "negotiate":
        return None
    maker = offer["maker"]
    words = "I pay you" if offer["payer"] == maker else "you pay me"
    return maker, (names[maker], f" offers: “{words} {offer['amount']}”")


def parts_text(image: Image.Image, xy: tuple[float, float], parts: Parts, fill: pictures.RGB, size: int,
               room: float, ground: pictures.RGB) -> None:
    """A left-anchored line made of parts, cut to `room` px (as one string) when too long: measured
    from its parts' lengths, so a line with a new number in it is not laid out whole."""
    if not pictures.line(image, xy, parts, fill, font(size), "lm", ground=ground, palette=PALETTE, room=room):
        text(image, xy, fit("".join(parts), size, room), fill, size, "lm", ground)


#: What the public view holds that the picture does not show (the roll-off's picks, the offers
#: made and who said no deal, timeouts, the stats, the fee, the AFK flag).
UNDRAWN = ("rolloff", "timeouts", "stats", "fee", "afk")


def picture_key(view: PublicView, names: tuple[str, str]) -> dict[str, object]:
    """What the picture is drawn from: the view but what it does not show, and the names.
    A step that moves only the rest (a roll-off pick, an offer's count) draws no new picture."""
    drawn: dict[str, object] = {k: v for k, v in view.items() if k not in UNDRAWN}
    nego = view["negotiation"]
    drawn["negotiation"] = nego and {"pending": nego["pending"]}
    drawn["names"] = list(names)
    return drawn


def render_hallway(view: PublicView, names: tuple[str, str] = NAMES) -> bytes:
    """The board picture for the table message, from the public view and the players' names
    (the red dude's first)."""
    names = (short(names[0], NAMES[0]), short(names[1], NAMES[1]))
    spaces = tuple((str(s["colour"]), s["number"]) for s in view["track"])
    image = hallway(spaces).copy()
    FONT_SIZES.update(BOARD_SIZES)  # drawn once on the cached board, on every picture
    parts_text(image, (16, 26), banner(view, names), GOLD, 20, WIDTH - 32, BACKGROUND)
    last = view.get("last_roll")
    moved = last["seat"] if last and view["phase"] != "rolloff" else None
    happy = winners(view)
    for seat in (0, 1):
        pos = view["pos"][seat]
        x = centre_x(pos)
        if seat in view["exited"] or view["pos"][0] == view["pos"][1]:
            x += -9 if seat == 0 else 9
        put(image, _dude(seat, x, seat == moved, seat in happy))
    # the line under the hallway: the pending offer, or the last roll; the encounters on the right
    put(image, _encounters(min(5, view["encounters"])))
    offer = offer_line(view, names)
    if offer is not None:
        maker, words = offer
        put(image, _offer_box(maker))
        parts_text(image, (54, INFO_Y + 39), words, INK, 19, WIDTH - 32 - 50, OFFER)
    if last is not None and moved is not None and view["phase"] != "over":
        put(image, _roller(moved))
        parts_text(image, (40, INFO_Y + 11), (names[moved], " rolled ", str(last["roll"])), DIM, MIN_FONT, 300,
                   BACKGROUND)
    panel(image, view, 0, names[0])
    panel(image, view, 1, names[1])
    return pictures.png(image, PALETTE)
