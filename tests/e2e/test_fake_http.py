"""The fake's HTTP surface as seen by any client: headers, error bodies, auth, unknown routes."""

from __future__ import annotations

import aiohttp

from tests.fakediscord import FakeDiscord


async def test_json_content_type_is_exact(fake_discord: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake_discord.api_base}/users/@me", headers=headers) as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["bot"] is True
        async with session.get(f"{fake_discord.api_base}/users/@me") as resp:
            assert resp.status == 401
    fake_discord.allow_errors(0)


async def test_refused_dm_has_discords_body(fake_discord: FakeDiscord) -> None:
    bob = fake_discord.user("bob", accepts_dms=False)
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(f"{fake_discord.api_base}/users/@me/channels",
                                json={"recipient_id": str(bob.id)}) as resp:
            dm = await resp.json()
            assert dm["type"] == 1 and dm["recipients"][0]["id"] == str(bob.id)
        async with session.post(f"{fake_discord.api_base}/channels/{dm['id']}/messages",
                                json={"content": "hi"}) as resp:
            assert resp.status == 403
            assert await resp.json() == {"code": 50007, "message": "Cannot send messages to this user"}
    [(call, _)] = fake_discord.errors
    assert call.user_id == bob.id and call.route == "POST /channels/{channel_id}/messages"
    fake_discord.allow_errors(50007)


async def test_unknown_route_is_recorded_as_a_failure(fake_discord: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session, \
            session.get(f"{fake_discord.api_base}/guilds/1/audit-logs") as resp:
        assert resp.status == 404
    assert fake_discord.failures == ["unknown route: GET /api/v10/guilds/1/audit-logs"]
    fake_discord.failures.clear()
    fake_discord.allow_errors(0)


async def test_multipart_upload_is_stored_and_served(fake_discord: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", '{"content": "board", "attachments": [{"id": 0, "filename": "b.png"}]}',
                   content_type="application/json")
    form.add_field("files[0]", b"\x89PNG...", filename="b.png", content_type="image/png")
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(f"{fake_discord.api_base}/channels/{fake_discord.general.id}/messages",
                                data=form) as resp:
            msg = await resp.json()
        [att] = msg["attachments"]
        assert att["filename"] == "b.png" and att["size"] == 7
        async with session.get(att["url"]) as resp:
            assert await resp.read() == b"\x89PNG..."
    stored = fake_discord.general.last_message()
    assert stored is not None and stored.attachments[0].data == b"\x89PNG..."
