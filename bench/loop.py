#!/usr/bin/env python3
"""Benchmark the action loop without Discord: N concurrent games of the Tokens test
engine through the real TableService and a real SQLite file (WAL, one transaction per
action), plus the messages each action triggers: the table (embed and buttons, as sent to
Discord) and the private hand of every seat whose view changed.

    python bench/loop.py --games 1000
    python bench/loop.py --games 1000 --database postgresql   # a throw-away server (tests/pg.py)
    python bench/loop.py --games 1000 --sequential            # one action at a time: its own cost

Prints a summary, then as its last line one JSON object:
{"games", "think_s", "sequential", "database", "actions", "p50_ms", "p99_ms", "max_ms", "actions_per_s",
 "cpu_ms_per_action", "kib_per_game", "rss_mib", "round_trips_per_action", "server_cpu_ms_per_action"}.
cpu_ms_per_action is this process's CPU (all threads) over the played actions, the figure that
machine noise moves least. On PostgreSQL the process hears the others' commits as the bot does
(GameCache.hear_commits), every statement, BEGIN and COMMIT on the pool is counted as a round
trip (the players' own reads of the game included, as the edge makes them), and the server's
CPU (the postmaster and all its processes, from /proc) is reported per action too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogs.table.present import render_private, render_table  # noqa: E402
from games.registry import load_game  # noqa: E402
from runtime.clock import SystemClock  # noqa: E402
from runtime.service import TableService  # noqa: E402
from storage import Storage  # noqa: E402
from tests.engines.tokens_ui import TokensUI  # noqa: E402

PLAYERS = 4
HAND = 5


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def play_one(service: TableService, game_id: int, latencies: list[float], ui: TokensUI,
                   jitter: random.Random, think: float) -> None:
    await asyncio.sleep(jitter.random() * think)  # games do not start in lockstep
    while True:
        # Players think between moves (exponential, mean `think` seconds); think=0 is a
        # saturation test where every game clicks as fast as the loop answers.
        await asyncio.sleep(jitter.expovariate(1 / think) if think > 0 else 0)
        game = await service.game(game_id)
        if game.state is None or not any(game.state["hands"]):
            return
        seat = game.state["turn"]
        token = game.state["hands"][seat][0]["id"]
        started = time.perf_counter()
        applied = await service.act(game_id, game.user_of(seat), {"type": "play", "token": token},
                                    version=game.version)
        await render_table(applied.game, applied.engine, ui, service.clock.now())
        for changed in applied.changed_seats:
            await render_private(applied.game, applied.engine, ui, changed, jump_url=None)
        latencies.append((time.perf_counter() - started) * 1000)


class CountingConnection:
    """A pooled asyncpg connection whose statements, BEGINs and COMMITs are counted."""

    def __init__(self, conn: Any, counter: list[int]) -> None:
        self._conn, self._counter = conn, counter

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._conn, name)
        if name in {"execute", "fetch", "fetchrow", "fetchval"}:
            async def counted(*args: Any, **kwargs: Any) -> Any:
                self._counter[0] += 1
                return await attribute(*args, **kwargs)
            return counted
        if name == "transaction":
            self._counter[0] += 2
        return attribute


class CountingPool:
    def __init__(self, pool: Any) -> None:
        self._pool, self.counter = pool, [0]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pool, name)

    @contextlib.asynccontextmanager
    async def acquire(self) -> Any:
        async with self._pool.acquire() as conn:
            yield CountingConnection(conn, self.counter)


def server_cpu_s() -> float:
    """CPU seconds of the throw-away PostgreSQL server: its postmaster and every child."""
    from tests import pg

    if pg._server is None:
        return 0.0
    postmaster = int((pg._server.data / "postmaster.pid").read_text().split()[0])
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == postmaster or int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / tick


async def run(games: int, db_path: Path | str, think: float, sequential: bool = False) -> dict[str, Any]:
    load_game("tests.engines.tokens")
    storage = await Storage.open(db_path)
    service = TableService(storage, SystemClock(), random.Random(1))
    hear = getattr(service, "hear_commits", None)
    if storage.shared and hear is not None:
        await hear()  # as the bot's timers do on start
    ui = TokensUI()
    ids = []
    for n in range(games):
        lobby = await service.open_lobby(guild_id=1, channel_id=10_000 + n, kind="tokens", host_id=1,
                                         host_name="host", options={"hand": HAND})
        for user in range(2, PLAYERS + 1):
            await service.join(lobby.id, user, f"p{user}")
        await service.start(lobby.id, 1)
        ids.append(lobby.id)
    latencies: list[float] = []
    jitter = random.Random(2)
    gc.collect()
    gc.freeze()  # as bot.py does once start-up is done
    pool = getattr(storage.backend, "pool", None)
    if pool is not None:
        storage.backend.pool = pool = CountingPool(pool)  # type: ignore[attr-defined]
    server_cpu = server_cpu_s()
    started, cpu = time.perf_counter(), time.process_time()
    if sequential:  # one game at a time, no thinking: each action's own cost, nothing queued
        for g in ids:
            await play_one(service, g, latencies, ui, jitter, 0)
    else:
        await asyncio.gather(*(play_one(service, g, latencies, ui, jitter, think) for g in ids))
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    server_cpu = server_cpu_s() - server_cpu
    await storage.close()
    size = (sum(p.stat().st_size for p in db_path.parent.glob(db_path.name + "*"))
            if isinstance(db_path, Path) else None)
    return {
        "games": games,
        "think_s": 0 if sequential else think,
        "sequential": sequential,
        "database": "sqlite" if isinstance(db_path, Path) else "postgresql",
        "actions": len(latencies),
        "p50_ms": round(statistics.median(latencies), 3),
        "p99_ms": round(percentile(latencies, 0.99), 3),
        "max_ms": round(max(latencies), 3),
        "actions_per_s": round(len(latencies) / elapsed, 1),
        "cpu_ms_per_action": round(cpu * 1000 / len(latencies), 3),
        "kib_per_game": round(size / 1024 / games, 2) if size is not None else None,
        "rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "round_trips_per_action": round(pool.counter[0] / len(latencies), 2) if pool is not None else None,
        "server_cpu_ms_per_action": round(server_cpu * 1000 / len(latencies), 3) if pool is not None else None,
    }


async def run_postgresql(games: int, think: float, sequential: bool) -> dict[str, Any]:
    from tests import pg

    url = await pg.fresh_postgres_url()
    try:
        return await run(games, url, think, sequential)
    finally:
        await pg.drop_postgres_database(url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean seconds a player thinks between moves (0 = saturate)")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite",
                        help="postgresql: a fresh database on a throw-away local server (tests/pg.py, "
                             "durability off: the figures are the loop's, not the disk's)")
    parser.add_argument("--sequential", action="store_true",
                        help="play the games one after another: each action alone, as on a quiet machine")
    args = parser.parse_args()
    if args.database == "postgresql":
        from tests import pg

        try:
            result = asyncio.run(run_postgresql(args.games, args.think, args.sequential))
        finally:
            pg.stop_server()
    else:
        with tempfile.TemporaryDirectory() as folder:
            result = asyncio.run(run(args.games, Path(folder) / "bench.db", args.think, args.sequential))
    on_disk = f", {result['kib_per_game']} KiB per game on disk" if result["kib_per_game"] is not None else ""
    print(f"{result['games']} games on {result['database']}, {result['actions']} actions: p50 {result['p50_ms']} ms, "
          f"p99 {result['p99_ms']} ms, {result['actions_per_s']} actions/s, "
          f"{result['cpu_ms_per_action']} ms CPU per action{on_disk}")
    if result["round_trips_per_action"] is not None:
        print(f"{result['round_trips_per_action']} round trips and {result['server_cpu_ms_per_action']} ms of "
              f"server CPU per action")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
