"""PostgreSQL round trips: a common step's commit is one statement (no BEGIN, no COMMIT) and a
connection goes back to the pool without a reset query."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from storage import StaleVersion, Storage, open_storage
from tests.storage.test_contract import running, step


@pytest.fixture
async def store(postgres_url: str) -> AsyncIterator[Storage]:
    opened = await open_storage(postgres_url)
    yield opened
    await opened.close()


def count_round_trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    sent: list[str] = []
    for name in ("execute", "fetch", "fetchrow", "fetchval"):
        method = getattr(asyncpg.Connection, name)

        def counted(self: Any, query: str, *args: Any, __method: Any = method, **kwargs: Any) -> Any:
            sent.append(query.split()[0].upper())
            return __method(self, query, *args, **kwargs)

        monkeypatch.setattr(asyncpg.Connection, name, counted)
    return sent


async def test_a_common_step_is_one_round_trip(store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = await running(store)
    sent = count_round_trips(monkeypatch)
    assert await store.commit_action(game_id, **step(1)) == 2
    assert sent == ["WITH"]
    with pytest.raises(StaleVersion):
        await store.commit_action(game_id, **step(1))
    assert await store.game_version(game_id) == 2
    assert sent == ["WITH", "WITH", "SELECT"]
    game = await store.game(game_id)
    assert game.state == {"x": 1} and [a.seq for a in await store.actions(game_id)] == [2]

