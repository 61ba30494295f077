"""The fake decides who a message pings as Discord does: the content's mentions that its
allowed_mentions lets through (all of them without it), never from an embed, an ephemeral
message or an edit; a bad allowed_mentions is a 400."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.mentions import Mentions, resolve


def test_without_allowed_mentions_everything_in_the_content_pings() -> None:
    said = resolve("@everyone <@11> <@!12> <@&13> @here", None)
    assert said == Mentions(users=(11, 12), roles=(13,), everyone=True)


def test_allowed_mentions_lets_through_only_what_it_names() -> None:
    text = "<@11> <@12> <@&13> @everyone"
    assert resolve(text, {"parse": []}) == Mentions()
    assert resolve(text, {"parse": [], "users": ["12"]}) == Mentions(users=(12,))
    assert resolve(text, {"parse": ["users"]}) == Mentions(users=(11, 12))
    assert resolve(text, {"parse": ["everyone"], "roles": ["13"]}) == Mentions(roles=(13,), everyone=True)


def test_a_defused_mention_is_plain_text() -> None:
    assert resolve("@\u200beveryone <@\u200b11> <@\u200b&13>", None) == Mentions()


async def _post(fake_discord: FakeDiscord, body: dict[str, Any]) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session, session.post(
            f"{fake_discord.api_base}/channels/{fake_discord.general.id}/messages", json=body) as resp:
        return resp.status, await resp.json()


async def test_sends_are_logged_with_who_they_pinged(fake_discord: FakeDiscord) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    status, msg = await _post(fake_discord, {"content": f"{alice.mention} {bob.mention}",
                                             "allowed_mentions": {"parse": [], "users": [str(alice.id)]}})
    assert status == 200 and [m["id"] for m in msg["mentions"]] == [str(alice.id)]
    await _post(fake_discord, {"content": "x", "embeds": [{"description": f"{bob.mention} @everyone"}]})
    await _post(fake_discord, {"content": "@everyone"})  # no allowed_mentions: Discord parses it
    [to_alice, everyone] = fake_discord.pinged(alice)
    assert fake_discord.pinged(bob) == [everyone] and to_alice.content.startswith(alice.mention)


@pytest.mark.parametrize("allowed", [{"parse": ["users"], "users": ["1"]}, {"parse": ["nobody"]},
                                     {"users": [str(n) for n in range(101)]}])
async def test_a_bad_allowed_mentions_is_refused(fake_discord: FakeDiscord, allowed: dict[str, Any]) -> None:
    status, body = await _post(fake_discord, {"content": "hi", "allowed_mentions": allowed})
    assert status == 400 and body["code"] == 50035
    assert fake_discord.world.notifications == []
    fake_discord.allow_errors(50035)
