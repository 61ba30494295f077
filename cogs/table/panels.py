"""The newest ephemeral panel of each seat, kept in step with the game.

A player who opens their hand with **My hand** (or `/hand`), or presses on such a panel, sees
an ephemeral message only they can see. Discord lets the bot edit it through that
interaction's token for 15 minutes, so each seat's newest one is remembered here and every
step that changes the seat's view redraws it as it redraws the DM: for a player whose DMs are
closed it is the only panel they have. Older ephemerals are left as they are; a press on one
is answered with the hand as it is now (`Intake.current_panel`). Kept in memory only: after a
restart the next press or `/hand` opens a new one. `DrawnAt` remembers the state version each
seat's private controls were drawn at, so a hand whose buttons a step made useless is redrawn
even when the seat's view did not change.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

import discord

from cogs.table.components import version_bound
from cogs.table.kept_pictures import KeptPictures
from cogs.table.present import Rendered
from runtime.deadlines import drawn_during
from storage import GameRecord

log = logging.getLogger(__name__)

#: Discord keeps an interaction's token for 15 minutes; a panel older than this is let go.
TOKEN_LIFETIME = 14 * 60
#: Panels remembered; forgotten all at once past this (the next /hand opens a new one).
MAX_REMEMBERED = 20_000


@dataclass
class Panel:
    interaction: discord.Interaction
    message_id: int
    opened: float  # monotonic
    fingerprint: str


class DrawnAt:
    """The state version each seat's private controls were drawn at (its DM and newest panel
    are drawn together). A step that leaves a seat's view as it was still ends a wait that is
    not independent, and with it the good of the buttons drawn for it: such a seat's panels
    are redrawn too (`stale`), as the table is when its controls are bound to the version."""

    def __init__(self) -> None:
        self._drawn: dict[int, dict[int, int]] = {}  # game id -> seat -> version

    def mark(self, game_id: int, seat: int, rendered: Rendered) -> None:
        seats = self._drawn.setdefault(game_id, {})
        if rendered.version is not None and bound(rendered):
            seats[seat] = rendered.version
        else:
            seats.pop(seat, None)

    def stale(self, game: GameRecord, skip: Iterable[int]) -> list[int]:
        """Seats (other than `skip`) whose drawn controls a press could no longer use."""
        left = set(skip)
        return [seat for seat, version in self._drawn.get(game.id, {}).items() if seat not in left
                and version != game.version and not drawn_during(game.deadlines, seat, version)]

    def forget(self, game_id: int) -> None:
        self._drawn.pop(game_id, None)


def bound(rendered: Rendered) -> bool:
    """Whether a message carries a control tied to the state version it was drawn at."""
    return version_bound(rendered.view)


class LivePanels:
    def __init__(self, pictures: KeptPictures, clock: Callable[[], float] = time.monotonic) -> None:
        self.pictures = pictures
        self.clock = clock
        self._panels: dict[tuple[int, int], Panel] = {}
        #: What version each seat's private controls were drawn at (DMs and panels alike).
        self.drawn = DrawnAt()

    def remember(self, game_id: int, seat: int, interaction: discord.Interaction, message_id: int,
                 rendered: Rendered) -> None:
        """`interaction` answered with (or redrew) the seat's ephemeral `message_id`, showing `rendered`."""
        if len(self._panels) >= MAX_REMEMBERED:
            self._panels.clear()
        self._panels[(game_id, seat)] = Panel(interaction, message_id, self.clock(), rendered.fingerprint())
        self.drawn.mark(game_id, seat, rendered)

    def holds(self, game_id: int, seat: int) -> bool:
        """Whether the seat has a panel that can still be edited."""
        panel = self._panels.get((game_id, seat))
        if panel is None:
            return False
        if self.clock() - panel.opened > TOKEN_LIFETIME:
            del self._panels[(game_id, seat)]
            return False
        return True

    def message_of(self, game_id: int, seat: int) -> int | None:
        """The id of the seat's newest ephemeral panel, while it can be edited."""
        return self._panels[(game_id, seat)].message_id if self.holds(game_id, seat) else None

    def forget(self, game_id: int, seats: int) -> None:
        for seat in range(seats):
            self._panels.pop((game_id, seat), None)
        self.drawn.forget(game_id)

    async def refresh(self, game_id: int, seat: int, fingerprint: str,
                      draw: Callable[[], Awaitable[Rendered | None]]) -> None:
        """Redraw the seat's panel when it does not show `fingerprint` (drawn by `draw`: a
        message's picture file can be sent only once, so the DM's drawing is not reused)."""
        if not self.holds(game_id, seat):
            return
        panel = self._panels[(game_id, seat)]
        if panel.fingerprint == fingerprint:
            return
        rendered = await draw()
        if rendered is None:
            return
        try:
            edited, _ = await self.pictures.edit(panel.message_id, rendered,
                                                 panel.interaction.edit_original_response)
        except discord.HTTPException as exc:  # the token expired, or the player dismissed it
            log.info("could not redraw the panel of seat %s of game %s: %s", seat, game_id, exc)
            self._panels.pop((game_id, seat), None)
            return
        panel.fingerprint = rendered.fingerprint()
        self.pictures.remember(panel.message_id, rendered, edited.attachments if edited else ())
