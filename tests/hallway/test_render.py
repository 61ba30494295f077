"""The hallway's picture: a real PNG of the board for sampled states, changed by a move, the
players' names on their score cards, and quick to draw."""

from __future__ import annotations

import io
import time

from PIL import Image

from cogs.hallway import render
from games.hallway import ENGINE
from tests.hallway.support import build
from tests.hallway.test_ui import SAMPLES, screen_of

PNG = b"\x89PNG\r\n\x1a\n"


def test_the_picture_is_a_png_of_the_board_for_sampled_states() -> None:
    for state in SAMPLES[::3]:
        png = screen_of(state).image()  # type: ignore[misc]
        assert png.startswith(PNG)
        with Image.open(io.BytesIO(png)) as image:
            assert image.size == (render.WIDTH, render.HEIGHT)


def test_the_picture_changes_when_a_dude_moves() -> None:
    before = render.render_hallway(ENGINE.view(build(pos=(4, 13)), None))
    after = render.render_hallway(ENGINE.view(build(pos=(5, 13)), None))
    assert before != after


def test_the_picture_names_the_players_on_their_score_cards() -> None:
    state = build(pos=(4, 13))
    view = ENGINE.view(state, None)
    assert screen_of(state).image() == render.render_hallway(view, ("Alice", "Bob"))  # type: ignore[misc]
    assert render.render_hallway(view, ("Alice", "Bob")) != render.render_hallway(view, ("Carol", "Bob"))
    assert render.short("  A  very   long display name indeed ") == "A very long displ…"
    assert len(render.short("x" * 40)) == render.NAME_ROOM
    assert render.short("Bob 🎲\u200d🔥") == "Bob" and render.short("🎲🎲", "RED") == "RED"
    assert render.short("Zoë Łukasz") == "Zoë Łukasz"


def test_rendering_is_quick() -> None:
    views = [ENGINE.view(s, None) for s in SAMPLES]
    render.render_hallway(views[0])  # warm the board cache and fonts
    start = time.perf_counter()
    for view in views:
        render.render_hallway(view)
    assert (time.perf_counter() - start) / len(views) < 0.030


#: Names that stress the cheap path: long (cut to the card), kerned pairs, accents, a mark
#: after a space, emoji, right-to-left script, a minus sign, names too wide for their lines.
NAMES = (("Alice the Bold", "Bob"), ("AV Wy Tyr LT", "j"), ("Çarol Émilie Ōsaka", "x" * 40),
         ("ाAna", "Bob 🎲"), ("שלום", "Jo-Jo −3"), ("RED", "BLUE"), ("W" * 30, "Ш" * 30))


def test_the_picture_has_the_pixels_of_the_plain_drawing_over_seeded_games() -> None:
    """Cached layers, sprites and lines measured in parts draw the very picture the plain way
    did (every shape and every whole line drawn per picture: tests/hallway/reference_render.py),
    over every state of seeded random games and names that stress the cheap path."""
    from tests.hallway import reference_render
    from tests.playout import random_playout

    compared = 0
    for seed in range(1, 15):
        names = NAMES[seed % len(NAMES)]
        for state in random_playout(ENGINE, 2, seed, {}).states:
            view = ENGINE.view(state, None)
            assert render.render_hallway(view, names) == reference_render.render_hallway(view, names), (seed, view)
            compared += 1
    assert compared > 200
