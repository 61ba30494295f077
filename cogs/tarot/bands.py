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
background is the palette's entry 0, so a zero-filled image that wide is already blank rows with
their filter bytes, and sprites are pasted straight into it (`rows`).
"""

from __future__ import annotations

import importlib
import struct
import zlib
from collections.abc import Iterable, Sequence
from functools import cache
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

#: Bytes of rows read and deflated at a time: small enough to stay in the processor's cache
#: between the read, the sum and the deflate.
PIECE_BYTES = 24_000
ADLER_BASE = 65521


class Band(NamedTuple):
    """A band of a picture as PNG rows, deflated alone."""

    deflated: bytes  # raw deflate, sync-flushed: no final block, ends on a byte
    adler: int  # Adler-32 of the rows
    size: int  # bytes of rows: height * (width + 1)
    height: int
    width: int


def rows(width: int, height: int, *, blank: bool = True) -> Image.Image:
    """A band to paste into: `width + 1` palette entries a row, all 0 (the background, and the
    filter byte in column 0), or, not `blank`, whatever the memory held (every byte of it to be
    pasted over). Paste at x + 1."""
    return Image.new("P", (width + 1, height), 0 if blank else None)


def band(image: Image.Image) -> Band:
    """A `rows` image as a band. Its rows are read a piece at a time, each piece summed and
    deflated while the processor still holds it (`tobytes` would copy the whole band twice first)."""
    width, height = image.width - 1, image.height
    deflate = _deflate.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15)
    encoder = Image._getencoder("P", "raw", "P")
    encoder.setimage(image.im, (0, 0, image.width, height))
    parts, adler, done = [], 1, 0
    try:
        while not done:
            _, done, piece = encoder.encode(max(PIECE_BYTES, image.width))
            adler = _deflate.adler32(piece, adler)
            parts.append(deflate.compress(piece))
    finally:
        encoder.cleanup()
    if done < 0:
        raise RuntimeError(f"encoder error {done}")
    parts.append(deflate.flush(zlib.Z_SYNC_FLUSH))
    return Band(b"".join(parts), adler, height * (width + 1), height, width)


def combine(adler: int, after: int, size: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's and the second's length."""
    low = (adler & 0xFFFF) + (after & 0xFFFF) - 1
    high = (adler >> 16) + (after >> 16) + size * ((adler & 0xFFFF) - 1)
    return (high % ADLER_BASE) << 16 | low % ADLER_BASE


def png(bands: Sequence[Band], palette: Palette) -> bytes:
    """The PNG of `bands` stacked top to bottom (all of one width) in `palette`'s colours."""
    width = bands[0].width
    if any(b.width != width for b in bands):
        raise ValueError("bands of one picture have one width")
    adler = 1
    for b in bands:
        adler = combine(adler, b.adler, b.size)
    idat = b"".join(_stream(bands, adler))
    height = sum(b.height for b in bands)
    head = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", head), _palette(palette), _chunk(b"IDAT", idat), IEND))


def _stream(bands: Iterable[Band], adler: int) -> Iterable[bytes]:
    yield b"\x78\x01"  # zlib: deflate, 32 KiB window, no preset dictionary
    for b in bands:
        yield b.deflated
    yield b"\x03\x00"  # an empty final block (fixed codes)
    yield adler.to_bytes(4, "big")


@cache
def _palette(palette: Palette) -> bytes:
    """The PLTE chunk: the palette's 256 entries, as `pictures.png` writes them."""
    return _chunk(b"PLTE", bytes((palette.image.getpalette() or [0, 0, 0])[:768]))


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = _deflate.crc32(data, _deflate.crc32(kind))
    return b"".join((len(data).to_bytes(4, "big"), kind, data, crc.to_bytes(4, "big")))


IEND = _chunk(b"IEND", b"")
