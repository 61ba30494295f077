"""What a picture costs to draw again (issue 21 item 3): nothing FreeType has measured or laid
out before is measured again, a line of text is laid out once, and the cheaper ways keep the
very pixels of the old ones (text on a palette canvas that `mapped_text` palettes draw as Pillow
would have mapped it, FreeType's own mask for a line)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from cogs.hallway import render as hallway_render
from cogs.table import pictures
from cogs.tarot import render as tarot_render
from cogs.words import render as words_render
from games.hallway import ENGINE as HALLWAY
from games.words import ENGINE as WORDS
from tests.hallway.support import build as hallway_state
from tests.words.support import build as words_state

#: FreeType's layouts: each costs a shaping of the whole line.
LAYOUTS = ("getlength", "getbbox", "getmask2", "getmask")
#: A fresh string per test run, so that no text cache already holds it.
_fresh = itertools.count()


@contextmanager
def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, names: tuple[str, ...]) -> Iterator[Counter[str]]:
    """Counts the calls of `owner`'s methods `names` (patched on the class; monkeypatch puts
    them back at the test's end)."""
    calls: Counter[str] = Counter()
    for name in names:
        real = getattr(owner, name)

        def wrapped(*args: Any, _real: Callable[..., Any] = real, _name: str = name, **kwargs: Any) -> Any:
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapped)
    yield calls


def fresh(words: str) -> str:
    return f"{words} {next(_fresh)}"


def test_a_line_of_text_is_laid_out_once_and_masked_as_draw_text_would(monkeypatch: pytest.MonkeyPatch) -> None:
    face = pictures.font(20)
    line = fresh("Ōsaka rolled 4 · “I pay you 5”")
    with counting(monkeypatch, ImageFont.FreeTypeFont, LAYOUTS) as calls:
        mask, left, top = pictures._mask(line, face, "lm", "left", 4)
    assert sum(calls.values()) == 1
    for anchor in ("lm", "mm", "rm", "la", "ms", None):
        mask, left, top = pictures._mask(line, face, anchor, "left", 4)
        drawn = Image.new("L", (600, 80), 0)
        ImageDraw.Draw(drawn).text((100, 40), line, fill=255, font=face, anchor=anchor)
        pasted = Image.new("L", (600, 80), 0)
        pasted.paste(mask, (100 + left, 40 + top))
        assert pasted.tobytes() == drawn.tobytes(), anchor


def test_mapped_text_has_the_pixels_of_text_drawn_in_rgb_then_mapped() -> None:
    """The words table moved onto a palette canvas: its text keeps the pixels it had."""
    palette, face = words_render.PALETTE, pictures.font(18)
    for ink, ground in ((words_render.GOLD, words_render.BACKGROUND), (words_render.TEXT, words_render.CARD),
                        (words_render.GOLD, words_render.CARD)):
        rgb = Image.new("RGB", (420, 40), ground)
        line = fresh("Gamer 7's turn")
        pictures.text(ImageDraw.Draw(rgb), (10, 20), line, ink, face, "lm")
        canvas = palette.canvas(Image.new("RGB", (420, 40), ground))
        pictures.text(canvas, (10, 20), line, ink, face, "lm", ground=ground, palette=palette)
        assert canvas.convert("RGB").tobytes() == pictures.to_palette(rgb, palette).convert("RGB").tobytes()


def hallway_picture() -> bytes:
    return hallway_render.render_hallway(HALLWAY.view(hallway_state(pos=(4, 13)), None), ("Alice", "Bob"))


def words_table() -> bytes:
    words_render._word_picture.cache_clear()
    return words_render.render_word(WORDS.view(words_state(wip="PLANE"), None), ["Ana", "Ben", "Cy"])


HAND = ["T21", "T07", "FOOL", "CU-K", "CU-3", "CO-10", "CO-A", "SW-C", "SW-2", "BA-V", "BA-5"]


def tarot_hand() -> bytes:
    tarot_render._hand.cache_clear()
    return tarot_render.draw_hand(HAND, {"CU-K", "CU-3"}, "Ana's hand")


def tarot_trick() -> bytes:
    tarot_render._trick.cache_clear()
    return tarot_render.draw_trick([("Ana", "CU-3", False), ("Ben", "T07", False)], "Ana", title="Trick 4")


@pytest.mark.parametrize("picture", [hallway_picture, words_table, tarot_hand, tarot_trick])
def test_a_picture_drawn_again_lays_out_no_text(picture: Callable[[], bytes],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Scores, notes and card corners are measured once per process, not on every picture (a
    picture is drawn anew for every view; its whole-picture cache is emptied here)."""
    first = picture()
    with counting(monkeypatch, ImageFont.FreeTypeFont, LAYOUTS) as calls:
        again = picture()
    assert again == first
    assert not calls, dict(calls)


def test_the_words_table_is_drawn_on_its_palette(monkeypatch: pytest.MonkeyPatch) -> None:
    """Straight on the palette, so the encoder has no RGB picture to map (it was most of its cost)."""
    modes: list[str] = []
    real = pictures.png

    def png(image: Image.Image, *args: Any, **kwargs: Any) -> bytes:
        modes.append(image.mode)
        return real(image, *args, **kwargs)

    monkeypatch.setattr(pictures, "png", png)
    words_table()
    assert modes == ["P"]


def test_a_trick_draws_its_empty_places_once(monkeypatch: pytest.MonkeyPatch) -> None:
    tarot_trick()
    with counting(monkeypatch, ImageDraw.ImageDraw, ("rounded_rectangle",)) as calls:
        tarot_trick()
    assert not calls
