"""A message with a picture is one socket write: aiohttp writes a multipart body part by part,
a system call each; `one_write.install` sends the same bytes in one piece."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
from aiohttp import MultipartWriter, web

from cogs.table import one_write


def form() -> aiohttp.FormData:
    """What discord.py sends for a message with a picture: the JSON, then the file."""
    data = aiohttp.FormData(quote_fields=False)
    data.add_field("payload_json", json.dumps({"embeds": [{"title": "Hallway"}]}))
    data.add_field("files[0]", io.BytesIO(bytes(range(256)) * 40), filename="hallway.png",
                   content_type="application/octet-stream")
    return data


@pytest.fixture
def part_by_part() -> Iterator[None]:
    saved = MultipartWriter.write
    MultipartWriter.write = one_write._part_by_part  # type: ignore[method-assign]
    try:
        yield
    finally:
        MultipartWriter.write = saved  # type: ignore[method-assign]


async def post_and_count(data: Any) -> tuple[int, bytes, str]:
    """(the client's writes to its socket, the body the server got, its content type)."""
    got: dict[str, Any] = {}

    async def handler(request: web.Request) -> web.Response:
        got["body"], got["type"] = await request.read(), request.headers["Content-Type"]
        return web.json_response({"id": "1"})

    app = web.Application()
    app.router.add_post("/x", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    writes = 0
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/missing"):
                pass  # the connection is open and idle, as discord.py's kept-alive ones are
            connector: Any = session.connector
            [[(protocol, _)]] = [list(kept) for kept in connector._conns.values()]
            real = protocol.transport.write

            def counted(chunk: Any) -> None:
                nonlocal writes
                writes += 1
                real(chunk)

            protocol.transport.write = counted
            async with session.post(f"http://127.0.0.1:{port}/x", data=data) as response:
                assert response.status == 200
    finally:
        await runner.cleanup()
    return writes, got["body"], got["type"]


async def test_a_message_with_a_picture_is_one_write_with_the_same_bytes(part_by_part: None) -> None:
    boundary = "b" * 32

    def fixed() -> aiohttp.FormData:
        data = form()
        data._writer._boundary = boundary.encode()  # the same boundary both times
        return data

    before, body_before, type_before = await post_and_count(fixed())
    one_write.install()
    assert one_write.installed()
    after, body_after, type_after = await post_and_count(fixed())
    assert before >= 8  # boundary, headers, content and line end per part: a write each
    assert after == 1  # headers and the whole body in one
    assert body_after == body_before
    assert type_after.split(";")[0] == type_before.split(";")[0] == "multipart/form-data"


def test_the_bot_installs_it() -> None:
    import bot
    from runtime.settings import Settings

    bot.build_bot(Settings(token="t"))
    assert one_write.installed()


async def test_json_requests_are_untouched() -> None:
    writes, body, _ = await post_and_count(json.dumps({"a": 1}).encode())
    assert writes == 1 and body == b'{"a": 1}'
