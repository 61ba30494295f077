"""The hallway as a PNG, drawn with Pillow from the public view only.

The static part (walls, coloured numbered spaces, semicircles) is drawn once and cached;
kept on the game's fixed palette (`pictures.Palette`). Each picture copies it and draws the
dudes, scores, the Edge and the encounter boxes straight in palette colours, with text pasted
from cached sprites (`pictures.text`), then goes through the one encoder (`pictures.png`),
which keeps a render to a few milliseconds.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from cogs.table import pictures

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Box = tuple[int, int, int, int]

WIDTH, HEIGHT = 1040, 330
CELL, GAP = 44, 3
LEFT = 86  # x of the first rectangle; the semicircles sit outside [LEFT, RIGHT]
RIGHT = LEFT + 19 * (CELL + GAP) - GAP
HALL_TOP, HALL_BOTTOM = 118, 182
RADIUS = (HALL_BOTTOM - HALL_TOP) // 2 + 8

BACKGROUND = (43, 45, 49)
FLOOR = (92, 74, 60)
WALL = (190, 170, 140)
INK = (245, 245, 245)
DIM = (160, 163, 170)
FILLS = {"R": (214, 69, 65), "B": (52, 120, 214), "G": (46, 174, 96)}
DARK = {"R": (150, 40, 38), "B": (30, 75, 150), "G": (25, 115, 60)}
TOKEN = ((235, 64, 52), (58, 134, 255))
TOKEN_EDGE = ((120, 20, 15), (15, 50, 120))
GOLD, GOLD_DARK = (241, 196, 15), (160, 120, 0)
CARD, LAST_BOX = (54, 57, 63), (70, 60, 40)
SHADOW, PUPIL, MOUTH, EDGE_INK = (30, 30, 30), (20, 20, 20), (25, 25, 25), (60, 45, 0)
#: Every colour of the picture, and the text-on-ground pairs whose antialiased edges need shades.
PALETTE = pictures.Palette(
    [BACKGROUND, FLOOR, WALL, INK, DIM, *FILLS.values(), *DARK.values(), *TOKEN, *TOKEN_EDGE, GOLD, GOLD_DARK,
     CARD, LAST_BOX, SHADOW, PUPIL, MOUTH, EDGE_INK],
    [(INK, BACKGROUND), *((INK, fill) for fill in FILLS.values()), (DIM, BACKGROUND), (GOLD, BACKGROUND),
     (INK, CARD), (DIM, CARD), (EDGE_INK, GOLD)],
)
NAMES = ("RED", "BLUE")
NAME_ROOM = 18  # characters of a player's name that fit on a score card
UNDRAWABLE = {"So", "Sk", "Cs", "Co", "Cn", "Cf", "Mn", "Me"}  # emoji, modifiers, joiners, private use
FONT_FILES = ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


@cache
def font(size: int) -> Font:
    """DejaVu Sans Bold when the system has it, Pillow's own font otherwise."""
    for path in FONT_FILES:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def centre_x(pos: int) -> int:
    if pos == 0:
        return LEFT - RADIUS // 2 - 4
    if pos == 20:
        return RIGHT + RADIUS // 2 + 4
    return LEFT + (pos - 1) * (CELL + GAP) + CELL // 2


