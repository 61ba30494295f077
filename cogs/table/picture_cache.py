"""Pictures kept by what they are drawn from, so a picture nobody changed is not drawn again.

`picture_digest` names a screen's picture: by its `image_key` when the UI gives one (what the
picture is drawn from: a step that moves the view but not the picture draws nothing), else by
the whole view and the names on it. `IMAGES` holds the PNGs by that digest.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import orjson

from cogs.table.registry import AnyUI
from cogs.table.ui import Screen, TableInfo


class ImageCache:
    """Pictures by the digest of what they are drawn from (`picture_digest`).

    A picture whose inputs did not change is not drawn again: a redraw of the table after a
    private step, a hand whose cards stayed while the rest of its view moved, a DM re-sent
    after an hour, a `/game status`, all reuse the PNG. Bounded by bytes, least recently used
    first out."""

    def __init__(self, max_bytes: int = 48 * 2**20) -> None:
        self.max_bytes = max_bytes
        self._pngs: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self.hits = self.misses = 0

    def get(self, key: str) -> bytes | None:
        png = self._pngs.get(key)
        if png is None:
            self.misses += 1
            return None
        self.hits += 1
        self._pngs.move_to_end(key)
        return png

    def put(self, key: str, png: bytes) -> None:
        if key in self._pngs:
            return
        self._pngs[key] = png
        self._size += len(png)
        while self._size > self.max_bytes and self._pngs:
            _, dropped = self._pngs.popitem(last=False)
            self._size -= len(dropped)


IMAGES = ImageCache()


def view_digest(ui: AnyUI, view: Mapping[str, Any], info: TableInfo, seat: int | None) -> str:
    """What a screen's picture depends on: the game, the view, the seat and the names."""
    basis = [ui.name, seat, view, [s.name for s in info.seats]]
    return hashlib.blake2b(orjson.dumps(basis, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS),
                           digest_size=16).hexdigest()


def picture_digest(ui: AnyUI, screen: Screen, view: Mapping[str, Any], info: TableInfo, seat: int | None) -> str:
    """What a screen's picture is kept by: its `image_key` when the UI gives one (what the
    picture is drawn from, so a step that moves the view but not the picture draws nothing),
    else the view's digest."""
    if screen.image_key is None:
        return view_digest(ui, view, info, seat)
    basis = [ui.name, screen.image_name, screen.image_key]
    return hashlib.blake2b(orjson.dumps(basis, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS),
                           digest_size=16).hexdigest()
