"""A message with a picture goes to Discord in one socket write, not ten.

A message that carries a picture is a multipart request (its JSON, then the PNG). aiohttp
writes a multipart body part by part — each part's boundary, headers, content and line end,
then the closing boundary — and on an idle connection each of those writes is its own
`send()` system call: nine for one picture, against one for a JSON-only request. On the 2-core
bench machine a `send()` on loopback costs 20-50 µs (the kernel does the receiving side's work
in the sender's call), so a picture's request paid a third of a millisecond in system calls
alone (cProfile of a Words run: 13.9 `send()` calls per press). `install` makes the multipart
body be gathered in memory (it already is: the parts are bytes and a BytesIO) and handed to
the connection as one write: the same bytes on the wire, in one call.

Making that body cost more than sending it: per picture, aiohttp's `FormData` built a
`MultipartWriter` (a fresh uuid), a payload object per part with its header multidict, checked
every header for line breaks (59 checks a tarot press), quoted each content disposition and
summed the parts' sizes (cProfile of a tarot run: ~8% of the bot's time per press).
`OneBodyForm`, installed as `aiohttp.FormData` (which discord.py looks up on each request),
writes the same bytes directly — the parts discord.py sends, a JSON string and a picture's
buffer — and falls back to aiohttp's own form for anything else.
"""

from __future__ import annotations

import io
import uuid
from typing import Any

import aiohttp
from aiohttp import MultipartWriter, payload
from aiohttp.abc import AbstractStreamWriter

_part_by_part = MultipartWriter.write


class _Gathered:
    """Stands in for the connection while a multipart body is written: keeps what is written."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    async def write(self, chunk: Any) -> None:
        self.chunks.append(bytes(chunk))


async def _write_at_once(self: MultipartWriter, writer: AbstractStreamWriter, close_boundary: bool = True) -> None:
    gathered = _Gathered()
    await _part_by_part(self, gathered, close_boundary)  # type: ignore[arg-type]
    await writer.write(b"".join(gathered.chunks))


_AiohttpForm = aiohttp.FormData


class OneBodyForm(_AiohttpForm):
    """aiohttp's `FormData` whose multipart body (discord.py's: `quote_fields=False`, each
    part a string or a file with its name) is made as one bytes payload, byte for byte what
    aiohttp writes; any other form is aiohttp's own."""

    def __init__(self, fields: Any = (), quote_fields: bool = True, charset: str | None = None, *,
                 default_to_multipart: bool = False) -> None:
        self._made_as = (quote_fields, charset, default_to_multipart)
        self._parts: list[tuple[str, Any, str | None, str | None]] = []
        self._theirs: aiohttp.FormData | None = None
        if fields:
            self._aiohttps().add_fields(*(fields if isinstance(fields, list | tuple) else (fields,)))

    def _aiohttps(self) -> aiohttp.FormData:
        """From here on, aiohttp's own form, holding every part added so far."""
        if self._theirs is None:
            quote_fields, charset, default_to_multipart = self._made_as
            self._theirs = _AiohttpForm(quote_fields=quote_fields, charset=charset,
                                        default_to_multipart=default_to_multipart)
            for name, value, content_type, filename in self._parts:
                self._theirs.add_field(name, value, content_type=content_type, filename=filename)
        return self._theirs

    @property
    def is_multipart(self) -> bool:
        return self._aiohttps().is_multipart if self._theirs is not None else \
            any(filename is not None or content_type is not None for _, _, content_type, filename in self._parts)

    def add_field(self, name: str, value: Any, *, content_type: str | None = None, filename: str | None = None,
                  content_transfer_encoding: str | None = None) -> None:
        if self._theirs is None and content_transfer_encoding is None and _plain(name, value, content_type, filename):
            self._parts.append((name, value, content_type, filename))
        else:
            self._aiohttps().add_field(name, value, content_type=content_type, filename=filename,
                                       content_transfer_encoding=content_transfer_encoding)

    def add_fields(self, *fields: Any) -> None:
        self._aiohttps().add_fields(*fields)

    def __call__(self) -> payload.Payload:
        quote_fields, charset, _ = self._made_as
        if self._theirs is not None or quote_fields or charset is not None or not self.is_multipart:
            return self._aiohttps()()
        boundary = new_boundary()
        chunks: list[bytes] = []
        for name, value, content_type, filename in self._parts:
            if isinstance(value, str):
                body, kind = value.encode(), content_type or "text/plain; charset=utf-8"
            else:
                body = value.read() if isinstance(value, io.BytesIO) else bytes(value)
                kind = content_type or "application/octet-stream"
            disposition = f'form-data; name="{_escaped(name)}"'
            if filename is not None:
                disposition += f'; filename="{_escaped(filename)}"'
            chunks.append(f"--{boundary}\r\nContent-Type: {kind}\r\nContent-Disposition: {disposition}\r\n\r\n"
                          .encode())
            chunks.append(body)
            chunks.append(b"\r\n")
        chunks.append(f"--{boundary}--\r\n".encode())
        return payload.BytesPayload(b"".join(chunks), content_type=f"multipart/form-data; boundary={boundary}")


def new_boundary() -> str:
    return uuid.uuid4().hex  # as aiohttp's


def _plain(name: str, value: Any, content_type: str | None, filename: str | None) -> bool:
    """A part `OneBodyForm` writes itself: named, a string or bytes or an in-memory file (with
    a file name), no line break in any header."""
    texts = [name, content_type or "", filename or ""]
    if not isinstance(name, str) or not all(isinstance(t, str) and "\r" not in t and "\n" not in t for t in texts):
        return False
    if isinstance(value, str):
        return True
    return isinstance(value, io.BytesIO | bytes) and filename is not None


def _escaped(text: str) -> str:
    """A quoted header parameter's text, as aiohttp writes it without quoting fields."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def install() -> None:
    """Make and write every multipart body of this process in one piece (idempotent)."""
    MultipartWriter.write = _write_at_once  # type: ignore[method-assign]
    aiohttp.FormData = OneBodyForm  # type: ignore[misc]


def installed() -> bool:
    return MultipartWriter.write is _write_at_once and aiohttp.FormData is OneBodyForm
