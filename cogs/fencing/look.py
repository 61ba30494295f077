"""How the Table Fencing map looks: its colours, the roads' styles and the fixed palette, and
text drawn on it."""

from __future__ import annotations

from PIL import Image

from cogs.table import pictures
from cogs.table.pictures import RGB, font

# -- colours ------------------------------------------------------------------------------------------
BACKGROUND = (54, 57, 63)  # the neighbouring states (and Discord's dark theme round the picture)
LAND = (232, 226, 204)
BORDER_INK = (120, 110, 90)
LAKE = (96, 150, 205)
LAKE_DEEP = (70, 120, 180)
LAKE_INK = (235, 245, 255)
INTERSTATE = (46, 92, 175)
STATE = (214, 126, 38)
BACKROAD = (150, 118, 84)
FADED = (198, 190, 166)  # a road not allowed at this difficulty
DOT, DOT_EDGE = (40, 40, 44), (250, 250, 250)
OFFROAD = (190, 40, 40)  # the ring round a town with no allowed road
CHIP, CHIP_EDGE, CHIP_INK = (255, 255, 250), (90, 90, 90), (25, 25, 30)
LEADER = (90, 90, 90)
KM_INK = {"I": (255, 255, 255), "S": (60, 30, 0), "B": (255, 255, 255)}
KM_CHIP = {"I": INTERSTATE, "S": (250, 200, 120), "B": BACKROAD}
ROUTE, ROUTE_EDGE = (220, 30, 130), (255, 255, 255)
BLACK_PIECE, WHITE_PIECE = (28, 28, 30), (252, 252, 248)
GOLD, GOLD_DARK = (241, 196, 15), (150, 105, 0)
TEXT, DIM_TEXT = (245, 245, 245), (185, 188, 195)
PANEL = (40, 42, 47)

#: Each road class (I interstate, S state, B backroad): its colour and width.
ROAD_STYLE = {"I": (INTERSTATE, 7), "S": (STATE, 5), "B": (BACKROAD, 3)}
DRAW_ORDER = ("B", "S", "I")  # the bigger roads on top

PALETTE = pictures.Palette(
    [BACKGROUND, LAND, BORDER_INK, LAKE, LAKE_DEEP, LAKE_INK, INTERSTATE, STATE, BACKROAD, FADED, DOT, DOT_EDGE,
     OFFROAD, CHIP, CHIP_EDGE, CHIP_INK, LEADER, *KM_CHIP.values(), ROUTE, ROUTE_EDGE, BLACK_PIECE, WHITE_PIECE,
     GOLD, GOLD_DARK, TEXT, DIM_TEXT, PANEL],
    [(CHIP_INK, CHIP), (LAKE_INK, LAKE), (TEXT, PANEL), (DIM_TEXT, PANEL), (GOLD, PANEL),
     *((KM_INK[c], KM_CHIP[c]) for c in KM_CHIP), (INTERSTATE, LAND), (STATE, LAND), (BACKROAD, LAND),
     (FADED, LAND), (LAND, LAKE), (LAND, BACKGROUND), (BORDER_INK, LAND), (DOT, LAND), (WHITE_PIECE, BLACK_PIECE),
     (BLACK_PIECE, LAND), (WHITE_PIECE, LAND), (GOLD, LAND)],
)


def ink(colour: RGB) -> int:
    return PALETTE.index[colour]


def text(image: Image.Image, xy: tuple[float, float], words: str, fill: RGB, size: int, anchor: str,
         ground: RGB) -> None:
    pictures.text(image, xy, words, fill, font(size), anchor, ground=ground, palette=PALETTE)
