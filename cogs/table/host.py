"""What the edge's parts need of the bot and of delivery, as protocols, so the parts that post
beside the table (pings, results, team threads, rematches) take delivery as a collaborator
without importing it: imports in `cogs/table` go one way (tests/runtime/test_edge_layout.py).
"""

from __future__ import annotations

from typing import Protocol

import discord

from runtime.service import TableService
from storage import GameRecord


class Host(Protocol):
    """What the edge needs of the bot: channels and users by id (discord.Client has them)."""

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    #: A channel or thread, or None when not cached: each caller checks which kind it needs.
    def get_channel(self, id: int, /) -> object: ...

    async def fetch_channel(self, channel_id: int, /) -> object: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...


class GameOver(Protocol):
    """The pings of a game, told it ended (`pings.Pings`)."""

    async def game_over(self, game_id: int, game: GameRecord | None = None) -> None: ...


class Outbox(Protocol):
    """What the parts that post beside the table use of `delivery.Delivery`."""

    @property
    def host(self) -> Host: ...

    @property
    def service(self) -> TableService: ...

    @property
    def now(self) -> float: ...

    @property
    def pings(self) -> GameOver: ...

    def table_url(self, game: GameRecord) -> str | None: ...

    def title_of(self, game: GameRecord) -> str: ...
