#!/usr/bin/env python3
"""Start-up cost with many stored live games: open + migrate the database, restore every
game's timer (what `setup_hook` does before the bot reports ready).

    python bench/startup.py --games 10000

Last line: {"games", "seed_s", "open_ms", "restore_ms", "total_ms", "timers"}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.registry import load_game  # noqa: E402
from runtime.clock import ManualClock  # noqa: E402
from runtime.service import Applied, TableService  # noqa: E402
from runtime.timers import Timers  # noqa: E402
from storage import Storage  # noqa: E402


async def seed(path: Path, games: int) -> None:
    storage = await Storage.open(path)
    service = TableService(storage, ManualClock(), random.Random(1))
    for n in range(games):
        lobby = await service.open_lobby(guild_id=1, channel_id=n + 1, kind="tokens", host_id=1,
                                         host_name="a", options={})
        await service.join(lobby.id, 2, "b")
        await service.start(lobby.id, 1)
    await storage.close()


async def measure(path: Path, outage: float) -> dict[str, float]:
    async def publish(_: Applied) -> None:
        return None

    started = time.perf_counter()
    storage = await Storage.open(path)
    opened = time.perf_counter()
    clock = ManualClock()
    clock.advance(outage)  # the bot was down this long: deadlines past it get restart grace
    service = TableService(storage, clock, random.Random(2))
    timers = Timers(service, service.clock, publish)
    count = await timers.restore()
    restored = time.perf_counter()
    timers.close()
    await storage.close()
    return {"open_ms": round((opened - started) * 1000, 1),
            "restore_ms": round((restored - opened) * 1000, 1),
            "total_ms": round((restored - started) * 1000, 1), "timers": count, "graced": len(timers.graced)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--outage", type=float, default=0.0,
                        help="seconds the bot was down (past the turn timeout every game needs grace)")
    args = parser.parse_args()
    load_game("tests.engines.tokens")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "startup.db"
        t0 = time.perf_counter()
        asyncio.run(seed(path, args.games))
        seeded = time.perf_counter() - t0
        result = {"games": args.games, "seed_s": round(seeded, 1), "outage_s": args.outage,
                  **asyncio.run(measure(path, args.outage))}
    print(f"{args.games} live games: ready in {result['total_ms']} ms "
          f"(open {result['open_ms']} ms, timers {result['restore_ms']} ms, {result['graced']} given grace)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
