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
it); cards are drawn once per (card, look) as palette sprites and pasted. The cards' names
and order are in `card_names.py`, the sizes, colours, symbols and card sprites in `sprites.py`.

Each picture is a stack of bands (`bands.py`), drawn straight into PNG rows, deflated once and
kept: a hand's title strip and each row of cards, the trick's title strip, its table (the four
places, each a kept tile) and the names. A press changes a row or two of a hand and one place
of the trick, so a new picture draws and deflates only those (issue 21: a hand 0.30 -> 0.09 ms,
a trick 0.175 -> 0.115 ms, drawn as the bot draws them). The pixels are those of the picture
drawn whole (`tests/tarot/test_bands.py`).

In the bot a picture finds little of its code and data in the processor's caches (the rest of
a press ran in between: `bench/pictures.py --cold`), so a band is drawn in bytes Pillow's core
pastes into, with cores kept for cards, places and words (`sprites.write`), and the caches are
sized for a hundred live games (cold, in game order, mean: a hand 0.46-0.49 -> 0.39-0.40 ms, a
trick 0.48-0.50 -> 0.44-0.45 ms; bench/e2e.py at 100 games: 1.4 -> 1.0 ms of pictures a press).
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw

from cogs.table import pictures
from cogs.table.pictures import FONT_SIZES, RGB, drawable, fit, length
from cogs.table.wording import plural
from cogs.tarot import bands
from cogs.tarot.bands import Band, rows
from cogs.tarot.card_names import FOOL, GROUP_ORDER, HAND_ORDER, SUIT_NAMES, check_card, group
from cogs.tarot.sprites import (
    BACKGROUND,
    BIG_H,
    BIG_W,
    BRIGHT,
    CARD_H,
    CARD_W,
    DIM_TEXT,
    DIMMED,
    GOLD,
    GOLD_DARK,
    HAND_SIZES,
    LEGAL,
    MARGIN,
    MIN_FONT,
    PALETTE,
    PLAIN,
    RADIUS,
    SCALE,
    SLOT,
    TAG,
    TAG_INK,
    TEXT,
    TITLE_FONT,
    TRICK_SIZES,
    WIDTH,
    WINNER,
    canvas,
    corner_width,
    ink,
    sprite,
    symbol,
    text,
    write,
)

# -- a hand -------------------------------------------------------------------------------------------
LABEL_W = 84  # the column of the rows' names
AREA = WIDTH - 2 * MARGIN - LABEL_W  # the cards' room in a row
FULL = CARD_W + 6  # a card's step when the row has room to spare
RAISE = 12  # how far a playable card stands out of its row
HEADER = 44
#: Rows of hands kept drawn and deflated (about 3 KiB each, 20 MiB at most): a game's four hands
#: reuse about 50 rows, plain and raised, so this keeps a hundred games' hands (100 games played
#: in turn: 0.7 rows drawn a hand picture, p50 0.11 ms; with 4,096 kept 0.9 rows, 0.16 ms).
ROWS_KEPT = 6144
#: Whole pictures kept here: few, as the table keeps every picture by its key (picture_cache.py).
PICTURES_KEPT = 64
#: Where a band's picture starts: bands are drawn straight into PNG rows (`bands.rows`), whose
#: first byte is the row's filter, so every x of a band is the picture's x + X (rounded first).
X = 1


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
    try:
        ordered = tuple(sorted(cards, key=HAND_ORDER.__getitem__))
    except KeyError:
        for card in cards:
            check_card(card)  # says which is no card
        raise
    playable = None if legal is None else frozenset(legal).intersection(ordered)
    FONT_SIZES.update(HAND_SIZES)
    return _hand(ordered, playable, drawable(title) or "Your hand", discard)


@lru_cache(maxsize=PICTURES_KEPT)
def _hand(cards: tuple[str, ...], legal: frozenset[str] | None, title: str, discard: bool = False) -> bytes:
    if legal is not None and discard:
        note = f"discard two: {len(legal)} may go, raised"
        note_colour = GOLD
    elif legal is not None:
        note = f"your turn: {len(legal)} playable, raised" if legal else "your turn: nothing playable"
        note_colour = GOLD
    else:
        note, note_colour = plural(len(cards), "card"), DIM_TEXT
    drawn = [_hand_title(title, note, note_colour)]
    if not cards:
        drawn.append(_no_cards(legal is not None))
    if legal is None:
        drawn += [_hand_row(kind, line, None) for kind, line in _layout(cards)]
    else:
        drawn += [_hand_row(kind, line, legal.intersection(line)) for kind, line in _layout(cards)]
    drawn.append(_blank(MARGIN - 4))
    return bands.png(drawn, PALETTE)


@lru_cache(maxsize=1024)
def _layout(cards: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A hand's rows: each group's cards in lines, the group's kind beside its first line (""
    beside the others). Kept: a player's plain hand is raised as it is on their next turn."""
    groups: dict[str, list[str]] = {kind: [] for kind in GROUP_ORDER}
    for card in cards:
        groups[group(card)].append(card)
    return tuple((kind if n == 0 else "", tuple(line))
                 for kind, mine in groups.items() for n, line in enumerate(lines_of(mine)))


