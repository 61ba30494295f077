"""Fighting Words pictures, drawn with Pillow from views only (never hidden state).

* `render_word`, the table picture (always `WIDTH` wide): the word in progress as numbered
  tiles, the letter played last in gold, then a card per player with their score and hand
  size, the one whose turn it is outlined in gold; a status line on top (Wordblitz, the last
  card, the end).
* `render_hand`, a seat's hand: letter tiles, and event cards as wide as their names.

Sized for a picture shown about 500 px wide: no text is smaller than `MIN_FONT` on a picture
at most `WIDTH` wide. Every font size asked for goes through `font`, which notes it in
`FONT_SIZES` (the legibility test reads it). Tiles, the players' card frames and the empty
places of a new word are drawn once (`pictures.piece`) and pasted; text comes from cached glyphs
("N to draw" in parts: a new count renders only its number); both pictures are drawn straight on
the game's fixed palette (no RGB picture to map: a hand's cards are mapped onto it once each)
and kept by what they show (`cogs.table.pictures`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from cogs.table import pictures
from cogs.table.pictures import FONT_SIZES, drawable, fit, font
from cogs.table.wording import plural
from games.words.cards import label
from games.words.schema import PublicView, SeatView

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

WIDTH = 640  # the table picture, every time
HAND_WIDTH = 600  # a hand wraps past this
MIN_FONT = 16  # 16 px at 640 wide is 12.5 px on a 500 px column
MARGIN = 16
TILE_W, TILE_H, TILE_GAP = 44, 52, 4
PER_ROW = (WIDTH - 2 * MARGIN + TILE_GAP) // (TILE_W + TILE_GAP)
HAND_TILE = 60
COLUMNS = 3  # player cards a row
CARD_H = 62

BACKGROUND = (47, 49, 54)
TILE_FILL = (245, 222, 179)
LAST_FILL = (241, 196, 15)
EVENT_FILL = (180, 205, 245)
INK = (40, 30, 20)
NUMBER_INK = (200, 200, 200)
CARD = (64, 67, 74)
TEXT = (245, 245, 245)
GOLD = (241, 196, 15)
DIM = (150, 153, 160)
PALETTE = pictures.Palette(
    [BACKGROUND, TILE_FILL, LAST_FILL, EVENT_FILL, INK, NUMBER_INK, CARD, TEXT, GOLD, DIM],
    [(INK, TILE_FILL), (INK, LAST_FILL), (INK, EVENT_FILL), (NUMBER_INK, BACKGROUND), (TEXT, CARD),
     (NUMBER_INK, CARD), (GOLD, BACKGROUND), (TEXT, BACKGROUND), (DIM, CARD)],
    mapped_text=True,  # the table's text keeps the pixels it had when it was drawn in RGB and mapped
)
#: Sizes drawn on cached tiles and pictures, noted again on every render that reuses them.
WORD_SIZES = (30, MIN_FONT, 18, 26)
HAND_SIZES = (34, 17, MIN_FONT)


clean = drawable


# -- the table picture --------------------------------------------------------------------------------
@cache
def _letter(face: str, last: bool) -> Image.Image:
    """A letter of the word as a tile on the background (gold when it was played last)."""
    tile = Image.new("RGB", (TILE_W + 1, TILE_H + 1), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((0, 0, TILE_W, TILE_H), radius=7, fill=LAST_FILL if last else TILE_FILL,
                           outline=INK, width=3 if last else 2)
    pictures.text(draw, (TILE_W / 2, TILE_H / 2), face, INK, font(30), "mm")
    return pictures.to_palette(tile, PALETTE)


@cache
def _ground(height: int) -> Image.Image:
    """The table picture's empty background at `height`, on the palette (copied for each picture)."""
    return PALETTE.canvas(Image.new("RGB", (WIDTH, height), BACKGROUND))


def ink(colour: pictures.RGB) -> int:
    """The palette entry of a colour, to draw with on the table picture."""
    return PALETTE.index[colour]


