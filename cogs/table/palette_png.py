"""A game's fixed palette and the one PNG encoder every picture goes through.

Game pictures are flat-colour art with antialiased text: as palette (P) PNGs they encode
several times faster than as RGB at half the bytes. A game lists its colours once in a
`Palette`; `png` maps a picture onto it (or draws straight on it: `Palette.canvas`) and writes
the PNG itself, deflating with ISA-L where it is installed (cogs/table/pictures.py draws the
text on them).
"""

from __future__ import annotations

import importlib
import struct
import threading
import zlib
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from PIL import Image

RGB = tuple[int, int, int]


def _find_deflate() -> tuple[ModuleType, int]:
    """ISA-L's deflate (the `isal` wheel) at its level 2 of 0-3 (as fast as its 1 on these
    pictures, and smaller), or the standard zlib at level 1 (about as small as 3 on flat art,
    and faster) where isal is missing."""
    try:
        return importlib.import_module("isal.isal_zlib"), 2
    except ImportError:  # pragma: no cover - isal ships wheels for the usual platforms
        return zlib, 1


_deflate, COMPRESS_LEVEL = _find_deflate()
#: Shades between a text colour and the background it is drawn on (antialiased edges).
SHADES = 7


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


class Palette:
    """A game's fixed palette: its flat colours exactly, plus `SHADES` steps between each
    (ink, background) pair of `blends`, for the antialiased edges of text drawn with that
    ink on that background. At most 256 entries.

    `mapped_text`: text pasted on a canvas takes, at each antialiased edge pixel, the entry
    Pillow's mapping gives the RGB blend (as if drawn in RGB and mapped: the same pixels as a
    picture that was), rather than the nearest entry."""

    def __init__(self, colours: Iterable[RGB], blends: Iterable[tuple[RGB, RGB]] = (),
                 shades: int = SHADES, *, mapped_text: bool = False) -> None:
        self.mapped_text = mapped_text
        entries: dict[RGB, None] = dict.fromkeys((r, g, b) for r, g, b in colours)
        for ink, ground in blends:
            entries.update(dict.fromkeys((ink, ground)))
            for step in range(1, shades + 1):
                entries.setdefault(mix(ground, ink, step / (shades + 1)), None)
        self.colours: list[RGB] = list(entries)
        #: Each colour's palette entry, for drawing on a canvas with `fill=palette.index[colour]`
        #: (Pillow would otherwise rebuild its colour lookup for every new picture).
        self.index: dict[RGB, int] = {colour: i for i, colour in enumerate(self.colours)}
        if not 1 <= len(self.colours) <= 256:
            raise ValueError(f"a palette holds 1-256 colours, not {len(self.colours)}")
        flat = [v for colour in self.colours for v in colour]
        # unused entries repeat the first colour, so no stray colour (black) can be matched
        flat += list(self.colours[0]) * (256 - len(self.colours))
        self.image = Image.new("P", (1, 1))
        self.image.putpalette(flat)

    def __len__(self) -> int:
        return len(self.colours)

    def canvas(self, background: Image.Image) -> Image.Image:
        """A palette copy of `background` to draw on (an RGB background is mapped once per
        call: keep a palette one around for pictures drawn often)."""
        return to_palette(background, self).copy() if background.mode != "P" else background.copy()


def to_palette(image: Image.Image, palette: Palette | None) -> Image.Image:
    """`image` in P mode: mapped onto `palette` (nearest colour, no dithering), or, without
    one, onto an adaptive palette of at most 64 colours (fast octree; slower than a fixed one)."""
    if image.mode == "P":
        return image
    if image.mode != "RGB":
        image = image.convert("RGB")
    if palette is None:
        return image.quantize(64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return image.quantize(palette=palette.image, dither=Image.Dither.NONE)


def png(image: Image.Image, palette: Palette | None = None, *, level: int | None = None) -> bytes:
    """The picture as a palette PNG: the one encoder every game's pictures go through.

    Written here rather than by Pillow's PNG plugin, to deflate with ISA-L (`isal`) where it
    is installed: deflating the rows is nearly all of an encoding, and ISA-L does it 3-4 times
    faster than zlib at level 1, into smaller files (a 1000 x 1136 Kniggits battlefield: 0.7
    against 2.7 ms, 30 against 37 KiB). Rows are not filtered: flat art gains nothing from it.

    The rows are deflated a band at a time (`BAND_BYTES`), never as one buffer of the whole
    picture: a fresh megabyte is fresh pages from the system on every picture (glibc maps such
    a block and unmaps it when freed), and their page faults cost more than the deflate (a
    1000 x 1326 Kniggits battlefield: 2.0 against 0.4 ms, the same pixels)."""
    image = to_palette(image, palette)
    image.load()
    width, height = image.size
    deflate = _deflate.compressobj(COMPRESS_LEVEL if level is None else level)
    per_band = max(1, BAND_BYTES // (width + 1))
    parts = []
    for top in range(0, height, per_band):
        rows = min(per_band, height - top)
        band = _band(width + 1, rows)
        # each row behind its filter type byte (0): the picture pasted one column in on a band
        # one column wider, moved up to this band's first row (Pillow clips what falls outside)
        band.paste(image.im, (1, -top, width + 1, height - top))
        parts.append(deflate.compress(_raw(band, width + 1, rows)))
    parts.append(deflate.flush())
    try:  # the core's palette as bytes (Image.getpalette makes a list of its 768 numbers)
        colours = image.im.getpalette(image.im.getpalettemode(), "RGB") or bytes(3)
    except ValueError:  # no palette
        colours = bytes(3)
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", colours[:768]), _chunk(b"IDAT", b"".join(parts)),
                     _chunk(b"IEND", b"")))


#: Bytes of rows deflated at a time: a Hallway or Words picture in one band (ISA-L's deflate
#: costs ~18 us more for the same rows in three calls), a Kniggits battlefield in five; each
#: thread's bands are kept (`_band`), so only the bytes read out of one are new memory (the same
#: page faults a picture as with 96,000-byte bands, measured).
BAND_BYTES = 256 * 1024
#: Each thread's bands by size, kept from picture to picture (column 0, the filter bytes, stays 0).
_BANDS = threading.local()


def _band(width: int, rows: int) -> Any:
    """A band of `rows` rows `width` bytes wide (Pillow's core image), this thread's own."""
    bands: dict[tuple[int, int], Any] = _BANDS.__dict__.setdefault("bands", {})
    band = bands.pop((width, rows), None)  # put back last: the least recently used go first
    if band is None:
        if len(bands) >= 12:  # a few picture sizes recur (a table's); the rest (hands) come and go
            del bands[next(iter(bands))]
        band = Image.core.fill("P", (width, rows), 0)
    bands[width, rows] = band
    return band


def _raw(band: Any, width: int, rows: int) -> bytes:
    """The band's bytes in one piece (`tobytes` cuts them into 64 KiB chunks and joins them)."""
    encoder = Image._getencoder("P", "raw", "P")
    encoder.setimage(band, (0, 0, width, rows))
    chunks = []
    while True:
        _, status, data = encoder.encode(width * rows + 64)
        chunks.append(data)
        if status:
            return b"".join(chunks) if len(chunks) > 1 else data


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
