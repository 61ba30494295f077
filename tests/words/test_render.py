"""The Fighting Words pictures: the word and the hand are real PNGs, on the table screen too."""

from __future__ import annotations

from cogs.table.ui import Seat, TableInfo
from cogs.words import render
from cogs.words.ui import WordsUI
from games.words import ENGINE
from tests.words.support import A, build

UI = WordsUI()
INFO = TableInfo(game_id=1, seats=[Seat(i, 100 + i, f"Player{i + 1}") for i in range(6)])
PNG = b"\x89PNG\r\n\x1a\n"


def test_images_are_pngs() -> None:
    state = build(wip="PLANE", hands={A: ["backspace", "tip"]})
    assert render.render_word(ENGINE.view(state, None)).startswith(PNG)
    assert render.render_hand(ENGINE.view(state, A)).startswith(PNG)
    assert render.render_word(ENGINE.view(build(), None)).startswith(PNG)
    screen = UI.table(ENGINE.view(state, None), INFO)
    assert screen.image is not None and screen.image().startswith(PNG)


def test_the_pictures_have_the_pixels_of_the_plain_drawing_over_seeded_games() -> None:
    """Cached card frames, number strips and a hand drawn on the palette draw the very pictures
    the plain way did (tests/words/reference_render.py), over every table and hand picture of
    seeded random games of 2 to 6 players, with long, odd and missing names."""
    from tests.playout import random_playout
    from tests.words import reference_render

    names = ["Alice the Bold and Beautiful", "ाAna", "שלום", "Bob 🎲", "AV Wy", "x" * 30]
    tables, hands = set(), set()
    for seed in range(1, 9):
        players = 2 + seed % 5
        for state in random_playout(ENGINE, players, seed, {}).states[::2]:
            view = ENGINE.view(state, None)
            inputs = render.word_inputs(view, names[:players - seed % 2])
            if inputs not in tables:
                tables.add(inputs)
                assert render.draw_word(inputs) == reference_render.draw_word(inputs), inputs
            for seat in range(players):
                faces = render.hand_faces(ENGINE.view(state, seat))
                if faces not in hands:
                    hands.add(faces)
                    assert render.draw_hand(faces) == reference_render.draw_hand(faces), faces
    assert len(tables) > 200 and len(hands) > 200
