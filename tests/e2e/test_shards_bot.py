"""Rumpus sharded, in one test process: SHARD_COUNT / SHARD_IDS / DATABASE_URL settings; two bots
(shards 0 and 1 of 2) on one database each get their shard's guilds, a shard-1 guild's
interactions reach the shard-1 bot and DM interactions the shard-0 bot; only shard 0 syncs the
commands; IDENTIFYs are paced per `shard_id % max_concurrency` bucket (one bucket: spaced; two:
together), across bots too when the database is shared."""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest

import bot as bot_module
from bot import build_bot
from runtime.settings import Settings, SettingsError, parse_shard_ids
from tests.fakediscord import ClientRunner, FakeDiscord
from tests.fakediscord.gateway import shard_of
from tests.fakediscord.harness import GUILD_READY_TIMEOUT

#: The fake's and the bots' identify spacing in these tests (Discord's is 5 s).
SPACING = 0.6


# -- settings ------------------------------------------------------------------------------------------------
def test_shard_ids_read_lists_and_ranges() -> None:
    assert parse_shard_ids("0,1") == (0, 1)
    assert parse_shard_ids("0-3") == (0, 1, 2, 3)
    assert parse_shard_ids(" 4-5, 0 ,4") == (4, 5, 0)
    for bad in ("", "a", "3-1", "1-", "-2", "0,,x"):
        with pytest.raises(SettingsError):
            parse_shard_ids(bad)


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "DEV_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    plain = Settings.from_env()
    assert (plain.shard_count, plain.shard_ids, plain.database_url) == (None, None, None)
    assert plain.syncs_commands
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "2-3")
    monkeypatch.setenv("DATABASE_URL", "postgresql://rumpus@db/rumpus")
    sharded = Settings.from_env()
    assert (sharded.shard_count, sharded.shard_ids) == (4, (2, 3))
    assert sharded.database_url == "postgresql://rumpus@db/rumpus" and not sharded.syncs_commands
    monkeypatch.setenv("SHARD_IDS", "0,3")
    assert Settings.from_env().syncs_commands


@pytest.mark.parametrize("env, message", [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1-2"}, "not below SHARD_COUNT=2"),
    ({"SHARD_COUNT": "two"}, "whole number"),
    ({"SHARD_COUNT": "0"}, "1 or more"),
    ({"DATABASE_URL": "sqlite:///x.db"}, "postgresql://"),
])
def test_bad_settings_say_what_is_wrong(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=message):
        Settings.from_env()


