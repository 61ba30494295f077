"""`python bot.py` itself, unmodified, as a process against the fake Discord: it connects,
syncs its commands to DEV_GUILD_ID, and on SIGTERM or SIGINT shuts down cleanly (exit 0, the
database closed, no traceback)."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

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
