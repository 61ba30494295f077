"""Persistence: the only package that speaks SQL — SQLite (aiosqlite, one file, the default) or
PostgreSQL (asyncpg, for several bot processes); `open_storage` picks by the target."""

from __future__ import annotations

from storage.database import ChannelBusy, StaleVersion, Storage, open_storage
from storage.records import (
    Deadline,
    GameRecord,
    PairRecord,
    RatingRecord,
    RatingUpdate,
    ResultRecord,
    SeatRecord,
    Status,
)

__all__ = ["ChannelBusy", "Deadline", "GameRecord", "PairRecord", "RatingRecord", "RatingUpdate", "ResultRecord",
           "SeatRecord", "StaleVersion", "Status", "Storage", "open_storage"]
