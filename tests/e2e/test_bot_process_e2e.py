"""`python bot.py` itself, unmodified, as a process against the fake Discord: it connects,
syncs its commands to DEV_GUILD_ID, and on SIGTERM or SIGINT shuts down cleanly (exit 0, the
database closed, no traceback) — also while its shards are still connecting. Sharded by
SHARD_COUNT / SHARD_IDS: two processes (shards 0 and 1 of 2) on one database each serve their
shard's guilds, only shard 0's process syncs the commands, DMs reach shard 0's process."""

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
from tests.fakediscord.gateway import shard_of
from tests.fakediscord.process import LAUNCH, launch_bot

ROOT = Path(__file__).resolve().parents[2]


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
    assert "drew each game's pictures ahead" in log  # before connecting, not in a first press
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


async def test_a_signal_while_the_shards_connect_stops_cleanly(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """SIGTERM after the commands are synced but before the second shard could identify (one
    bucket, 5 s apart): no traceback, no retry, exit 0."""
    fake_discord.gateway.max_concurrency = 1
    bot = await launch_bot(fake_discord, tmp_path, DATABASE_PATH=str(tmp_path / "rumpus.db"), SHARD_COUNT="2",
                           DEV_GUILD_ID=str(fake_discord.guild.id))
    try:
        await fake_discord.wait_for(lambda: fake_discord.gateway.live, timeout=20, what="shard 0 to identify")
    finally:
        log = await bot.stop()
    assert bot.returncode == 0, log
    assert "shutting down" in log and "Traceback" not in log
    assert [rec.shard for rec in fake_discord.gateway.identify_log] == [(0, 2)]


async def test_two_sharded_processes_split_the_guilds_and_only_shard_zero_syncs(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    gateway = fake_discord.gateway
    gateway.max_concurrency = 2
    one_guild = fake_discord.add_guild("One's", shard=(1, 2))
    zero_guild = fake_discord.add_guild("Zero's", shard=(0, 2))
    database = str(tmp_path / "rumpus.db")
    one = await launch_bot(fake_discord, tmp_path, "shard1", DATABASE_PATH=database, SHARD_COUNT="2", SHARD_IDS="1")
    zero = await launch_bot(fake_discord, tmp_path, "shard0", DATABASE_PATH=database, SHARD_COUNT="2",
                            SHARD_IDS="0")
    try:
        await fake_discord.wait_for(lambda: gateway.connected_shards() == {(0, 2), (1, 2)} and
                                    fake_discord.command_syncs, timeout=30, what="both processes and the sync")
        for key, guild in (((1, 2), one_guild), ((0, 2), zero_guild)):
            created = {int(f["d"]["id"]) for f in gateway.live[key].buffer if f["t"] == "GUILD_CREATE"}
            assert guild.id in created and created == {
                g.id for g in fake_discord.world.guilds.values() if shard_of(g.id, 2) == key[0]}
        alice = fake_discord.user("alice", guild=one_guild)
        in_guild = await alice.slash("rules", game="tarot", channel=one_guild.channel("general"))
        in_dm = await alice.slash("rules", game="words", channel=fake_discord.world.dm_channel(alice.user))
        assert "Conference" in in_guild.text() and "Fighting Words" in in_dm.text()
        assert fake_discord.command_syncs == 1
    finally:
        logs = {name: await bot.stop() for name, bot in (("shard1", one), ("shard0", zero))}
        for name, log in logs.items():  # shown by pytest when the test fails
            print(f"--- {name} ---\n{log}")
    assert "not syncing commands" in logs["shard1"] and "not syncing commands" not in logs["shard0"]
    assert "synced" in logs["shard0"]
    for name, log in logs.items():
        assert "Traceback" not in log, (name, log)
    assert one.returncode == 0 and zero.returncode == 0