def pitch(raised: bool) -> int:
    """A row of cards' height: room to raise the playable ones when some may be."""
    return CARD_H + (RAISE if raised else 0) + 10


@lru_cache(maxsize=512)  # its note changes on nearly every picture
def _hand_title(title: str, note: str, note_colour: RGB) -> Band:
    """The hand's title strip: the title on the left, the note (the count, or what is raised) on the right."""
    return _strip(title, note, note_colour)


def _strip(title: str, note: str, note_colour: RGB) -> Band:
    """A title strip `HEADER` high: `title` on the left in `TITLE_FONT`, `note` on the right (drawn
    whole: deflating its blank rows costs less than keeping them apart)."""
    drawn = rows(WIDTH, HEADER)
    write(drawn.core, (X + WIDTH - MARGIN, HEADER / 2), note, note_colour, MIN_FONT, "rm")
    room = WIDTH - 3 * MARGIN - length(note, MIN_FONT)
    write(drawn.core, (X + MARGIN, HEADER / 2), fit(title, TITLE_FONT, room), TEXT, TITLE_FONT, "lm")
    return bands.band(drawn)


@cache
def _no_cards(raised: bool) -> Band:
    drawn = rows(WIDTH, pitch(raised))
    write(drawn.core, (X + MARGIN, pitch(raised) / 2), "No cards in hand", DIM_TEXT, TITLE_FONT, "lm")
    return bands.band(drawn)


@cache
def _blank(height: int) -> Band:
    return bands.band(rows(WIDTH, height))


@lru_cache(maxsize=ROWS_KEPT)
def _hand_row(kind: str, line: tuple[str, ...], legal: frozenset[str] | None) -> Band:
    """A row of a hand: its group's symbol and name when it is the group's first (`kind`), and
    its cards, `legal` ones raised and the others dimmed (all plain with `legal` None). Kept:
    a press changes a row or two of a hand, and the rest is what the last picture had."""
    drawn = rows(WIDTH, pitch(legal is not None))
    paste = drawn.core.paste
    if kind:
        beside = _label_column(kind, legal is not None)
        paste(beside, (X + MARGIN, 0, X + MARGIN + LABEL_W, beside.size[1]))
    for card, place in zip(line, _places(line), strict=True):
        image, mask, left, top, width, height = _card(card, PLAIN if legal is None else LEGAL if card in legal
                                                      else DIMMED)
        paste(image, (place + left, top, place + left + width, top + height), mask)
    return bands.band(drawn)


