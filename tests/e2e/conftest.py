"""Fixtures for end-to-end tests: a fake Discord on 127.0.0.1 and the real Rumpus bot against it.

    async def test_lobby(fake_discord, bot):
        alice = fake_discord.user("alice")
        await alice.slash("tokens new")

`FAKE_DISCORD_INTERACTION_TIMEOUT` (seconds, default 3 as on Discord) widens the interaction
window on slow CI machines.
"""

from __future__ import annotations

import contextlib
import os
import random
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.fakediscord import ClientRunner, FakeDiscord, pointed_at
from tests.fakediscord.harness import GUILD_READY_TIMEOUT
from tests.pg import database_for_test, release_database_for_test

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord; discord.py is pointed at it. Fails the test at teardown on unknown
    routes or API errors the test did not declare with `fake_discord.allow_errors(code, ...)`."""
    timeout = float(os.environ.get("FAKE_DISCORD_INTERACTION_TIMEOUT", "3"))
    server = await FakeDiscord(interaction_timeout=timeout).start()
    with pointed_at(server):
        yield server
    await server.stop()
    server.check()


class RumpusHarness:
    """The project's real bot (`bot.build_bot`) on a database in the test's temp folder (or,
    with RUMPUS_TEST_DATABASE=postgresql, a fresh PostgreSQL database: tests/pg.py)."""

    def __init__(self, server: FakeDiscord, database: Path | str, *, seed: int | None = None,
                 clock: Any = None, ping_grace: float = 0.0) -> None:
        """`database`: a SQLite path or a `postgresql://` URL. `seed` makes game seeds
        reproducible (each start draws from `Random(seed)`); `clock` (a ManualClock) stops
        timers from playing for anyone. `ping_grace`: 0 pings every turn at once, as the
        tests expect (the bot's default lets a player at the table answer first)."""
        import dataclasses

        import bot as bot_module

        self.seed, self.clock = seed, clock

        self.module = bot_module
        self.server = server
        self.database = database
        where: dict[str, Any] = {"database_path": database}
        #: A URL the bot's Settings cannot take yet: the harness opens the storage itself.
        self.storage_url: str | None = None
        if isinstance(database, str):
            if "database_url" in {f.name for f in dataclasses.fields(bot_module.Settings)}:
                where = {"database_url": database}
            else:
                where, self.storage_url = {}, database
        if "ping_grace" in {f.name for f in dataclasses.fields(bot_module.Settings)}:
            where["ping_grace"] = ping_grace
        self.settings = bot_module.Settings(token=server.token, dev_guild_id=server.guild.id, **where)
        self.runner: ClientRunner | None = None
        self.starts = 0

    @property
    def bot(self) -> Any:
        assert self.runner is not None, "the bot is not running"
        return self.runner.client

    async def start(self) -> Any:
        rng = random.Random(self.seed) if self.seed is not None else None
        extra: dict[str, Any] = {}
        if self.storage_url is not None:
            from storage import open_storage

            extra["storage"] = await open_storage(self.storage_url)  # the bot closes it
        client = self.module.build_bot(self.settings, clock=self.clock, rng=rng,
                                       guild_ready_timeout=GUILD_READY_TIMEOUT, **extra)
        self.runner = ClientRunner(self.server, client, self.settings.token)
        self.starts += 1
        return await self.runner.start()

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.close()
            self.runner = None

    async def restart(self) -> Any:
        """Close the bot as on shutdown and start a fresh one on the same database."""
        await self.close()
        return await self.start()


@contextlib.asynccontextmanager
async def running_bot(server: FakeDiscord, folder: Path, **options: Any) -> AsyncIterator[RumpusHarness]:
    """The real bot on `server` with a database in `folder` (options: see RumpusHarness); with
    RUMPUS_TEST_DATABASE=postgresql, on a fresh PostgreSQL database, dropped afterwards."""
    database = await database_for_test(folder)
    try:
        harness = RumpusHarness(server, database, **options)
        await harness.start()
        try:
            yield harness
        finally:
            await harness.close()
    finally:
        await release_database_for_test(database)


@pytest.fixture
async def bot_harness(fake_discord: FakeDiscord, tmp_path: Path,
                      request: pytest.FixtureRequest) -> AsyncIterator[RumpusHarness]:
    """Seeded by the test's name: every run of a test deals the same games (a test that must
    hold for any deal says so with its own seeds)."""
    seed = zlib.crc32(request.node.nodeid.encode())
    async with running_bot(fake_discord, tmp_path, seed=seed) as harness:
        yield harness


@pytest.fixture
async def bot(bot_harness: RumpusHarness) -> Any:
    """The running real bot (ready, commands synced to the fake guild)."""
    return bot_harness.bot


@pytest.fixture
def restart_bot(bot_harness: RumpusHarness) -> Callable[[], Awaitable[Any]]:
    """`new_bot = await restart_bot()`: close the bot and start a fresh one on the same database."""
    return bot_harness.restart
