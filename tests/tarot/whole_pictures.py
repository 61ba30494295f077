"""Conference / League pictures drawn as they were before the band encoding (issue 21): each on
one whole canvas, then encoded. Kept word for word (`cogs/tarot/render.py` at f561c53) so that
`test_bands.py` can show the band pictures have exactly these pixels; a change of what the
pictures look like changes this copy too."""

from __future__ import annotations

from PIL import Image, ImageDraw

from cogs.table import pictures
from cogs.table.pictures import fit, length
from cogs.table.wording import plural
from cogs.tarot.card_names import GROUP_ORDER, SUIT_NAMES, group
from cogs.tarot.render import (
    CARD_H,
    HEADER,
    LABEL_W,
    NAME_TOP,
    RAISE,
    TRICK_H,
    TRICK_SLOT,
    TRICK_TOP,
    empty_slot,
    label,
    lines_of,
    name_lines,
    steps,
    tag,
)
from cogs.tarot.sprites import (
    BACKGROUND,
    BIG_H,
    BIG_W,
    CARD_W,
    DIM_TEXT,
    DIMMED,
    GOLD,
    GOLD_DARK,
    LEGAL,
    MARGIN,
    MIN_FONT,
    PLAIN,
    TAG,
    TAG_INK,
    TEXT,
    TITLE_FONT,
    WIDTH,
    WINNER,
    canvas,
    ink,
    sprite,
    text,
)


def whole_hand(cards: tuple[str, ...], legal: frozenset[str] | None, title: str, discard: bool = False) -> Image.Image:
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
    note_w = length(note, MIN_FONT)
    text(image, (WIDTH - MARGIN, HEADER / 2), note, note_colour, MIN_FONT, "rm")
    text(image, (MARGIN, HEADER / 2), fit(title, TITLE_FONT, WIDTH - 3 * MARGIN - note_w), TEXT, TITLE_FONT,
         "lm")
    if not cards:
        text(image, (MARGIN, HEADER + pitch / 2), "No cards in hand", DIM_TEXT, TITLE_FONT, "lm")
    y = HEADER
    for kind, line in rows:
        if kind:
            middle = y + (RAISE if legal is not None else 0) + CARD_H // 2
            pictures.stamp(image, label(kind), None, MARGIN, middle - 32)
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
            pictures.stamp(image, card_image, mask, round(x) - ring, top + (3 if look == LEGAL else 0) - ring)
        y += pitch
    return image


def whole_trick(plays: tuple[tuple[str, str, bool], ...], wins: int | None, leader: str, title: str,
           idle: str = "") -> Image.Image:
    image = canvas(WIDTH, TRICK_H)
    draw = ImageDraw.Draw(image)
    if wins is not None:
        status, colour = f"{plays[wins][0]} wins", GOLD
    elif not plays:
        status, colour = "", DIM_TEXT  # the note on the table says it
    else:
        status, colour = f"{leader} led", DIM_TEXT
    status = fit(status, MIN_FONT, WIDTH * 0.6)
    status_w = length(status, MIN_FONT)
    text(image, (WIDTH - MARGIN, HEADER / 2), status, colour, MIN_FONT, "rm")
    text(image, (MARGIN, HEADER / 2), fit(title, TITLE_FONT, WIDTH - 3 * MARGIN - status_w), TEXT, TITLE_FONT,
         "lm")
    for n in range(4):
        cx = MARGIN + n * TRICK_SLOT + TRICK_SLOT / 2
        x0 = round(cx - BIG_W / 2)
        if n >= len(plays):
            pictures.stamp(image, empty_slot(), None, x0, TRICK_TOP)
            continue
        name, card, as_led = plays[n]
        look = WINNER if n == wins else PLAIN
        card_image, mask = sprite(card, look, True)
        ring = (card_image.width - BIG_W) // 2
        pictures.stamp(image, card_image, mask, x0 - ring, TRICK_TOP - ring)
        if as_led:
            tag(image, cx, TRICK_TOP - 7, "as led", TAG_INK, TAG)
        if n == wins:
            tag(image, cx, TRICK_TOP + BIG_H + 5, "WINS", GOLD_DARK, GOLD)
        for row, words in enumerate(name_lines(name, TRICK_SLOT - 8)):
            text(image, (cx, NAME_TOP + 11 + row * 22), words, GOLD if n == wins else TEXT, MIN_FONT, "mm")
    if not plays:
        note = idle or "Waiting for the lead" + (f" from {leader}" if leader else "")
        w = length(fit(note, TITLE_FONT, WIDTH - 4 * MARGIN), TITLE_FONT) + 28
        box = (round(WIDTH / 2 - w / 2), TRICK_TOP + BIG_H // 2 - 22, round(WIDTH / 2 + w / 2),
               TRICK_TOP + BIG_H // 2 + 22)
        draw.rounded_rectangle(box, radius=10, fill=ink(BACKGROUND), outline=ink(GOLD), width=2)
        text(image, (WIDTH / 2, TRICK_TOP + BIG_H / 2), fit(note, TITLE_FONT, WIDTH - 4 * MARGIN), GOLD,
             TITLE_FONT, "mm")
    return image
