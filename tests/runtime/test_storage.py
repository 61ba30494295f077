"""Storage on a real SQLite file: what only SQLite has (the file, PRAGMAs, old files). The
contract both backends keep is tests/storage/."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import StaleVersion, Storage
from storage.migrations import LATEST


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A SQLite file whatever RUMPUS_TEST_DATABASE says: these tests are about SQLite."""
    return tmp_path / "rumpus.db"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(db_path)
    yield store
    await store.close()


async def test_migrations_run_on_an_empty_database(db_path: Path) -> None:
    store = await Storage.open(db_path)
    assert await store.schema_version() == LATEST
    await store.close()
    tables = {r[0] for r in sqlite3.connect(db_path).execute("SELECT name FROM sqlite_master")}
    assert {"games", "seats", "actions", "results", "ratings"} <= tables


async def test_migrations_keep_an_existing_database(db_path: Path) -> None:
    store = await Storage.open(db_path)
    game_id = await store.create_game(guild_id=1, channel_id=2, kind="tokens", host_id=3,
                                      host_name="h", options={}, seed=9, now=1.0)
    await store.close()
    again = await Storage.open(db_path)
    assert await again.schema_version() == LATEST
    game = await again.game(game_id)
    assert game is not None and game.seed == 9 and game.seats[0].user_id == 3
    await again.close()


async def test_a_database_from_the_future_is_refused(db_path: Path) -> None:
    con = sqlite3.connect(db_path)
    con.execute(f"PRAGMA user_version = {LATEST + 1}")
    con.close()
    with pytest.raises(RuntimeError, match="newer"):
        await Storage.open(db_path)


async def test_wal_and_foreign_keys_are_on(storage: Storage) -> None:
    async with storage._db.execute("PRAGMA journal_mode") as c:
        assert (await c.fetchone())[0] == "wal"
    async with storage._db.execute("PRAGMA foreign_keys") as c:
        assert (await c.fetchone())[0] == 1


async def test_commit_at_a_stale_version_changes_nothing(storage: Storage) -> None:
    game_id = await storage.create_game(guild_id=1, channel_id=2, kind="tokens", host_id=3,
                                        host_name="h", options={}, seed=9, now=1.0)
    await storage.start_game(game_id, state={"x": 0}, deadlines=[], log=[], thread_id=None, now=1.0)
    kwargs = dict(seat=0, action={"type": "a"}, at=2.0, deadlines=[], log=[], finished=False, now=2.0)
    assert await storage.commit_action(game_id, expected_version=1, state={"x": 1}, **kwargs) == 2
    with pytest.raises(StaleVersion):
        await storage.commit_action(game_id, expected_version=1, state={"x": 99}, **kwargs)
    game = await storage.game(game_id)
    assert game.state == {"x": 1} and game.version == 2
    assert [a.seq for a in await storage.actions(game_id)] == [2]


async def test_lobby_seats_close_gaps_when_someone_leaves(storage: Storage) -> None:
    game_id = await storage.create_game(guild_id=1, channel_id=2, kind="tokens", host_id=3,
                                        host_name="h", options={}, seed=9, now=1.0)
    for user in (4, 5, 6):
        await storage.add_seat(game_id, user, f"u{user}")
    await storage.remove_seat(game_id, 4)
    seats = await storage.seats(game_id)
    assert [(s.seat, s.user_id) for s in seats] == [(0, 3), (1, 5), (2, 6)]


async def test_a_version_1_database_migrates_and_keeps_its_games(db_path: Path) -> None:
    from storage.migrations import MIGRATIONS

    con = sqlite3.connect(db_path)
    con.executescript(MIGRATIONS[0] + "\nPRAGMA user_version = 1;")
    con.execute("INSERT INTO games (guild_id, channel_id, kind, host_id, seed, created_at, updated_at)"
                " VALUES (1, 2, 'tokens', 3, 4, 0, 0)")
    con.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (1, 0, 3, 'h')")
    con.commit()
    con.close()
    store = await Storage.open(db_path)
    assert await store.schema_version() == LATEST
    [seat] = await store.seats(1)
    assert seat.user_id == 3 and seat.dm_message_at is None
    await store.close()
