"""The storage contract runs on both backends: `store` is parametrised over SQLite (a file in
the test's folder) and PostgreSQL (a fresh database on the test server, tests/pg.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from storage import Storage, open_storage


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where the test's database lives: a SQLite path or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "rumpus.db")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def connect(target: str) -> AsyncIterator[Callable[[], Awaitable[Storage]]]:
    """`await connect()`: another Storage on the test's database (as a second process would
    have); each is closed after the test."""
    opened: list[Storage] = []

    async def another() -> Storage:
        store = await open_storage(target)
        opened.append(store)
        return store

    yield another
    for store in opened:
        await store.close()


@pytest.fixture
async def store(connect: Callable[[], Awaitable[Storage]]) -> Storage:
    return await connect()
