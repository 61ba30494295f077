"""Tarot's pictures say what the player may do and when it is over (issue 20, items 1 and 5):
the dealer's discard picture raises what may be discarded and dims the rest (Kings, the Fool,
trumps unless short), as the play picture does for unplayable cards; a finished game's table
no longer waits for a lead."""

from __future__ import annotations

from cogs.table import pictures
from cogs.table.ui import Seat, TableInfo
from cogs.tarot import render
from cogs.tarot.ui import TarotUI
from games.tarot import ENGINE
from games.tarot.cards import SUITS, rank_name, suit
from tests.playout import random_playout
from tests.test_pictures_legible import check

UI = TarotUI()
INFO = TableInfo(7, [Seat(i, 100 + i, name) for i, name in enumerate(("alice", "bob", "cleo", "dmitri"))])


def dealer_view() -> tuple[int, dict]:
    state = ENGINE.new_game(4, 1, {})
    seat = next(s for s in range(4) if "discard_options" in ENGINE.view(state, s))
    return seat, ENGINE.view(state, seat)


def test_the_discard_picture_raises_what_may_go_and_dims_the_rest() -> None:
    seat, view = dealer_view()
    may_go = set(view["discard_options"])
    held = set(view["hand"])
    assert "FOOL" in held - may_go and any(suit(c) in SUITS and rank_name(c) == "K" for c in held - may_go)  # this deal holds both
    screen = UI.private(view, seat, INFO)
    assert screen is not None and screen.image is not None
    pictures.FONT_SIZES.clear()
    png = screen.image()
    check(png, set(pictures.FONT_SIZES))  # legible at 500 px
    title = f"{INFO.name_of(seat)}'s hand"
    assert png == render.draw_hand(list(view["hand"]), may_go, title, discard=True)
    assert png != render.draw_hand(list(view["hand"]), None, title)  # not the plain, all-bright hand


def test_a_finished_games_table_shows_the_last_trick_and_says_it_is_over() -> None:
    final = random_playout(ENGINE, 4, 5).final
    view = ENGINE.view(final, None)
    assert view["over"]
    screen = UI.table(view, INFO)
    assert screen.image is not None
    trick, _info, caption, idle = screen.image.args
    assert caption == "Game over · last trick" and idle == "Game over" and trick["plays"]
    assert screen.image() != render.draw_trick([], title="Game over")
