"""Conference / League pictures: a player's hand and the trick on the table, drawn with Pillow
from plain data (card ids and names), never from game state. No Discord here.

Card ids as in the spec (§2.1): `CU-K`, `SW-10`, `BA-A`, trumps `T01`…`T21`, the Fool `FOOL`.

* `draw_hand`: one row per group (the trumps with the Fool first, then Cups, Coins, Swords,
  Batons; ascending within each), the cards overlapping so that each one's corner (its rank
  over its suit's symbol) shows; a row too long for the picture wraps. With `legal` (the
  player's turn) the playable cards are raised, ringed in white and bright, the others dimmed.
* `draw_trick`: up to four cards with the players' names under them, the winning card ringed
  in gold with a "WINS" tag, a gallowglass card played as the led suit tagged "as led".

Suits never rely on colour alone: each has its own symbol (cup, coin, sword, baton; a crown
for the trumps) on every card, the rows of a hand are labelled with the suit's name, and a
trick card names its suit. Honours (T01, T21, the Fool) carry a gold star and a gold frame.

Sized for a picture shown about 500 px wide: both pictures are `WIDTH` wide and no text is
smaller than `MIN_FONT` (17 px at 680 wide is 12.5 px on a 500 px column). Every font size
goes through the shared `font`, which notes it in `FONT_SIZES` (the legibility tests read
it); cards are drawn once per (card, look) as palette sprites and pasted, and each picture
goes through the shared palette encoder (`cogs.table.pictures`).
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from cogs.table import pictures
from cogs.table.pictures import FONT_SIZES, RGB, drawable, fit, font
from cogs.table.wording import plural

# -- the cards as data --------------------------------------------------------------------------------
#: The four suits, in the spec's canonical order (the trumps come before them in a hand).
SUIT_ORDER = ("CU", "CO", "SW", "BA")
TRUMPS = "T"  # the group of the trumps and the Fool
FOOL = "FOOL"
#: The rows of a hand, top to bottom.
GROUP_ORDER = (TRUMPS, *SUIT_ORDER)
SUIT_NAMES = {"CU": "Cups", "CO": "Coins", "SW": "Swords", "BA": "Batons", TRUMPS: "Trumps"}
#: Ranks, low to high (A=1 … 10, V=11, C=12, Q=13, K=14).
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "Q", "K")
RANK_NAMES = {"A": "Ace", "V": "Valet", "C": "Cavalier", "Q": "Queen", "K": "King"}
HONOURS = frozenset({"T01", "T21", FOOL})
TRUMP_NAMES = {1: "The Juggler", 21: "The World"}
#: Every card id in the canonical order (FOOL, T01…T21, then CU, CO, SW, BA each A…K).
DECK: tuple[str, ...] = (FOOL, *(f"T{n:02d}" for n in range(1, 22)),
                         *(f"{suit}-{rank}" for suit in SUIT_ORDER for rank in RANKS))
_KEYS = {card: (0 if card == FOOL or card[0] == "T" else 1 + SUIT_ORDER.index(card[:2]),
                0 if card == FOOL else int(card[1:]) if card[0] == "T" else 1 + RANKS.index(card[3:]))
         for card in DECK}


def check_card(card: str) -> str:
    if card not in _KEYS:
        raise ValueError(f"not a tarot card id: {card!r}")
    return card


def group(card: str) -> str:
    """The row a card sits in: `T` for the trumps and the Fool, else its suit."""
    return TRUMPS if check_card(card) == FOOL or card[0] == "T" else card[:2]


def rank_text(card: str) -> str:
    """What the card's corner shows: K Q C V 10 … 2 A, a trump's number, "Fool"."""
    check_card(card)
    if card == FOOL:
        return "Fool"
    return str(int(card[1:])) if card[0] == "T" else card[3:]


def sort_key(card: str) -> tuple[int, int]:
    """A hand's order: the Fool, the trumps 1…21, then Cups, Coins, Swords, Batons, each A…K
    (the spec's canonical order)."""
    check_card(card)
    return _KEYS[card]


def card_label(card: str) -> str:
    """Plain words: "King of Cups", "7 of Swords", "Trump 21 (The World)", "The Fool"."""
    check_card(card)
    if card == FOOL:
        return "The Fool"
    if card[0] == "T":
        number = int(card[1:])
        return f"Trump {number} ({TRUMP_NAMES[number]})" if number in TRUMP_NAMES else f"Trump {number}"
    rank = card[3:]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[card[:2]]}"


