"""The fake Discord's shards, as Discord has them: one gateway session per shard, READY and
GUILD_CREATE per shard, a guild's events and interactions to its shard `(guild_id >> 22) %
shard_count`, DMs to shard 0, 4010 for a bad shard, GET /gateway/bot's session start limit, and
the IDENTIFY rate limit per `shard_id % max_concurrency` bucket (op 9 when too early)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import ClientRunner, FakeDiscord
from tests.fakediscord.gateway import HELLO, IDENTIFY, INVALID_SESSION, shard_of
from tests.fakediscord.ids import snowflake_on_shard


class ShardClient(discord.AutoShardedClient):
    """A tiny sharded bot that says which client and shard answered."""

    def __init__(self, name: str, shard_ids: list[int], shard_count: int) -> None:
        super().__init__(intents=discord.Intents.default(), shard_ids=shard_ids, shard_count=shard_count)
        self.name = name
        self.tree = app_commands.CommandTree(self)
        self.ready_shards: list[int] = []
        self.runner: ClientRunner | None = None

        @self.tree.command(name="where", description="Who answers")
        async def where(interaction: discord.Interaction) -> None:
            guild = interaction.guild
            shard = guild.shard_id if guild is not None else "dm"
            await interaction.response.send_message(f"{self.name} shard {shard}")

    async def setup_hook(self) -> None:
        if 0 in (self.shard_ids or []):
            await self.tree.sync()

    async def on_shard_ready(self, shard_id: int) -> None:
        self.ready_shards.append(shard_id)


@pytest.fixture
async def two_shards(fake_discord: FakeDiscord) -> AsyncIterator[tuple[ShardClient, ShardClient]]:
    """Client "zero" runs shard 0 of 2, client "one" shard 1 of 2; one guild on each shard."""
    fake_discord.add_guild("Zero's", shard=(0, 2))
    fake_discord.add_guild("One's", shard=(1, 2))
    zero, one = ShardClient("zero", [0], 2), ShardClient("one", [1], 2)
    runners = [ClientRunner(fake_discord, zero), ClientRunner(fake_discord, one)]
    await runners[0].start()
    await runners[1].start(wait_for_sync=False)
    zero.runner, one.runner = runners
    yield zero, one
    for runner in runners:
        await runner.close()


def guild_named(server: FakeDiscord, name: str) -> Any:
    return next(g for g in server.world.guilds.values() if g.name == name)


def test_guilds_can_be_made_on_a_chosen_shard() -> None:
    for count in (1, 2, 3, 16):
        for shard in range(count):
            assert shard_of(snowflake_on_shard(shard, count), count) == shard
    with pytest.raises(ValueError):
        snowflake_on_shard(2, 2)


async def test_each_shard_gets_ready_and_only_its_guilds(
        fake_discord: FakeDiscord, two_shards: tuple[ShardClient, ShardClient]) -> None:
    zero, one = two_shards
    gateway = fake_discord.gateway
    assert set(gateway.live) == {(0, 2), (1, 2)} and gateway.connected_shards() == {(0, 2), (1, 2)}
    for client, shard in ((zero, 0), (one, 1)):
        session = gateway.live[(shard, 2)]
        ready = next(f["d"] for f in session.buffer if f["t"] == "READY")
        assert ready["shard"] == [shard, 2]
        created = {int(f["d"]["id"]) for f in session.buffer if f["t"] == "GUILD_CREATE"}
        owned = {g.id for g in fake_discord.world.guilds.values() if shard_of(g.id, 2) == shard}
        assert created == owned and {int(g["id"]) for g in ready["guilds"]} == owned
        assert {g.id for g in client.guilds} == owned
        assert client.ready_shards == [shard]


async def test_guild_interactions_reach_the_guilds_shard_and_dms_shard_zero(
        fake_discord: FakeDiscord, two_shards: tuple[ShardClient, ShardClient]) -> None:
    alice = fake_discord.user("alice")
    for name, answer in (("Zero's", "zero shard 0"), ("One's", "one shard 1")):
        guild = guild_named(fake_discord, name)
        fake_discord.join(alice, guild)
        result = await alice.slash("where", channel=guild.channel("general"))
        assert result.content == answer
    dm = fake_discord.world.dm_channel(alice.user)
    assert (await alice.slash("where", channel=dm)).content == "zero shard dm"


async def test_guild_events_go_to_their_shard_only(
        fake_discord: FakeDiscord, two_shards: tuple[ShardClient, ShardClient]) -> None:
    one_guild = guild_named(fake_discord, "One's")
    bob = fake_discord.user("bob", guild=one_guild)
    await bob.say(one_guild.channel("general"), "hello")
    gateway = fake_discord.gateway
    await fake_discord.wait_for(lambda: any(f["t"] == "MESSAGE_CREATE" for f in gateway.live[(1, 2)].buffer))
    assert not any(f["t"] == "MESSAGE_CREATE" for f in gateway.live[(0, 2)].buffer)
    adds = [f for s in gateway.live.values() for f in s.buffer if f["t"] == "GUILD_MEMBER_ADD"
            and int(f["d"]["guild_id"]) == one_guild.id]
    assert all(shard_of(int(f["d"]["guild_id"]), 2) == 1 for f in adds)


async def test_a_guild_added_later_arrives_on_its_shard(
        fake_discord: FakeDiscord, two_shards: tuple[ShardClient, ShardClient]) -> None:
    zero, one = two_shards
    late = fake_discord.add_guild("Late", shard=(1, 2))
    await fake_discord.wait_for(lambda: one.get_guild(late.id) is not None, what="GUILD_CREATE on shard 1")
    assert zero.get_guild(late.id) is None


async def test_closing_one_shard_client_leaves_the_other_serving(
        fake_discord: FakeDiscord, two_shards: tuple[ShardClient, ShardClient]) -> None:
    zero, _ = two_shards
    alice = fake_discord.user("alice", guild=guild_named(fake_discord, "One's"))
    assert zero.runner is not None
    await zero.runner.close()
    assert fake_discord.gateway.connected_shards() == {(1, 2)}
    result = await alice.slash("where", channel=guild_named(fake_discord, "One's").channel("general"))
    assert result.content == "one shard 1"


async def test_gateway_bot_tells_shards_and_session_start_limit(fake_discord: FakeDiscord) -> None:
    fake_discord.gateway.recommended_shards = 3
    fake_discord.gateway.max_concurrency = 16
    async with aiohttp.ClientSession() as http, http.get(f"{fake_discord.api_base}/gateway/bot",
                        headers={"Authorization": f"Bot {fake_discord.token}"}) as resp:
        body = await resp.json()
    assert body["url"] == fake_discord.gateway_url and body["shards"] == 3
    assert body["session_start_limit"] == {"total": 1000, "remaining": 1000, "reset_after": 0,
                                           "max_concurrency": 16}


# -- raw gateway sockets ------------------------------------------------------------------------------
async def identify(server: FakeDiscord, http: aiohttp.ClientSession, shard: Any) -> aiohttp.ClientWebSocketResponse:
    ws = await http.ws_connect(f"{server.gateway_url}?v=10&encoding=json")
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == HELLO
    payload: dict[str, Any] = {"token": server.token, "intents": 1, "properties": {}}
    if shard is not None:
        payload["shard"] = shard
    await ws.send_str(json.dumps({"op": IDENTIFY, "d": payload}))
    return ws


async def first_frame(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any] | int:
    """The first frame's payload, or the close code when the gateway closed the socket."""
    msg = await asyncio.wait_for(ws.receive(), 5)
    if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
        return ws.close_code or msg.data
    return json.loads(msg.data)


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], [0], "0,1", [0.0, 1]])
async def test_an_invalid_shard_is_closed_with_4010(fake_discord: FakeDiscord, shard: Any) -> None:
    async with aiohttp.ClientSession() as http:
        ws = await identify(fake_discord, http, shard)
        assert await first_frame(ws) == 4010
        await ws.close()
    assert not fake_discord.gateway.live


