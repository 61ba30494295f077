"""What the Conference / League pictures are drawn with: the sizes and colours, the shared palette,
the suits' symbols and each card as a palette sprite drawn once per (card, look) and pasted."""

from __future__ import annotations

import math
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from cogs.table import pictures
from cogs.table.pictures import RGB, fit, font
from cogs.tarot.card_names import (
    FOOL,
    GROUP_ORDER,
    HONOURS,
    SUIT_NAMES,
    TRUMP_NAMES,
    TRUMPS,
    group,
    rank_text,
)

# -- colours ------------------------------------------------------------------------------------------
WIDTH = 680  # both pictures, every time
MARGIN = 16
MIN_FONT = 17  # 17 px at 680 wide is 12.5 px on a 500 px column
TITLE_FONT = 20

BACKGROUND = (47, 49, 54)
TEXT = (245, 245, 245)
DIM_TEXT = (165, 168, 175)
GOLD, GOLD_DARK = (241, 196, 15), (150, 105, 0)
LEGAL_RING = (250, 250, 250)
EDGE = (35, 35, 38)  # a card's outline
SLOT = (90, 93, 100)  # an empty place on the table
TAG, TAG_INK = (52, 120, 214), (255, 255, 255)  # the "as led" tag
#: Each group's card face (a light tint) and ink (a dark shade of the same hue, for the rank
#: and the symbols). The hues are told apart by colour-blind eyes too, but are never the only cue.
FACE = {"CU": (252, 226, 218), "CO": (252, 240, 200), "SW": (218, 232, 252), "BA": (216, 242, 226),
        TRUMPS: (236, 228, 250)}
INK = {"CU": (175, 35, 25), "CO": (135, 90, 0), "SW": (20, 70, 165), "BA": (0, 105, 65),
       TRUMPS: (100, 45, 150)}
#: The same hue, bright: the symbol next to a row's name on the dark background.
BRIGHT = {"CU": (235, 95, 80), "CO": (240, 185, 40), "SW": (90, 160, 245), "BA": (40, 190, 120),
          TRUMPS: (185, 140, 235)}
DIMMING = 0.55  # how far a card that cannot be played fades towards the background


def dim(colour: RGB) -> RGB:
    return pictures.mix(colour, BACKGROUND, DIMMING)


PALETTE = pictures.Palette(
    [BACKGROUND, TEXT, DIM_TEXT, GOLD, GOLD_DARK, LEGAL_RING, EDGE, SLOT, TAG, TAG_INK, dim(EDGE),
     dim(GOLD), dim(GOLD_DARK), *BRIGHT.values()],
    [*((INK[g], FACE[g]) for g in GROUP_ORDER), *((dim(INK[g]), dim(FACE[g])) for g in GROUP_ORDER),
     (GOLD, FACE[TRUMPS]), (dim(GOLD), dim(FACE[TRUMPS])), (TEXT, BACKGROUND), (DIM_TEXT, BACKGROUND),
     (GOLD, BACKGROUND), (TAG_INK, TAG), (GOLD_DARK, GOLD)],
)


def ink(colour: RGB) -> int:
    return PALETTE.index[colour]


# -- symbols (drawn three times too big, then shrunk: smooth edges on a cached sprite) -----------------
SCALE = 3


