"""Cheap pictures for every game: a fixed palette, cached text, one PNG encoder (the palette
and the encoder live in palette_png.py; every game takes them from here).

Game pictures are flat-colour art (boards, tiles, tokens) with antialiased text. Encoding
them as RGB PNGs costs most of a picture's time (the encoder filters every row of three
bytes a pixel); the same picture as a palette (P) PNG encodes several times faster at half
the bytes. A game lists its colours once in a `Palette` (with the text-over-background
pairs whose antialiased edges need in-between shades) and hands its image to `png`, which
maps an RGB image onto that palette (a lookup per pixel, no colour search) and writes it
with fast compression.

Two ways to draw:

* in RGB, as Pillow usually does, then `png(image, palette)` (small pictures: tiles);
* straight on a palette image (`Palette.canvas`), which skips the RGB copy and the mapping:
  Pillow's shapes are not antialiased, so they come out the same with palette colours, and
  `text` pastes the string as a sprite already mapped onto the palette, drawn once over the
  colour it sits on (`ground`).

`text` draws a string from a cached glyph mask (or sprite): the same labels, numbers and
names are drawn again and again, and FreeType's rendering is the other big cost of a picture.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

# the palette and the encoder, as every game imports them from here
from cogs.table.palette_png import BAND_BYTES as BAND_BYTES
from cogs.table.palette_png import COMPRESS_LEVEL as COMPRESS_LEVEL
from cogs.table.palette_png import PNG_SIGNATURE as PNG_SIGNATURE
from cogs.table.palette_png import RGB as RGB
from cogs.table.palette_png import SHADES as SHADES
from cogs.table.palette_png import Palette as Palette
from cogs.table.palette_png import mix as mix
from cogs.table.palette_png import png as png
from cogs.table.palette_png import to_palette as to_palette

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
#: Wraps an image of Pillow's core as an Image (`_WRAP._new(core)`), as Pillow's own methods do.
_WRAP = Image.new("L", (1, 1))


# -- fonts and words ----------------------------------------------------------------------------------
FONT_FILES = ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
#: Unicode categories the font has no glyph for (emoji, modifiers, joiners, private use).
UNDRAWABLE = {"So", "Sk", "Cs", "Co", "Cn", "Cf", "Mn", "Me"}
#: Every font size asked for since it was last cleared (the legibility test clears and reads it).
FONT_SIZES: set[int] = set()


def font(size: int) -> Font:
    """DejaVu Sans Bold when the system has it, Pillow's own font otherwise (noted in `FONT_SIZES`)."""
    FONT_SIZES.add(size)
    return _font(size)


@cache
def _font(size: int) -> Font:
    for path in FONT_FILES:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def fit(words: str, size: int, room: float) -> str:
    """`words` cut (with …) to fit `room` pixels at `size` (measured once per words, size and
    room: FreeType lays the line out on every measure)."""
    FONT_SIZES.add(size)
    return _fit(words, size, room)


@lru_cache(maxsize=8192)
def _fit(words: str, size: int, room: float) -> str:
    if _length(words, size) <= room:
        return words
    face = _font(size)
    while words and face.getlength(words + "…") > room:
        words = words[:-1]
    return words.rstrip() + "…"


def length(words: str, size: int) -> float:
    """`font(size).getlength(words)`, measured once per words and size: a picture measures its
    scores, notes and names every time it is drawn, and each measure lays the line out."""
    FONT_SIZES.add(size)
    return _length(words, size)


@lru_cache(maxsize=8192)
def _length(words: str, size: int) -> float:
    return _font(size).getlength(words)


@lru_cache(maxsize=4096)
def drawable(name: str) -> str:
    """A name without the emoji and symbols the font has no glyph for (they print as boxes)."""
    kept = "".join(ch for ch in unicodedata.normalize("NFC", name) if unicodedata.category(ch) not in UNDRAWABLE)
    return " ".join(kept.split())


