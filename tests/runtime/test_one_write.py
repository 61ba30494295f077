"""A message with a picture is one socket write: aiohttp writes a multipart body part by part,
a system call each; `one_write.install` sends the same bytes in one piece."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import aiohttp
import pytest
from aiohttp import MultipartWriter, web

from cogs.table import one_write


def form() -> aiohttp.FormData:
    """What discord.py sends for a message with a picture: the JSON, then the file."""
    data = one_write._AiohttpForm(quote_fields=False)  # aiohttp's own, installed or not
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


@contextlib.asynccontextmanager
async def serving(handler: Callable[[web.Request], Awaitable[web.Response]]) -> AsyncIterator[str]:
    """A local server whose POST /x is `handler`; yields its base URL."""
    app = web.Application()
    app.router.add_post("/x", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


async def post_and_count(data: Any) -> tuple[int, bytes, str]:
    """(the client's writes to its socket, the body the server got, its content type)."""
    got: dict[str, Any] = {}

    async def handler(request: web.Request) -> web.Response:
        got["body"], got["type"] = await request.read(), request.headers["Content-Type"]
        return web.json_response({"id": "1"})

    writes = 0
    async with serving(handler) as base, aiohttp.ClientSession() as session:
        async with session.get(f"{base}/missing"):
            pass  # the connection is open and idle, as discord.py's kept-alive ones are
        connector: Any = session.connector
        [[(protocol, _)]] = [list(kept) for kept in connector._conns.values()]
        real = protocol.transport.write

        def counted(chunk: Any) -> None:
            nonlocal writes
            writes += 1
            real(chunk)

        protocol.transport.write = counted
        async with session.post(f"{base}/x", data=data) as response:
            assert response.status == 200
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


async def body_of(made: Any) -> tuple[bytes, str]:
    """The bytes a form's payload writes, and its content type."""
    gathered = one_write._Gathered()
    await made.write(gathered)
    return b"".join(gathered.chunks), made.content_type


@pytest.mark.parametrize("parts", [
    [("payload_json", '{"embeds": [{"title": "Hallway \\"quoted\\" ✋"}]}', {}),
     ("files[0]", io.BytesIO(bytes(range(256)) * 40), {"filename": "hallway.png",
                                                         "content_type": "application/octet-stream"})],
    [("payload_json", "{}", {}),
     ("files[0]", io.BytesIO(b"a"), {"filename": "hand.png", "content_type": "application/octet-stream"}),
     ("files[1]", io.BytesIO(b"b" * 70_000), {"filename": 'odd "name".png', "content_type": "image/png"})],
    [("file", b"raw bytes", {"filename": "x.bin", "content_type": "image/png"}), ("name", "value", {})],
])
async def test_the_one_body_form_writes_what_aiohttp_writes(parts: list[tuple[str, Any, dict[str, Any]]],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    boundary = "0123456789abcdef" * 2
    monkeypatch.setattr(one_write, "new_boundary", lambda: boundary)
    theirs = one_write._AiohttpForm(quote_fields=False)
    ours = one_write.OneBodyForm(quote_fields=False)
    for name, value, options in parts:
        theirs.add_field(name, io.BytesIO(value.getvalue()) if isinstance(value, io.BytesIO) else value, **options)
        ours.add_field(name, value, **options)
    their_payload = theirs()
    their_type = their_payload.content_type.replace(their_payload._boundary.decode(), boundary)  # type: ignore[attr-defined]
    their_payload._boundary = boundary.encode()  # type: ignore[attr-defined]
    made = ours()
    assert isinstance(made, aiohttp.payload.BytesPayload)  # made here, not by aiohttp's form
    assert await body_of(made) == ((await body_of(their_payload))[0], their_type)
    assert made.size == len((await body_of(made))[0])


def test_anything_else_is_aiohttps_own_form() -> None:
    urlencoded = one_write.OneBodyForm()
    urlencoded.add_field("a", "1")
    assert not urlencoded.is_multipart and urlencoded().content_type == "application/x-www-form-urlencoded"
    quoted = one_write.OneBodyForm(quote_fields=True)
    quoted.add_field("files[0]", io.BytesIO(b"x"), filename="x.png")
    assert isinstance(quoted(), MultipartWriter)  # aiohttp quotes the brackets: its own job
    with open(__file__, "rb") as real_file:  # a file on disk: aiohttp streams it
        odd = one_write.OneBodyForm(quote_fields=False)
        odd.add_field("payload_json", "{}")
        odd.add_field("files[0]", real_file, filename="this.py")
        assert isinstance(odd(), MultipartWriter)
    with pytest.raises(ValueError):  # a header with a line break is refused, as aiohttp does
        one_write.OneBodyForm(quote_fields=False).add_field("x\r\nEvil: 1", "v")


async def test_discord_py_sends_a_picture_through_the_one_body_form(monkeypatch: pytest.MonkeyPatch) -> None:
    """The form discord.py builds on each request is ours once installed, and the server gets
    a well-formed multipart body: its JSON and the picture, byte for byte."""
    one_write.install()
    picture = bytes(range(256)) * 10
    made: list[Any] = []
    real_call = one_write.OneBodyForm.__call__

    def spied(self: one_write.OneBodyForm) -> Any:
        made.append(result := real_call(self))
        return result

    monkeypatch.setattr(one_write.OneBodyForm, "__call__", spied)
    form = aiohttp.FormData(quote_fields=False)  # what discord.http does, at request time
    form.add_field(name="payload_json", value=json.dumps({"content": "hi"}))
    form.add_field(name="files[0]", value=io.BytesIO(picture), filename="t.png", content_type="application/octet-stream")
    got: dict[str, Any] = {}

    async def handler(request: web.Request) -> web.Response:
        fields = await request.post()
        upload: Any = fields["files[0]"]
        got["json"], got["file"], got["name"] = fields["payload_json"], upload.file.read(), upload.filename
        return web.json_response({"id": "1"})

    async with serving(handler) as base, aiohttp.ClientSession() as session, \
            session.post(f"{base}/x", data=form) as response:
        assert response.status == 200
    assert len(made) == 1 and isinstance(made[0], aiohttp.payload.BytesPayload)
    assert json.loads(got["json"]) == {"content": "hi"}
    assert got["name"] == "t.png" and got["file"] == picture
