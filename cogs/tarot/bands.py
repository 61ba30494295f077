"""A picture as horizontal bands, each deflated once and kept: a new Conference / League picture
deflates only the bands that changed (issue 21).

A hand is a title strip and one strip per row of cards; a press changes one or two of them (a
card leaves a row, the count in the title). The trick is a title strip, the cards and the names.
Each band's rows (each behind its PNG filter byte, 0) are deflated on their own, with no
reference into another band, and end on a byte boundary (a sync flush); a PNG's IDAT is then
the zlib header, the bands' deflated rows one after the other, an empty final block and the
Adler-32 of all the rows, combined from the bands' own. The pixels are those of the same bands
drawn on one canvas (a test decodes both).

Every band's rows are `WIDTH + 1` bytes (the filter byte, then the palette entries): the
background is the palette's entry 0, so zeroed memory is already blank rows with their filter
bytes. A band is drawn in a `bytearray` that a Pillow image is laid over (`rows`): sprites are
pasted straight into the bytes that are then summed and deflated, with no image made, read out
or copied. In the bot a picture finds little of this in the processor's caches (the rest of a
press ran in between), so what a band costs is mostly the code and memory it touches.
"""

from __future__ import annotations

import importlib
import struct
import zlib
from collections.abc import Sequence
from functools import cache, lru_cache
from types import ModuleType
from typing import NamedTuple

from PIL import Image

from cogs.table.pictures import COMPRESS_LEVEL, PNG_SIGNATURE, Palette


def _find_deflate() -> ModuleType:
    """ISA-L's deflate where it is installed (the shared encoder's, at its `COMPRESS_LEVEL`), else zlib."""
    try:
        return importlib.import_module("isal.isal_zlib")
    except ImportError:  # pragma: no cover - isal ships wheels for the usual platforms
        return zlib


_deflate = _find_deflate()
_map = Image.core.map_buffer

ADLER_BASE = 65521


class Band(NamedTuple):
    """A band of a picture as PNG rows, deflated alone."""

    deflated: bytes  # raw deflate, sync-flushed: no final block, ends on a byte
    adler: int  # Adler-32 of the rows
    size: int  # bytes of rows: height * (width + 1)
    height: int
    width: int


class Rows(NamedTuple):
    """A band being drawn: its rows in `data`, `width + 1` bytes each (the filter byte 0, then
    palette entries), all 0 at first (the background), and `core`, a Pillow image core over the
    same bytes to paste into at x + 1 (`core.paste`, or `sprites.write` for text)."""

    data: bytearray
    core: Image.core.ImagingCore

    def image(self) -> Image.Image:
        """A palette picture over the band's bytes, for Pillow's drawing (what `Image._new` makes
        of a core, without a palette object for it)."""
        image = Image.Image()
        image.im, image._mode, image._size = self.core, "P", self.core.size
        return image


def rows(width: int, height: int) -> Rows:
    """A blank band `width` pixels wide to draw in (at x + 1: column 0 is the filter byte)."""
    data = bytearray((width + 1) * height)
    return Rows(data, _map(data, (width + 1, height), "raw", 0, ("P", 0, 1)))


def band(drawn: Rows) -> Band:
    """A band's rows summed and deflated, read straight from their bytes."""
    data = drawn.data
    deflate = _deflate.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15)
    deflated = deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH)
    width, height = drawn.core.size
    return Band(deflated, _deflate.adler32(data), len(data), height, width - 1)


def combine(adler: int, after: int, size: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's and the second's length."""
    low = (adler & 0xFFFF) + (after & 0xFFFF) - 1
    high = (adler >> 16) + (after >> 16) + size * ((adler & 0xFFFF) - 1)
    return (high % ADLER_BASE) << 16 | low % ADLER_BASE


def png(bands: Sequence[Band], palette: Palette) -> bytes:
    """The PNG of `bands` stacked top to bottom (all of one width) in `palette`'s colours, joined
    once: the IDAT's CRC runs over the bands' bytes where they are kept."""
    width = bands[0].width
    adler, height, size, crc = 1, 0, 8, _IDAT_CRC
    for b in bands:
        if b.width != width:
            raise ValueError("bands of one picture have one width")
        adler = combine(adler, b.adler, b.size)
        height += b.height
        size += len(b.deflated)
        crc = _deflate.crc32(b.deflated, crc)
    tail = b"\x03\x00" + adler.to_bytes(4, "big")  # an empty final block (fixed codes), the Adler-32
    crc = _deflate.crc32(tail, crc)
    return b"".join((_head(width, height, palette), size.to_bytes(4, "big"), _IDAT,
                     *(b.deflated for b in bands), tail, crc.to_bytes(4, "big"), IEND))


#: The IDAT chunk's kind and the zlib stream's header (deflate, 32 KiB window, no preset dictionary).
_IDAT = b"IDAT\x78\x01"
_IDAT_CRC = zlib.crc32(_IDAT)


@lru_cache(maxsize=64)
def _head(width: int, height: int, palette: Palette) -> bytes:
    """The signature, IHDR and PLTE: the same for every picture of a size."""
    head = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return PNG_SIGNATURE + _chunk(b"IHDR", head) + _palette(palette)


@cache
def _palette(palette: Palette) -> bytes:
    """The PLTE chunk: the palette's 256 entries, as `pictures.png` writes them."""
    return _chunk(b"PLTE", bytes((palette.image.getpalette() or [0, 0, 0])[:768]))


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = _deflate.crc32(data, _deflate.crc32(kind))
    return b"".join((len(data).to_bytes(4, "big"), kind, data, crc.to_bytes(4, "big")))


IEND = _chunk(b"IEND", b"")
