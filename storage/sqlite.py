"""The SQLite backend: one aiosqlite connection; a write runs at once on the event loop, a read
in one hop to the connection's thread.

aiosqlite runs everything in order on its one thread. A transaction made of several awaits
could interleave with another coroutine's statements, so a whole transaction body
(storage.sql) is driven by one function: atomic, whether on that thread or not. Reads are
driven on the thread, without BEGIN (each statement sees committed rows): one may scan a
table. A write is a step's few rows (a commit, a ping's bookkeeping), which SQLite in WAL
mode commits in tens of microseconds, less than a hop to the thread and back costs the
process: it runs on the event loop, at once, unless a read or write is on the thread then
(it queues behind it there, so nothing interleaves on the one connection).

Durability: WAL with synchronous=NORMAL. A committed transaction survives the bot process
being killed at any moment (it is in the WAL, in the OS); only a power cut may lose the last
few commits, which is the usual trade for a chat bot.
"""

from __future__ import annotations

import asyncio
import functools
import os
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from storage.migrations import BACKFILLS, LATEST, MIGRATIONS
from storage.sql import Query, Tx, UniqueViolation

T = TypeVar("T")


class SqliteBackend:
    #: One process owns the file.
    shared = False
    dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self.connection = connection
        self.path = path
        #: Transactions queued or running on the connection's thread (a write runs on the
        #: event loop only when there are none).
        self.on_thread = 0

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> SqliteBackend:
        path = os.fspath(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # check_same_thread off: writes run on the event loop's thread, never at once with the
        # connection's own (see `run`)
        connection = await aiosqlite.connect(path, isolation_level=None, check_same_thread=False)
        connection.row_factory = aiosqlite.Row
        backend = cls(connection, path)
        try:
            # busy_timeout first: another process opening the same new file at once holds its
            # lock while it turns WAL on or migrates.
            await connection.execute("PRAGMA busy_timeout=5000")
            await _enable_wal(connection)
            for pragma in ("synchronous=NORMAL", "foreign_keys=ON"):
                await connection.execute(f"PRAGMA {pragma}")
            await backend.migrate()
        except BaseException:
            await connection.close()
            raise
        return backend

    async def close(self) -> None:
        await self.connection.close()

    async def run(self, body: Tx[T], *, write: bool) -> T:
        """Drive `body`: a write in one IMMEDIATE transaction (rolled back on error), on the
        event loop when nothing is on the connection's thread; a read on that thread."""

        def transaction() -> T:
            conn: sqlite3.Connection = self.connection._conn  # aiosqlite's own sqlite3 connection
            if not write:
                return _drive(conn, body)
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = _drive(conn, body)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

        if write and self.on_thread == 0:
            return transaction()
        self.on_thread += 1
        try:
            return await _on_thread(self.connection, transaction)
        finally:
            self.on_thread -= 1

    async def statement(self, query: Query) -> Any:
        """One statement in its own write transaction."""

        def body() -> Tx[Any]:
            return (yield query)

        return await self.run(body(), write=True)

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        assert row is not None  # the pragma always answers one row
        return int(row[0])

    async def migrate(self) -> int:
        """Apply every migration newer than the file's user_version; return the new version."""
        # Runs once at open, before anything else uses the connection.
        current = await self.schema_version()
        if current > LATEST:
            raise RuntimeError(f"database schema {current} is newer than this code ({LATEST}); upgrade Rumpus")
        for number in range(current + 1, LATEST + 1):
            await _on_thread(self.connection, functools.partial(_migration_step, self.connection._conn, number))
        return LATEST


async def _on_thread(connection: aiosqlite.Connection, work: Callable[[], T]) -> T:
    """Run `work` on the connection's thread, in turn with everything else it runs: aiosqlite's
    queue (`_execute`, private and untyped; its signature is stated here, once)."""
    execute = cast(Callable[[Callable[[], T]], Awaitable[T]], connection._execute)
    return await execute(work)


async def _enable_wal(connection: aiosqlite.Connection, patience: float = 5.0) -> None:
    """Switch the file to WAL. Switching takes the file's exclusive lock and SQLite answers
    BUSY at once, without its busy handler, when another connection holds any lock: retry."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    while True:
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or loop.time() > deadline:
                raise
            await asyncio.sleep(0.02)


def _migration_step(conn: sqlite3.Connection, number: int) -> None:
    """Apply migration `number` unless another process sharing the file (shards started
    together) got there first: the version is re-read under the write lock. The script runs
    statement by statement because executescript would commit the open transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] < number:
            for statement in _statements(MIGRATIONS[number - 1]):
                conn.execute(statement)
            if number in BACKFILLS:
                _drive(conn, BACKFILLS[number]())
            conn.execute(f"PRAGMA user_version = {number}")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _statements(script: str) -> list[str]:
    """Split a script into whole statements (sqlite3.complete_statement knows triggers and
    quoted semicolons)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip() and not pending.strip().startswith("--"):
        raise ValueError(f"incomplete statement at the end of a migration: {pending.strip()[:60]!r}")
    return [s for s in statements if s.rstrip(";").strip()]


def _drive(conn: sqlite3.Connection, body: Tx[T]) -> T:
    reply: Any = None
    try:
        while True:
            query = body.send(reply)
            if query.want == "lock":
                reply = None  # BEGIN IMMEDIATE already holds the database's one write lock
                continue
            try:
                cursor = conn.execute(query.sql, query.params)
            except sqlite3.IntegrityError as error:
                if "UNIQUE" in str(error):
                    raise UniqueViolation(str(error)) from error
                raise
            if query.want == "count":
                reply = cursor.rowcount
            elif query.want == "one":
                reply = cursor.fetchone()
            else:
                reply = cursor.fetchall()
    except StopIteration as done:
        result: T = done.value  # what the body returned: a Tx[T] returns a T
        return result
    finally:
        body.close()
