"""The five chess pieces as cached sprites (the attacked one ringed in gold), pasted on the map."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from cogs.fencing.geography import GLYPH_FONT, SUPER
from cogs.fencing.labels import PIECE_R, RING
from cogs.fencing.look import BLACK_PIECE, GOLD, GOLD_DARK, LAND, PALETTE, WHITE_PIECE
from cogs.table import pictures
from cogs.table.pictures import font

# -- the pieces ---------------------------------------------------------------------------------------
PIECES = ("BK", "WR", "BN", "WN", "WB")
PIECE_NAMES = {"BK": "Black King", "WR": "White Rook", "BN": "Black Knight", "WN": "White Knight",
               "WB": "White Bishop"}
#: The filled chess silhouettes (drawn in the colour opposite the disc), and letters if the
#: font has no chess glyphs.
GLYPHS = {"K": "♚", "R": "♜", "N": "♞", "B": "♝"}


@cache
def has_chess_glyphs() -> bool:
    face = font(GLYPH_FONT)
    return bool(face.getmask("♚").getbbox() != face.getmask("\uffff").getbbox())


def glyph(piece: str) -> str:
    return GLYPHS[piece[1]] if has_chess_glyphs() else piece[1]


@cache
def piece_sprite(piece: str, attacked: bool) -> tuple[Image.Image, Image.Image]:
    """A piece as a disc of its colour with its glyph in the other colour (the attacked one in a
    gold ring), drawn big and shrunk, on the palette, with its paste mask."""
    black = piece[0] == "B"
    disc, mark = (BLACK_PIECE, WHITE_PIECE) if black else (WHITE_PIECE, BLACK_PIECE)
    edge = WHITE_PIECE if black else BLACK_PIECE
    r = PIECE_R + (RING + 1 if attacked else 0)
    size = 2 * r + 2
    big = Image.new("RGB", (size * SUPER, size * SUPER), LAND)
    mask = Image.new("L", big.size, 0)
    draw, cover = ImageDraw.Draw(big), ImageDraw.Draw(mask)
    c = size * SUPER / 2
    if attacked:
        outer = r * SUPER
        draw.ellipse((c - outer, c - outer, c + outer, c + outer), fill=GOLD_DARK)
        draw.ellipse((c - outer + SUPER, c - outer + SUPER, c + outer - SUPER, c + outer - SUPER), fill=GOLD)
        cover.ellipse((c - outer, c - outer, c + outer, c + outer), fill=255)
    outer = PIECE_R * SUPER
    cover.ellipse((c - outer, c - outer, c + outer, c + outer), fill=255)
    draw.ellipse((c - outer, c - outer, c + outer, c + outer), fill=edge)
    inner = outer - 2 * SUPER
    draw.ellipse((c - inner, c - inner, c + inner, c + inner), fill=disc)
    small = big.resize((size, size), Image.Resampling.BOX)
    pictures.text(ImageDraw.Draw(small), (size / 2, size / 2 + 1), glyph(piece), mark, font(GLYPH_FONT), "mm")
    bits = mask.resize((size, size), Image.Resampling.BOX).point(lambda v: 255 if v >= 128 else 0, "1")
    return pictures.to_palette(small, PALETTE), bits


def paste_piece(image: Image.Image, piece: str, attacked: bool, x: float, y: float) -> None:
    sprite, bits = piece_sprite(piece, attacked)
    image.paste(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), bits)