# -- text from cached glyph masks --------------------------------------------------------------------
@lru_cache(maxsize=8192)
def _mask(text: str, font: Font, anchor: str | None, align: str, spacing: int,
          start: float = 0.0) -> tuple[Image.Image, int, int]:
    """The coverage mask of `text` (mode L) and where its top left sits from the anchor point.

    A line is FreeType's own mask, laid out once (what `draw.text` pastes, at the offset
    `textbbox` gives: the same pixels as measuring then drawing, which lays it out twice);
    `start` is where its pen starts within a pixel (a part of a line, `line`)."""
    multiline = "\n" in text
    if not multiline and isinstance(font, ImageFont.FreeTypeFont):
        core, (left, top) = font.getmask2(text, "L", anchor=anchor, start=(start, 0))
        if core.size[0] and core.size[1]:
            return _WRAP._new(core), left, top
        if start:
            return Image.new("L", (1, 1), 0), 0, 0  # nothing inked
    scratch = ImageDraw.Draw(Image.new("L", (1, 1)))
    if multiline:
        box = scratch.multiline_textbbox((0, 0), text, font=font, anchor=anchor, align=align, spacing=spacing)
    else:
        box = scratch.textbbox((0, 0), text, font=font, anchor=anchor)
    left, top, right, bottom = (int(v) for v in box)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    draw = ImageDraw.Draw(mask)
    if multiline:
        draw.multiline_text((-left, -top), text, fill=255, font=font, anchor=anchor, align=align, spacing=spacing)
    else:
        draw.text((-left, -top), text, fill=255, font=font, anchor=anchor)
    return mask, left, top


@lru_cache(maxsize=256)
def _shades(fill: RGB, ground: RGB, palette: Palette) -> list[int]:
    """For each coverage 0-255 of a glyph pixel, the palette entry nearest to `fill` over
    `ground` at that coverage (what mapping the RGB pixel would give, without an RGB image);
    with `palette.mapped_text`, the entry Pillow's own blend and mapping give it."""
    if palette.mapped_text:
        strip = Image.new("RGB", (256, 1), ground)
        ImageDraw.Draw(strip).bitmap((0, 0), Image.frombytes("L", (256, 1), bytes(range(256))), fill=fill)
        return list(to_palette(strip, palette).tobytes())
    colours = palette.colours
    nearest: dict[RGB, int] = {}  # neighbouring coverages often blend to the same colour
    out = []
    for coverage in range(256):
        want = mix(ground, fill, coverage / 255)
        if want not in nearest:
            r, g, b = want
            distances = [(cr - r) * (cr - r) + (cg - g) * (cg - g) + (cb - b) * (cb - b) for cr, cg, cb in colours]
            nearest[want] = distances.index(min(distances))  # the first of equals, as min(range, key=) gives
        out.append(nearest[want])
    return out


INKED = [0] + [255] * 255


@lru_cache(maxsize=8192)
def _sprite(text: str, font: Font, anchor: str | None, align: str, spacing: int, fill: RGB, ground: RGB,
            palette: Palette, start: float = 0.0) -> tuple[Image.Image, Image.Image, int, int]:
    """`text` in `fill` over `ground` as palette entries, with the mask of its inked pixels."""
    mask, left, top = _mask(text, font, anchor, align, spacing, start)
    # straight to the core's `point` (Pillow's own rounds the 256 entries in Python first), which
    # writes the palette entries as a P image itself
    coverage = mask.im
    return _WRAP._new(coverage.point(_shades(fill, ground, palette), "P")), _WRAP._new(coverage.point(INKED, "1")), \
        left, top


def text_sprite(words: str, fill: RGB, font: Font, anchor: str | None, *, ground: RGB,
                palette: Palette) -> tuple[Image.Image, Image.Image, int, int]:
    """What `text` pastes for `words` on a palette picture: its sprite, the mask of its inked
    pixels and where its top left sits from the anchor point (rounded), kept with `text`'s own:
    for a caller that pastes it with Pillow's core itself (its own cache of the cores)."""
    return _sprite(words, font, anchor, "left", 4, fill, ground, palette)


def text(target: Image.Image | ImageDraw.ImageDraw, xy: Sequence[float], words: str, fill: RGB, font: Font,
         anchor: str | None = None, *, ground: RGB | None = None, palette: Palette | None = None,
         align: str = "left", spacing: int = 4) -> None:
    """`draw.text` / `draw.multiline_text` with the glyphs rendered once per (text, font,
    anchor) and reused: the same pixels, without FreeType on every picture. Coordinates are
    rounded to whole pixels.

    `target` is an ImageDraw (or an RGB image) to draw on, or a palette image from
    `Palette.canvas`; on a palette image the text is pasted as a sprite drawn over `ground`
    (the colour under it, which must be uniform) and mapped onto `palette`."""
    if not words:
        return
    x, y = round(xy[0]), round(xy[1])
    if isinstance(target, Image.Image) and target.mode == "P":
        if ground is None or palette is None:
            raise ValueError("text on a palette image needs the ground colour under it and the palette")
        sprite, inked, left, top = _sprite(words, font, anchor, align, spacing, fill, ground, palette)
        stamp(target, sprite, inked, x + left, y + top)
        return
    draw = target if isinstance(target, ImageDraw.ImageDraw) else ImageDraw.Draw(target)
    mask, left, top = _mask(words, font, anchor, align, spacing)
    draw.bitmap((x + left, y + top), mask, fill=fill)


