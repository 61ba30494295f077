"""Conference / League pictures in bands (issue 21): a picture is stacked from bands each deflated
once and kept, so a press deflates only the bands it changed. The bands must show exactly what
the whole canvas showed (`whole_pictures.py`, the drawing as it was), make a PNG any decoder
reads with its checksums right, and be reused: a card played redraws one row of a hand and one
place of the trick."""

from __future__ import annotations

import io
import random
import struct
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from cogs.table.ui import Seat, TableInfo
from cogs.tarot import bands, render
from cogs.tarot.card_names import DECK, sort_key
from cogs.tarot.ui import TarotUI
from games.tarot import ENGINE
from tests.playout import random_playout
from tests.tarot import whole_pictures

UI = TarotUI()
NAMES = ("Alice the Bold 🎉", "Bob", "Bartholomew the Long-Named", "Ōsaka Ünïcode")
OPTIONS: tuple[dict[str, Any], ...] = ({}, {"mode": "league"}, {"allegiances": True, "gallowglass": True})


def rgb(picture: bytes | Image.Image) -> tuple[tuple[int, int], bytes]:
    image = Image.open(io.BytesIO(picture)) if isinstance(picture, bytes) else picture
    return image.size, image.convert("RGB").tobytes()


def chunks(png: bytes) -> Iterator[tuple[bytes, bytes]]:
    """Each chunk's kind and data, its CRC checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at = 8
    while at < len(png):
        (size,), kind = struct.unpack(">I", png[at:at + 4]), png[at + 4:at + 8]
        data = png[at + 8:at + 8 + size]
        assert struct.unpack(">I", png[at + 8 + size:at + 12 + size])[0] == zlib.crc32(kind + data), kind
        yield kind, data
        at += 12 + size


def assert_valid(png: bytes, image: Image.Image) -> None:
    """The IDAT inflates (zlib checks the Adler-32) to `image`'s rows, each behind filter byte 0."""
    parts = dict(chunks(png))
    width, height = struct.unpack(">II", parts[b"IHDR"][:8])
    assert (width, height) == image.size
    raw = zlib.decompress(parts[b"IDAT"])
    assert len(raw) == height * (width + 1)
    assert raw[::width + 1] == bytes(height)
    palette = image.convert("P") if image.mode != "P" else image
    decoded = Image.frombytes("P", (width, height), b"".join(raw[r * (width + 1) + 1:(r + 1) * (width + 1)]
                                                           for r in range(height)))
    decoded.putpalette(parts[b"PLTE"])
    assert decoded.convert("RGB").tobytes() == palette.convert("RGB").tobytes()


class Compared:
    """`render._hand` and `render._trick` drawn both ways, every picture compared."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        hand, trick = render._hand.__wrapped__, render._trick.__wrapped__  # past the whole-picture caches
        monkeypatch.setattr(render, "_hand", lambda *args: self.same(hand(*args), whole_pictures.whole_hand(*args)))
        monkeypatch.setattr(render, "_trick",
                            lambda *args: self.same(trick(*args), whole_pictures.whole_trick(*args)))

    def same(self, png: bytes, whole: Image.Image) -> bytes:
        assert rgb(png) == rgb(whole)
        if self.count % 50 == 0:
            assert_valid(png, whole)
        self.count += 1
        return png


def test_seeded_games_draw_the_pixels_of_the_whole_canvas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table and hand picture of seeded games (classic, league, allegiances with
    gallowglass), each game with names of its own, as the whole canvas drew them."""
    compared = Compared(monkeypatch)
    for seed in range(1, 4):
        info = TableInfo(seed, [Seat(s, 100 + s, f"{NAMES[s]} {seed}") for s in range(4)])
        for state in random_playout(ENGINE, 4, seed, dict(OPTIONS[seed % 3])).states[::2]:
            for seat in (None, 0, 1, 2, 3):
                view = ENGINE.view(state, seat)
                screen = UI.table(view, info) if seat is None else UI.private(view, seat, info)  # type: ignore[arg-type]
                if screen is not None and screen.image is not None:
                    screen.image()
    assert compared.count > 1000


