"""What every room of the Storage service shares (storage.database composes them): the
backend it drives, how a transaction body is run, JSON in and out of a row, rows into records,
and the errors a caller handles (StaleVersion, ChannelBusy).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import orjson

from storage.records import GameRecord, RatingRecord, SeatRecord, Status
from storage.sql import Query, Tx

if TYPE_CHECKING:
    import aiosqlite

T = TypeVar("T")

_GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, kind, host_id, options, status, version, seed, state,"
    " deadlines, log, table_message_id, table_message_at, created_at, updated_at, last_at, nonce,"
    " table_version, lobby_message_id, log_total, ping_message_id, practice"
)
_SEAT_COLUMNS = "seat, user_id, name, dm_ok, dm_channel_id, dm_message_id, dm_message_at, seen_log, team, computer"
_RATING_COLUMNS = "guild_id, kind, user_id, mu, sigma, games, wins"


class StaleVersion(Exception):
    """The game changed since the caller loaded it (another action won the race)."""


class ChannelBusy(Exception):
    """The channel already has a live game without a thread (one lobby per channel)."""


class Backend(Protocol):
    shared: bool
    #: "sqlite" or "postgresql": the one method that differs (commit_action's common case).
    dialect: str

    async def run(self, body: Tx[T], *, write: bool) -> T: ...

    async def statement(self, query: Query) -> Any: ...

    async def close(self) -> None: ...

    async def schema_version(self) -> int: ...

    async def migrate(self) -> int: ...


def _dumps(value: Any) -> str:
    """Compact JSON text through orjson (several times faster than `json`; every action
    writes the state, deadlines, log and action); `json` for what orjson refuses (an
    integer past 64 bits, kept whole for the action log, which `json` reads back)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def _loads(text: str | bytes) -> Any:
    """A game row's JSON (state, deadlines, log, options: values the engines already copy
    through orjson, see games.core.copy_state). The action log is read with `json`, which
    keeps an integer past 64 bits whole where orjson would turn it into a float."""
    return orjson.loads(text)


def _marks(n: int) -> str:
    return ",".join("?" * n)



class StorageBase:
    """The backend and how the rooms run their transaction bodies on it."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    @property
    def shared(self) -> bool:
        """True when several processes may use this database at once (PostgreSQL)."""
        return self.backend.shared

    @property
    def path(self) -> str:
        """Where the database is: the SQLite file, or the PostgreSQL URL."""
        return str(getattr(self.backend, "path", None) or getattr(self.backend, "url", ""))

    @property
    def _db(self) -> aiosqlite.Connection:
        """The SQLite backend's aiosqlite connection (tests read PRAGMAs through it)."""
        from storage.sqlite import SqliteBackend  # only a SQLite storage has one

        if not isinstance(self.backend, SqliteBackend):
            raise AttributeError(f"a {self.backend.dialect} storage has no SQLite connection")
        return self.backend.connection

    async def close(self) -> None:
        await self.backend.close()

    async def schema_version(self) -> int:
        return await self.backend.schema_version()

    async def migrate(self) -> int:
        return await self.backend.migrate()

    async def _write(self, body: Tx[T]) -> T:
        return await self.backend.run(body, write=True)

    async def _read(self, body: Tx[T]) -> T:
        return await self.backend.run(body, write=False)

    async def _transaction(self, statements: Sequence[Query]) -> list[int]:
        """Run statements in one transaction; return each statement's row count."""

        def body() -> Tx[list[int]]:
            counts = []
            for statement in statements:
                counts.append((yield statement))
            return counts

        return await self._write(body())

    async def _query(self, query: Query) -> Any:
        def body() -> Tx[Any]:
            return (yield query)

        return await self._read(body())


def _game_from_row(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], thread_id=row[3], kind=row[4],
        host_id=row[5], options=_loads(row[6]), status=Status(row[7]), version=row[8],
        seed=row[9], state=_loads(row[10]) if row[10] is not None else None,
        deadlines=_loads(row[11]), log=_loads(row[12]), table_message_id=row[13],
        table_message_at=row[14], created_at=row[15], updated_at=row[16], last_at=row[17],
        nonce=row[18], table_version=row[19], lobby_message_id=row[20], log_total=row[21],
        ping_message_id=row[22], practice=bool(row[23]),
    )


def _seat_from_row(r: Sequence[Any]) -> SeatRecord:
    return SeatRecord(r[0], r[1], r[2], bool(r[3]), r[4], r[5], r[6], r[7], r[8], bool(r[9]))


def _rating_from_row(r: Sequence[Any]) -> RatingRecord:
    return RatingRecord(r[0], r[1], r[2], r[3], r[4], r[5], r[6])