def line(target: Image.Image, xy: Sequence[float], parts: Sequence[str], fill: RGB, font: Font, anchor: str,
         *, ground: RGB, palette: Palette, room: float | None = None) -> bool:
    """`text` of `"".join(parts)` on a palette image, part by part, each part's sprite kept (at
    the fraction of a pixel where the line puts it): a line that differs from the last only in
    a part (a name, a number) renders only that part. The same pixels as the whole line when
    parts meet at a space (nothing is kerned or shaped across a space in the fonts used here);
    a left or right anchor (a right-aligned line starts its width, rounded to a whole pixel as
    FreeType's anchor is, left of the anchor point: tested pixel for pixel).

    With `room`, a line longer than `room` px (`parts_length`) is not drawn: False."""
    if anchor[0] not in "lr" or not isinstance(font, ImageFont.FreeTypeFont):
        whole = "".join(parts)
        if room is not None and font.getlength(whole) > room:
            return False
        text(target, xy, whole, fill, font, anchor, ground=ground, palette=palette)
        return True
    pens, width = _layout(tuple(parts), font)
    if room is not None and width > room:
        return False
    x, y = round(xy[0]), round(xy[1])
    if anchor[0] == "r":
        x -= math.floor(width + 0.5)
        anchor = "l" + anchor[1:]
    for part, pen in zip(parts, pens, strict=True):
        if part.strip():
            sprite, inked, left, top = _sprite(part, font, anchor, "left", 4, fill, ground, palette, pen % 1)
            stamp(target, sprite, inked, x + math.floor(pen) + left, y + top)
    return True


def parts_length(parts: Sequence[str], size: int) -> float:
    """`length("".join(parts), size)` from each part's own length where the parts meet at a
    space (`apart`): a line with a new number or name in it is not laid out whole again."""
    FONT_SIZES.add(size)
    face = _font(size)
    if not isinstance(face, ImageFont.FreeTypeFont):
        return _length("".join(parts), size)
    parts = [part for part in parts if part]
    return _pens([*parts, " "], face)[-1] if parts else 0.0  # where a space after the line would start


#: The characters of a number: DejaVu Sans kerns none of their pairs (tested at every size used),
#: so a number is laid out as its characters' lengths added up, and drawn as its characters.
NUMERIC = frozenset("0123456789−-+")


def apart(before: str, after: str) -> bool:
    """Whether `after` is laid out the same after `before` as on its own (its pen moved on by
    `before`'s length): they meet at a space, across which DejaVu Sans kerns nothing (tested
    over every pair of Latin, Greek and Cyrillic letters, digits and signs), and `after` does
    not start with a combining mark (which FreeType shapes onto a dotted circle after a space);
    or they meet between two characters of a number (`NUMERIC`)."""
    return (after.startswith(" ") or (before.endswith(" ") and not unicodedata.category(after[0]).startswith("M"))
            or (before[-1] in NUMERIC and after[0] in NUMERIC))


def number(target: Image.Image, xy: Sequence[float], words: str, fill: RGB, font: Font, anchor: str, *,
           ground: RGB, palette: Palette) -> None:
    """`text` of a number (a score, a count): made of its characters' sprites, kept whole, so a
    number never drawn before costs no FreeType layout (its characters are kept already), and
    one drawn before a single paste. The whole line's pixels (tested over -150 to 399)."""
    if not words or not set(words) <= NUMERIC or anchor[0] not in "lr" or \
            not isinstance(font, ImageFont.FreeTypeFont):
        text(target, xy, words, fill, font, anchor, ground=ground, palette=palette)
        return
    sprite, inked, left, top, width = _number(words, font, anchor[1:], fill, ground, palette)
    x = round(xy[0]) - (math.floor(width + 0.5) if anchor[0] == "r" else 0)
    stamp(target, sprite, inked, x + left, round(xy[1]) + top)


@lru_cache(maxsize=2048)
def _number(words: str, font: ImageFont.FreeTypeFont, vertical: str, fill: RGB, ground: RGB,
            palette: Palette) -> tuple[Image.Image, Image.Image, int, int, float]:
    """A number's sprite and mask, made of its characters' sprites stamped at their pens, where
    its top left sits from where it starts, and its width."""
    placed = []
    pen = 0.0
    for ch in words:
        sprite, inked, left, top = _sprite(ch, font, "l" + vertical, "left", 4, fill, ground, palette, pen % 1)
        placed.append((sprite, inked, math.floor(pen) + left, top))
        pen += _advance(ch, font)
    x0, y0 = min(p[2] for p in placed), min(p[3] for p in placed)
    size = (max(p[2] + p[0].width for p in placed) - x0, max(p[3] + p[0].height for p in placed) - y0)
    whole, mask = Image.new("P", size, 0), Image.new("1", size, 0)
    for sprite, inked, left, top in placed:
        stamp(whole, sprite, inked, left - x0, top - y0)
        mask.paste(inked, (left - x0, top - y0), inked)
    return whole, mask, x0, y0, pen


