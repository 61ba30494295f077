"""How the Kniggits pictures look: their sizes and colours, the fixed palette, and text
drawn as cached palette sprites (the condensed face inside the discs)."""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from cogs.table import pictures
from cogs.table.pictures import FONT_SIZES, RGB, font

# -- sizes ---------------------------------------------------------------------------------------------
WIDTH = 1000
MIN_FONT = 22  # 22 px at 1000 wide is 11 px on a 500 px column
TITLE_FONT = 24
ID_FONT = 22  # condensed bold, inside the discs
PAD = 14
AXIS_W = 44  # the y labels' column
AXIS_H = 30  # the x labels' row
HEADER = 46
SUBLINE = 32  # a second header line (previews)
BOARD_W = WIDTH - AXIS_W - PAD  # room for the cells
CELL_MAX, CELL_MIN = 64, 34
ROWS_MAX = 30  # rows at most (at CELL_MIN, 1020 px): a taller battle leaves out an empty band
BLOCK = 6  # grid lines and labels every 6 inches
MIN_SPAN = 12
ROSTER_W = 330  # the roster column when it fits beside the field
ROW = 34  # a roster row
CHIP_W = 40
ID_W = 104  # a wide roster column's id column ("Army A" heads it, clear of the M over the chips)

# -- colours -------------------------------------------------------------------------------------------
BACKGROUND = (43, 45, 49)
PANEL = (54, 57, 63)
TEXT, DIM_TEXT = (245, 245, 245), (185, 188, 195)
GROUND = (228, 222, 196)
GRID = (206, 199, 170)
BLOCK_LINE = (150, 142, 115)
ZONE = {"A": (246, 214, 186), "B": (202, 218, 242)}
ZONE_GRID = {"A": (226, 192, 162), "B": (180, 198, 226)}
ROCK, ROCK_EDGE = (128, 128, 132), (88, 88, 92)
ARMY = {"A": (222, 110, 20), "B": (36, 98, 206)}
ARMY_DARK = {"A": (120, 52, 0), "B": (12, 44, 110)}
ARMY_BRIGHT = {"A": (255, 160, 80), "B": (120, 170, 255)}  # ids on the dark panel
FLED_FILL = (200, 196, 186)
FLED_INK = (70, 70, 70)
POOL = {"M": (38, 160, 72), "A": (214, 40, 40), "D": (40, 92, 224)}
POOL_BRIGHT = {"M": (90, 210, 120), "A": (255, 110, 110), "D": (120, 160, 255)}  # letters on the panel
TRACK = (64, 64, 64)
WHITE, BLACK = (255, 255, 255), (20, 20, 20)
GOLD, GOLD_DARK = (241, 196, 15), (150, 105, 0)
HORSE = (110, 66, 24)
STEEL = (60, 64, 72)
PATH = (220, 30, 130)
BURST, BURST_EDGE = (255, 214, 0), (226, 110, 0)
ENGAGED = (40, 40, 40)
REACH = (166, 222, 150)
REACH_EDGE = (110, 180, 100)
SHOOT, BLOCKED = (20, 160, 60), (210, 30, 30)
RANGE = (40, 120, 60)

BLENDS = frozenset([(TEXT, BACKGROUND), (DIM_TEXT, BACKGROUND), (GOLD, BACKGROUND), (TEXT, PANEL), (DIM_TEXT, PANEL),
     *((ARMY_BRIGHT[a], PANEL) for a in ARMY), *((WHITE, ARMY[a]) for a in ARMY), (FLED_INK, FLED_FILL),
     *((WHITE, colour) for colour in POOL.values()), *((colour, PANEL) for colour in POOL_BRIGHT.values()),
     (BLACK, WHITE)])  # a route's number (the move panel's reach picture)
