"""Last Stick's picture is drawn at 500 px and shows exactly the sticks left (and the ones just taken, faded)."""

from __future__ import annotations

from io import BytesIO

from PIL import Image

from tests.engines.sticks_ui.render import HEIGHT, WIDTH, picture


def sticks_drawn(png: bytes) -> tuple[int, int]:
    """(upright, faded) sticks, counted along the picture's middle row."""
    image = Image.open(BytesIO(png)).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    row = [image.getpixel((x, HEIGHT // 2)) for x in range(WIDTH)]
    starts = [pixel for pixel, previous in zip(row[1:], row, strict=False) if pixel != previous]
    return starts.count((222, 184, 135)), starts.count((90, 90, 90))


def test_the_picture_counts_the_row() -> None:
    assert sticks_drawn(picture(21, 0)) == (21, 0)
    assert sticks_drawn(picture(5, 3)) == (5, 3)
    assert sticks_drawn(picture(25, 3)) == (25, 3)  # the longest row still fits in 500 px