@lru_cache(maxsize=4096)
def _layout(parts: tuple[str, ...], font: ImageFont.FreeTypeFont) -> tuple[tuple[float, ...], float]:
    """Each part's pen and the line's width (where a space after it would start), kept: a
    banner, a note or a count recurs over many pictures."""
    *pens, width = _pens([*parts, " "], font)
    return tuple(pens), width


def _pens(parts: Sequence[str], font: ImageFont.FreeTypeFont) -> list[float]:
    """Where each part of a line starts: the last start plus the last part's cached length where
    the two are `apart` (and the last was apart from its own: its length is then its length
    alone), else the line up to there laid out whole (FreeType's layout, 1/64 px)."""
    pens: list[float] = []
    pen, last, alone = 0.0, "", True
    for n, part in enumerate(parts):
        if last and part:
            joined = apart(last, part)
            pen = pen + _advance(last, font) if joined and alone else _advance("".join(parts[:n]), font)
            alone = joined
        pens.append(pen)
        last = part or last
    return pens


def _advance(words: str, font: Font) -> float:
    """Where the pen stands after `words` (FreeType's layout, in 1/64 px): kept with `length`'s
    for the font of a size (`font`), so a name is laid out once for both."""
    size = getattr(font, "size", None)
    if isinstance(size, int) and _font(size) is font:
        return _length(words, size)
    return _other_advance(words, font)


@lru_cache(maxsize=1024)
def _other_advance(words: str, font: Font) -> float:
    return font.getlength(words)


def stamp(target: Image.Image, sprite: Image.Image, mask: Image.Image | None, x: int, y: int) -> None:
    """`target.paste(sprite, (x, y), mask)` for a sprite of the target's own mode, straight to
    Pillow's core (its checks cost more than the paste itself; a picture pastes dozens)."""
    if target.readonly or sprite.mode != target.mode:
        target.paste(sprite, (x, y), mask)
        return
    box = (x, y, x + sprite.width, y + sprite.height)
    if mask is None:
        target.im.paste(sprite.im, box)
    else:
        target.im.paste(sprite.im, box, mask.im)


Ink = Callable[[RGB], int]
#: A cached piece of a picture: its pixels on the palette, the mask of the pixels it draws, and
#: where its top left goes (`put`).
Piece = tuple[Image.Image, Image.Image, int, int]


def piece(box: tuple[int, int, int, int], paint: Callable[[Image.Image, ImageDraw.ImageDraw, Ink], None],
          palette: Palette) -> Piece:
    """What `paint` draws within `box` (inclusive) on a palette picture, drawn once where it goes
    (so every shape, line and text has the very pixels it has drawn there on the picture) and kept
    to paste through the mask of what it drew: a card frame, a badge, a token that every picture
    would otherwise draw again. `paint(image, draw, ink)` draws with `ink(colour)` (text with
    `text(image, ..., ground=, palette=)`); it is run twice, over two backgrounds, and the pixels
    it drew are those the same in both."""
    size = (box[2] + 1, box[3] + 1)
    drawn = []
    for background in (0, 1):
        canvas = Image.new("P", size, background)
        paint(canvas, ImageDraw.Draw(canvas), palette.index.__getitem__)
        drawn.append(Image.frombytes("L", size, canvas.tobytes()))
    crop = (box[0], box[1], size[0], size[1])
    untouched = ImageChops.difference(drawn[0], drawn[1]).crop(crop)
    mask = untouched.point([255] + [0] * 255, "1")
    pixels = drawn[0].crop(crop)
    return Image.frombytes("P", pixels.size, pixels.tobytes()), mask, box[0], box[1]


def put(target: Image.Image, cached: Piece) -> None:
    """A `piece` pasted where it goes."""
    sprite, mask, x, y = cached
    stamp(target, sprite, mask, x, y)


def dashed(draw: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float], fill: int | RGB,
           width: int, dash: float = 14, gap: float = 9) -> None:
    """A dashed straight line from `p` to `q` (Pillow draws only solid ones): engaged pairs,
    an off-road route, an empty flag home."""
    length = math.dist(p, q)
    if length == 0:
        return
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    at = 0.0
    while at < length:
        end = min(length, at + dash)
        draw.line((p[0] + ux * at, p[1] + uy * at, p[0] + ux * end, p[1] + uy * end), fill=fill, width=width)
        at = end + gap
