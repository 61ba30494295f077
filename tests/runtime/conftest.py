from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from runtime.clock import ManualClock
from runtime.service import TableService
from storage import Storage
from tests.pg import postgres_selected

GUILD, CHANNEL = 1000, 2000
ALICE, BOB, CAROL, DAVE, EVE = 11, 12, 13, 14, 15


@pytest.fixture
def db_path(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """The test's database for `Storage.open`: a SQLite file in its folder, or with
    RUMPUS_TEST_DATABASE=postgresql a fresh PostgreSQL database's URL (a str; `Storage.open`
    takes either)."""
    if postgres_selected():
        return request.getfixturevalue("postgres_url")  # type: ignore[no-any-return]
    return tmp_path / "rumpus.db"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(db_path)
    yield store
    await store.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def service(storage: Storage, clock: ManualClock) -> TableService:
    return TableService(storage, clock, random.Random(42))


async def started_game(service: TableService, users: list[int], **options: object) -> int:
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens",
                                    host_id=users[0], host_name=f"user{users[0]}", options=options)
    for user in users[1:]:
        await service.join(game.id, user, f"user{user}")
    await service.start(game.id, users[0])
    return game.id


async def play_first(service: TableService, game_id: int) -> None:
    """The seat in turn plays its first token."""
    game = await service.game(game_id)
    seat = game.state["turn"]
    token = game.state["hands"][seat][0]["id"]
    await service.act(game_id, game.user_of(seat), {"type": "play", "token": token})