def text(image: Image.Image, xy: tuple[float, float], words: str, fill: pictures.RGB, size: int, anchor: str,
         ground: pictures.RGB = BACKGROUND) -> None:
    """A line of text on the table picture, over the `ground` colour it sits on."""
    pictures.text(image, xy, words, fill, font(size), anchor, ground=ground, palette=PALETTE)


def last_letter(view: PublicView, word: str) -> int | None:
    """Where the letter played last sits in `word`, when the view tells: the last open change is
    a letter played onto this very word, and an earlier open change (or the empty word) shows
    the word before it. (A change's `index`, if views ever carry it, is used as is.)"""
    changes = view.get("changes") or []
    if not changes or view.get("blitz"):
        return None
    change = changes[-1]
    if change.get("kind") != "letter" or change.get("word") != word or not change.get("last", True):
        return None
    if isinstance(change.get("index"), int):
        return change["index"]
    if len(word) == 1:
        return 0
    for before in reversed(changes[:-1]):
        old = before.get("word") or ""
        if len(old) == len(word) - 1:
            for i in range(len(word)):
                if word[:i] + word[i + 1:] == old:
                    return i
        break
    return None


def status(view: PublicView, names: Sequence[str]) -> str:
    blitz = view.get("blitz")
    over = view.get("over")
    phase = view["phase"]["name"]
    if over or phase == "over":
        best = max(view["scores"]) if view["scores"] else 0
        top = [names[s] for s in range(view["players"]) if view["scores"][s] == best]
        return f"GAME OVER · {top[0]} has the most points" if len(top) == 1 else "GAME OVER"
    if blitz:
        return f"WORDBLITZ · TURN {blitz['turns']} OF 30"
    if phase == "tiebreak":
        return "TIED: COIN TOSS OR WORDBLITZ"
    if view.get("last_card_drawn"):
        return "LAST CARD DRAWN: FINAL TURN"
    return f"{names[view['turn']]}'s turn" if phase in ("main", "claim") else "THE WORD"


def render_word(view: PublicView, names: Sequence[str] = ()) -> bytes:
    """The table picture: the word in progress (tiles numbered from 1, the letter played last
    in gold), each player's score and hand with whose turn it is, over a status line. `names`
    are the players' names by seat ("Player 1"… without them)."""
    return draw_word(word_inputs(view, names))


#: What the table picture is drawn from: the word, the letter played last, the status line,
#: the draw pile and each seat's (name, score, hand size, has the turn, left, active).
WordInputs = tuple[str, int | None, str, int, tuple[tuple[str, int, int, bool, bool, bool], ...]]


def word_inputs(view: PublicView, names: Sequence[str] = ()) -> WordInputs:
    """The little of the public view the table picture shows (the screen's picture key)."""
    blitz = view.get("blitz")
    word = blitz["wip"] if blitz else view["wip"]
    players = view["players"]
    shown = tuple(clean(names[s]) if s < len(names) and clean(names[s]) else f"Player {s + 1}"
                  for s in range(players))
    turning = view["phase"]["name"] in ("main", "claim") and not view.get("over")
    seats = []
    for s in range(players):
        hand = blitz["hand_sizes"][s] if blitz and s in blitz["seats"] else view["hand_sizes"][s]
        active = not blitz or s in blitz["seats"]
        seats.append((shown[s], view["scores"][s], hand, turning and s == view["turn"],
                      s in view["left"], active))
    return (word, last_letter(view, word), status(view, shown),
            blitz["draw_size"] if blitz else view["draw_size"], tuple(seats))


def draw_word(inputs: WordInputs) -> bytes:
    FONT_SIZES.update(WORD_SIZES)
    return _word_picture(*inputs)


