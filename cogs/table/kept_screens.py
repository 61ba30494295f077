"""A seat's private message, kept while what it shows stays the same.

Every step compares each seat's view with the one before and draws again the private message
of every seat whose view changed, to find out whether its DM must be edited. Where a seat's
view holds the whole table (Fighting Words: the word, the scores, whose turn it is), every
step changes it, and most of the seats drawn again only wait: their message shows the same
hand and nothing to press, and is thrown away once it proves to be what the DM shows (a Words
run: 2.4 private messages drawn per press, 1.2 of them for nothing).

A game's UI may name what a seat's private message is drawn from (`GameUI.private_key`): when
that, and everything else the message says (the step's notes, whether the game is on, the
practice hint, the link to the table, the names), is what was drawn last for the seat, the
message drawn then is the message now.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple


class Basis(NamedTuple):
    """Everything a seat's private message is drawn from."""

    key: Hashable  # the UI's `private_key` of the seat's view
    notes: tuple[str, ...]
    live: bool
    hinted: bool
    jump_url: str | None
    info: object  # the table's names (`present.table_info`, one object per seating)


class Kept(NamedTuple):
    """A private message as drawn: its parts, its picture's PNG, and whether its controls
    carry the state version they were drawn at (then it is the message of that version only)."""

    basis: Basis
    version: int
    bound: bool
    embed: Any
    controls: Any
    png: bytes | None
    image_name: str | None
    image_digest: str | None
    fingerprint: str


class KeptScreens:
    """The newest private message drawn for each (game, seat) whose UI names its basis."""

    def __init__(self, limit: int = 20_000) -> None:
        self._kept: dict[tuple[int, int], Kept] = {}
        self.limit = limit

    def get(self, game_id: int, seat: int, basis: Basis, version: int) -> Kept | None:
        kept = self._kept.get((game_id, seat))
        if kept is None or kept.basis != basis or (kept.bound and kept.version != version):
            return None
        return kept

    def put(self, game_id: int, seat: int, kept: Kept) -> None:
        if len(self._kept) >= self.limit:
            self._kept.clear()
        self._kept[(game_id, seat)] = kept

    def drop(self, game_id: int, seats: Sequence[int]) -> None:
        for seat in seats:
            self._kept.pop((game_id, seat), None)


KEPT_SCREENS = KeptScreens()
