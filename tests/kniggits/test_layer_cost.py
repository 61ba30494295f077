"""The static layer (window.py) drawn cheaper, with the same pixels: the grid a band of rows at
a time, the ground shared by maps with the same zones and the map's rocks drawn on the picture,
against the layer drawn whole as before and pasted,
over every window of seeded real games and the awkward ones (zones touching, small cells, torn
strips, rocks on the window's edges)."""

from __future__ import annotations

import orjson
import pytest
from PIL import Image, ImageDraw

from cogs.kniggits import field, render, window
from cogs.kniggits.look import (
    AXIS_H,
    AXIS_W,
    BACKGROUND,
    BLOCK,
    BLOCK_LINE,
    DIM_TEXT,
    GRID,
    GROUND,
    MIN_FONT,
    ROCK,
    ROCK_EDGE,
    ZONE,
    ZONE_GRID,
    blank,
    ink,
    text,
)
from cogs.kniggits.shown import FieldLook
from cogs.kniggits.window import Window
from tests.kniggits.test_render import GAMES, played


def _rows_layer_as_drawn_before(key: bytes, win: Window, x_labels: bool) -> Image.Image:
    """The layer as window.py drew it before: the grid row by row (three ImageDraw.line calls a
    cell), the obstacles, the frame and then the labels, all on one new image per map."""
    bf = orjson.loads(key)
    x0, x1, y0, y1, c = win.x0, win.x1, win.y0, win.y1, win.cell
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    image = blank((AXIS_W + cols * c + 2, rows * c + (AXIS_H if x_labels else 2)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left = AXIS_W
    draw.rectangle((left, 0, left + cols * c, rows * c), fill=ink(GROUND))
    row_of: dict[int, str] = {}
    for army, (lo, hi) in bf["zones"].items():
        for y in range(max(lo, y0), min(hi, y1) + 1):
            row_of[y] = army
    for y, army in row_of.items():
        top = (y1 - y) * c
        draw.rectangle((left, top, left + cols * c, top + c), fill=ink(ZONE[army]))
    if c >= 12:
        for y in range(y0, y1 + 1):
            top = (y1 - y) * c
            colour = ink(ZONE_GRID[row_of[y]] if y in row_of else GRID)
            draw.line((left, top, left + cols * c, top), fill=colour)
            draw.line((left, top + c, left + cols * c, top + c), fill=colour)
            for i in range(cols + 1):
                draw.line((left + i * c, top, left + i * c, top + c), fill=colour)
    for x in range(x0, x1 + 1):
        if x % BLOCK == 0 and x < x1:
            px = left + (x - x0 + 1) * c
            draw.line((px, 0, px, rows * c), fill=ink(BLOCK_LINE), width=2)
    for y in range(y0, y1 + 1):
        if y % BLOCK == 0 and y < y1:
            py = (y1 - y) * c
            draw.line((left, py, left + cols * c, py), fill=ink(BLOCK_LINE), width=2)
    blocked = {tuple(o) for o in bf["obstacles"]}
    for x, y in blocked:
        if x0 <= x <= x1 and y0 <= y <= y1:
            px, py = left + (x - x0) * c, (y1 - y) * c
            draw.rectangle((px, py, px + c, py + c), fill=ink(ROCK))
            for dx, dy, edge in ((0, 1, (px, py, px + c, py)), (0, -1, (px, py + c, px + c, py + c)),
                                 (-1, 0, (px, py, px, py + c)), (1, 0, (px + c, py, px + c, py + c))):
                if (x + dx, y + dy) not in blocked:
                    draw.line(edge, fill=ink(ROCK_EDGE), width=2 if c >= 20 else 1)
    draw.rectangle((left, 0, left + cols * c, rows * c), outline=ink(BLOCK_LINE), width=2)
    for x in window._labels(x0, x1, c) if x_labels else ():
        text(image, (left + (x - x0 + 0.5) * c, rows * c + AXIS_H / 2 + 1), str(x), DIM_TEXT, MIN_FONT, "mm",
             BACKGROUND)
    for y in window._labels(y0, y1, c):
        text(image, (AXIS_W - 8, (y1 - y + 0.5) * c), str(y), DIM_TEXT, MIN_FONT, "rm", BACKGROUND)
    return image


def _layer_as_drawn_before(key: bytes, win: Window) -> Image.Image:
    """The whole layer as window.field_layer drew it before: the parts over and under a gap
    composed with the torn strip between them."""
    if win.gap is None:
        return _rows_layer_as_drawn_before(key, win, True)
    upper = _rows_layer_as_drawn_before(key, win._replace(y0=win.gap[1] + 1, gap=None), False)
    lower = _rows_layer_as_drawn_before(key, win._replace(y1=win.gap[0] - 1, gap=None), True)
    image = blank((upper.width, upper.height + window.GAP_PX + lower.height), BACKGROUND)
    image.paste(upper, (0, 0))
    image.paste(lower, (0, upper.height + window.GAP_PX))
    draw = ImageDraw.Draw(image)
    x_end = AXIS_W + (win.x1 - win.x0 + 1) * win.cell
    for y in (upper.height + 5, upper.height + window.GAP_PX - 6):
        draw.line([(AXIS_W + i * 8, y + (4 if i % 2 else -3)) for i in range((x_end - AXIS_W) // 8 + 1)],
                  fill=ink(BLOCK_LINE), width=2)
    text(image, ((AXIS_W + x_end) / 2, upper.height + window.GAP_PX / 2), f"rows {win.gap[0]}–{win.gap[1]} left out",
         DIM_TEXT, MIN_FONT, "mm", BACKGROUND)
    return image


def _pasted(size: tuple[int, int], at: tuple[int, int], layer: Image.Image | None = None,
            key: bytes = b"", win: Window | None = None) -> Image.Image:
    """A picture with the layer at `at`: the old layer pasted, or `paste_field` of the field."""
    image = blank(size, BACKGROUND)
    if layer is not None:
        image.paste(layer, at)
    else:
        assert win is not None
        window.paste_field(image, orjson.loads(key), win, *at)
    return image


def _field(size: int, zones: dict[str, list[int]], obstacles: list[list[int]]) -> bytes:
    return orjson.dumps({"width": size, "height": size, "zones": zones, "obstacles": obstacles},
                        option=orjson.OPT_SORT_KEYS)


def _cases() -> list[tuple[bytes, Window]]:
    """The windows the pictures of three seeded games use, and hand-made ones: zones that touch
    or overlap, cells under the grid's 12 px and at the most, a window with a torn strip."""
    seen: dict[tuple[bytes, Window], None] = {}
    original = window.paste_field

    def record(image: Image.Image, shown: FieldLook, win: Window, left: int, top: int) -> None:
        seen[(orjson.dumps(shown, option=orjson.OPT_SORT_KEYS), win)] = None
        original(image, shown, win, left, top)

    field.paste_field = record  # type: ignore[assignment]
    try:
        for size, seed, players, options in GAMES:
            views = played(seed, players, size=size, **options)
            for public, seats in views[::5]:
                render.battlefield(public)
                for seat in seats:
                    me = seat["me"]
                    if me.get("plan"):
                        render.preview(seat, me["plan"])
                    if me.get("deploy"):
                        render.deployment(seat, me["army"], me["deploy"]["placements"])
                    if me.get("reach"):
                        render.reach(seat, me["cursor"], me["reach"])
    finally:
        field.paste_field = window.paste_field
        render.clear_caches()
    odd = [(_field(24, {"A": [1, 12], "B": [13, 24]}, [[3, 12], [3, 13], [4, 13]]), Window(1, 24, 1, 24, 36)),
           (_field(24, {"A": [1, 14], "B": [10, 24]}, []), Window(1, 24, 1, 24, 30)),
           (_field(48, {"A": [1, 6], "B": [43, 48]}, [[5, 5]]), Window(1, 48, 1, 48, 11)),
           (_field(48, {"A": [1, 6], "B": [43, 48]}, [[20, 40]]), Window(1, 48, 1, 48, 12)),
           (_field(12, {"A": [1, 6], "B": [7, 12]}, []), Window(1, 12, 1, 12, 64)),
           (_field(48, {"A": [1, 6], "B": [43, 48]}, [[7, 44]]), Window(1, 27, 1, 48, 34, (12, 36)))]
    edges = [[5, 4], [28, 27], [5, 27], [28, 4], [5, 15], [16, 4], [6, 4], [4, 4], [29, 15], [16, 28]]
    for cell in (16, 36, 64):  # rocks on and just outside each edge of the window, thin and thick edges
        odd.append((_field(36, {"A": [1, 6], "B": [31, 36]}, edges), Window(5, 28, 4, 27, cell)))
        odd.append((_field(36, {"A": [1, 6], "B": [31, 36]}, edges), Window(5, 28, 4, 27, cell, (10, 20))))
    return [*seen, *odd]


CASES = _cases()


def test_the_cases_cover_many_windows() -> None:
    assert len({win for _, win in CASES}) >= 60
    assert any(win.gap for _, win in CASES) and any(win.cell < 12 for _, win in CASES)


@pytest.mark.parametrize("part", range(4))
def test_layers_have_the_pixels_drawn_before(part: int) -> None:
    """Every layer (the shared ground pasted, the map's obstacles and frame drawn on the
    picture) is byte for byte the layer drawn whole as before and pasted, torn strips included,
    at the picture's corner and inside it."""
    for key, win in CASES[part::4]:
        window._ground.cache_clear()
        window.field_ground.cache_clear()
        old = _layer_as_drawn_before(key, win)
        for at in ((0, 0), (7, 31)):
            size = (old.width + at[0] + 5, old.height + at[1] + 9)
            new = _pasted(size, at, key=key, win=win)
            before = _pasted(size, at, layer=old)
            assert new.tobytes() == before.tobytes(), (key, win, at)
            assert new.getpalette() == before.getpalette()


def test_maps_with_the_same_zones_share_one_ground(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hundred maps (each its own rocks) in one window draw the ground once and copy no
    layer: the cache of whole layers, missed by a hundred live games, drew every layer anew."""
    window._ground.cache_clear()
    window.field_ground.cache_clear()
    win = Window(1, 24, 7, 30, 38)
    for n in range(100):
        if n == 1:
            monkeypatch.setattr(Image.Image, "copy", lambda self: pytest.fail("a layer was copied"))
        _pasted((1000, 1000), (0, 40), key=_field(36, {"A": [1, 6], "B": [31, 36]}, [[n % 20 + 2, n // 20 + 10]]),
                win=win)
    assert window._ground.cache_info().misses == 1 and window.field_ground.cache_info().misses == 1


def test_a_layer_draws_no_line_per_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 24 x 24 window drew 24 x 27 grid lines through `ImageDraw.line` (its ink checks cost
    more than the line); the bands draw theirs in Pillow's core, ~100 of them, and so do the
    rocks their edges: only the block lines go through `ImageDraw.line` now."""
    calls: list[object] = []
    original = ImageDraw.ImageDraw.line

    def counted(self: ImageDraw.ImageDraw, *args: object, **kwargs: object) -> None:
        calls.append(args)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "line", counted)
    window._ground.__wrapped__((("A", 1, 6), ("B", 19, 24)), Window(1, 24, 1, 24, 38), True)
    assert len(calls) == 6  # the block lines at x 6, 12, 18 and y 6, 12, 18
    window.field_ground.cache_clear()
    rocks = [[x, y] for x in range(3, 20, 4) for y in range(8, 17, 2)]  # 25 rocks: 100 edges
    _pasted((1000, 1000), (0, 40), key=_field(24, {"A": [1, 6], "B": [19, 24]}, rocks), win=Window(1, 24, 1, 24, 38))
    assert len(calls) == 12  # the ground's block lines again, and no rock's edge
