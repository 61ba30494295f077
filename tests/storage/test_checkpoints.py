"""SQLite's write-ahead log is checkpointed on a thread of its own, not inside a commit on the
event loop (which stopped every game for the copy and its syncs, 17-26 ms each time)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

from storage import Storage
from storage.sql import Query
from storage.sqlite import SqliteBackend


async def test_commits_never_checkpoint_and_the_checkpointer_copies_the_log_back(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    storage = await Storage.open(path)
    backend = storage.backend
    assert isinstance(backend, SqliteBackend) and backend.checkpoints is not None
    try:
        async with backend.connection.execute("PRAGMA wal_autocheckpoint") as cursor:
            assert (await cursor.fetchone())[0] == 0  # no commit copies the log itself
        backend.checkpoints.every = 0.05
        await backend.statement(_query("CREATE TABLE filler (id INTEGER PRIMARY KEY, data BLOB)"))
        size = os.path.getsize(path)
        for n in range(300):  # far past 1,000 pages of log, where SQLite would checkpoint inside a commit
            await backend.statement(_query("INSERT INTO filler (data) VALUES (?)", os.urandom(16_000)))
        assert os.path.getsize(path) == size  # the commits left everything in the log
        for _ in range(100):
            await asyncio.sleep(0.05)
            if backend.checkpoints.done and os.path.getsize(path) > size + 4_000_000:
                break
        assert backend.checkpoints.done >= 1
        assert os.path.getsize(path) > size + 4_000_000  # the rows are in the database file now
        await backend.statement(_query("INSERT INTO filler (data) VALUES (?)", b"after"))  # commits go on
    finally:
        await storage.close()
    with sqlite3.connect(path) as check:
        assert check.execute("SELECT COUNT(*) FROM filler").fetchone()[0] == 301


async def test_a_store_without_commits_does_not_checkpoint(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "r.db")
    backend = storage.backend
    assert isinstance(backend, SqliteBackend) and backend.checkpoints is not None
    backend.checkpoints.every = 0.02
    await asyncio.sleep(0.1)
    assert backend.checkpoints.done == 0
    await storage.close()


def _query(sql: str, *params: object) -> Query:
    return Query(sql, params, "count")
