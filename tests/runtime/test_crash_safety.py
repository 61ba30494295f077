"""A bot killed mid-stream loses no acknowledged action (kill -9, reopen, replay, compare)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path

import pytest

from runtime.clock import ManualClock
from runtime.service import TableService
from storage import Status, Storage

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("acks_before_kill", [3, 57, 211])
async def test_sigkill_loses_no_acknowledged_action(tmp_path: Path, acks_before_kill: int) -> None:
    db = tmp_path / "crash.db"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.runtime.crash_worker", str(db),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    acked: list[tuple[int, int]] = []
    assert proc.stdout is not None
    while len(acked) < acks_before_kill:
        line = await asyncio.wait_for(proc.stdout.readline(), timeout=30)
        assert line, "worker died on its own"
        _, game, seq = line.split()
        acked.append((int(game), int(seq)))
    await asyncio.sleep(random.Random(acks_before_kill).random() * 0.02)
    proc.send_signal(signal.SIGKILL)
    await proc.wait()

    storage = await Storage.open(db)
    service = TableService(storage, ManualClock(), random.Random(0))
    try:
        for game_id, seq in acked:
            assert seq in {a.seq for a in await storage.actions(game_id)}
        games = {game_id for game_id, _ in acked}
        for game_id in games:
            stored = await storage.game(game_id)
            assert stored.status in (Status.ACTIVE, Status.FINISHED)
            assert await service.replay(game_id) == stored.state
            assert stored.version == 1 + len(await storage.actions(game_id))
    finally:
        await storage.close()
