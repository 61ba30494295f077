"""Last Stick's picture: the row of sticks left, in groups of four-plus-one so a player can count
the safe leaves at a glance, drawn at 500 px (the width Discord shows)."""

from __future__ import annotations

from io import BytesIO

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 500, 120
STICK, GAP, GROUP_GAP = 9, 5, 10


def picture(sticks: int, taken_last: int) -> bytes:
    """`sticks` upright, the `taken_last` just taken drawn faded at the end."""
    image = Image.new("RGB", (WIDTH, HEIGHT), (44, 47, 51))
    draw = ImageDraw.Draw(image)
    x = 16
    for index in range(sticks + taken_last):
        colour = (222, 184, 135) if index < sticks else (90, 90, 90)
        draw.rounded_rectangle((x, 20, x + STICK, HEIGHT - 20), radius=4, fill=colour)
        x += STICK + (GROUP_GAP if index % 4 == 0 else GAP)
    out = BytesIO()
    image.save(out, "PNG", compress_level=1)
    return out.getvalue()
