"""Conference / League pictures: every card draws and has words, hands sort as the spec says,
and the hand and trick pictures pass the legibility checks every game's pictures pass
(`tests/test_pictures_legible.check`: decodes, at most 1000 px wide, smallest text at least
11 px tall when shown 500 px wide)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from cogs.table.pictures import font
from cogs.tarot import render
from cogs.tarot.card_names import DECK, HAND_ORDER, RANKS, SUIT_ORDER, card_label, card_short, sort_key
from cogs.tarot.render import FONT_SIZES, draw_hand, draw_trick
from tests.test_pictures_legible import check

#: Well under Discord's limits and the other games' pictures.
MAX_BYTES = 60_000


def drawn(png_of, *args, **kwargs) -> tuple[bytes, tuple[int, int]]:
    FONT_SIZES.clear()
    png = png_of(*args, **kwargs)
    size = check(png, set(FONT_SIZES))
    assert len(png) < MAX_BYTES, f"{len(png)} bytes"
    return png, size


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def hands() -> list[list[str]]:
    rng = random.Random(7)
    out = [rng.sample(DECK, 21) for _ in range(12)]
    out.append(["FOOL", *(f"T{n:02d}" for n in range(1, 21))])  # 21 trumps: one long row, wrapped
    out.append([f"CU-{rank}" for rank in RANKS] + ["FOOL", "T01", "T21", "SW-10", "BA-K", "CO-V", "T12"])
    out.append(["SW-10"])
    out.append([])
    return out


# -- the cards as data ---------------------------------------------------------------------------------
def test_the_deck_is_78_distinct_ids() -> None:
    assert len(DECK) == len(set(DECK)) == 78
    assert SUIT_ORDER == ("CU", "CO", "SW", "BA")
    assert {"CU-K", "SW-10", "BA-A", "T01", "T21", "FOOL", "CO-V", "CO-C"} <= set(DECK)


def test_sort_key_orders_a_shuffled_hand() -> None:
    rng = random.Random(3)
    for _ in range(20):
        cards = list(DECK)
        rng.shuffle(cards)
        assert sorted(cards, key=sort_key) == list(DECK)  # the spec's canonical order
    hand = ["BA-A", "CU-K", "T21", "SW-10", "FOOL", "CO-2", "CU-A", "T01", "SW-V", "CU-10", "CO-K"]
    assert sorted(hand, key=sort_key) == ["FOOL", "T01", "T21", "CU-A", "CU-10", "CU-K", "CO-2", "CO-K",
                                          "SW-10", "SW-V", "BA-A"]
    assert sorted(["CU-K", "CU-Q", "CU-C", "CU-V", "CU-10", "CU-2", "CU-A"], key=sort_key) == [
        "CU-A", "CU-2", "CU-10", "CU-V", "CU-C", "CU-Q", "CU-K"]


def test_labels() -> None:
    assert card_label("CU-K") == "King of Cups"
    assert card_label("SW-7") == "7 of Swords"
    assert card_label("CO-C") == "Cavalier of Coins"
    assert card_label("BA-V") == "Valet of Batons"
    assert card_label("BA-A") == "Ace of Batons"
    assert card_label("T21") == "Trump 21 (The World)"
    assert card_label("T01") == "Trump 1 (The Juggler)"
    assert card_label("T07") == "Trump 7"
    assert card_label("FOOL") == "The Fool"
    assert card_short("CU-K") == "K Cups"
    assert card_short("SW-10") == "10 Swords"
    assert card_short("T21") == "Trump 21"
    assert card_short("FOOL") == "Fool"
    assert len({card_label(c) for c in DECK}) == len({card_short(c) for c in DECK}) == 78


def test_a_hand_is_sorted_by_its_order_looked_up() -> None:
    """`HAND_ORDER` (a hand is sorted by a lookup) keeps `sort_key`'s order; a hand given in any
    order is the same picture."""
    assert sorted(DECK, key=HAND_ORDER.__getitem__) == sorted(DECK, key=sort_key)
    cards = random.Random(5).sample(DECK, 18)
    assert draw_hand(cards, set(cards[:4]), "Bo's hand") == draw_hand(sorted(cards, key=sort_key), set(cards[:4]),
                                                                      "Bo's hand")


@pytest.mark.parametrize("bad", ["", "CU-1", "T00", "T22", "T1", "XX-K", "cu-k", "Fool"])
def test_unknown_ids_are_refused(bad: str) -> None:
    for call in (card_label, card_short, sort_key):
        with pytest.raises(ValueError):
            call(bad)
    with pytest.raises(ValueError):
        draw_hand([bad])
    with pytest.raises(ValueError):
        draw_trick([("Alice", bad, False)])


def test_every_card_draws_in_a_hand_and_a_trick() -> None:
    for card in DECK:
        drawn(draw_hand, [card])
        drawn(draw_hand, [card], {card})
        drawn(draw_hand, [card, "T05"], {"T05"})  # dimmed
        drawn(draw_trick, [("Alice", card, False)], winner="Alice")
        drawn(draw_trick, [("Alice", card, True)])


# -- the hand -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("marked", [False, True])
def test_hand_pictures_are_legible(marked: bool) -> None:
    for cards in hands():
        legal = set(cards[::3]) if marked else None
        _, (width, height) = drawn(draw_hand, cards, legal, "Alice the Magnificent of the Long Name 🎉")
        assert width == render.WIDTH
        assert height <= 2 * width


def test_every_corner_shows() -> None:
    """Overlapping cards leave each card's corner (rank over symbol) uncovered."""
    for cards in hands():
        for kind in render.GROUP_ORDER:
            mine = sorted((c for c in cards if render.group(c) == kind), key=sort_key)
            for line in render.lines_of(mine):
                steps = render.steps(line)
                assert sum(steps) + render.CARD_W <= render.AREA
                for before, step in zip(line, steps[1:], strict=False):
                    assert step >= render.corner_width(before), (before, step)


