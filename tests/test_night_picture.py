"""The picture of the evening (`/night action:end`): it decodes, keeps one width, its smallest
text reads where Discord shows it (about 500 px wide; tests/test_pictures_legible.py's rule),
names without glyphs (emoji) and long names are drawn cut, and a long night is drawn cut too."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cogs.table import pictures
from cogs.table.night import PICTURE_ROWS, WIDTH, evening_picture
from runtime.night import night_table
from tests.night_rows import Seat
from tests.test_pictures_legible import check


def night_of(games: int) -> list[Seat]:
    kinds = ("hallway", "words", "tarot", "kniggits", "fencing")
    seats = []
    for n in range(games):
        seats += [Seat(n, kinds[n % 5], 1 + n % 3, 0, 0, None, "Alice the Magnificent of the Long Name 🎉"),
                  Seat(n, kinds[n % 5], 1 + (n + 1) % 3, 1, 1, None, f"player {1 + (n + 1) % 3}"),
                  Seat(n, kinds[n % 5], -1, 2, 2, None, "🤖 Ada", True)]
    return seats


@pytest.mark.parametrize("games", [0, 1, 3, PICTURE_ROWS + 5])
def test_the_evening_picture_is_legible_at_discord_size(games: int) -> None:
    pictures.FONT_SIZES.clear()
    png = evening_picture(night_table(night_of(games)), "general 🎲")
    width, height = check(png, set(pictures.FONT_SIZES))
    assert width == WIDTH and height < 2000


def test_a_long_night_draws_its_last_games_and_its_first_places() -> None:
    short = evening_picture(night_table(night_of(PICTURE_ROWS)), "general")
    long = evening_picture(night_table(night_of(PICTURE_ROWS + 5)), "general")
    assert len(long) > 0 and len(short) > 0
    assert Image.open(io.BytesIO(long)).size == Image.open(io.BytesIO(short)).size