@cache
def hallway(spaces: tuple[tuple[str, int | None], ...]) -> Image.Image:
    """The board itself: walls, semicircle ends, and the 19 coloured numbered spaces."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    mid = (HALL_TOP + HALL_BOTTOM) // 2
    draw.rectangle((LEFT - RADIUS - 14, HALL_TOP - 10, RIGHT + RADIUS + 14, HALL_BOTTOM + 10), fill=FLOOR)
    for y in (HALL_TOP - 14, HALL_BOTTOM + 10):
        draw.rectangle((LEFT - RADIUS - 14, y, RIGHT + RADIUS + 14, y + 4), fill=WALL)
    # the start semicircles: Red's on the left (position 0), Blue's on the right (20)
    draw.pieslice((LEFT - RADIUS - 2, mid - RADIUS, LEFT + RADIUS - 2, mid + RADIUS), 90, 270,
                  fill=FILLS["R"], outline=DARK["R"], width=3)
    draw.pieslice((RIGHT - RADIUS + 2, mid - RADIUS, RIGHT + RADIUS + 2, mid + RADIUS), 270, 90,
                  fill=FILLS["B"], outline=DARK["B"], width=3)
    small, number = font(11), font(20)
    for pos in range(1, 20):
        colour, points = spaces[pos]
        x = LEFT + (pos - 1) * (CELL + GAP)
        draw.rounded_rectangle((x, HALL_TOP, x + CELL, HALL_BOTTOM), radius=5, fill=FILLS[colour],
                               outline=DARK[colour], width=2)
        draw.text((x + CELL // 2, HALL_BOTTOM - 22), str(points), fill=INK, font=number, anchor="mm")
        draw.text((x + CELL // 2, HALL_BOTTOM + 24), str(pos), fill=DIM, font=small, anchor="mm")
    for pos, text in ((0, "RED START"), (20, "BLUE START")):
        draw.text((centre_x(pos), HALL_BOTTOM + 24), text, fill=DIM, font=font(9), anchor="mm")
    draw.text((20, 22), "TWO FAT DUDES IN A NARROW HALLWAY", fill=INK, font=font(18), anchor="lm")
    return PALETTE.canvas(image)


def ink(colour: pictures.RGB) -> int:
    """The palette entry of a colour, to draw with on the picture."""
    return PALETTE.index[colour]


def text(image: Image.Image, xy: tuple[float, float], words: str, fill: pictures.RGB, size: int,
         anchor: str, ground: pictures.RGB) -> None:
    """A line of text on the picture, over the `ground` colour it sits on."""
    pictures.text(image, xy, words, fill, font(size), anchor, ground=ground, palette=PALETTE)


def star(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """The start player's ★, drawn (fonts rarely carry it)."""
    import math

    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    draw.polygon(points, fill=ink(GOLD), outline=ink(GOLD_DARK))