def test_odd_hands_and_tricks_draw_the_pixels_of_the_whole_canvas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrapped rows, a lone card, no card, every card raised or dimmed, the discard; tricks of
    0-4 cards with long names, "as led" tags, a winner, a game over."""
    compared = Compared(monkeypatch)
    rng = random.Random(21)
    hands = [rng.sample(DECK, n) for n in (21, 19, 12, 5, 1)]
    hands += [["FOOL", *(f"T{n:02d}" for n in range(1, 21))], [], ["SW-10"]]
    for cards in hands:
        for legal in (None, set(), set(cards), set(cards[::3]), {"FOOL", *cards[:2]}):
            render.draw_hand(cards, legal, "A very long name that goes on and on, on and on's hand")
            render.draw_hand(cards, legal, "Bo's hand", discard=legal is not None)
    for count in range(5):
        for _ in range(6):
            cards = rng.sample(DECK, count)
            plays = [(rng.choice(NAMES), card, rng.random() < 0.4) for card in cards]
            winner = plays[rng.randrange(count)][0] if count else None
            render.draw_trick(plays, NAMES[0], winner, "Trick 7 of 19")
            render.draw_trick(plays, "", None, "Game over · last trick", "Game over")
    assert compared.count == len(hands) * 10 + 5 * 6 * 2


def test_the_adler32_of_rows_one_after_another() -> None:
    rng = random.Random(4)
    for _ in range(200):
        first, second = rng.randbytes(rng.randrange(0, 9000)), rng.randbytes(rng.randrange(0, 300_000))
        assert bands.combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(first + second)


def test_bands_of_any_height() -> None:
    """Bands of any height make one PNG with the pixels pasted into them (through the image laid
    over a band's bytes, by Pillow's paste and by its core's)."""
    image = Image.new("P", (500, 400), 0)
    image.putpalette([v for n in range(256) for v in (n, 255 - n, n // 2)])
    image.putdata([(x * y) % 7 for y in range(400) for x in range(500)])
    drawn = []
    for top, bottom in ((0, 30), (30, 31), (31, 400)):
        band = bands.rows(500, bottom - top)
        part = image.crop((0, top, 500, bottom))
        if top:
            band.image().paste(part, (1, 0))
        else:
            band.core.paste(part.im, (1, 0, 501, 30))
        drawn.append(bands.band(band))
    assert [b.size for b in drawn] == [30 * 501, 501, 369 * 501]
    palette = type("P", (), {"image": image})()
    assert_valid(bands.png(drawn, palette), image)


def deflated(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The heights of the bands deflated from now on."""
    heights: list[int] = []
    real = bands.band

    def band(drawn: bands.Rows) -> bands.Band:
        heights.append(drawn.core.size[1])
        return real(drawn)

    monkeypatch.setattr(bands, "band", band)
    return heights


def test_a_card_played_deflates_its_row_and_the_title_only(monkeypatch: pytest.MonkeyPatch) -> None:
    cards = sorted(random.Random(8).sample(DECK, 19), key=sort_key)
    title = f"Player {random.random()}'s hand"  # no band of this title kept yet
    render.draw_hand(cards, None, title)
    heights = deflated(monkeypatch)
    render.draw_hand(cards[:5] + cards[6:], None, title)  # a card gone from one row
    assert heights == [render.HEADER, render.pitch(False)]


def test_title_strips_of_tall_and_deep_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Title strips with accents over capitals, descenders, a caption alone (no one led yet), as
    the whole canvas drew them (their words are pasted by Pillow's core, `sprites.write`)."""
    compared = Compared(monkeypatch)
    for name in ("ǕÅÉ Ōsaka Ünïcode", "gjpqy_,;", "Ǻ"):
        render.draw_hand(["CU-3"], None, f"{name}'s hand")
        render.draw_hand(["CU-3"], {"CU-3"}, name)
        render.draw_trick([("Bo", "T07", True)], name, None, f"Trick {name}")  # "<name> led"
    render.draw_trick([], "", None, "ǕÅÉ gjpqy")
    assert compared.count == 10


def test_a_card_added_to_the_trick_redraws_only_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"Player {random.random()}"
    plays = [(name, "CU-3", False), ("Ben", "T07", False), ("Cy", "CU-K", False)]
    render.draw_trick(plays[:2], name, title="Trick 4")
    heights = deflated(monkeypatch)
    render.draw_trick(plays, name, title="Trick 4")
    assert heights == [render.NAME_TOP - render.HEADER, render.TRICK_H - render.NAME_TOP]  # the table, names
