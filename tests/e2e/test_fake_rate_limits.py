"""Rate limits in the fake Discord, and the bot living with them: Discord's headers on every
answer of a limited route, 429 with `retry_after` past the limit, discord.py waiting (before
the bucket runs dry, or after a 429) and the game going on with no interaction answered late."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import aiohttp
import discord

from storage import Status
from tests.e2e.test_table_e2e import open_table, play_to_the_end, result_message, table_message
from tests.fakediscord import FakeDiscord
from tests.fakediscord.ratelimits import RateLimits

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
SEND = "POST /channels/{channel_id}/messages"


def test_a_bucket_per_route_and_channel_fills_and_empties() -> None:
    limits = RateLimits()
    limits.add(SEND, 2, 1.0)
    first = limits.check(SEND, {"channel_id": "1"}, now=10.0)
    second = limits.check(SEND, {"channel_id": "1"}, now=10.2)
    third = limits.check(SEND, {"channel_id": "1"}, now=10.5)
    assert first and second and third
    assert (first.headers["X-RateLimit-Remaining"], second.headers["X-RateLimit-Remaining"]) == ("1", "0")
    assert first.retry_after is None and second.retry_after is None
    assert third.retry_after == 0.5 and third.headers["X-RateLimit-Scope"] == "user"
    assert limits.check(SEND, {"channel_id": "2"}, now=10.5).retry_after is None  # another channel
    assert limits.check(SEND, {"channel_id": "1"}, now=11.01).retry_after is None  # the window moved
    assert limits.check(EDIT, {"channel_id": "1", "message_id": "5"}) is None  # not limited


async def test_past_the_limit_the_fake_answers_429_as_discord_does(fake_discord: FakeDiscord) -> None:
    fake_discord.rate_limit(SEND, limit=2, per=1.0)
    url = f"{fake_discord.api_base}/channels/{fake_discord.general.id}/messages"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake_discord.token}"}) as session:
        statuses = []
        for n in range(3):
            async with session.post(url, json={"content": f"hi {n}"}) as resp:
                statuses.append(resp.status)
                last, headers = await resp.json(), resp.headers
    assert statuses == [200, 200, 429]
    assert last["global"] is False and 0 < last["retry_after"] <= 1.0
    assert headers["Via"] and headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Bucket"]
    assert [c.status for c in fake_discord.rate_limited] == [429]


async def test_discord_py_waits_out_the_limit_and_every_send_lands(fake_discord: FakeDiscord, bot: Any) -> None:
    fake_discord.rate_limit(SEND, limit=2, per=0.5)
    channel = bot.get_channel(fake_discord.general.id)
    assert isinstance(channel, discord.TextChannel)
    started = time.monotonic()
    await asyncio.gather(*(channel.send(f"message {n}") for n in range(6)))
    assert time.monotonic() - started >= 1.0  # three windows of two
    texts = [m.content for m in fake_discord.general.history()]
    assert sorted(t for t in texts if t.startswith("message ")) == [f"message {n}" for n in range(6)]


async def test_a_game_goes_on_under_tight_limits_with_every_interaction_answered_in_time(
        fake_discord: FakeDiscord, bot: Any) -> None:
    """Two table edits and two messages per second per channel, and DMs likewise: the game is
    played as fast as the players can click, and still ends with the table showing its end."""
    for route in (EDIT, SEND):
        fake_discord.rate_limit(route, limit=2, per=1.0)
    alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
    await open_table(fake_discord, alice, bob, carol, hand=2)
    table = table_message(fake_discord)
    assert table is not None
    await play_to_the_end(fake_discord, [alice, bob, carol])
    await fake_discord.idle(quiet=0.3, timeout=15)
    assert result_message(fake_discord) is not None
    found = re.search(r"game #(\d+)", table.text())
    assert found is not None
    game = await bot.storage.game(int(found.group(1)))
    assert game.status is Status.FINISHED
    # the last picture is the finished table: its final move, no controls left
    assert f"move {game.version}" in table.text() and table.buttons() == []
    limited = [c for c in fake_discord.calls if c.rate_remaining is not None]
    assert any(c.rate_remaining == 0 or c.status == 429 for c in limited)  # the limits did bite
    # fake_discord's teardown fails the test on 10062 (an interaction answered after 3 s)
