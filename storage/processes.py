"""Processes: several bot processes on one shared database (PostgreSQL) — each one's heartbeat
and shards, which peers are alive, the identify slots they share without colliding, and the
games the others move (heard, never polled).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from storage.base import StorageBase, _dumps
from storage.sql import Tx, count, one, rows


class Processes(StorageBase):
    """The processes and identify_slots tables."""

    async def heartbeat(self, process_id: str, shards: list[int], now: float) -> None:
        """This process is alive and owns `shards` (its first beat records when it started)."""
        await self._transaction([count(
            "INSERT INTO processes (id, shards, started_at, seen_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET shards = excluded.shards, seen_at = excluded.seen_at",
            process_id, _dumps(list(shards)), now, now,
        )])

    async def live_peers(self, process_id: str, now: float, within: float = 30.0) -> list[str]:
        """The other processes whose last heartbeat is at most `within` seconds old."""
        found = await self._query(rows(
            "SELECT id FROM processes WHERE id != ? AND seen_at >= ? ORDER BY id", process_id, now - within))
        return [r[0] for r in found]

    async def retire(self, process_id: str) -> None:
        """A process leaving cleanly: no longer counted as live."""
        await self._transaction([count("DELETE FROM processes WHERE id = ?", process_id)])

    async def hear_commits(self, moved: Callable[[int, int], None], lost: Callable[[], None]) -> bool:
        """Call `moved(game id, version)` after every committed change of a game's version by
        any process (version -1: its status alone changed), until `lost()` says no more will
        be heard. False where the database cannot tell (SQLite: one process, nothing to hear)."""
        listen = getattr(self.backend, "listen", None)
        if listen is None:
            return False
        await listen(moved, lost)
        return True

    async def claim_identify(self, bucket: int, now: float, spacing: float = 5.0) -> float:
        """Reserve the next identify slot of a max_concurrency bucket, across processes: the
        time the caller may identify at (now, or `spacing` after the last slot claimed). One
        statement, so two processes never get the same slot."""
        row = await self._write(_claim_body(bucket, now, spacing))
        return float(row[0]) - spacing


def _claim_body(bucket: int, now: float, spacing: float) -> Tx[Any]:
    return (yield one(
        "INSERT INTO identify_slots (bucket, next_at) VALUES (?, ?) ON CONFLICT (bucket) DO UPDATE SET"
        " next_at = CASE WHEN identify_slots.next_at > ? THEN identify_slots.next_at ELSE ? END + ?"
        " RETURNING next_at",
        bucket, now + spacing, now, now, spacing,
    ))
