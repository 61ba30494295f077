"""The PostgreSQL backend (asyncpg): a pool of connections; each write body runs in one
transaction on one connection, each read body on one connection without a transaction.

Why asyncpg rather than psycopg 3 (measured by bench/pg_drivers.py on this project's 2-core
machine, server on loopback, both with prepared statements and a pool): through the real
Storage, `commit_action` (an UPDATE of a ~4 KiB JSON state with the version compare-and-set,
an INSERT into the action log, BEGIN/COMMIT) took 1.2-1.4 ms at p50 on asyncpg against 1.47 ms
on psycopg, 0.93-0.98 ms of client CPU against 1.10-1.14 ms, and the one-row `game_version`
read 0.40-0.48 ms against 0.68 ms; 8 games committing at once ran at 711-946 against 802-832
commits/s (noise: the machine was shared). On the bare transaction without the Storage layer
the gap is wider: 0.71 against 1.08 ms per commit, 0.17 against 0.54 ms per read. asyncpg
speaks the binary protocol and caches prepared statements per connection by itself; the
storage needs nothing psycopg adds (a sync API, COPY helpers, an SQLAlchemy dialect).

Placeholders: bodies are written with `?`; each SQL text is translated once to `$1, $2, …`.
Locks: `storage.sql.lock(...)` becomes pg_advisory_xact_lock on a 64-bit hash of its name,
released by COMMIT or ROLLBACK — never held across anything but the transaction.
Migrations: the same steps as SQLite (storage.migrations.postgres_script translates the types),
tracked in a one-row schema_version table, each step under an advisory lock so processes
starting together migrate once.
Other processes' steps: a trigger on `games` NOTIFYs `GAMES_CHANNEL` ("id:version") in the
transaction that moves a game (NOTIFY is per database, and is sent only if that transaction
commits), so a process that `listen`s knows which cached games another process moved without
asking for their versions — and adds no round trip to any commit.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.migrations import BACKFILLS, LATEST, MIGRATIONS, postgres_script
from storage.sql import Query, Tx, UniqueViolation, lock

T = TypeVar("T")

log = logging.getLogger(__name__)

#: A connection a body runs on: the listener's own, or one the pool lends (a proxy to one).
Conn: TypeAlias = "asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]"

#: The channel the games trigger notifies: "<game id>:<version>" after each committed change
#: of a game's version, "<game id>:-1" after a change of its status alone.
GAMES_CHANNEL = "rumpus_games"

#: Made at every open (idempotent; not a migration step: SQLite has no NOTIFY).
_GAMES_TRIGGER = f"""
CREATE OR REPLACE FUNCTION rumpus_game_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{GAMES_CHANNEL}', NEW.id::text || ':' ||
        CASE WHEN NEW.version IS DISTINCT FROM OLD.version THEN NEW.version::text ELSE '-1' END);
    RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER rumpus_game_moved AFTER UPDATE ON games FOR EACH ROW
    WHEN (NEW.version IS DISTINCT FROM OLD.version OR NEW.status IS DISTINCT FROM OLD.status)
    EXECUTE FUNCTION rumpus_game_moved();
"""

#: The advisory lock migrations take (any process opening the database waits for it).
_MIGRATION_LOCK = lock("schema migration").params[0]


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """`?` placeholders → `$1, $2, …` (the storage's SQL never has `?` inside a literal)."""
    parts = sql.split("?")
    return "".join(part + (f"${i + 1}" if i < len(parts) - 1 else "") for i, part in enumerate(parts))


class PostgresBackend:
    #: Several processes may use the database at once.
    shared = True
    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record], url: str) -> None:
        self.pool = pool
        self.url = url
        #: The connection that LISTENs (`listen`), outside the pool.
        self._listener: asyncpg.Connection[asyncpg.Record] | None = None

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresBackend:
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size,
                                         statement_cache_size=512, reset=_nothing_to_reset)
        backend = cls(pool, url)
        try:
            await backend.migrate()
        except BaseException:
            await pool.close()
            raise
        return backend

    async def close(self) -> None:
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await listener.close()
        await self.pool.close()

    async def listen(self, moved: Callable[[int, int], None], lost: Callable[[], None]) -> None:
        """Call `moved(game id, version)` for each committed change of a game (by any process,
        this one too; version -1: its status alone changed), on a connection of its own; `lost()`
        once that connection is gone (no change is heard after it)."""

        def heard(conn: Conn, pid: int, channel: str, payload: object) -> None:
            game_id, _, version = str(payload).partition(":")
            try:
                moved(int(game_id), int(version))
            except ValueError:
                log.warning("unreadable notification %r on %s", payload, channel)

        def terminated(conn: Conn) -> None:
            if conn is self._listener:  # lost, not closed by `close`
                self._listener = None
                lost()

        conn = await asyncpg.connect(self.url)
        conn.add_termination_listener(terminated)
        await conn.add_listener(GAMES_CHANNEL, heard)
        self._listener = conn

    async def run(self, body: Tx[T], *, write: bool) -> T:
        async with self.pool.acquire() as conn:
            if not write:
                return await _drive(conn, body)
            async with conn.transaction():
                return await _drive(conn, body)

    async def statement(self, query: Query) -> Any:
        """One statement, atomic by itself: sent alone, without BEGIN and COMMIT around it
        (one round trip where a transaction body takes one per statement plus two)."""
        async with self.pool.acquire() as conn:
            return await _execute(conn, query)

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return await _version(conn)

    async def migrate(self) -> int:
        """Apply every step newer than the stored version, each in one transaction with its
        version bump, under an advisory lock (processes starting together migrate once)."""
        async with self.pool.acquire() as conn:
            while True:
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
                    current = await _version(conn)
                    if current > LATEST:
                        raise RuntimeError(
                            f"database schema {current} is newer than this code ({LATEST}); upgrade Rumpus")
                    if current == LATEST:
                        await conn.execute(_GAMES_TRIGGER)
                        return LATEST
                    number = current + 1
                    await conn.execute(postgres_script(MIGRATIONS[number - 1]))
                    if number in BACKFILLS:
                        await _drive(conn, BACKFILLS[number]())
                    await conn.execute("DELETE FROM schema_version")
                    await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)


async def _version(conn: Conn) -> int:
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    value = await conn.fetchval("SELECT MAX(version) FROM schema_version")
    return int(value or 0)


async def _drive(conn: Conn, body: Tx[T]) -> T:
    reply: Any = None
    try:
        while True:
            query = body.send(reply)
            if query.want == "lock":
                await conn.execute("SELECT pg_advisory_xact_lock($1)", query.params[0])
                reply = None
                continue
            reply = await _execute(conn, query)
    except StopIteration as done:
        result: T = done.value  # what the body returned: a Tx[T] returns a T
        return result
    finally:
        body.close()


async def _execute(conn: Conn, query: Query) -> Any:
    sql = numbered(query.sql)
    try:
        if query.want == "count":
            status = await conn.execute(sql, *query.params)
            return int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0
        if query.want == "one":
            return await conn.fetchrow(sql, *query.params)
        return await conn.fetch(sql, *query.params)
    except asyncpg.UniqueViolationError as error:
        raise UniqueViolation(f"{error.constraint_name}: {error}") from error


async def _nothing_to_reset(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """A connection goes back to the pool as it came: the storage sets no session state,
    listens to nothing, holds no cursor, and its locks end with their transaction (an open
    transaction is still rolled back by asyncpg itself). asyncpg's default reset is a query,
    one more round trip after every transaction."""
