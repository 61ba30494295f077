"""The shared picture helpers (cogs/table/pictures.py): the one PNG encoder writes the very
picture it was given, whichever deflate it finds, and `stamp` pastes as `Image.paste` does."""

from __future__ import annotations

import io
import zlib
from typing import Any

import pytest
from PIL import Image, ImageDraw

from cogs.hallway import render as hallway_render
from cogs.table import palette_png, pictures

PALETTE = hallway_render.PALETTE


def drawing() -> Image.Image:
    """A palette picture with shapes and antialiased text, of an odd width (rows are not padded)."""
    image = PALETTE.canvas(Image.new("RGB", (333, 121), hallway_render.BACKGROUND))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((10, 10, 200, 90), radius=9, fill=hallway_render.ink(hallway_render.CARD),
                           outline=hallway_render.ink(hallway_render.GOLD), width=3)
    pictures.text(image, (20, 50), "Alice 12 −3", hallway_render.INK, pictures.font(20), "lm",
                  ground=hallway_render.CARD, palette=PALETTE)
    return image


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.verify()
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P"
    return image


@pytest.mark.parametrize("deflate", ["found", "zlib"])
def test_png_is_the_picture_it_was_given(deflate: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if deflate == "zlib":
        monkeypatch.setattr(palette_png, "_deflate", zlib)
    image = drawing()
    out = decoded(pictures.png(image, PALETTE))
    assert out.size == image.size
    assert out.convert("RGB").tobytes() == image.convert("RGB").tobytes()


@pytest.mark.parametrize("deflate", ["found", "zlib"])
def test_png_deflates_a_tall_picture_a_band_at_a_time(deflate: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1000 x 1300 picture (a Kniggits battlefield's size) round-trips exactly, and no buffer
    of its rows bigger than a band is made: a whole picture's rows, a fresh megabyte each time,
    cost more in page faults than the deflate."""
    if deflate == "zlib":
        monkeypatch.setattr(palette_png, "_deflate", zlib)
    image = Image.new("P", (1000, 1300))
    image.putpalette(PALETTE.image.getpalette() or [])
    tile = drawing()
    for y in range(0, 1300, tile.height):
        image.paste(tile, ((y // tile.height) * 37 % 667, y))
    sizes: list[int] = []
    real_raw = palette_png._raw

    def raw(*args: Any) -> bytes:
        out = real_raw(*args)
        sizes.append(len(out))
        return out

    monkeypatch.setattr(palette_png, "_raw", raw)
    png = pictures.png(image, PALETTE)
    monkeypatch.undo()
    assert decoded(png).convert("RGB").tobytes() == image.convert("RGB").tobytes()
    assert len(sizes) > 1 and max(sizes) <= pictures.BAND_BYTES


def test_png_maps_an_rgb_picture_onto_the_palette_or_an_adaptive_one() -> None:
    rgb = drawing().convert("RGB")
    for palette in (PALETTE, None):
        mapped = pictures.to_palette(rgb, palette).convert("RGB").tobytes()
        assert decoded(pictures.png(rgb, palette)).convert("RGB").tobytes() == mapped


def test_png_of_every_game_decodes_to_its_pixels() -> None:
    """A whole table picture, the largest kind (1000 px wide), round-trips exactly."""
    from cogs.kniggits import render as kniggits_render

    kept: list[Image.Image] = []
    real = pictures.png

    def keep(image: Image.Image, palette: pictures.Palette | None = None, **kwargs: object) -> bytes:
        kept.append(pictures.to_palette(image, palette).copy())
        return real(image, palette)

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(pictures, "png", keep)
    try:
        from games.kniggits.engine import KniggitsEngine
        from tests.playout import random_playout

        engine = KniggitsEngine()
        run = random_playout(engine, 2, 11, {"size": 24, "archers": True, "horses": True})
        view = max((engine.view(s, None) for s in run.states), key=lambda v: len(v.get("kniggits") or []))
        kniggits_render.clear_caches()
        png = kniggits_render.battlefield(view)
    finally:
        monkeypatch.undo()
    assert decoded(png).convert("RGB").tobytes() == kept[-1].convert("RGB").tobytes()


@pytest.mark.parametrize("at", [(5, 5), (-7, -4), (320, 110), (-40, 3), (400, 400)])
def test_stamp_pastes_as_pillow_does(at: tuple[int, int]) -> None:
    sprite = Image.new("P", (24, 14), 3)
    ImageDraw.Draw(sprite).ellipse((2, 2, 20, 12), fill=5)
    mask = Image.new("1", (24, 14), 1)
    ImageDraw.Draw(mask).rectangle((0, 0, 6, 6), fill=0)
    for shape in (mask, None):
        pasted, stamped = drawing(), drawing()
        pasted.paste(sprite, at, shape)
        pictures.stamp(stamped, sprite, shape, *at)
        assert stamped.tobytes() == pasted.tobytes()


def test_text_shades_are_the_nearest_palette_colours() -> None:
    """Each coverage of a glyph pixel takes the palette entry nearest its blend (the first of
    equals), as mapping the RGB pixel would."""
    colours = PALETTE.colours
    for fill, ground in ((hallway_render.INK, hallway_render.CARD), (hallway_render.GOLD, hallway_render.BACKGROUND),
                         (hallway_render.DIM, hallway_render.OFFER), (hallway_render.TOKEN[0], hallway_render.FLOOR)):
        def distance(i: int, want: pictures.RGB) -> int:
            return sum((a - b) ** 2 for a, b in zip(colours[i], want, strict=True))

        wants = [pictures.mix(ground, fill, c / 255) for c in range(256)]
        assert pictures._shades(fill, ground, PALETTE) == [
            min(range(len(colours)), key=lambda i, w=w: distance(i, w)) for w in wants]  # type: ignore[misc]


def test_png_keeps_its_bands_across_picture_sizes() -> None:
    """Each thread's bands are kept by size, the least recently used dropped past a dozen: any
    run of sizes (a table's picture between hands of every width) still decodes to its pixels."""
    tile = drawing()
    for width in [*range(100, 400, 17), 333, *range(120, 420, 23), 333]:
        image = Image.new("P", (width, 90 + width % 50))
        image.putpalette(PALETTE.image.getpalette() or [])
        image.paste(tile.crop((0, 0, min(width, tile.width), min(image.height, tile.height))), (width % 7, 3))
        assert decoded(pictures.png(image, PALETTE)).convert("RGB").tobytes() == image.convert("RGB").tobytes()
