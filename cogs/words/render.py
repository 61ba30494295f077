"""Letter tiles for Fighting Words, drawn with Pillow from views only (never hidden state).

Each face's tile is drawn once and pasted; numbers come from cached glyphs; the picture is
encoded on the game's fixed palette (`cogs.table.pictures`) and kept by the faces it shows.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from cogs.table import pictures
from games.words.cards import label

TILE = 64
GAP = 8
MARGIN = 16
BACKGROUND = (47, 49, 54)
TILE_FILL = (245, 222, 179)
EVENT_FILL = (180, 205, 245)
INK = (40, 30, 20)
NUMBER_INK = (200, 200, 200)
PALETTE = pictures.Palette([BACKGROUND, TILE_FILL, EVENT_FILL, INK, NUMBER_INK],
                           [(INK, TILE_FILL), (INK, EVENT_FILL), (NUMBER_INK, BACKGROUND)])


@cache
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


@cache
def _tile(face: str) -> Image.Image:
    """One card as a tile on the background: a letter, or an event's name on three lines."""
    tile = Image.new("RGB", (TILE + 1, TILE + 1), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    letter = len(face) == 1
    draw.rounded_rectangle((0, 0, TILE, TILE), radius=8, fill=TILE_FILL if letter else EVENT_FILL,
                           outline=INK, width=2)
    text = face if letter else "\n".join(label(face).split()[:3])
    size = 40 if letter else 16
    while not letter and size > 10 and draw.multiline_textbbox((0, 0), text, font=_font(size))[2] > TILE - 6:
        size -= 1  # a long event name ("Backspace") shrinks to stay on its tile
    draw.multiline_text((TILE / 2, TILE / 2), text, fill=INK, font=_font(size), anchor="mm", align="center")
    return tile


def _tiles(faces: list[str], numbered: bool) -> bytes:
    return _drawn(tuple(faces), numbered)


@lru_cache(maxsize=2048)
def _drawn(faces: tuple[str, ...], numbered: bool) -> bytes:
    """The picture of these faces, drawn once: a seat's view changes with every step of the
    game, its hand far less often, and the same words and hands recur across tables."""
    count = max(1, len(faces))
    per_row = min(count, 12)
    rows = (count + per_row - 1) // per_row
    row_height = TILE + (28 if numbered else 0) + GAP
    width = MARGIN * 2 + per_row * (TILE + GAP) - GAP
    height = MARGIN * 2 + rows * row_height - GAP
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small = _font(16)
    if not faces:
        pictures.text(draw, (MARGIN, MARGIN + TILE // 3), "(empty)", fill=NUMBER_INK, font=small)
    for i, face in enumerate(faces):
        x = MARGIN + (i % per_row) * (TILE + GAP)
        y = MARGIN + (i // per_row) * row_height
        image.paste(_tile(face), (x, y))
        if numbered:
            pictures.text(draw, (x + TILE // 2, y + TILE + 14), str(i + 1), fill=NUMBER_INK, font=small,
                          anchor="mm")
    return pictures.png(image, PALETTE)


def render_word(view: dict[str, Any]) -> bytes:
    """The word in progress as tiles numbered from 1 (the public view is enough)."""
    blitz = view.get("blitz")
    word = blitz["wip"] if blitz else view["wip"]
    return _tiles(list(word), numbered=True)


def render_hand(view: dict[str, Any]) -> bytes:
    """The seat's own hand (its private view), letters first."""
    faces = sorted(view.get("hand", {}).values(), key=lambda f: (len(f) > 1, f))
    return _tiles(faces, numbered=False)
