"""`python bot.py` itself, unmodified, as a process against the fake Discord: it connects,
syncs its commands to DEV_GUILD_ID, and on SIGTERM or SIGINT shuts down cleanly (exit 0, the
database closed, no traceback)."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import running_bot
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]

#: Points discord.py at the fake server, then runs bot.py as `python bot.py` would.
LAUNCH = """
import sys, runpy, yarl
from discord.http import Route
from discord.gateway import DiscordWebSocket
Route.BASE = sys.argv[1]
DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
sys.argv = [sys.argv[3]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_bot_py_connects_syncs_and_stops_cleanly_on_a_signal(
        fake_discord: FakeDiscord, tmp_path: Path, sig: signal.Signals) -> None:
    database = tmp_path / "rumpus.db"
    env = {**os.environ, "DISCORD_TOKEN": fake_discord.token, "DATABASE_PATH": str(database),
           "DEV_GUILD_ID": str(fake_discord.guild.id), "LOG_LEVEL": "INFO"}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", LAUNCH, fake_discord.api_base, fake_discord.gateway_url, str(ROOT / "bot.py"),
        cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await fake_discord.wait_for(lambda: fake_discord.command_syncs > 0, timeout=20,
                                    what="bot.py to sync its commands to the dev guild")
        proc.send_signal(sig)
        _, stderr = await asyncio.wait_for(proc.communicate(), 15)
    finally:
        if proc.returncode is None:
            proc.kill()
    log = stderr.decode()
    assert proc.returncode == 0, log
    assert "shutting down" in log and "Traceback" not in log
    wal = Path(f"{database}-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # closed cleanly: the WAL was checkpointed
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] >= 1  # and migrated


async def test_start_up_prepares_every_engine_off_the_event_loop(
        fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Words dictionary is built before the first move, not during it."""
    from games.registry import load_builtin

    prepared: list[tuple[str, bool]] = []

    def recording(engine_name: str) -> Callable[[Any], None]:
        def prepare(self: Any) -> None:
            prepared.append((engine_name, threading.current_thread() is threading.main_thread()))
        return prepare

    for engine in load_builtin().values():
        monkeypatch.setattr(type(engine), "prepare", recording(engine.name))
    async with running_bot(fake_discord, tmp_path):
        assert sorted(name for name, _ in prepared) == sorted(load_builtin())
        assert not any(on_loop_thread for _, on_loop_thread in prepared)
