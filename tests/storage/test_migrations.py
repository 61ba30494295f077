"""Migrations: from an empty database on both backends, from a version 4 SQLite file (the last
schema before PostgreSQL), and the PostgreSQL translation of each step."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from storage import Status, Storage, open_storage
from storage.migrations import LATEST, MIGRATIONS, postgres_script


def version_4_file(path: Path) -> None:
    """A SQLite file as Rumpus left it before migration 5: a running game with deadlines, a
    finished one, and two live lobbies in one channel (which the old code allowed)."""
    con = sqlite3.connect(path)
    for number, script in enumerate(MIGRATIONS[:4], start=1):
        con.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
    deadlines = [{"seat": 0, "at": 70.5}, {"seat": 1, "at": 40.25}, {"seat": None, "at": None}]
    rows = [
        (1, 2, None, "active", json.dumps(deadlines)),
        (2, 3, None, "finished", "[]"),
        (3, 4, None, "lobby", "[]"),
        (4, 4, None, "lobby", "[]"),
        (5, 4, 99, "active", "[]"),
    ]
    for game_id, channel, thread, status, dls in rows:
        con.execute("INSERT INTO games (id, guild_id, channel_id, thread_id, kind, host_id, status, seed,"
                    " deadlines, created_at, updated_at) VALUES (?, 1, ?, ?, 'tokens', 3, ?, 4, ?, 0, 0)",
                    (game_id, channel, thread, status, dls))
        con.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, 3, 'h')", (game_id,))
    con.execute("INSERT INTO results (game_id, user_id, seat, rank) VALUES (2, 3, 0, 0)")
    con.commit()
    con.close()


async def test_a_version_4_sqlite_file_migrates_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    version_4_file(path)
    store = await Storage.open(path)
    try:
        assert await store.schema_version() == LATEST
        assert await store.due_games(1000.0) == [(1, 40.25)]  # backfilled from the deadlines
        [seat] = await store.seats(1)
        assert seat.computer is False and seat.user_id == 3
        [result] = await store.recent_results(1, 3)
        assert result.versus_computer is False
        # the older of two live lobbies in one channel is cancelled; the game in a thread stays
        assert (await store.game(3)).status == Status.CANCELLED
        assert (await store.game(4)).status == Status.LOBBY and (await store.game(5)).status == Status.ACTIVE
    finally:
        await store.close()


async def test_a_failed_step_leaves_the_file_at_its_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.db"
    version_4_file(path)
    import storage.sqlite

    monkeypatch.setattr(storage.sqlite, "MIGRATIONS", [*MIGRATIONS[:4], MIGRATIONS[4] + "\nSELECT nonsense FROM nowhere;"])
    with pytest.raises(sqlite3.OperationalError):
        await Storage.open(path)
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 4
    assert "computer" not in {r[1] for r in con.execute("PRAGMA table_info(seats)")}
    con.close()


async def test_sqlite_migrates_once_when_several_processes_open_a_new_file_together(tmp_path: Path) -> None:
    """Sharded processes started together on one file: one turns WAL on and migrates, the
    others wait for it and find the schema done (it used to fail: 'table games already exists',
    'database is locked')."""
    import asyncio

    from storage.sqlite import SqliteBackend

    for attempt in range(8):
        path = tmp_path / f"new{attempt}.db"
        backends = await asyncio.gather(*(SqliteBackend.open(path) for _ in range(3)))
        try:
            assert [await b.schema_version() for b in backends] == [LATEST] * 3
        finally:
            for backend in backends:
                await backend.close()
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        con.close()


def test_a_migration_script_splits_into_whole_statements() -> None:
    from storage.sqlite import _statements

    script = ("-- a comment\nCREATE TABLE t (a TEXT DEFAULT ';');\nCREATE TRIGGER g AFTER INSERT ON t BEGIN\n"
              "  UPDATE t SET a = 'x;y';\nEND;\nCREATE INDEX i ON t (a);\n")
    table, trigger, index = _statements(script)
    assert table.endswith("DEFAULT ';');") and trigger.startswith("CREATE TRIGGER") and trigger.endswith("END;")
    assert index == "CREATE INDEX i ON t (a);"
    for statement in _statements("\n".join(MIGRATIONS)):
        assert sqlite3.complete_statement(statement)


async def test_a_postgres_database_from_the_future_is_refused(postgres_url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(postgres_url)
    await conn.execute("UPDATE schema_version SET version = $1", LATEST + 1)
    await conn.close()
    with pytest.raises(RuntimeError, match="newer"):
        await open_storage(postgres_url)


async def test_postgres_migrates_from_empty_once_when_two_processes_open_together(postgres_url: str) -> None:
    import asyncio

    import asyncpg

    conn = await asyncpg.connect(postgres_url)
    await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")  # as new
    await conn.close()
    stores = await asyncio.gather(open_storage(postgres_url), open_storage(postgres_url))
    try:
        assert [await s.schema_version() for s in stores] == [LATEST, LATEST]
        conn = await asyncpg.connect(postgres_url)
        assert await conn.fetchval("SELECT COUNT(*) FROM schema_version") == 1
        types = dict(await conn.fetch("SELECT column_name, data_type FROM information_schema.columns"
                                      " WHERE table_name = 'games'"))
        await conn.close()
        assert types["id"] == "bigint" and types["next_deadline"] == "double precision"
    finally:
        for store in stores:
            await store.close()


def test_the_postgres_translation_keeps_every_step_but_its_types() -> None:
    first = postgres_script(MIGRATIONS[0])
    assert "id               BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in first
    assert "WITHOUT ROWID" not in first and "INTEGER" not in first and " REAL" not in first
    assert "bucket  BIGINT PRIMARY KEY" in postgres_script(MIGRATIONS[4])