@cache
def _label_column(kind: str, raised: bool) -> Image.core.ImagingCore:
    """What a group's first row shows left of its cards: the group's symbol and name, on the
    background as the row's label column is (pasted whole)."""
    column = Image.new("P", (LABEL_W, pitch(raised)), 0)
    middle = (RAISE if raised else 0) + CARD_H // 2
    pictures.stamp(column, label(kind), None, 0, middle - 32)
    text(column, ((LABEL_W - 8) // 2, middle + 14), SUIT_NAMES[kind], TEXT, MIN_FONT, "mm")
    return column.im


@lru_cache(maxsize=4096)
def _places(line: tuple[str, ...]) -> tuple[int, ...]:
    """Where each card of a line starts in its band (the band's x: the picture's + X)."""
    places, x = [], float(MARGIN + LABEL_W)
    for step in steps(list(line)):
        x += step
        places.append(X + round(x))
    return tuple(places)


@cache
def _card(card: str, look: str) -> tuple[Image.core.ImagingCore, Image.core.ImagingCore, int, int, int, int]:
    """A hand card's sprite and mask as Pillow cores, where its top left stands from its place
    (left and up by its ring; down by `RAISE` when dimmed, 3 px when raised), and its size."""
    image, mask = sprite(card, look)
    ring = (image.width - CARD_W) // 2
    return image.im, mask.im, -ring, {DIMMED: RAISE, LEGAL: 3}.get(look, 0) - ring, image.width, image.height


# -- a trick ------------------------------------------------------------------------------------------
TRICK_SLOT = (WIDTH - 2 * MARGIN) // 4
TRICK_TOP = HEADER + 24  # room over the cards for the "as led" tags
NAME_TOP = TRICK_TOP + BIG_H + 18
TRICK_H = NAME_TOP + 2 * 22 + MARGIN


@cache
def empty_slot() -> Image.Image:
    """A trick's empty place: a card's outline on the table, drawn once."""
    slot = canvas(BIG_W, BIG_H)
    ImageDraw.Draw(slot).rounded_rectangle((0, 0, BIG_W - 1, BIG_H - 1), radius=RADIUS, outline=ink(SLOT), width=2)
    return slot


def name_lines(name: str, room: float) -> list[str]:
    """A player's name on one line, or two split at a space, cut to `room` px with the shared `fit`."""
    if length(name, MIN_FONT) <= room:
        return [name]
    words = name.split(" ")
    for cut in range(len(words) - 1, 0, -1):
        first = " ".join(words[:cut])
        if length(first, MIN_FONT) <= room:
            return [first, fit(" ".join(words[cut:]), MIN_FONT, room)]
    return [fit(name, MIN_FONT, room)]


def tag(image: Image.Image, x: float, y: float, words: str, fill: RGB, colour: RGB) -> None:
    """A small rounded label centred on (x, y)."""
    w = length(words, MIN_FONT) + 16
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


@lru_cache(maxsize=PICTURES_KEPT)
def _trick(plays: tuple[tuple[str, str, bool], ...], wins: int | None, leader: str, title: str,
           idle: str = "") -> bytes:
    if wins is not None:
        status, colour = f"{plays[wins][0]} wins", GOLD
    elif not plays:
        status, colour = "", DIM_TEXT  # the note on the table says it
    else:
        status, colour = f"{leader} led", DIM_TEXT
    head = _trick_title(title, status, colour)
    if plays:
        table = rows(WIDTH, NAME_TOP - HEADER)
        paste = table.core.paste
        for n in range(4):
            slot = _slot_core(*plays[n][1:], n == wins) if n < len(plays) else _slot_core()
            paste(slot, (X + MARGIN + n * TRICK_SLOT, 0, X + MARGIN + (n + 1) * TRICK_SLOT, NAME_TOP - HEADER))
        middle = bands.band(table)
    else:
        middle = _waiting(idle or "Waiting for the lead" + (f" from {leader}" if leader else ""))
    return bands.png([head, middle, _names(tuple(name for name, _, _ in plays), wins)], PALETTE)


@lru_cache(maxsize=2048)  # a game's captions and who led or won: about 40 (2 MiB at most)
def _trick_title(title: str, status: str, colour: RGB) -> Band:
    """The trick's title strip: the caption on the left, who led or won on the right."""
    return _strip(title, fit(status, MIN_FONT, WIDTH * 0.6), colour)


@lru_cache(maxsize=512)
def _slot(card: str = "", as_led: bool = False, wins: bool = False) -> Image.Image:
    """A player's place on the table, between the title strip and the names (an empty outline
    without a `card`): the card, its "as led" tag, and "WINS" under the winning one. Each
    place is drawn once and pasted: a press changes one place of the four."""
    image = canvas(TRICK_SLOT, NAME_TOP - HEADER)
    cx, x0, top = TRICK_SLOT / 2, round(TRICK_SLOT / 2 - BIG_W / 2), TRICK_TOP - HEADER
    if not card:
        pictures.stamp(image, empty_slot(), None, x0, top)
        return image
    card_image, mask = sprite(card, WINNER if wins else PLAIN, True)
    ring = (card_image.width - BIG_W) // 2
    pictures.stamp(image, card_image, mask, x0 - ring, top - ring)
    if as_led:
        tag(image, cx, top - 7, "as led", TAG_INK, TAG)
    if wins:
        tag(image, cx, top + BIG_H + 5, "WINS", GOLD_DARK, GOLD)
    return image


@cache
def _slot_core(card: str = "", as_led: bool = False, wins: bool = False) -> Image.core.ImagingCore:
    """`_slot`'s Pillow core, pasted by the core's own call (78 cards, 4 looks each at most)."""
    return _slot(card, as_led, wins).im


@lru_cache(maxsize=256)
def _waiting(note: str) -> Band:
    """The table with no card yet: four empty places and the note (who leads, or "Game over")."""
    drawn = rows(WIDTH, NAME_TOP - HEADER)
    image = drawn.image()
    for n in range(4):
        pictures.stamp(image, _slot(), None, X + MARGIN + n * TRICK_SLOT, 0)
    w = length(fit(note, TITLE_FONT, WIDTH - 4 * MARGIN), TITLE_FONT) + 28
    middle = TRICK_TOP - HEADER + BIG_H // 2
    box = (X + round(WIDTH / 2 - w / 2), middle - 22, X + round(WIDTH / 2 + w / 2), middle + 22)
    ImageDraw.Draw(image).rounded_rectangle(box, radius=10, fill=ink(BACKGROUND), outline=ink(GOLD), width=2)
    text(image, (X + WIDTH // 2, TRICK_TOP - HEADER + BIG_H / 2), fit(note, TITLE_FONT, WIDTH - 4 * MARGIN), GOLD,
         TITLE_FONT, "mm")
    return bands.band(drawn)


@lru_cache(maxsize=4096)  # a game's: about 30, each about 1.5 KiB (6 MiB at most)
def _names(names: tuple[str, ...], wins: int | None) -> Band:
    """The players' names under their cards, in play order, the winner's in gold."""
    drawn = rows(WIDTH, TRICK_H - NAME_TOP)
    for n, name in enumerate(names):
        cx = X + MARGIN + n * TRICK_SLOT + TRICK_SLOT // 2
        for row, words in enumerate(name_lines(name, TRICK_SLOT - 8)):
            write(drawn.core, (cx, 11 + row * 22), words, GOLD if n == wins else TEXT, MIN_FONT, "mm")
    return bands.band(drawn)
