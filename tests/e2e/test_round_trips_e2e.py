"""PostgreSQL round trips per action through the whole bot (issue 21 item 5): a press, its
answer and everything published for it, counted on the bot's own connection pool. At most 3 in
the common case: the process knows its copy is current (no other process said it moved the
game), so neither the step nor the publish asks the database for the game's version."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import RumpusHarness
from tests.e2e.test_table_e2e import hand_message, open_table, play_turn
from tests.fakediscord import FakeDiscord
from tests.pg import NoPostgres, drop_postgres_database, fresh_postgres_url


class CountingConnection:
    """An asyncpg connection whose every statement, BEGIN and COMMIT is one counted round trip."""

    def __init__(self, conn: Any, sent: list[str]) -> None:
        self._conn, self._sent = conn, sent

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._conn, name)
        if name in {"execute", "fetch", "fetchrow", "fetchval"}:
            async def counted(sql: str, *args: Any, **kwargs: Any) -> Any:
                self._sent.append(" ".join(sql.split()))
                return await attribute(sql, *args, **kwargs)
            return counted
        if name == "transaction":
            def transaction(*args: Any, **kwargs: Any) -> Any:
                self._sent.extend(["BEGIN", "COMMIT"])
                return attribute(*args, **kwargs)
            return transaction
        return attribute


class CountingPool:
    """The pool the storage acquires from, handing out counting connections."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool
        self.sent: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pool, name)

    @contextlib.asynccontextmanager
    async def acquire(self) -> AsyncIterator[CountingConnection]:
        async with self._pool.acquire() as conn:
            yield CountingConnection(conn, self.sent)


@pytest.fixture
async def pg_bot(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[RumpusHarness]:
    try:
        url = await fresh_postgres_url()
    except NoPostgres as exc:  # pragma: no cover - the server ships as a dev dependency
        pytest.skip(str(exc))
    harness = RumpusHarness(fake_discord, url, seed=21)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.close()
        await drop_postgres_database(url)


async def test_a_press_through_the_bot_takes_at_most_three_round_trips(
        fake_discord: FakeDiscord, pg_bot: RumpusHarness) -> None:
    alice, bob, carol = fake_discord.user("alice"), fake_discord.user("bob"), fake_discord.user("carol")
    players = [alice, bob, carol]
    await open_table(fake_discord, alice, bob, carol)
    await play_turn(fake_discord, players)  # every statement prepared once, as in a running bot
    await fake_discord.idle()
    backend = pg_bot.bot.service.storage.backend
    counting = CountingPool(backend.pool)
    backend.pool = counting
    try:
        turns = 4
        for _ in range(turns):
            await play_turn(fake_discord, players)
            await fake_discord.idle()
    finally:
        backend.pool = counting._pool
    assert all(hand_message(p) for p in players)
    per_action = len(counting.sent) / turns
    assert per_action <= 3, f"{per_action} round trips per action: {counting.sent}"
