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