@lru_cache(maxsize=2048)
def _word_picture(word: str, last: int | None, line: str, draw_size: int,
                  seats: tuple[tuple[str, int, int, bool, bool, bool], ...]) -> bytes:
    rows = max(1, -(-len(word) // PER_ROW))
    word_h = rows * (TILE_H + 26)
    columns = 2 if len(seats) == 4 else COLUMNS
    card_rows = -(-len(seats) // columns)
    height = MARGIN + 26 + 12 + word_h + 6 + card_rows * (CARD_H + 8) - 8 + MARGIN
    image = _ground(height).copy()
    text(image, (MARGIN, MARGIN + 12), fit(line, 18, WIDTH - 2 * MARGIN - 130), GOLD, 18, "lm")
    pictures.line(image, (WIDTH - MARGIN, MARGIN + 12), (*str(draw_size), " to draw"), NUMBER_INK, font(MIN_FONT),
                  "rm", ground=BACKGROUND, palette=PALETTE)  # in parts: a new count renders nothing new
    top = MARGIN + 38
    if not word and line.startswith("GAME OVER"):
        text(image, (MARGIN, top + TILE_H / 2), "no word on the table", NUMBER_INK, 18, "lm")
    elif not word:
        pictures.put(image, _empty_tiles())
        text(image, (MARGIN + 3 * (TILE_W + TILE_GAP) + 8, top + TILE_H / 2), "a new word: play any letter",
             NUMBER_INK, 18, "lm")
    for i, face in enumerate(word):
        x = MARGIN + (i % PER_ROW) * (TILE_W + TILE_GAP)
        y = top + (i // PER_ROW) * (TILE_H + 26)
        pictures.stamp(image, _letter(face, i == last), None, x, y)
        text(image, (x + TILE_W / 2, y + TILE_H + 12), str(i + 1), GOLD if i == last else NUMBER_INK, MIN_FONT,
             "mm")
    top += word_h + 6
    card_w = (WIDTH - 2 * MARGIN - (columns - 1) * 8) // columns
    for s, (name, score, hand, turn, left, active) in enumerate(seats):
        x = MARGIN + (s % columns) * (card_w + 8)
        y = top + (s // columns) * (CARD_H + 8)
        pictures.put(image, _card_frame(x, y, card_w, turn))
        score_text = str(score)
        score_w = pictures.parts_length(tuple(score_text), 26)  # from its digits' lengths
        name_x = x + 26 if turn else x + 12
        text(image, (name_x, y + 20), fit(name, MIN_FONT, x + card_w - 20 - score_w - name_x), TEXT, MIN_FONT,
             "lm", CARD)
        pictures.number(image, (x + card_w - 12, y + 31), score_text, GOLD if turn else TEXT, font(26), "rm",
                        ground=CARD, palette=PALETTE)
        note = "left the game" if left else (plural(hand, "card") if active else "watching")
        text(image, (x + 12, y + 45), note, DIM if left or not active else NUMBER_INK, MIN_FONT, "lm", CARD)
    return pictures.png(image, PALETTE)


@cache
def _empty_tiles() -> pictures.Piece:
    """Three empty places where a new word starts."""
    top = MARGIN + 38

    def paint(image: Image.Image, draw: ImageDraw.ImageDraw, ink: pictures.Ink) -> None:
        for i in range(3):
            x = MARGIN + i * (TILE_W + TILE_GAP)
            draw.rounded_rectangle((x, top, x + TILE_W, top + TILE_H), radius=7, outline=ink(DIM), width=2)

    return pictures.piece((MARGIN, top, MARGIN + 2 * (TILE_W + TILE_GAP) + TILE_W, top + TILE_H), paint, PALETTE)


@lru_cache(maxsize=256)
def _card_frame(x: int, y: int, width: int, turn: bool) -> pictures.Piece:
    """A player's card, outlined and marked in gold on their turn (a few places: drawn once each)."""
    def paint(image: Image.Image, draw: ImageDraw.ImageDraw, ink: pictures.Ink) -> None:
        draw.rounded_rectangle((x, y, x + width, y + CARD_H), radius=8, fill=ink(CARD),
                               outline=ink(GOLD if turn else CARD), width=3)
        if turn:
            draw.polygon(((x + 10, y + 12), (x + 10, y + 28), (x + 20, y + 20)), fill=ink(GOLD))

    return pictures.piece((x, y, x + width, y + CARD_H), paint, PALETTE)


# -- a seat's hand ------------------------------------------------------------------------------------
def lines(words: str) -> str:
    """An event's name on at most two lines, split where the lines come out most even."""
    parts = words.split()
    if len(parts) < 2:
        return words
    face = font(17)
    best = min(range(1, len(parts)), key=lambda i: max(face.getlength(" ".join(parts[:i])),
                                                        face.getlength(" ".join(parts[i:]))))
    return " ".join(parts[:best]) + "\n" + " ".join(parts[best:])


@cache
def _card(face: str) -> Image.Image:
    """A hand card on the background: a letter tile, or an event card as wide as its name."""
    letter = len(face) == 1
    if letter:
        width = HAND_TILE
        words = face
    else:
        words = lines(label(face))
        box = ImageDraw.Draw(Image.new("L", (1, 1))).multiline_textbbox((0, 0), words, font=font(17), spacing=3)
        width = max(HAND_TILE * 2, int(box[2] - box[0]) + 20)
    tile = Image.new("RGB", (width + 1, HAND_TILE + 1), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((0, 0, width, HAND_TILE), radius=8, fill=TILE_FILL if letter else EVENT_FILL,
                           outline=INK, width=2)
    pictures.text(draw, (width / 2, HAND_TILE / 2), words, INK, font(34 if letter else 17), "mm",
                  align="center", spacing=3)
    return tile


def render_hand(view: SeatView) -> bytes:
    """The seat's own hand (its private view), letters first."""
    return draw_hand(hand_faces(view))


def hand_faces(view: SeatView) -> tuple[str, ...]:
    """The seat's cards as the hand picture lays them out, letters first (its picture key)."""
    return tuple(sorted(view.get("hand", {}).values(), key=lambda f: (len(f) > 1, f)))


def draw_hand(faces: tuple[str, ...]) -> bytes:
    FONT_SIZES.update(HAND_SIZES)
    return _hand_picture(faces)


@lru_cache(maxsize=2048)
def _hand_picture(faces: tuple[str, ...]) -> bytes:
    """The picture of these cards, drawn once: a seat's view changes with every step of the
    game, its hand far less often, and the same hands recur across tables."""
    cards = [_card_on_palette(f) for f in faces]
    rows: list[list[Image.Image]] = [[]]
    x = MARGIN
    for card in cards:
        if rows[-1] and x + card.width - 1 > HAND_WIDTH - MARGIN:
            rows.append([])
            x = MARGIN
        rows[-1].append(card)
        x += card.width - 1 + 8
    widest = max((sum(c.width - 1 for c in row) + 8 * (len(row) - 1) for row in rows if row), default=0)
    if not faces:
        widest = int(font(18).getlength("No cards in hand")) + 1
    width = max(widest + 2 * MARGIN, 160)
    height = 2 * MARGIN + len(rows) * (HAND_TILE + 8) - 8 + 1
    if not faces:
        empty = Image.new("RGB", (width, height), BACKGROUND)
        pictures.text(ImageDraw.Draw(empty), (MARGIN, height / 2), "No cards in hand", NUMBER_INK, font(18), "lm")
        return pictures.png(empty, PALETTE)
    image = _hand_ground(width, height).copy()  # on the palette: each card mapped onto it once
    y = MARGIN
    for row in rows:
        x = MARGIN
        for card in row:
            pictures.stamp(image, card, None, x, y)
            x += card.width - 1 + 8
        y += HAND_TILE + 8
    return pictures.png(image, PALETTE)


@lru_cache(maxsize=64)
def _hand_ground(width: int, height: int) -> Image.Image:
    """A hand picture's empty background, on the palette."""
    return PALETTE.canvas(Image.new("RGB", (width, height), BACKGROUND))


@cache
def _card_on_palette(face: str) -> Image.Image:
    """A hand card mapped onto the palette (the same pixels as the whole hand mapped)."""
    return pictures.to_palette(_card(face), PALETTE)
