"""What a picture costs to draw again (issue 21 item 3): nothing FreeType has measured or laid
out before is measured again, a line of text is laid out once, and the cheaper ways keep the
very pixels of the old ones (text on a palette canvas that `mapped_text` palettes draw as Pillow
would have mapped it, FreeType's own mask for a line)."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from cogs.hallway import render as hallway_render
from cogs.table import pictures, present
from cogs.table.picture_cache import ImageCache, picture_digest
from cogs.table.registry import load_ui
from cogs.table.ui import Screen, Seat, TableInfo
from cogs.tarot import render as tarot_render
from cogs.words import render as words_render
from games.hallway import ENGINE as HALLWAY
from games.words import ENGINE as WORDS
from tests.hallway.support import build as hallway_state
from tests.playout import random_playout
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


# -- pictures kept by what they are drawn from -------------------------------------------------------
INFO = TableInfo(game_id=1, seats=(Seat(0, 100, "Ana"), Seat(1, 101, "Ben"), Seat(2, 102, "Cy")))


def draws(screen: Screen, key: str) -> int:
    """How many times `present._draw` draws the screen's picture (0: kept from before)."""
    calls = []
    image = screen.image
    assert image is not None

    def counted() -> bytes:
        calls.append(1)
        return image()

    asyncio.run(present._draw(dataclasses.replace(screen, image=counted), key))
    return len(calls)


def hallway_views() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A view, the same with only what the picture does not show moved (an offer made and
    refused, a timeout, the stats), and one with a dude moved."""
    view: dict[str, Any] = {**HALLWAY.view(hallway_state(pos=(4, 13)), None),
                            "negotiation": {"offers": 1, "limit": 3, "nodeal": [], "pending": None}}
    moved = {**view, "timeouts": [1, 0], "stats": [{**view["stats"][0], "offers": 3}, view["stats"][1]],
             "negotiation": {"offers": 2, "limit": 3, "nodeal": [0], "pending": None}}
    return view, moved, {**view, "pos": [5, 13]}


def words_views() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A seat's view, the same seat's after another player's step (its cards unchanged), and
    after it played a card."""
    state = words_state(wip="PLAN", hands={0: ["E", "backspace"]})
    view: dict[str, Any] = dict(WORDS.view(state, 0))
    played = dict(view["hand"])
    played.pop(next(iter(played)))
    return view, {**view, "turn": 1, "wip": "PLANE"}, {**view, "hand": played}