async def test_identify_without_shard_is_shard_zero_of_one(fake_discord: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        ws = await identify(fake_discord, http, None)
        ready = await first_frame(ws)
        assert isinstance(ready, dict) and ready["t"] == "READY" and "shard" not in ready["d"]
        assert set(fake_discord.gateway.live) == {(0, 1)}
        await ws.close()


async def test_identifies_too_close_in_one_bucket_get_invalid_session(fake_discord: FakeDiscord) -> None:
    gateway = fake_discord.gateway
    gateway.max_concurrency, gateway.identify_spacing, gateway.enforce_identify_limit = 1, 0.5, True
    async with aiohttp.ClientSession() as http:
        first = await identify(fake_discord, http, [0, 2])
        assert (await first_frame(first))["t"] == "READY"  # type: ignore[index]
        second = await identify(fake_discord, http, [1, 2])  # bucket 1 % 1 == 0: too early
        refused = await first_frame(second)
        assert isinstance(refused, dict) and refused["op"] == INVALID_SESSION and refused["d"] is False
        assert set(gateway.live) == {(0, 2)}
        await asyncio.sleep(0.5)
        await second.close()
        again = await identify(fake_discord, http, [1, 2])
        assert (await first_frame(again))["t"] == "READY"  # type: ignore[index]
        for ws in (first, again):
            await ws.close()
    assert [(r.shard, r.accepted) for r in gateway.identify_log] == [((0, 2), True), ((1, 2), False),
                                                                    ((1, 2), True)]
    assert len(gateway.identify_violations) == 1
    times = gateway.identify_times()
    assert times[1][0] - times[0][0] >= 0.5
    assert gateway.session_start_limit()["remaining"] == 998


async def test_different_buckets_identify_together(fake_discord: FakeDiscord) -> None:
    gateway = fake_discord.gateway
    gateway.max_concurrency, gateway.enforce_identify_limit = 2, True
    async with aiohttp.ClientSession() as http:
        sockets = [await identify(fake_discord, http, [shard, 2]) for shard in (0, 1)]
        for ws in sockets:
            assert (await first_frame(ws))["t"] == "READY"  # type: ignore[index]
            await ws.close()
    assert [r.bucket for r in gateway.identify_log] == [0, 1] and not gateway.identify_violations