def test_legal_marking_changes_the_picture() -> None:
    cards = random.Random(5).sample(DECK, 21)
    plain = pixels(draw_hand(cards))
    marked = pixels(draw_hand(cards, set(cards[:4])))
    other = pixels(draw_hand(cards, set(cards[4:8])))
    assert marked.size != plain.size or ImageChops.difference(marked, plain).getbbox()
    assert ImageChops.difference(marked, other).getbbox() is not None
    # cards not in the hand are ignored; an empty legal set dims every card
    assert draw_hand(cards, set(cards[:4]) | {c for c in DECK if c not in cards}) == draw_hand(cards, set(cards[:4]))
    assert draw_hand(cards, set()) != draw_hand(cards, set(cards))


def test_hand_order_does_not_matter() -> None:
    cards = random.Random(9).sample(DECK, 18)
    assert draw_hand(cards) == draw_hand(sorted(cards)) == draw_hand(list(reversed(cards)))


def test_suits_have_distinct_symbols() -> None:
    """Not colour alone: each row's symbol has its own shape (compared as black and white)."""
    shapes = []
    for kind in render.GROUP_ORDER:
        image = render.label(kind).convert("RGB").convert("L").point(lambda v: 255 if v > 90 else 0)
        shapes.append(image.tobytes())
    assert len(set(shapes)) == len(shapes)


# -- the trick ----------------------------------------------------------------------------------------
LONG = ["Bartholomew the Long-Named 🎉", "Maximiliana Overbeck", "Cy", "Dee Dee Ramone-Smithson"]


def test_trick_pictures_are_legible_and_keep_one_size() -> None:
    rng = random.Random(11)
    sizes = set()
    for count in range(5):
        for _ in range(4):
            cards = rng.sample(DECK, count)
            plays = [(LONG[n], card, card[:2] == "SW") for n, card in enumerate(cards)]
            winner = LONG[rng.randrange(count)] if count else None
            sizes.add(drawn(draw_trick, plays, LONG[0], winner, "Trick 7 of 19")[1])
            sizes.add(drawn(draw_trick, plays)[1])
    assert len(sizes) == 1, f"the trick picture changes size: {sizes}"
    assert sizes.pop()[0] == render.WIDTH


def test_trick_marks() -> None:
    plays = [("Alice", "SW-7", True), ("Bob", "CU-K", False), ("Cy", "T21", False), ("Dee", "FOOL", False)]
    bare = pixels(draw_trick([(n, c, False) for n, c, _ in plays]))
    as_led = pixels(draw_trick(plays))
    won = pixels(draw_trick(plays, winner="Cy"))
    assert ImageChops.difference(bare, as_led).getbbox() is not None
    assert ImageChops.difference(as_led, won).getbbox() is not None
    # a winner who played no card marks nothing
    assert draw_trick(plays, winner="Nobody") == draw_trick(plays)
    empty = draw_trick([], "Alice", title="Trick 1")
    assert empty != draw_trick([], title="Trick 1")
    with pytest.raises(ValueError):
        draw_trick([*plays, ("Eve", "CO-2", False)])


def test_long_names_are_cut_to_the_slot() -> None:
    room = render.TRICK_SLOT - 8
    for name in [*LONG, "x" * 40, "A" * 18, "Ōsaka Ünïcode Ñame"]:
        shown = render.name_lines(render.drawable(name), room)
        assert 1 <= len(shown) <= 2
        assert all(font(render.MIN_FONT).getlength(line) <= room for line in shown)