PALETTE = pictures.Palette(
    [BACKGROUND, PANEL, TEXT, DIM_TEXT, GROUND, GRID, BLOCK_LINE, *ZONE.values(), *ZONE_GRID.values(), ROCK,
     ROCK_EDGE, *ARMY.values(), *ARMY_DARK.values(), *ARMY_BRIGHT.values(), FLED_FILL, FLED_INK, *POOL.values(),
     *POOL_BRIGHT.values(), TRACK, WHITE, BLACK, GOLD, GOLD_DARK, HORSE, STEEL, PATH, BURST, BURST_EDGE, ENGAGED, REACH, REACH_EDGE, SHOOT,
     BLOCKED, RANGE],
    sorted(BLENDS),
)


def ink(colour: RGB) -> int:
    return PALETTE.index[colour]


@cache
def _palette_list() -> list[int]:
    return PALETTE.image.getpalette() or []


def blank(size: tuple[int, int], colour: RGB) -> Image.Image:
    """A palette picture of one colour (no RGB image to map)."""
    image = Image.new("P", size, ink(colour))
    image.putpalette(_palette_list())
    return image


# -- text ----------------------------------------------------------------------------------------------
CONDENSED = ("DejaVuSansCondensed-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf")


@cache
def _condensed(size: int) -> pictures.Font:
    for path in CONDENSED:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return font(size)


def condensed(size: int) -> pictures.Font:
    """DejaVu Sans Condensed Bold (ids in discs), noted in `FONT_SIZES` like `font`."""
    FONT_SIZES.add(size)
    return _condensed(size)


def text(image: Image.Image, xy: tuple[float, float], words: str, fill: RGB, size: int, anchor: str,
         ground: RGB, *, narrow: bool = False) -> None:
    """A line of text pasted on a palette picture over `ground` (a declared blend pair's edges
    are looked up in a table, not searched for: the shared `pictures.text` searches the whole
    palette once per colour pair, seconds for this game's palette)."""
    if not words:
        return
    face = condensed(size) if narrow else font(size)
    if (fill, ground) not in BLENDS:
        pictures.text(image, xy, words, fill, face, anchor, ground=ground, palette=PALETTE)
        return
    sprite, inked, left, top = _sprite(words, face, anchor, fill, ground)
    pictures.stamp(image, sprite, inked, round(xy[0]) + left, round(xy[1]) + top)


Box = tuple[float, float, float, float]  # left, top, right, bottom (right and bottom exclusive)


def text_box(xy: tuple[float, float], words: str, size: int, anchor: str, *, narrow: bool = False) -> Box:
    """Where `text` inks `words`: the roster lays its parts out by these so none overlaps another."""
    left, top, right, bottom = _extent(words, condensed(size) if narrow else font(size), anchor)
    x, y = round(xy[0]), round(xy[1])
    return x + left, y + top, x + right, y + bottom


@lru_cache(maxsize=4096)
def _extent(words: str, face: pictures.Font, anchor: str) -> tuple[int, int, int, int]:
    left, top, right, bottom = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox((0, 0), words, font=face, anchor=anchor)
    return int(left), int(top), int(right), int(bottom)


@lru_cache(maxsize=4096)
def _sprite(words: str, face: pictures.Font, anchor: str, fill: RGB, ground: RGB
            ) -> tuple[Image.Image, Image.Image, int, int]:
    left, top, right, bottom = (int(v) for v in ImageDraw.Draw(Image.new("L", (1, 1))).textbbox(
        (0, 0), words, font=face, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), words, fill=255, font=face, anchor=anchor)
    entries = mask.point(_shade_table(fill, ground))  # palette entries, as a P sprite: no conversion per paste
    return Image.frombytes("P", mask.size, entries.tobytes()), mask.point([0] + [255] * 255, "1"), left, top


@cache
def _shade_table(fill: RGB, ground: RGB) -> list[int]:
    """Coverage 0-255 -> the palette entry of the nearest declared shade of `fill` over `ground`."""
    steps = pictures.SHADES + 1
    entries = [ink(ground), *(ink(pictures.mix(ground, fill, n / steps)) for n in range(1, steps)), ink(fill)]
    return [entries[round(v * steps / 255)] for v in range(256)]