@pytest.mark.parametrize("game", ["hallway", "words"])
def test_a_step_that_keeps_the_picture_draws_nothing(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The picture is kept by what it is drawn from, not by the whole view: a step that moves
    only the rest of the view is shown with the picture already drawn, and a step that moves
    the picture draws it anew."""
    ui: Any = load_ui(f"cogs.{game}")
    first, same, changed = hallway_views() if game == "hallway" else words_views()
    seat = None if game == "hallway" else 0

    def screen_of(view: dict[str, Any]) -> Screen:
        screen = ui.table(view, INFO) if seat is None else ui.private(view, seat, INFO)
        assert screen is not None
        return screen

    keys = [picture_digest(ui, screen_of(v), v, INFO, seat) for v in (first, same, changed)]
    assert len({present.view_digest(ui, v, INFO, seat) for v in (first, same, changed)}) == 3
    assert keys[0] == keys[1] != keys[2]
    monkeypatch.setattr(present, "IMAGES", ImageCache())
    assert draws(screen_of(first), keys[0]) == 1
    assert draws(screen_of(same), keys[1]) == 0
    assert draws(screen_of(changed), keys[2]) == 1


@pytest.mark.parametrize("game", ["hallway", "words", "tarot"])
def test_screens_with_one_picture_key_draw_one_picture(game: str) -> None:
    """A picture key holds everything its picture shows: over the screens of seeded random
    games (every seat's and the table's), one key never draws two different pictures."""
    ui: Any = load_ui(f"cogs.{game}")
    engine = importlib.import_module(f"games.{game}").ENGINE
    players = {"hallway": 2, "words": 3, "tarot": 4}[game]
    info = TableInfo(game_id=1, seats=tuple(Seat(s, 100 + s, f"Player {s}") for s in range(players)))
    drawn: dict[str, bytes] = {}
    for seed in (1, 2):
        for state in random_playout(engine, players, seed, {}).states[::2]:
            for seat in (None, *range(players)):
                view = engine.view(state, seat)
                screen = ui.table(view, info) if seat is None else ui.private(view, seat, info)
                if screen is None or screen.image is None:
                    continue
                assert screen.image_key is not None
                key = picture_digest(ui, screen, view, info, seat)
                png = screen.image()
                assert drawn.setdefault(key, png) == png


# -- lines drawn in parts ----------------------------------------------------------------------------
NAMES = ("h12p0", "Alice the Bold", "Çarol Émilie", "AV Wy", "Tyr LT", "j", "Ōsaka")
TEMPLATES = (("ROUND {r} · ", "{n}", " TO ROLL"), ("{n}", " rolled ", "{r}"), ("{n}", " offers: “I pay you {r}”"),
             ("NO DEAL: ", "{n}", " USES THE EDGE"), ("SKINNY DUDE: ", "{n}"), ("{n}", " WINS BY FORFEIT"))


@pytest.mark.parametrize("size", [17, 19, 20])
def test_a_line_in_parts_has_the_pixels_of_the_whole_line(size: int) -> None:
    """Parts meet at a space, so the line drawn part by part (each at its fraction of a pixel)
    is the line FreeType draws whole, pixel for pixel."""
    palette, ground, ink = hallway_render.PALETTE, hallway_render.BACKGROUND, hallway_render.GOLD
    face = pictures.font(size)
    for template, name, number in itertools.product(TEMPLATES + NOTES[:2], NAMES, (1, 7, 12)):
        parts = tuple(part.format(n=name, r=number) for part in template)
        whole = palette.canvas(Image.new("RGB", (700, 40), ground))
        pictures.text(whole, (9, 20), "".join(parts), ink, face, "lm", ground=ground, palette=palette)
        pieces = palette.canvas(Image.new("RGB", (700, 40), ground))
        pictures.line(pieces, (9, 20), parts, ink, face, "lm", ground=ground, palette=palette)
        assert pieces.tobytes() == whole.tobytes(), parts


def test_a_line_in_parts_renders_only_its_new_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hallway's lines name the players: the name and the words around it are rendered once,
    so the next roll's line renders only its number (it rendered the whole line every time)."""
    name = fresh("Ana")
    canvas = hallway_render.PALETTE.canvas(Image.new("RGB", (400, 40), hallway_render.BACKGROUND))
    hallway_render.parts_text(canvas, (10, 20), (name, " rolled ", "3"), hallway_render.DIM, 17, 300,
                              hallway_render.BACKGROUND)
    rendered: list[str] = []
    real = ImageFont.FreeTypeFont.getmask2

    def getmask2(self: ImageFont.FreeTypeFont, words: str, *args: Any, **kwargs: Any) -> Any:
        rendered.append(words)
        return real(self, words, *args, **kwargs)

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", getmask2)
    hallway_render.parts_text(canvas, (10, 20), (name, " rolled ", "5"), hallway_render.DIM, 17, 300,
                              hallway_render.BACKGROUND)
    assert rendered == ["5"]


ODD = ("ाAna", "שלום", "Zoë Łukasz", "AV Wy", "Jo-Jo −3", "fi ffl", "Τάσος", "Дмитрий", "李雷", "x" * 30)
NOTES = (("on {r},", " −{r}", " if it ended now"), ("{r}", " − {r}", " for steps left"), ("{n}", "'s turn"),
         ("{n} ", "{n}", " ", "{r}"), ("", "{n}", "", " rolled ", "{r}", ""))


@pytest.mark.parametrize("size", [16, 17, 19, 20, 32])
def test_a_line_in_parts_is_measured_from_its_parts_as_whole(size: int) -> None:
    """A line's length and each part's pen come from the parts' own lengths only where that is
    exact (parts meeting at a space, no mark starting a part): over names and lines, the very
    numbers FreeType gives laying the line out whole, and each part's pen where the line before
    it ends."""
    face = pictures.font(size)
    assert isinstance(face, ImageFont.FreeTypeFont)
    for template, name, number in itertools.product(TEMPLATES + NOTES, NAMES + ODD, (0, 7, 12, -35)):
        parts = tuple(part.format(n=name, r=number) for part in template)
        assert pictures.parts_length(parts, size) == face.getlength("".join(parts)), parts
        pens = pictures._pens(parts, face)
        assert [pen for pen, part in zip(pens, parts, strict=True) if part] == \
            [face.getlength("".join(parts[:n])) for n, part in enumerate(parts) if part], parts


@pytest.mark.parametrize("size", [16, 17, 26, 32])
def test_a_right_aligned_line_in_parts_has_the_pixels_of_the_whole_line(size: int) -> None:
    """A right-aligned line drawn in parts starts its width, rounded as FreeType's anchor rounds
    it, left of the anchor point: the whole line's pixels (a count, a score, a note)."""
    palette, ground, ink = words_render.PALETTE, words_render.BACKGROUND, words_render.NUMBER_INK
    face = pictures.font(size)
    for number, tail in itertools.product([*range(0, 120), -5, -37, 1234], ("", " to draw", " cards left")):
        parts = (str(number), tail) if tail else (str(number),)
        whole = palette.canvas(Image.new("RGB", (700, 50), ground))
        pictures.text(whole, (624, 25), "".join(parts), ink, face, "rm", ground=ground, palette=palette)
        pieces = palette.canvas(Image.new("RGB", (700, 50), ground))
        pictures.line(pieces, (624, 25), parts, ink, face, "rm", ground=ground, palette=palette)
        assert pieces.tobytes() == whole.tobytes(), parts


def test_a_sprite_is_the_text_mask_through_its_shades() -> None:
    """A text sprite holds, at each pixel, the palette entry of the coverage FreeType gives it
    there (drawn here with ImageDraw itself), and its mask the pixels with any coverage."""
    palette, ground, ink = hallway_render.PALETTE, hallway_render.CARD, hallway_render.INK
    face = pictures.font(20)
    shades = pictures._shades(ink, ground, palette)
    for words in (fresh("Ōsaka −12"), fresh("on 7, −35 if it ended now")):
        sprite, inked, left, top = pictures._sprite(words, face, "lm", "left", 4, ink, ground, palette)
        drawn = Image.new("L", (sprite.width, sprite.height), 0)
        ImageDraw.Draw(drawn).text((-left, -top), words, fill=255, font=face, anchor="lm")
        assert sprite.mode == "P" and sprite.tobytes() == bytes(shades[v] for v in drawn.tobytes())
        assert inked.tobytes() == drawn.point([0] + [255] * 255, "1").tobytes()


@pytest.mark.parametrize("size", [16, 17, 20, 26, 32])
def test_a_number_made_of_its_characters_has_the_pixels_of_the_whole_number(size: int) -> None:
    """A score or a count is drawn from its characters' sprites and laid out from their lengths
    (DejaVu kerns no pair of digits and signs): the pixels and the length FreeType gives the
    whole number, left- or right-aligned, and a new number lays nothing out."""
    palette, ground, ink = hallway_render.PALETTE, hallway_render.CARD, hallway_render.INK
    face = pictures.font(size)
    assert isinstance(face, ImageFont.FreeTypeFont)
    for value, anchor in itertools.product([*range(-150, 400), 1234, -10203], ("rm", "lm", "ls")):
        words = str(value).replace("-", "−") if value % 2 else str(value)  # both minus signs
        whole = palette.canvas(Image.new("RGB", (300, 60), ground))
        pictures.text(whole, (150, 30), words, ink, face, anchor, ground=ground, palette=palette)
        made = palette.canvas(Image.new("RGB", (300, 60), ground))
        pictures.number(made, (150, 30), words, ink, face, anchor, ground=ground, palette=palette)
        assert made.tobytes() == whole.tobytes(), (words, anchor)
        assert pictures.parts_length(tuple(words), size) == face.getlength(words), words


def test_a_new_number_lays_nothing_out(monkeypatch: pytest.MonkeyPatch) -> None:
    canvas = hallway_render.PALETTE.canvas(Image.new("RGB", (300, 60), hallway_render.CARD))
    face = pictures.font(32)
    for digit in "0123456789":  # every character at every place it can stand in a number
        for warm in (digit * 4, "−" + digit * 4):
            pictures.number(canvas, (150, 30), warm, hallway_render.INK, face, "rm", ground=hallway_render.CARD,
                            palette=hallway_render.PALETTE)
    with counting(monkeypatch, ImageFont.FreeTypeFont, LAYOUTS) as calls:
        pictures.number(canvas, (150, 30), "−9876", hallway_render.INK, face, "rm", ground=hallway_render.CARD,
                        palette=hallway_render.PALETTE)
    assert not calls, dict(calls)
