"""The Storage service: games, seats, the action log, results and ratings, on SQLite (the
default: one file, nothing to install) or PostgreSQL (several bot processes at once).

Every method is written once: its queries form a transaction body (storage.sql) that the
backend drives — SQLite in one hop to its thread (storage.sqlite), PostgreSQL in one async
transaction on a pooled connection (storage.postgres). `open_storage(target)` picks the
backend: a `postgresql://` URL, else a SQLite path.

Exactly-once across processes rests on the database, never on a lock held across a Discord
call: a commit is a version compare-and-set (StaleVersion when another action won); rating
updates of one server and game are serialised by a lock that lives only as long as the
transaction (RatingUpdate); one live game per channel is a unique index (ChannelBusy).

`Storage` is the one object callers hold; its rooms, one job each, share storage.base:
storage.seats (seats and players), storage.games (games; reads them with their seats),
storage.actionlog (a step's commit and the log), storage.results (results and ratings) and
storage.processes (several processes on one database).
"""

from __future__ import annotations

import os

from storage.actionlog import GAME_SEAT, ActionLog
from storage.base import Backend, ChannelBusy, StaleVersion, _dumps, _loads
from storage.games import Games
from storage.processes import Processes
from storage.results import Results

__all__ = ["GAME_SEAT", "Backend", "ChannelBusy", "StaleVersion", "Storage", "_dumps", "_loads", "open_storage"]

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Storage(Games, ActionLog, Results, Processes):
    """Every query of the bot, on one backend."""

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Storage:
        """Open (creating if needed) and migrate the SQLite database at `path` — or, given a
        `postgresql://` URL, the PostgreSQL database there (as `open_storage`)."""
        from storage.sqlite import SqliteBackend

        if isinstance(path, str) and path.startswith(_POSTGRES_SCHEMES):
            return await cls.open_postgres(path)
        return cls(await SqliteBackend.open(path))

    @classmethod
    async def open_postgres(cls, url: str) -> Storage:
        """Connect to (and migrate) the PostgreSQL database at `url`."""
        from storage.postgres import PostgresBackend

        return cls(await PostgresBackend.open(url))



async def open_storage(target: str | os.PathLike[str]) -> Storage:
    """`postgresql://…` (or `postgres://…`) → the PostgreSQL backend; anything else is a SQLite
    file path (created if needed). Either way migrated to the latest schema."""
    return await Storage.open(os.fspath(target))
