"""Letter tiles for Fighting Words, drawn with Pillow from views only (never hidden state)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from games.words.cards import label

TILE = 64
GAP = 8
MARGIN = 16
BACKGROUND = (47, 49, 54)
TILE_FILL = (245, 222, 179)
EVENT_FILL = (180, 205, 245)
INK = (40, 30, 20)
NUMBER_INK = (200, 200, 200)


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def _tiles(faces: list[str], numbered: bool) -> bytes:
    count = max(1, len(faces))
    per_row = min(count, 12)
    rows = (count + per_row - 1) // per_row
    row_height = TILE + (28 if numbered else 0) + GAP
    width = MARGIN * 2 + per_row * (TILE + GAP) - GAP
    height = MARGIN * 2 + rows * row_height - GAP
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    big, small = _font(40), _font(16)
    if not faces:
        draw.text((MARGIN, MARGIN + TILE // 3), "(empty)", fill=NUMBER_INK, font=small)
    for i, face in enumerate(faces):
        x = MARGIN + (i % per_row) * (TILE + GAP)
        y = MARGIN + (i // per_row) * row_height
        letter = len(face) == 1
        draw.rounded_rectangle((x, y, x + TILE, y + TILE), radius=8,
                               fill=TILE_FILL if letter else EVENT_FILL, outline=INK, width=2)
        text = face if letter else "\n".join(label(face).split()[:3])
        font = big if letter else small
        draw.multiline_text((x + TILE / 2, y + TILE / 2), text, fill=INK, font=font,
                            anchor="mm", align="center")
        if numbered:
            draw.text((x + TILE / 2, y + TILE + 14), str(i + 1), fill=NUMBER_INK, font=small,
                      anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def render_word(view: dict[str, Any]) -> bytes:
    """The word in progress as tiles numbered from 1 (the public view is enough)."""
    blitz = view.get("blitz")
    word = blitz["wip"] if blitz else view["wip"]
    return _tiles(list(word), numbered=True)


def render_hand(view: dict[str, Any]) -> bytes:
    """The seat's own hand (its private view), letters first."""
    faces = sorted(view.get("hand", {}).values(), key=lambda f: (len(f) > 1, f))
    return _tiles(faces, numbered=False)