def star_points(x: float, y: float, r: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    return points


def symbol(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, size: float, fill: RGB,
           ground: RGB) -> None:
    """A group's symbol centred on (x, y), `size` px tall: a cup, a coin, a sword, a baton, a
    crown for the trumps, a star for an honour (gold; `fill` is then its outline)."""
    s = size

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return (x + x0 * s, y + y0 * s, x + x1 * s, y + y1 * s)

    if kind == "CU":  # a goblet: a bowl, a stem and a foot
        draw.chord(box(-0.46, -0.98, 0.46, 0.16), 0, 180, fill=fill)
        draw.rectangle(box(-0.46, -0.44, 0.46, -0.36), fill=fill)
        draw.rectangle(box(-0.08, 0.1, 0.08, 0.38), fill=fill)
        draw.rounded_rectangle(box(-0.32, 0.34, 0.32, 0.5), radius=0.06 * s, fill=fill)
    elif kind == "CO":  # a coin: a ring round a dot
        draw.ellipse(box(-0.48, -0.48, 0.48, 0.48), fill=fill)
        draw.ellipse(box(-0.3, -0.3, 0.3, 0.3), fill=ground)
        draw.ellipse(box(-0.13, -0.13, 0.13, 0.13), fill=fill)
    elif kind == "SW":  # a sword, point up
        draw.polygon([(x, y - 0.52 * s), (x + 0.1 * s, y - 0.34 * s), (x + 0.1 * s, y + 0.16 * s),
                      (x - 0.1 * s, y + 0.16 * s), (x - 0.1 * s, y - 0.34 * s)], fill=fill)
        draw.rounded_rectangle(box(-0.34, 0.13, 0.34, 0.25), radius=0.05 * s, fill=fill)
        draw.rectangle(box(-0.06, 0.25, 0.06, 0.4), fill=fill)
        draw.ellipse(box(-0.1, 0.36, 0.1, 0.52), fill=fill)
    elif kind == "BA":  # a baton: a thick staff with a knob at each end
        draw.line((x - 0.26 * s, y + 0.36 * s, x + 0.26 * s, y - 0.36 * s), fill=fill, width=round(0.2 * s))
        for cx, cy, r in ((-0.27, 0.37, 0.15), (0.28, -0.37, 0.17)):
            draw.ellipse(box(cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif kind == TRUMPS:  # a crown
        draw.polygon([(x + px * s, y + py * s) for px, py in
                      ((-0.5, 0.38), (-0.5, -0.3), (-0.25, 0.02), (0, -0.46), (0.25, 0.02), (0.5, -0.3),
                       (0.5, 0.38))], fill=fill)
    elif kind == "star":  # an honour: a gold star outlined in `fill`
        draw.polygon(star_points(x, y + 0.04 * s, 0.62 * s), fill=fill)
        draw.polygon(star_points(x, y + 0.04 * s, 0.44 * s), fill=GOLD if fill == GOLD_DARK else dim(GOLD))
    else:
        raise ValueError(kind)


# -- card sprites -------------------------------------------------------------------------------------
#: The hand's cards: `CARD_W` x `CARD_H`, the corner (rank over symbol) `RANK_FONT` / `SYMBOL` px.
CARD_W, CARD_H = 64, 90
RANK_FONT, SYMBOL, PAD = 20, 20, 5
#: The trick's cards, bigger, with the suit's (or the honour's) name at the foot.
BIG_W, BIG_H = 112, 150
BIG_RANK, BIG_SYMBOL = 30, 26
RADIUS = 7
PLAIN, LEGAL, DIMMED, WINNER = "plain", "legal", "dimmed", "winner"
#: Sizes drawn on cached sprites, noted again on every picture that reuses them.
HAND_SIZES = (RANK_FONT, TITLE_FONT, MIN_FONT)
TRICK_SIZES = (BIG_RANK, TITLE_FONT, MIN_FONT)


@cache
def corner_width(card: str) -> int:
    """How much of a hand card must show for its corner to read: its rank and symbol, with
    room for the next card's ring (a playable card's) and a gap (once per card: a hand is laid
    out on every picture)."""
    return math.ceil(PAD + max(font(RANK_FONT).getlength(rank_text(card)), SYMBOL) + 5)


def foot(card: str) -> str:
    """The words at the foot of a trick card."""
    if card == FOOL:
        return "The Fool"
    if card[0] == "T":
        number = int(card[1:])
        return TRUMP_NAMES[number].removeprefix("The ") if number in TRUMP_NAMES else "Trump"
    return SUIT_NAMES[card[:2]]


@cache
def sprite(card: str, look: str, big: bool = False) -> tuple[Image.Image, Image.Image]:
    """A card as a palette image (with the ring of its `look` around it) and its paste mask."""
    kind = group(card)
    faded = look == DIMMED
    face, dark = (dim(FACE[kind]), dim(INK[kind])) if faded else (FACE[kind], INK[kind])
    w, h = (BIG_W, BIG_H) if big else (CARD_W, CARD_H)
    ring = {LEGAL: 3, WINNER: 5}.get(look, 0)
    ring_colour = GOLD if look == WINNER else LEGAL_RING
    full_w, full_h = w + 2 * ring, h + 2 * ring
    honour = card in HONOURS
    # shapes at SCALE x, shrunk: the outline, the face, the honour's frame, the symbols
    big_image = Image.new("RGB", (full_w * SCALE, full_h * SCALE), BACKGROUND)
    draw = ImageDraw.Draw(big_image)
    r = RADIUS * SCALE
    if ring:
        draw.rounded_rectangle((0, 0, full_w * SCALE - 1, full_h * SCALE - 1), radius=r + ring * SCALE,
                               fill=ring_colour)
    x0, y0 = ring * SCALE, ring * SCALE
    x1, y1 = (ring + w) * SCALE - 1, (ring + h) * SCALE - 1
    draw.rounded_rectangle((x0, y0, x1, y1), radius=r, fill=dim(EDGE) if faded else EDGE)
    inset = 2 * SCALE
    draw.rounded_rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), radius=r - inset, fill=face)
    if honour:
        frame = dim(GOLD) if faded else GOLD
        draw.rounded_rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), radius=r - inset,
                               outline=frame, width=3 * SCALE)
    rank_size, symbol_size = (BIG_RANK, BIG_SYMBOL) if big else (RANK_FONT, SYMBOL)
    corner = rank_size + 4  # the symbol sits under the rank
    left = ring + PAD + (1 if big else 0)
    sx = left + symbol_size / 2
    sy = ring + PAD + corner + symbol_size / 2 + 1
    star_ink = dim(GOLD_DARK) if faded else GOLD_DARK
    if honour:
        symbol(draw, "star", sx * SCALE, sy * SCALE, symbol_size * SCALE, star_ink, face)
    else:
        symbol(draw, kind, sx * SCALE, sy * SCALE, symbol_size * SCALE, dark, face)
    centre_y = ring + h * (0.6 if big else 0.68)
    centre_size = 46 if big else 28
    # the middle: the suit's symbol (the Fool has no suit: a big star)
    symbol(draw, "star" if card == FOOL else kind, (ring + w / 2 + (0 if big else 6)) * SCALE,
           centre_y * SCALE, centre_size * SCALE, star_ink if card == FOOL else dark, face)
    if honour and big:
        symbol(draw, "star", (ring + w - PAD - symbol_size / 2 - 2) * SCALE, sy * SCALE, symbol_size * SCALE,
               star_ink, face)
    image = big_image.reduce(SCALE)
    # the words, from the shared cached glyphs
    draw = ImageDraw.Draw(image)
    pictures.text(draw, (left, ring + PAD - 1), rank_text(card), dark, font(rank_size), "la")
    if big:
        pictures.text(draw, (ring + w / 2, ring + h - PAD - 4), fit(foot(card), MIN_FONT, w - 2 * PAD), dark,
                      font(MIN_FONT), "ms")
    mask = Image.new("L", (full_w * SCALE, full_h * SCALE), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, full_w * SCALE - 1, full_h * SCALE - 1),
                                           radius=r + ring * SCALE, fill=255)
    mask = mask.reduce(SCALE).point(lambda v: 255 if v >= 128 else 0, "1")
    return pictures.to_palette(image, PALETTE), mask


