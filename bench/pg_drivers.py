#!/usr/bin/env python3
"""asyncpg vs psycopg 3 (async) on the storage's own hottest transaction: `commit_action`
(UPDATE of a ~4 KiB JSON state with the version compare-and-set, INSERT into the action log,
BEGIN/COMMIT) and the cheap `game_version` read, through the real Storage. asyncpg drives it
with storage.postgres; psycopg with a minimal backend here (pooled, prepared statements).

    python bench/pg_drivers.py [--commits 2000]      # needs: pip install "psycopg[binary]" psycopg-pool

Starts its own throw-away server (tests/pg.py: durability off, as in tests). One connection
in turn, then 8 games committing concurrently (a pool's worth). Last line: one JSON object,
per driver: commit p50/p99 in ms, commits/s with 8 games committing concurrently, read p50 in ms, CPU ms
per commit (this process).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from storage import Storage  # noqa: E402
from storage.postgres import PostgresBackend  # noqa: E402
from storage.sql import Tx  # noqa: E402
from tests import pg  # noqa: E402

T = TypeVar("T")
STATE = {"hands": [[{"id": i, "v": i * 7} for i in range(40)] for _ in range(4)], "log": ["x" * 60] * 20}


class PsycopgBackend:
    """Just enough of a storage backend on psycopg 3 to drive the same transaction bodies."""

    shared = True

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    async def run(self, body: Tx[T], *, write: bool) -> T:
        async with self.pool.connection() as conn:
            if write:
                async with conn.transaction():
                    return await self._drive(conn, body)
            return await self._drive(conn, body)

    async def _drive(self, conn: Any, body: Tx[T]) -> T:
        reply: Any = None
        try:
            while True:
                query = body.send(reply)
                cursor = await conn.execute(query.sql.replace("?", "%s"), query.params, prepare=True)
                if query.want == "count":
                    reply = cursor.rowcount
                elif query.want == "one":
                    reply = await cursor.fetchone()
                else:
                    reply = await cursor.fetchall()
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]

    async def close(self) -> None:
        await self.pool.close()


async def open_psycopg(url: str) -> Storage:
    from psycopg_pool import AsyncConnectionPool

    pool = AsyncConnectionPool(url, min_size=8, max_size=8, open=False)
    await pool.open()
    return Storage(PsycopgBackend(pool))  # type: ignore[arg-type]


async def open_asyncpg(url: str) -> Storage:
    return Storage(await PostgresBackend.open(url, min_size=8, max_size=8))


async def measure(store: Storage, commits: int) -> dict[str, float]:
    games = []
    for channel in range(8):
        game_id = await store.create_game(guild_id=1, channel_id=channel, kind="tokens", host_id=1,
                                          host_name="h", options={}, seed=1, now=0.0)
        await store.start_game(game_id, state=STATE, deadlines=[], log=[], thread_id=None, now=0.0)
        games.append(game_id)

    async def commit(game_id: int, version: int) -> None:
        await store.commit_action(game_id, expected_version=version, seat=0, action={"type": "play"},
                                  at=1.0, state=STATE, deadlines=[{"seat": 1, "at": 60.0}], log=["l"],
                                  finished=False, now=1.0, log_added=1)

    cpu, times, reads = time.process_time(), [], []
    for version in range(1, commits + 1):
        start = time.perf_counter()
        await commit(games[0], version)
        times.append(time.perf_counter() - start)
    cpu_per_commit = (time.process_time() - cpu) / commits
    for _ in range(commits):
        start = time.perf_counter()
        await store.game_version(games[0])
        reads.append(time.perf_counter() - start)

    async def worker(game_id: int, first: int) -> None:
        for version in range(first, first + commits // 8):
            await commit(game_id, version)

    start = time.perf_counter()
    await asyncio.gather(*(worker(g, commits + 1 if g == games[0] else 1) for g in games))
    parallel = (commits // 8 * 8) / (time.perf_counter() - start)
    times.sort()
    return {"commit_p50_ms": round(statistics.median(times) * 1000, 3),
            "commit_p99_ms": round(times[int(len(times) * 0.99)] * 1000, 3),
            "commits_per_s_concurrent": round(parallel),
            "read_p50_ms": round(statistics.median(reads) * 1000, 3),
            "cpu_ms_per_commit": round(cpu_per_commit * 1000, 3)}


async def main(commits: int) -> None:
    out = {}
    for name, opener in (("asyncpg", open_asyncpg), ("psycopg", open_psycopg),
                         ("asyncpg_again", open_asyncpg), ("psycopg_again", open_psycopg)):
        url = await pg.fresh_postgres_url()
        store = await opener(url)
        try:
            out[name] = await measure(store, commits)
        finally:
            await store.close()
            await pg.drop_postgres_database(url)
        print(name, out[name], flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commits", type=int, default=2000)
    try:
        asyncio.run(main(parser.parse_args().commits))
    finally:
        pg.stop_server()
