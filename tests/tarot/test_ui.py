"""The Tarot screens from real views: pictures legible at Discord's size, names instead of
seats, exactly the legal cards offered, and no hand on the table."""

from __future__ import annotations

import re
from typing import Any

from cogs.table import pictures
from cogs.table.ui import Screen, Select, TableInfo
from cogs.table.ui import Seat as SeatInfo
from cogs.tarot.render import card_label
from cogs.tarot.ui import TarotUI
from games.tarot import ENGINE
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
