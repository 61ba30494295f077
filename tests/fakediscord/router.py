"""REST routing: Discord-style route templates, request parsing (JSON or multipart), the call log.

An unknown route is answered 404 and recorded as a failure: the fixture raises it at teardown,
so a bot calling an endpoint the fake does not model fails its test instead of passing quietly.
"""

from __future__ import annotations

import json
import re
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .errors import ApiError, unauthorized

if TYPE_CHECKING:
    from .server import FakeDiscord


@dataclass
class UploadedFile:
    field: str
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class CallRecord:
    """One REST call as the fake saw it."""

    method: str
    route: str  # the template, e.g. "POST /channels/{channel_id}/messages"
    path: str
    at: float
    status: int = 0
    code: int | None = None
    duration: float = 0.0
    body: Any = None
    interaction_id: int | None = None  # the interaction whose token/id the call used
    user_id: int | None = None  # the user concerned (interaction user, DM recipient, member)
    channel_id: int | None = None
    after: int | None = None  # the last interaction dispatched before this call (the action it serves)
    rate_remaining: int | None = None  # X-RateLimit-Remaining sent back (limited routes only)

    def __str__(self) -> str:
        return f"{self.route} -> {self.status}" + (f" (code {self.code})" if self.code else "")


@dataclass
class Ctx:
    """What a handler gets: path parameters, parsed body, files, and its call record to annotate."""

    server: FakeDiscord
    request: web.Request
    params: dict[str, str]
    body: Any
    files: list[UploadedFile]
    call: CallRecord
    query: dict[str, str] = field(default_factory=dict)

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Handler = Callable[[Ctx], Awaitable[Any]]


@dataclass
class Route:
    method: str
    template: str
    regex: re.Pattern[str]
    handler: Handler
    auth: bool


class NoContent:
    """Handler return value for 204."""


NO_CONTENT = NoContent()


class Router:
    def __init__(self) -> None:
        self.routes: list[Route] = []

    def add(self, method: str, template: str, *, auth: bool = True) -> Callable[[Handler], Handler]:
        pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}"))

        def deco(fn: Handler) -> Handler:
            self.routes.append(Route(method, template, re.compile(f"^{pattern}$"), fn, auth))
            return fn

        return deco

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for route in self.routes:
            if route.method == method:
                m = route.regex.match(path)
                if m:
                    return route, m.groupdict()
        return None

    async def handle(self, server: FakeDiscord, request: web.Request, path: str) -> web.Response:
        call = CallRecord(request.method, f"{request.method} {path}", path, time.monotonic(),
                          after=server.last_interaction_id)
        server.calls.append(call)
        server.in_flight += 1
        try:
            return await self._handle(server, request, path, call)
        finally:
            server.in_flight -= 1
            call.duration = time.monotonic() - call.at
            server.last_call_end = time.monotonic()
            server.world.notifier.notify()

    async def _handle(self, server: FakeDiscord, request: web.Request, path: str, call: CallRecord) -> web.Response:
        found = self.match(request.method, path)
        if found is None:
            server.fail(f"unknown route: {request.method} /api/v10{path}")
            return _error_response(call, ApiError(404, 0, f"fake discord does not model {request.method} {path}"))
        route, params = found
        call.route = f"{route.method} {route.template}"
        if route.auth and request.headers.get("Authorization") != f"Bot {server.token}":
            return _error_response(call, unauthorized())
        try:
            body, files = await _read_body(request)
        except ValueError as exc:
            return _error_response(call, ApiError(400, 50109, f"The request body contains invalid JSON: {exc}"))
        call.body = body
        verdict = server.rate_limits.check(call.route, params)
        limits = verdict.headers if verdict is not None else {}
        if verdict is not None:
            call.rate_remaining = int(limits["X-RateLimit-Remaining"])
        if verdict is not None and verdict.retry_after is not None:
            call.status = 429
            server.rate_limited.append(call)
            return web.Response(status=429, body=verdict.body(),
                                headers={"Content-Type": "application/json", **limits})
        ctx = Ctx(server, request, params, body, files, call, dict(request.query))
        try:
            result = await route.handler(ctx)
        except ApiError as exc:
            server.note_error(call, exc)
            return _error_response(call, exc)
        except Exception:
            server.fail(f"fake discord crashed on {call.route}:\n{traceback.format_exc()}")
            return _error_response(call, ApiError(400, 0, "fake discord internal error (see test failure)"))
        if isinstance(result, NoContent):
            call.status = 204
            return web.Response(status=204, headers=limits)
        call.status = 200
        return json_response(result, headers=limits)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with Content-Type exactly "application/json" (discord.py requires it verbatim)."""
    return web.Response(status=status, body=json.dumps(data).encode(),
                        headers={"Content-Type": "application/json", **(headers or {})})


def _error_response(call: CallRecord, exc: ApiError) -> web.Response:
    call.status, call.code = exc.status, exc.code
    return json_response(exc.body(), exc.status)


async def _read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    if not request.can_read_body:
        return None, []
    ctype = request.headers.get("Content-Type", "")
    if ctype.startswith("multipart/"):
        body: Any = None
        files: list[UploadedFile] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            data = await part.read()  # type: ignore[union-attr]
            name = part.name or ""  # type: ignore[union-attr]
            if name == "payload_json":
                body = json.loads(data)
            else:
                filename = part.filename or name  # type: ignore[union-attr]
                files.append(UploadedFile(name, filename, bytes(data),
                                          part.headers.get("Content-Type")))  # type: ignore[union-attr]
        return body, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except json.JSONDecodeError as exc:
        raise ValueError(str(exc)) from None