def test_main_refuses_bad_settings_before_connecting(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("SHARD_IDS", "1")
    monkeypatch.delenv("SHARD_COUNT", raising=False)
    assert bot_module.main() == 2
    assert "SHARD_IDS needs SHARD_COUNT" in capsys.readouterr().err


def test_each_shard_set_names_its_own_process(tmp_path: Path) -> None:
    """Timers' heartbeats tell processes apart by these names (the same after a restart)."""
    assert Settings(token="t").process_id == "main" and Settings(token="t").own_shards == []
    assert Settings(token="t", shard_count=4, shard_ids=(2, 3)).process_id == "shards 2,3 of 4"
    assert Settings(token="t", shard_count=2).own_shards == [0, 1]


def test_the_bot_is_auto_sharded_and_unsharded_by_default(tmp_path: Path) -> None:
    plain = build_bot(Settings(token="t", database_path=tmp_path / "r.db"))
    assert isinstance(plain, discord.AutoShardedClient)
    assert plain.shard_count is None and plain.shard_ids is None  # discord.py asks Discord
    sharded = build_bot(Settings(token="t", database_path=tmp_path / "r.db", shard_count=4, shard_ids=(1, 3)))
    assert sharded.shard_count == 4 and sharded.shard_ids == [1, 3]
    every = build_bot(Settings(token="t", database_path=tmp_path / "r.db", shard_count=3))
    assert every.shard_ids == [0, 1, 2]


# -- bots on the fake ------------------------------------------------------------------------------------------
@dataclass
class Cluster:
    """Bots started on one fake Discord and one database, with the interactions each received."""

    server: FakeDiscord
    database: Path
    runners: list[ClientRunner] = field(default_factory=list)
    seen: dict[int, list[discord.Interaction]] = field(default_factory=dict)

    async def start(self, *, shard_count: int | None = None, shard_ids: tuple[int, ...] | None = None,
                    storage: Any = None, wait: bool = True) -> Any:
        settings = Settings(token=self.server.token, database_path=self.database, shard_count=shard_count,
                            shard_ids=shard_ids, identify_spacing=SPACING)
        client = build_bot(settings, rng=random.Random(7), storage=storage, guild_ready_timeout=GUILD_READY_TIMEOUT)
        index = len(self.runners)
        self.seen[index] = []

        async def record(interaction: discord.Interaction) -> None:
            self.seen[index].append(interaction)

        client.add_listener(record, "on_interaction")
        runner = ClientRunner(self.server, client)
        self.runners.append(runner)
        if wait:
            await runner.start(wait_for_sync=settings.syncs_commands, timeout=15)
        return client

    def who_got(self, interaction_id: int) -> list[int]:
        return [i for i, seen in self.seen.items() if any(x.id == interaction_id for x in seen)]

    async def close(self) -> None:
        for runner in reversed(self.runners):
            await runner.close()


@pytest.fixture
async def cluster(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Cluster]:
    fake_discord.gateway.identify_spacing = SPACING
    fake_discord.gateway.enforce_identify_limit = True
    found = Cluster(fake_discord, tmp_path / "rumpus.db")
    yield found
    await found.close()


def guilds_on(server: FakeDiscord, shard: int, count: int) -> set[int]:
    return {g.id for g in server.world.guilds.values() if shard_of(g.id, count) == shard}


async def test_two_sharded_bots_share_the_guilds_and_only_shard_zero_syncs(
        fake_discord: FakeDiscord, cluster: Cluster, caplog: pytest.LogCaptureFixture) -> None:
    fake_discord.gateway.max_concurrency = 2
    fake_discord.add_guild("Zero's", shard=(0, 2))
    fake_discord.add_guild("One's", shard=(1, 2))
    with caplog.at_level(logging.INFO, logger="rumpus"):
        zero = await cluster.start(shard_count=2, shard_ids=(0,))
        one = await cluster.start(shard_count=2, shard_ids=(1,))
    assert {g.id for g in zero.guilds} == guilds_on(fake_discord, 0, 2)
    assert {g.id for g in one.guilds} == guilds_on(fake_discord, 1, 2)
    assert fake_discord.command_syncs == 1 and fake_discord.world.global_commands
    assert "not syncing commands: shard 0 runs in another process" in caplog.text
    assert fake_discord.gateway.connected_shards() == {(0, 2), (1, 2)}
    assert not fake_discord.gateway.identify_violations


async def test_interactions_reach_the_bot_of_their_guilds_shard_and_dms_shard_zero(
        fake_discord: FakeDiscord, cluster: Cluster) -> None:
    fake_discord.gateway.max_concurrency = 2
    zero_guild = fake_discord.add_guild("Zero's", shard=(0, 2))
    one_guild = fake_discord.add_guild("One's", shard=(1, 2))
    await cluster.start(shard_count=2, shard_ids=(0,))
    await cluster.start(shard_count=2, shard_ids=(1,))
    alice = fake_discord.user("alice", guild=one_guild)
    fake_discord.join(alice, zero_guild)
    dm = fake_discord.world.dm_channel(alice.user)
    for channel, bot_index in ((one_guild.channel("general"), 1), (zero_guild.channel("general"), 0), (dm, 0)):
        result = await alice.slash("rules", game="words", channel=channel)
        assert result.ephemeral and "Fighting Words" in result.text()
        assert cluster.who_got(result.interaction.id) == [bot_index], channel


async def test_one_bucket_spaces_identifies(fake_discord: FakeDiscord, cluster: Cluster) -> None:
    """max_concurrency 1: both shards of one process are in bucket 0, one IDENTIFY per spacing."""
    fake_discord.gateway.max_concurrency = 1
    await cluster.start(shard_count=2)
    times = fake_discord.gateway.identify_times()
    assert times[1][0] - times[0][0] >= SPACING
    assert not fake_discord.gateway.identify_violations


async def test_two_buckets_identify_together(fake_discord: FakeDiscord, cluster: Cluster) -> None:
    fake_discord.gateway.max_concurrency = 2
    await cluster.start(shard_count=2)
    times = fake_discord.gateway.identify_times()
    assert abs(times[1][0] - times[0][0]) < SPACING / 2
    assert [r.bucket for r in fake_discord.gateway.identify_log] == [0, 1]


async def test_without_shard_settings_discord_picks_the_count(fake_discord: FakeDiscord, cluster: Cluster) -> None:
    """As today: one process; discord.py asks GET /gateway/bot (here: 2 shards) and runs them all."""
    fake_discord.gateway.recommended_shards, fake_discord.gateway.max_concurrency = 2, 2
    fake_discord.add_guild("Zero's", shard=(0, 2))
    fake_discord.add_guild("One's", shard=(1, 2))
    client = await cluster.start()
    assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
    assert {g.id for g in client.guilds} == set(fake_discord.world.guilds)
    assert fake_discord.command_syncs == 1


async def test_an_unsharded_bot_identifies_as_shard_zero_of_one(fake_discord: FakeDiscord, cluster: Cluster) -> None:
    await cluster.start()
    assert set(fake_discord.gateway.live) == {(0, 1)}
    # an unsharded bot never needs max_concurrency: no extra GET /gateway/bot beyond discord.py's own
    assert len(fake_discord.calls_since(0, "GET /gateway/bot")) == 1


async def test_a_reidentify_waits_only_for_its_bucket(fake_discord: FakeDiscord, cluster: Cluster) -> None:
    """After Invalid Session the shard identifies again once its bucket allows (discord.py's
    default would sleep 5 s whatever the bucket's history)."""
    fake_discord.gateway.max_concurrency = 1
    client = await cluster.start(shard_count=1)
    await fake_discord.gateway.force_reconnect("invalidate")
    await fake_discord.wait_for(lambda: fake_discord.gateway.identifies == 2 and client.is_ready(), timeout=10)
    times = fake_discord.gateway.identify_times()[0]
    assert times[1] - times[0] >= SPACING and not fake_discord.gateway.identify_violations


async def test_bots_sharing_a_database_claim_identify_slots_there(
        fake_discord: FakeDiscord, cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two bots that know nothing of each other but their shared database: with one bucket their
    IDENTIFYs are spaced (each claims its slot in the database)."""
    import storage

    if not hasattr(storage, "open_storage") or not hasattr(storage.Storage, "claim_identify"):
        pytest.skip("storage.open_storage / claim_identify are not there yet")
    fake_discord.gateway.max_concurrency = 1
    stores = [await storage.open_storage(tmp_path / "shared.db") for _ in range(2)]
    for store in stores:
        monkeypatch.setattr(store.backend, "shared", True)  # SQLite standing in for PostgreSQL
    claims: list[int] = []
    for store in stores:
        real = store.claim_identify

        async def counted(bucket: int, now: float, spacing: float = 5.0, real: Any = real) -> float:
            claims.append(bucket)
            return await real(bucket, now, spacing)

        monkeypatch.setattr(store, "claim_identify", counted)
    await cluster.start(shard_count=2, shard_ids=(0,), storage=stores[0])
    await cluster.start(shard_count=2, shard_ids=(1,), storage=stores[1])
    times = fake_discord.gateway.identify_times()
    assert times[1][0] - times[0][0] >= SPACING
    assert claims == [0, 0] and not fake_discord.gateway.identify_violations


async def test_a_database_that_cannot_claim_a_slot_does_not_stop_the_shard(
        fake_discord: FakeDiscord, cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    from storage import Storage

    store = await Storage.open(tmp_path / "away.db")
    monkeypatch.setattr(store.backend, "shared", True)

    async def away(bucket: int, now: float, spacing: float = 5.0) -> float:
        raise ConnectionError("database away")

    monkeypatch.setattr(store, "claim_identify", away)
    monkeypatch.setattr(store, "heartbeat", lambda *a, **k: _nothing())
    monkeypatch.setattr(store, "live_peers", lambda *a, **k: _nothing([]))
    with caplog.at_level(logging.ERROR, logger="rumpus"):
        await cluster.start(shard_count=1, storage=store)
    assert "could not claim an identify slot" in caplog.text
    assert fake_discord.gateway.connected_shards() == {(0, 1)}


async def _nothing(value: Any = None) -> Any:
    return value