def dude(image: Image.Image, draw: ImageDraw.ImageDraw, seat: int, x: int, y: int, out: bool) -> None:
    """A fat dude from above: a round belly, two eyes and a worried little mouth."""
    r = 25
    draw.ellipse((x - r - 3, y - r + 6, x + r + 3, y + r + 6), fill=ink(SHADOW))  # shadow
    draw.ellipse((x - r, y - r, x + r, y + r), fill=ink(TOKEN[seat]), outline=ink(TOKEN_EDGE[seat]), width=3)
    look = 4 if seat == 0 else -4
    for dx in (-8, 8):
        draw.ellipse((x + dx - 4 + look // 2, y - 11, x + dx + 4 + look // 2, y - 3), fill=ink(INK))
        draw.ellipse((x + dx - 2 + look, y - 9, x + dx + 2 + look, y - 5), fill=ink(PUPIL))
    draw.arc((x - 9, y + 1, x + 9, y + 13), 200, 340, fill=ink(MOUTH), width=3)
    if out:
        text(image, (x, y - r - 12), "OUT", GOLD, 13, "mm", BACKGROUND)


def short(name: str, fallback: str = "") -> str:
    """A player's name cut to fit a score card, without the emoji and symbols the font has no
    glyph for (they would print as boxes)."""
    kept = "".join(ch for ch in unicodedata.normalize("NFC", name)
                   if unicodedata.category(ch) not in UNDRAWABLE)
    kept = " ".join(kept.split()) or fallback
    return kept if len(kept) <= NAME_ROOM else kept[:NAME_ROOM - 1] + "…"


def panel(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, box: Box,
          name: str) -> None:
    """One dude's score card: colour, name, ★, points and what staying inside would cost."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=ink(CARD), outline=ink(TOKEN[seat]), width=3)
    draw.ellipse((x0 + 14, y0 + 14, x0 + 34, y0 + 34), fill=ink(TOKEN[seat]))
    text(image, (x0 + 44, y0 + 24), name, INK, 18, "lm", CARD)
    if view["start"] == seat:
        star(draw, x0 + 44 + draw.textlength(name, font=font(18)) + 16, y0 + 23, 10)
    final = view.get("final")
    score = final["totals"][seat] if final else view["score"][seat]
    text(image, (x1 - 16, y0 + 32), str(score).replace("-", "−"), INK, 34, "rm", CARD)
    if seat in view["exited"]:
        note = "out of the hallway"
    else:
        note = f"on {view['pos'][seat]} · −{view['penalty'][seat]} if it ended now"
    if final:
        steps = view["penalty"][seat] // 5
        note = (f"{view['score'][seat]} points − {view['penalty'][seat]} for {steps} steps left"
                if seat not in view["exited"] else "got out: no penalty")
    text(image, (x0 + 16, y1 - 18), note.replace("-", "−"), DIM, 13, "lm", CARD)


def edge_token(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.ellipse((x - 22, y - 22, x + 22, y + 22), fill=ink(GOLD), outline=ink(GOLD_DARK), width=3)
    text(image, (x, y), "EDGE", EDGE_INK, 11, "mm", GOLD)


def encounter_boxes(image: Image.Image, draw: ImageDraw.ImageDraw, done: int, x: int, y: int) -> None:
    text(image, (x + 2 * 30 + 12, y - 14), "ENCOUNTERS", DIM, 12, "mm", BACKGROUND)
    for n in range(5):
        bx = x + n * 30
        fill = CARD if n < 4 else LAST_BOX
        draw.rectangle((bx, y, bx + 24, y + 24), fill=ink(fill), outline=ink(DIM), width=2)
        if n < done:
            draw.line((bx + 5, y + 13, bx + 10, y + 19, bx + 20, y + 5), fill=ink(GOLD), width=4)


def banner(view: dict[str, Any], names: tuple[str, str]) -> str:
    phase = view["phase"]
    if view.get("forfeit") is not None:
        return f"{names[1 - view['forfeit']]} WINS BY FORFEIT"
    final = view.get("final")
    if final:
        ranks = final["ranks"]
        if ranks[0] == ranks[1]:
            return "SHARED VICTORY: TWO HONORARY SKINNY DUDES"
        return f"HONORARY SKINNY DUDE: {names[ranks.index(0)]}"
    if phase == "rolloff":
        return "ROLL-OFF FOR THE START PLAYER"
    if phase == "negotiate":
        return f"ENCOUNTER {view['encounters']}: HAGGLING"
    if phase == "edge":
        return f"NO DEAL: {names[view['edge']]} USES THE EDGE"
    tail = " · RACE TO THE EXITS" if view["passed"] else ""
    return f"ROUND {view['round']} · {names[view['turn']]} TO ROLL{tail}"


def render_hallway(view: dict[str, Any], names: tuple[str, str] = NAMES) -> bytes:
    """The board picture for the table message, from the public view and the players' names
    (the red dude's first)."""
    names = (short(names[0], NAMES[0]), short(names[1], NAMES[1]))
    spaces = tuple((str(s["colour"]), s["number"]) for s in view["track"])
    image = hallway(spaces).copy()
    draw = ImageDraw.Draw(image)
    text(image, (WIDTH - 20, 22), banner(view, names), GOLD, 16, "rm", BACKGROUND)
    last = view.get("last_roll")
    if last and view["phase"] not in ("rolloff", "over"):
        text(image, (WIDTH - 20, 48), f"{names[last['seat']]} rolled {last['roll']}", DIM, 13, "rm", BACKGROUND)
    for seat in (0, 1):
        pos = view["pos"][seat]
        x = centre_x(pos)
        if seat in view["exited"] or view["pos"][0] == view["pos"][1]:
            x += -8 if seat == 0 else 8
        dude(image, draw, seat, x, HALL_TOP - 4, seat in view["exited"])
    top = 228
    panel(image, draw, view, 0, (20, top, 400, HEIGHT - 16), names[0])
    panel(image, draw, view, 1, (WIDTH - 400, top, WIDTH - 20, HEIGHT - 16), names[1])
    encounter_boxes(image, draw, view["encounters"], WIDTH // 2 - 72, top + 18)
    if view["edge"] is not None:
        edge_token(image, draw, 430 if view["edge"] == 0 else WIDTH - 430, top + 60)
    return pictures.png(image, PALETTE)
