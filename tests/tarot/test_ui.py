"""The Tarot screens from real views: pictures legible at Discord's size, names instead of
seats, exactly the legal cards offered, and no hand on the table. They say what the player may
do and when it is over (issue 20, items 1 and 5): the dealer's discard picture raises what may
be discarded and dims the rest (Kings, the Fool, trumps unless short), as the play picture does
for unplayable cards; a finished game's table no longer waits for a lead."""

from __future__ import annotations

import re
from typing import Any

from cogs.table import pictures
from cogs.table.ui import Screen, Select, TableInfo
from cogs.table.ui import Seat as SeatInfo
from cogs.tarot import render
from cogs.tarot.card_names import card_label
from cogs.tarot.ui import TarotUI
from games.tarot import ENGINE
from games.tarot.cards import SUITS, rank_name, suit
from tests.playout import random_playout
from tests.test_pictures_legible import check

UI = TarotUI()
INFO = TableInfo(7, [SeatInfo(i, 100 + i, name) for i, name in
                     enumerate(("Alice the Magnificent 🎉", "Bob", "Bartholomew the Long-Named", "Cy"))])


def states(seed: int, **options: object) -> list[dict[str, Any]]:
    run = random_playout(ENGINE, 4, seed, dict(options))
    return [*run.states[::25], run.final]


def drawn(screen: Screen) -> bytes:
    pictures.FONT_SIZES.clear()
    assert screen.image is not None
    return screen.image()


def test_table_and_hand_pictures_read_at_500_px() -> None:
    for state in states(3, allegiances=True, gallowglass=True):
        table = UI.table(ENGINE.view(state, None), INFO)
        check(drawn(table), set(pictures.FONT_SIZES))
        for seat in range(4):
            private = UI.private(ENGINE.view(state, seat), seat, INFO)
            assert private is not None
            check(drawn(private), set(pictures.FONT_SIZES))


def test_the_select_offers_exactly_the_legal_cards_and_the_table_names_players() -> None:
    offered = 0
    for state in states(11):
        public = UI.table(ENGINE.view(state, None), INFO)
        text = public.card.title + public.card.description + "".join(v for _n, v, _i in public.card.fields)
        assert not re.search(r"\bSeat \d\b|\bseat \d\b", text)
        hidden = {c for h in state["hand"]["hands"] for c in h}
        if state["hand_no"] == 0:  # later hands' breakdowns name earlier hands' cards
            assert not any(card_label(c) in text for c in hidden)
        for seat in range(4):
            view = ENGINE.view(state, seat)
            screen = UI.private(view, seat, INFO)
            assert screen is not None
            menus = [c for c in screen.controls if isinstance(c, Select) and c.placeholder == "Play a card"]
            legal = {a["card"] for a in ENGINE.legal_actions(state, seat) if a["type"] == "play"}
            if legal and state["vote"] is None:
                [menu] = menus
                assert {c.action["card"] for c in menu.choices} == legal
                offered += 1
            else:
                assert not menus
    assert offered > 0


# ----- the screens say what may be done (issue 20) -------------------------------------------------
PLAIN = TableInfo(7, [SeatInfo(i, 100 + i, name) for i, name in enumerate(("alice", "bob", "cleo", "dmitri"))])


def dealer_view() -> tuple[int, dict]:
    state = ENGINE.new_game(4, 1, {})
    seat = next(s for s in range(4) if "discard_options" in ENGINE.view(state, s))
    return seat, ENGINE.view(state, seat)


def test_the_discard_picture_raises_what_may_go_and_dims_the_rest() -> None:
    seat, view = dealer_view()
    may_go = set(view["discard_options"])
    held = set(view["hand"])
    assert "FOOL" in held - may_go and any(suit(c) in SUITS and rank_name(c) == "K" for c in held - may_go)  # this deal holds both
    screen = UI.private(view, seat, PLAIN)
    assert screen is not None and screen.image is not None
    pictures.FONT_SIZES.clear()
    png = screen.image()
    check(png, set(pictures.FONT_SIZES))  # legible at 500 px
    title = f"{PLAIN.name_of(seat)}'s hand"
    assert png == render.draw_hand(list(view["hand"]), may_go, title, discard=True)
    assert png != render.draw_hand(list(view["hand"]), None, title)  # not the plain, all-bright hand


def test_a_finished_games_table_shows_the_last_trick_and_says_it_is_over() -> None:
    final = random_playout(ENGINE, 4, 5).final
    view = ENGINE.view(final, None)
    assert view["over"]
    screen = UI.table(view, PLAIN)
    assert screen.image is not None
    plays, _leader, _winner, caption, idle = screen.image.args  # render.draw_trick's
    assert caption == "Game over · last trick" and idle == "Game over" and plays
    assert screen.image() != render.draw_trick([], title="Game over")


def test_the_hand_as_text_is_a_line_per_row_in_hand_order() -> None:
    from cogs.tarot.ui import hand_text
    from games.tarot.cards import hand_key, sort_hand

    text = hand_text(["SW-K", "T21", "CU-10", "FOOL", "T01", "SW-A", "BA-Q", "CO-V"])
    assert text.splitlines() == ["👑 **Trumps**: Fool 1 21", "🍷 **Cups**: 10", "🪙 **Coins**: V",
                                 "⚔️ **Swords**: A K", "🪄 **Batons**: Q"]
    assert sort_hand(["BA-A", "T02", "CU-K", "FOOL", "CU-A"]) == ["FOOL", "T02", "CU-A", "CU-K", "BA-A"]
    assert hand_key("T05") == (1, 5) and hand_key("SW-K") == (4, 14)
