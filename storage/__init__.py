"""Persistence: the only package that speaks SQL (aiosqlite, one database file)."""

from __future__ import annotations

from storage.database import StaleVersion, Storage
from storage.records import GameRecord, PairRecord, RatingRecord, ResultRecord, SeatRecord, Status

__all__ = ["GameRecord", "PairRecord", "RatingRecord", "ResultRecord", "SeatRecord", "StaleVersion", "Status", "Storage"]