def card_short(card: str) -> str:
    """Short words for a select menu: "K Cups", "10 Swords", "Trump 21", "Fool"."""
    check_card(card)
    if card == FOOL:
        return "Fool"
    if card[0] == "T":
        return f"Trump {int(card[1:])}"
    return f"{card[3:]} {SUIT_NAMES[card[:2]]}"


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


def corner_width(card: str) -> int:
    """How much of a hand card must show for its corner to read: its rank and symbol, with
    room for the next card's ring (a playable card's) and a gap."""
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


@cache
def _background(width: int, height: int) -> Image.Image:
    return PALETTE.canvas(Image.new("RGB", (width, height), BACKGROUND))


def canvas(width: int, height: int) -> Image.Image:
    return _background(width, height).copy()


# -- a hand -------------------------------------------------------------------------------------------
LABEL_W = 84  # the column of the rows' names
AREA = WIDTH - 2 * MARGIN - LABEL_W  # the cards' room in a row
FULL = CARD_W + 6  # a card's step when the row has room to spare
RAISE = 12  # how far a playable card stands out of its row
HEADER = 44


def lines_of(cards: list[str]) -> list[list[str]]:
    """A group's cards in as few lines as keep every corner readable, as even as can be."""
    for count in range(1, len(cards) + 1):
        size = -(-len(cards) // count)
        chunks = [cards[i:i + size] for i in range(0, len(cards), size)]
        if all(sum(corner_width(c) for c in chunk[:-1]) + CARD_W <= AREA for chunk in chunks):
            return chunks
    return [[card] for card in cards]


def steps(line: list[str]) -> list[float]:
    """How far each card of a line sits from the one before it."""
    if len(line) < 2:
        return [0.0] * len(line)
    wide = [c for c in line[:-1] if c == FOOL]  # the Fool's corner is a word: it keeps its room
    room = AREA - CARD_W - sum(max(FULL, corner_width(c)) for c in wide)
    rest = len(line) - 1 - len(wide)
    step = min(FULL, room / rest) if rest else FULL
    return [0.0] + [max(FULL, corner_width(c)) if c == FOOL else step for c in line[:-1]]


@cache
def label(kind: str) -> Image.Image:
    """A row's symbol, bright on the background (its name is written beside it)."""
    big = Image.new("RGB", (LABEL_W * SCALE, 30 * SCALE), BACKGROUND)
    symbol(ImageDraw.Draw(big), kind, (LABEL_W - 8) / 2 * SCALE, 15 * SCALE, 26 * SCALE, BRIGHT[kind], BACKGROUND)
    return pictures.to_palette(big.reduce(SCALE), PALETTE)


def draw_hand(cards: list[str], legal: set[str] | None = None, title: str = "", *, discard: bool = False) -> bytes:
    """A player's hand (up to 21 cards), one row per group, `legal` ones (on the player's turn)
    raised and ringed and the others dimmed. `title` heads the picture ("Your hand" without one).
    With `discard`, `legal` are the cards the dealer may discard (the note says so)."""
    ordered = tuple(sorted((check_card(c) for c in cards), key=sort_key))
    playable = None if legal is None else frozenset(c for c in legal if c in ordered)
    FONT_SIZES.update(HAND_SIZES)
    return _hand(ordered, playable, drawable(title) or "Your hand", discard)


@lru_cache(maxsize=512)
def _hand(cards: tuple[str, ...], legal: frozenset[str] | None, title: str, discard: bool = False) -> bytes:
    rows: list[tuple[str, list[str]]] = []
    for kind in GROUP_ORDER:
        mine = [c for c in cards if group(c) == kind]
        rows += [(kind if n == 0 else "", line) for n, line in enumerate(lines_of(mine))]
    pitch = CARD_H + (RAISE if legal is not None else 0) + 10
    height = HEADER + max(1, len(rows)) * pitch + MARGIN - 4
    image = canvas(WIDTH, height)
    count = plural(len(cards), "card")
    if legal is not None and discard:
        note = f"discard two: {len(legal)} may go, raised"
        note_colour = GOLD
    elif legal is not None:
        note = f"your turn: {len(legal)} playable, raised" if legal else "your turn: nothing playable"
        note_colour = GOLD
    else:
        note, note_colour = count, DIM_TEXT
    note_w = font(MIN_FONT).getlength(note)
    text(image, (WIDTH - MARGIN, HEADER / 2), note, note_colour, MIN_FONT, "rm")
    text(image, (MARGIN, HEADER / 2), fit(title, TITLE_FONT, WIDTH - 3 * MARGIN - note_w), TEXT, TITLE_FONT,
         "lm")
    if not cards:
        text(image, (MARGIN, HEADER + pitch / 2), "No cards in hand", DIM_TEXT, TITLE_FONT, "lm")
    y = HEADER
    for kind, line in rows:
        if kind:
            middle = y + (RAISE if legal is not None else 0) + CARD_H // 2
            image.paste(label(kind), (MARGIN, middle - 32))
            text(image, (MARGIN + (LABEL_W - 8) / 2, middle + 14), SUIT_NAMES[kind], TEXT, MIN_FONT, "mm")
        x = float(MARGIN + LABEL_W)
        for card, step in zip(line, steps(line), strict=True):
            x += step
            if legal is None:
                look, top = PLAIN, y
            elif card in legal:
                look, top = LEGAL, y
            else:
                look, top = DIMMED, y + RAISE
            card_image, mask = sprite(card, look)
            ring = (card_image.width - CARD_W) // 2
            image.paste(card_image, (round(x) - ring, top + (3 if look == LEGAL else 0) - ring), mask)
        y += pitch
    return pictures.png(image, PALETTE)


# -- a trick ------------------------------------------------------------------------------------------
TRICK_SLOT = (WIDTH - 2 * MARGIN) // 4
TRICK_TOP = HEADER + 24  # room over the cards for the "as led" tags
NAME_TOP = TRICK_TOP + BIG_H + 18
TRICK_H = NAME_TOP + 2 * 22 + MARGIN


def name_lines(name: str, room: float) -> list[str]:
    """A player's name on one line, or two split at a space, cut to `room` px with the shared `fit`."""
    face = font(MIN_FONT)
    if face.getlength(name) <= room:
        return [name]
    words = name.split(" ")
    for cut in range(len(words) - 1, 0, -1):
        first = " ".join(words[:cut])
        if face.getlength(first) <= room:
            return [first, fit(" ".join(words[cut:]), MIN_FONT, room)]
    return [fit(name, MIN_FONT, room)]


def tag(image: Image.Image, x: float, y: float, words: str, fill: RGB, colour: RGB) -> None:
    """A small rounded label centred on (x, y)."""
    w = font(MIN_FONT).getlength(words) + 16
    ImageDraw.Draw(image).rounded_rectangle((round(x - w / 2), round(y - 12), round(x + w / 2), round(y + 12)),
                                            radius=12, fill=ink(colour))
    text(image, (x, y + 1), words, fill, MIN_FONT, "mm", colour)


def draw_trick(plays: list[tuple[str, str, bool]], leader_name: str = "", winner: str | None = None,
               title: str = "", idle: str | None = None) -> bytes:
    """The trick on the table: each play (player's name, card id, played as the led suit) in play
    order, the winner's card marked when `winner` (a player's name) is given. With no play yet, an
    empty table waiting for `leader_name`'s lead, or saying `idle` instead (a game that is over)."""
    if len(plays) > 4:
        raise ValueError(f"a trick holds at most 4 plays, not {len(plays)}")
    shown = tuple((drawable(name) or f"Player {n + 1}", check_card(card), bool(as_led))
                  for n, (name, card, as_led) in enumerate(plays))
    wins = next((n for n, (name, _, _) in enumerate(plays) if winner is not None and name == winner), None)
    leader = drawable(leader_name) or (shown[0][0] if shown else "")
    FONT_SIZES.update(TRICK_SIZES)
    return _trick(shown, wins, leader, drawable(title) or "The trick", drawable(idle or ""))


@lru_cache(maxsize=512)
def _trick(plays: tuple[tuple[str, str, bool], ...], wins: int | None, leader: str, title: str,
           idle: str = "") -> bytes:
    image = canvas(WIDTH, TRICK_H)
    draw = ImageDraw.Draw(image)
    if wins is not None:
        status, colour = f"{plays[wins][0]} wins", GOLD
    elif not plays:
        status, colour = "", DIM_TEXT  # the note on the table says it
    else:
        status, colour = f"{leader} led", DIM_TEXT
    status = fit(status, MIN_FONT, WIDTH * 0.6)
    status_w = font(MIN_FONT).getlength(status)
    text(image, (WIDTH - MARGIN, HEADER / 2), status, colour, MIN_FONT, "rm")
    text(image, (MARGIN, HEADER / 2), fit(title, TITLE_FONT, WIDTH - 3 * MARGIN - status_w), TEXT, TITLE_FONT,
         "lm")
    for n in range(4):
        cx = MARGIN + n * TRICK_SLOT + TRICK_SLOT / 2
        x0 = round(cx - BIG_W / 2)
        if n >= len(plays):
            draw.rounded_rectangle((x0, TRICK_TOP, x0 + BIG_W - 1, TRICK_TOP + BIG_H - 1), radius=RADIUS,
                                   outline=ink(SLOT), width=2)
            continue
        name, card, as_led = plays[n]
        look = WINNER if n == wins else PLAIN
        card_image, mask = sprite(card, look, True)
        ring = (card_image.width - BIG_W) // 2
        image.paste(card_image, (x0 - ring, TRICK_TOP - ring), mask)
        if as_led:
            tag(image, cx, TRICK_TOP - 7, "as led", TAG_INK, TAG)
        if n == wins:
            tag(image, cx, TRICK_TOP + BIG_H + 5, "WINS", GOLD_DARK, GOLD)
        for row, words in enumerate(name_lines(name, TRICK_SLOT - 8)):
            text(image, (cx, NAME_TOP + 11 + row * 22), words, GOLD if n == wins else TEXT, MIN_FONT, "mm")
    if not plays:
        note = idle or "Waiting for the lead" + (f" from {leader}" if leader else "")
        w = font(TITLE_FONT).getlength(fit(note, TITLE_FONT, WIDTH - 4 * MARGIN)) + 28
        box = (round(WIDTH / 2 - w / 2), TRICK_TOP + BIG_H // 2 - 22, round(WIDTH / 2 + w / 2),
               TRICK_TOP + BIG_H // 2 + 22)
        draw.rounded_rectangle(box, radius=10, fill=ink(BACKGROUND), outline=ink(GOLD), width=2)
        text(image, (WIDTH / 2, TRICK_TOP + BIG_H / 2), fit(note, TITLE_FONT, WIDTH - 4 * MARGIN), GOLD,
             TITLE_FONT, "mm")
    return pictures.png(image, PALETTE)
