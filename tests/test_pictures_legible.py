"""Pictures stay legible where Discord shows them (about 500 px wide, less on a phone).

For each picture function, views from seeded random playouts are drawn with the render
module's font sizes recorded (`FONT_SIZES`, filled by its `font` helper): the PNG must decode,
be at most `MAX_WIDTH` wide, keep one width across a table picture's views, and its smallest
text, shown `SHOWN` px wide (a picture narrower than that is shown at its own size), must be at
least `MIN_SHOWN` px tall.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from cogs.hallway import render as hallway_render
from cogs.words import render as words_render
from games.hallway import ENGINE as HALLWAY
from games.words import ENGINE as WORDS
from tests.playout import random_playout

MAX_WIDTH = 1000
SHOWN = 500
MIN_SHOWN = 11
VIEWS = 40


def spread(items: list[Any], count: int = VIEWS) -> list[Any]:
    return items[:: max(1, len(items) // count)]


def hallway_views() -> list[dict[str, Any]]:
    views = []
    for seed in (1, 2, 3, 4):
        playout = random_playout(HALLWAY, 2, seed)
        views += [HALLWAY.view(s, None) for s in spread(playout.states, 15)]
        views.append(HALLWAY.view(playout.final, None))
        views += [HALLWAY.view(s, seed % 2) for s in spread(playout.states, 5)]
    return views


def words_views(seat_views: bool) -> list[dict[str, Any]]:
    views = []
    for players, seed in ((2, 1), (3, 2), (4, 3), (6, 4)):
        playout = random_playout(WORDS, players, seed)
        for n, state in enumerate([*spread(playout.states, 12), playout.final]):
            views.append(WORDS.view(state, n % players if seat_views else None))
    return views


def check(png: bytes, sizes: set[int]) -> tuple[int, int]:
    """The picture's size, after checking it decodes, fits and its smallest text reads."""
    image = Image.open(io.BytesIO(png))
    image.verify()
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    width, height = image.size
    assert width <= MAX_WIDTH, f"{width} px wide: Discord shrinks it to about {SHOWN}"
    assert sizes, "no font size recorded"
    shown = min(sizes) * SHOWN / max(width, SHOWN)
    assert shown >= MIN_SHOWN, f"{min(sizes)} px text on a {width} px picture is {shown:.1f} px at {SHOWN} wide"
    return width, height


def draw(module: Any, render: Callable[[dict[str, Any]], bytes], view: dict[str, Any]) -> tuple[int, int]:
    module.FONT_SIZES.clear()
    png = render(view)
    return check(png, set(module.FONT_SIZES))


NAMES = ("Alice the Magnificent of the Long Name 🎉", "Bob")


@pytest.mark.parametrize("names", [NAMES, ("A", "B")])
def test_hallway_picture(names: tuple[str, str]) -> None:
    widths = {draw(hallway_render, lambda v: hallway_render.render_hallway(v, names), v)[0]
              for v in hallway_views()}
    assert len(widths) == 1, f"the table picture changes width: {widths}"


def test_hallway_default_names() -> None:
    draw(hallway_render, hallway_render.render_hallway, hallway_views()[0])


@pytest.mark.parametrize("named", [False, True])
def test_words_table_picture(named: bool) -> None:
    names = ("Alice", "Bartholomew the Long-Named 🎉", "Cy", "Dee", "Ed", "Flo") if named else ()
    views = words_views(seat_views=False) + words_views(seat_views=True)[:10]
    widths = {draw(words_render, (lambda v: words_render.render_word(v, names)) if named
                   else words_render.render_word, v)[0] for v in views}
    assert len(widths) == 1, f"the table picture changes width: {widths}"


def test_words_hand_picture() -> None:
    for view in words_views(seat_views=True):
        draw(words_render, words_render.render_hand, view)


def test_words_hand_with_every_event_fits() -> None:
    from games.words.cards import EVENT_NAMES

    faces = ["A", "Q", *EVENT_NAMES]
    draw(words_render, words_render.render_hand, {"hand": {f"c{i}": f for i, f in enumerate(faces)}})
    draw(words_render, words_render.render_hand, {"hand": {}})
    for face in EVENT_NAMES:  # each event card is wide enough for its name
        card = words_render._card(face)
        assert card.width > words_render.font(17).getlength(max(words_render.lines(
            words_render.label(face)).split("\n"), key=len))