# -- text on a palette picture ------------------------------------------------------------------------
def text(image: Image.Image, xy: tuple[float, float], words: str, fill: RGB, size: int, anchor: str,
         ground: RGB = BACKGROUND) -> None:
    pictures.text(image, xy, words, fill, font(size), anchor, ground=ground, palette=PALETTE)


def write(core: Image.core.ImagingCore, xy: tuple[float, float], words: str, fill: RGB, size: int, anchor: str,
          ground: RGB = BACKGROUND) -> None:
    """`text` pasted by Pillow's core into a band being drawn (`bands.rows`): the same pixels,
    without an image over the band or the checks of a paste."""
    if not words:
        return
    sprite, mask, left, top, width, height = _words(words, fill, size, anchor, ground)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    core.paste(sprite, (x, y, x + width, y + height), mask)


@lru_cache(maxsize=4096)
def _words(words: str, fill: RGB, size: int, anchor: str, ground: RGB
           ) -> tuple[Image.core.ImagingCore, Image.core.ImagingCore, int, int, int, int]:
    """`words`' sprite and mask as cores, where its top left sits from the anchor point, its size."""
    sprite, mask, left, top = pictures.text_sprite(words, fill, font(size), anchor, ground=ground, palette=PALETTE)
    return sprite.im, mask.im, left, top, sprite.width, sprite.height


@cache
def _background(width: int, height: int) -> Image.Image:
    return PALETTE.canvas(Image.new("RGB", (width, height), BACKGROUND))


def canvas(width: int, height: int) -> Image.Image:
    return _background(width, height).copy()


