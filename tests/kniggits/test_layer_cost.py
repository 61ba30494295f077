"""The static layer (window.py) drawn cheaper, with the same pixels: the grid a band of rows at
a time against the row-by-row drawing it replaced, over every window of seeded real games and
the awkward ones (zones touching, small cells, torn strips)."""

from __future__ import annotations

import orjson
import pytest
from PIL import ImageDraw

from cogs.kniggits import field, render, window
from cogs.kniggits.window import Window
from tests.kniggits.test_render import GAMES, played


def _grid_row_by_row(draw: ImageDraw.ImageDraw, win: Window, left: int, shades: list[int]) -> None:
    """The grid as it was drawn before: each row's two lines and its columns' segments, bottom up."""
    c, cols = win.cell, win.x1 - win.x0 + 1
    for i, colour in enumerate(shades):
        top = (len(shades) - 1 - i) * c
        draw.line((left, top, left + cols * c, top), fill=colour)
        draw.line((left, top + c, left + cols * c, top + c), fill=colour)
        for n in range(cols + 1):
            draw.line((left + n * c, top, left + n * c, top + c), fill=colour)


def _field(size: int, zones: dict[str, list[int]], obstacles: list[list[int]]) -> bytes:
    return orjson.dumps({"width": size, "height": size, "zones": zones, "obstacles": obstacles},
                        option=orjson.OPT_SORT_KEYS)


def _cases() -> list[tuple[bytes, Window]]:
    """The windows the pictures of three seeded games use, and hand-made ones: zones that touch
    or overlap, cells under the grid's 12 px and at the most, a window with a torn strip."""
    seen: dict[tuple[bytes, Window], None] = {}
    original = window.field_layer.__wrapped__

    def record(key: bytes, win: Window) -> object:
        seen[(key, win)] = None
        return original(key, win)

    field.field_layer = record  # type: ignore[assignment]
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
        field.field_layer = window.field_layer
        render.clear_caches()
    odd = [(_field(24, {"A": [1, 12], "B": [13, 24]}, [[3, 12], [3, 13], [4, 13]]), Window(1, 24, 1, 24, 36)),
           (_field(24, {"A": [1, 14], "B": [10, 24]}, []), Window(1, 24, 1, 24, 30)),
           (_field(48, {"A": [1, 6], "B": [43, 48]}, [[5, 5]]), Window(1, 48, 1, 48, 11)),
           (_field(48, {"A": [1, 6], "B": [43, 48]}, [[20, 40]]), Window(1, 48, 1, 48, 12)),
           (_field(12, {"A": [1, 6], "B": [7, 12]}, []), Window(1, 12, 1, 12, 64)),
           (_field(48, {"A": [1, 6], "B": [43, 48]}, [[7, 44]]), Window(1, 27, 1, 48, 34, (12, 36)))]
    return [*seen, *odd]


CASES = _cases()


def test_the_cases_cover_many_windows() -> None:
    assert len({win for _, win in CASES}) >= 60
    assert any(win.gap for _, win in CASES) and any(win.cell < 12 for _, win in CASES)


@pytest.mark.parametrize("part", range(4))
def test_the_grid_by_bands_has_the_row_by_row_pixels(part: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every layer, grid drawn by bands, is byte for byte the layer drawn row by row."""
    for key, win in CASES[part::4]:
        new = window.field_layer.__wrapped__(key, win)
        window._rows_layer.cache_clear()
        with monkeypatch.context() as patched:
            patched.setattr(window, "_grid", _grid_row_by_row)
            old = window.field_layer.__wrapped__(key, win)
            window._rows_layer.cache_clear()
        assert new.size == old.size and new.tobytes() == old.tobytes(), (key, win)


def test_a_layer_draws_no_line_per_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 24 x 24 window drew 24 x 27 grid lines through `ImageDraw.line` (its ink checks cost
    more than the line); the bands draw theirs in Pillow's core, ~100 of them: only the block
    lines and the rocks' edges go through `ImageDraw.line` now."""
    calls: list[object] = []
    original = ImageDraw.ImageDraw.line

    def counted(self: ImageDraw.ImageDraw, *args: object, **kwargs: object) -> None:
        calls.append(args)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "line", counted)
    window._rows_layer.__wrapped__(_field(24, {"A": [1, 6], "B": [19, 24]}, []), Window(1, 24, 1, 24, 38), True)
    assert len(calls) == 6  # the block lines at x 6, 12, 18 and y 6, 12, 18
