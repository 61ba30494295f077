"""Running a real discord.py client against FakeDiscord: pointing discord.py at it, starting a
client until it is ready (and its commands synced), closing it cleanly."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .server import FakeDiscord

#: discord.py waits this long after the last GUILD_CREATE before `on_ready` (default 2 s).
GUILD_READY_TIMEOUT = 0.1


@contextlib.contextmanager
def pointed_at(server: FakeDiscord) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at `server` (restored afterwards)."""
    old = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = server.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old


class ClientRunner:
    """Starts `client.start(token)` as a task and waits until the client is usable."""

    def __init__(self, server: FakeDiscord, client: discord.Client, token: str | None = None) -> None:
        self.server = server
        self.client = client
        self.token = token or server.token
        self.task: asyncio.Task[None] | None = None

    async def start(self, *, wait_for_sync: bool = True, timeout: float = 10.0) -> discord.Client:
        client, server = self.client, self.server
        # Configuration, not a code change: the fake guild arrives right after READY.
        client._connection.guild_ready_timeout = min(client._connection.guild_ready_timeout, GUILD_READY_TIMEOUT)
        syncs = server.command_syncs
        self.task = asyncio.create_task(client.start(self.token), name="fake-discord-client")

        def ready() -> bool:
            if self.task is not None and self.task.done():
                return True
            guilds_cached = all(client.get_guild(g.id) is not None for g in server.world.guilds.values()
                                if server.world.bot.id in g.members and self._serves(g.id))
            synced = not wait_for_sync or server.command_syncs > syncs
            return client.is_ready() and guilds_cached and synced

        try:
            await server.wait_for(ready, timeout, "the bot to be ready and its commands synced")
        except AssertionError:
            await self.close()
            raise
        if self.task.done():
            exc = self.task.exception()
            await self.close()
            raise AssertionError(f"the bot stopped while starting: {exc!r}") from exc
        return client

    def shards(self) -> set[tuple[int, int]]:
        """The (shard_id, shard_count) this client runs: every shard of an AutoShardedClient
        (once it knows the count), shard 0 of 1 for a plain client."""
        client = self.client
        if isinstance(client, discord.AutoShardedClient):
            count = client.shard_count
            if count is None:
                return set()
            return {(shard_id, count) for shard_id in (client.shard_ids or range(count))}
        if client.shard_id is not None and client.shard_count is not None:
            return {(client.shard_id, client.shard_count)}
        return {(0, 1)}

    def _serves(self, guild_id: int) -> bool:
        shards = self.shards()
        return not shards or any((guild_id >> 22) % count == shard_id for shard_id, count in shards)

    async def close(self, timeout: float = 5.0) -> None:
        """Close the client (as on shutdown) and wait for its task and gateway session to end."""
        if self.task is None:
            return
        shards = self.shards()
        await self.client.close()
        try:
            await asyncio.wait_for(self.task, timeout)
        except (asyncio.CancelledError, discord.DiscordException):
            pass  # a failed start already reported its error
        finally:
            self.task = None
        gateway = self.server.gateway
        await self.server.wait_for(lambda: not gateway.connected_shards() & shards, timeout,
                                   "the bot to disconnect")
