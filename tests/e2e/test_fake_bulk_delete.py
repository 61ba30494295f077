"""The fake bulk-deletes messages as Discord does (POST /channels/{id}/messages/bulk-delete):
guild channels only, with Manage Messages, 2-100 ids, none duplicated or older than 14 days;
ids of messages that are not there count but are skipped."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.fakediscord import FakeDiscord
from tests.fakediscord import permissions as perm
from tests.fakediscord.ids import DISCORD_EPOCH_MS


async def _call(fake_discord: FakeDiscord, method: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session, session.request(
            method, f"{fake_discord.api_base}{path}", json=body) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else None)


async def _posted(fake_discord: FakeDiscord, channel_id: int, n: int) -> list[str]:
    ids = []
    for i in range(n):
        status, msg = await _call(fake_discord, "POST", f"/channels/{channel_id}/messages", {"content": f"m{i}"})
        assert status == 200
        ids.append(msg["id"])
    return ids


async def test_bulk_delete_removes_the_messages_it_names_in_one_call(fake_discord: FakeDiscord) -> None:
    channel = fake_discord.general
    ids = await _posted(fake_discord, channel.id, 3)
    status, _ = await _call(fake_discord, "POST", f"/channels/{channel.id}/messages/bulk-delete",
                            {"messages": [*ids[:2], "1576126327210115158"]})  # an unknown id is skipped
    assert status == 204
    assert [m.content for m in channel.history()] == ["m2"]


async def test_bulk_delete_refuses_what_discord_refuses(fake_discord: FakeDiscord) -> None:
    fake_discord.allow_errors(50035, 50034, 50003, 50013)
    channel = fake_discord.general
    ids = await _posted(fake_discord, channel.id, 2)
    path = f"/channels/{channel.id}/messages/bulk-delete"
    assert (await _call(fake_discord, "POST", path, {"messages": ids[:1]}))[0] == 400  # fewer than 2
    assert (await _call(fake_discord, "POST", path, {"messages": [ids[0], ids[0]]}))[0] == 400  # duplicated
    old = str(((1420070400000 + 1000 - DISCORD_EPOCH_MS) << 22) | 1)  # 2015: past 14 days
    status, body = await _call(fake_discord, "POST", path, {"messages": [ids[0], old]})
    assert status == 400 and body["code"] == 50034
    alice = fake_discord.user("alice")
    await _call(fake_discord, "POST", "/users/@me/channels", {"recipient_id": str(alice.id)})
    dm = alice.dm_channel
    assert dm is not None
    dm_ids = await _posted(fake_discord, dm.id, 2)
    status, body = await _call(fake_discord, "POST", f"/channels/{dm.id}/messages/bulk-delete", {"messages": dm_ids})
    assert status == 403 and body["code"] == 50003  # not in DMs
    for role in fake_discord.guild.roles.values():
        role.permissions &= ~perm.MANAGE_MESSAGES
    status, body = await _call(fake_discord, "POST", path, {"messages": ids})
    assert status == 403 and body["code"] == 50013  # even the bot's own messages need Manage Messages
    assert len(channel.history()) == 2
