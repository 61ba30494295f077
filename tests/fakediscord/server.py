"""FakeDiscord: the aiohttp app (REST under /api/v10, gateway, attachment CDN) on 127.0.0.1,
its world, the REST call log, failure bookkeeping and waiting helpers."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web

from . import permissions as perm
from .errors import ApiError
from .gateway import Gateway
from .ids import snowflake, snowflake_on_shard
from .ratelimits import RateLimits
from .router import CallRecord, Router
from .routes_app import router as app_router
from .routes_channels import router as channel_router
from .routes_interactions import router as interaction_router
from .state import Channel, Guild, Member, Role, User, World

#: Connections the kernel may hold for the fake before it accepts them (see `start`).
LISTEN_BACKLOG = 4096


class FakeDiscord:
    """A fake Discord API (REST v10 + gateway) for one bot, one guild and any number of users.

    `interaction_timeout` is Discord's 3-second window (raise it for slow CI); errors in
    `allowed_errors` (Discord error codes) are expected by the test, any other 4xx sent to the
    bot fails the test at teardown when `strict` (see `check()`).

    Shards: `max_concurrency` and `recommended_shards` are what GET /gateway/bot tells; IDENTIFYs
    are logged per bucket against `identify_spacing` (Discord: 5 s) and, with
    `enforce_identify_limit`, refused with op 9 when too early (see gateway.py). More guilds, on
    a chosen shard: `add_guild("Other", shard=(1, 2))`.
    """

    def __init__(self, *, token: str = "fake-token", interaction_timeout: float = 3.0,
                 token_lifetime: float = 15 * 60, strict: bool = True, max_concurrency: int = 1,
                 identify_spacing: float = 5.0, enforce_identify_limit: bool = False,
                 recommended_shards: int = 1) -> None:
        self.token = token
        self.interaction_timeout = interaction_timeout
        self.token_lifetime = token_lifetime
        self.strict = strict
        self.world = World()
        self.gateway = Gateway(self, max_concurrency=max_concurrency, identify_spacing=identify_spacing,
                               enforce_identify_limit=enforce_identify_limit,
                               recommended_shards=recommended_shards)
        self.router = Router()
        for sub in (app_router, channel_router, interaction_router):
            self.router.routes += sub.routes
        self.calls: list[CallRecord] = []
        self.failures: list[str] = []
        self.errors: list[tuple[CallRecord, ApiError]] = []
        self.allowed_errors: set[int] = set()
        self.command_syncs = 0
        self.in_flight = 0
        self.last_interaction_id: int | None = None
        self.last_call_end = 0.0
        self.rate_limit_hits: list[str] = []
        self.rate_limits = RateLimits()
        #: Calls answered 429 (only on routes a test limited with `rate_limit`).
        self.rate_limited: list[CallRecord] = []
        self._recent: dict[int, deque[float]] = {}
        self.port = 0
        self._runner: web.AppRunner | None = None
        self.guild, self.bot_member = self._default_guild()
        self.users: dict[str, Any] = {}

    # -- setup ----------------------------------------------------------------------------------
    def _default_guild(self) -> tuple[Guild, Member]:
        return self._new_guild("Game Night")

    def _new_guild(self, name: str, guild_id: int | None = None) -> tuple[Guild, Member]:
        world = self.world
        guild = world.add_guild(name, world.application.owner, guild_id=guild_id)
        bot_role = Role(snowflake(), "Rumpus", perm.EVERYONE_DEFAULT | perm.MANAGE_THREADS
                        | perm.MANAGE_MESSAGES | perm.MANAGE_ROLES, position=1, managed=True)
        guild.roles[bot_role.id] = bot_role
        member = Member(world.bot, roles=[bot_role.id])
        guild.members[world.bot.id] = member
        world.add_channel(guild, "general")
        world.add_channel(guild, "games")
        return guild, member

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> Guild:
        """Another guild the bot is in (with #general and #games), on shard `shard` = (shard_id,
        shard_count) when given: its id is picked so that `(id >> 22) % shard_count == shard_id`.
        A connected shard that owns it gets GUILD_CREATE, as when the bot joins a server."""
        guild_id = snowflake_on_shard(*shard) if shard is not None else None
        guild, _ = self._new_guild(name, guild_id)
        if self.gateway.live:
            asyncio.get_running_loop().create_task(self._guild_joined(guild))
        return guild

    async def _guild_joined(self, guild: Guild) -> None:
        from .gateway import GUILDS

        await self.gateway.dispatch("GUILD_CREATE", guild.create_payload(self.world.bot.id), intent=GUILDS,
                                    guild_id=guild.id)

    @property
    def general(self) -> Channel:
        return self.guild.channel("general")

    def channel(self, name: str) -> Channel:
        return self.guild.channel(name)

    def add_channel(self, name: str) -> Channel:
        return self.world.add_channel(self.guild, name)

    def user(self, name: str, *, accepts_dms: bool = True, guild: Guild | None = None) -> Any:
        """The simulated user `name` (created on first use), a member of the default guild, and
        of `guild` too when given."""
        from .driver import FakeUser

        if name not in self.users:
            user = self.world.add_user(name)
            user.accepts_dms = accepts_dms
            self.users[name] = FakeUser(self, user)
            self.join(self.users[name], self.guild)
        if guild is not None:
            self.join(self.users[name], guild)
        return self.users[name]

    def join(self, user: Any, guild: Guild) -> None:
        """Make `user` (a FakeUser or User) a member of `guild` (GUILD_MEMBER_ADD to its shard)."""
        user = getattr(user, "user", user)
        if user.id in guild.members:
            return
        guild.members[user.id] = Member(user)
        if self.gateway.route(guild.id):
            asyncio.get_running_loop().create_task(self._member_added(guild, guild.members[user.id]))

    async def _member_added(self, guild: Guild, member: Member) -> None:
        from .gateway import GUILD_MEMBERS

        await self.gateway.dispatch("GUILD_MEMBER_ADD", {"guild_id": str(guild.id), **member.to_dict()},
                                    intent=GUILD_MEMBERS)

    # -- lifecycle ------------------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self.gateway.handle)
        app.router.add_route("GET", "/resume-gateway", self.gateway.handle)
        app.router.add_route("GET", "/attachments/{channel}/{id}/{name}", self._cdn)
        app.router.add_route("*", "/api/v10{path:.*}", self._api)
        app.router.add_route("*", "/{path:.*}", self._unversioned)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        # Discord never turns a connection away; with aiohttp's default backlog (128) a busy fake
        # dropped the bot's SYNs at 1,000 games, and each retry added 1-7 s (or a 30 s connect
        # timeout) to the latencies the benchmarks measure. The kernel caps it at somaxconn.
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=LISTEN_BACKLOG)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/resume-gateway"

    async def _api(self, request: web.Request) -> web.Response:
        return await self.router.handle(self, request, request.match_info["path"])

    async def _unversioned(self, request: web.Request) -> web.Response:
        self.fail(f"request outside /api/v10: {request.method} {request.rel_url}")
        return web.Response(status=404)

    async def _cdn(self, request: web.Request) -> web.Response:
        for msg in self.world.messages.values():
            for att in msg.attachments:
                if str(att.id) == request.match_info["id"]:
                    return web.Response(body=att.data, content_type=att.content_type or "application/octet-stream")
        return web.Response(status=404)

    # -- bookkeeping ------------------------------------------------------------------------------
    def fail(self, why: str) -> None:
        """Record a problem that must fail the running test (raised by `check()`)."""
        self.failures.append(why)

    def note_error(self, call: CallRecord, exc: ApiError) -> None:
        self.errors.append((call, exc))

    def rate_limit(self, route: str, *, limit: int, per: float) -> None:
        """Enforce Discord-style rate limits on `route` (a call-log template such as
        "PATCH /channels/{channel_id}/messages/{message_id}"): `limit` calls per `per` seconds
        per channel (or guild, webhook); beyond that, 429 with `retry_after`."""
        if not any(f"{r.method} {r.template}" == route for r in self.router.routes):
            raise ValueError(f"the fake has no route {route!r}")
        self.rate_limits.add(route, limit, per)

    def allow_errors(self, *codes: int) -> None:
        """Declare Discord error codes this test expects the bot to receive (e.g. 50007)."""
        self.allowed_errors.update(codes)

    def note_bot_message(self, channel: Channel) -> None:
        """Track Discord's ~5 messages / 5 s per channel limit (recorded, not enforced)."""
        now = time.monotonic()
        recent = self._recent.setdefault(channel.id, deque())
        recent.append(now)
        while recent and now - recent[0] > 5.0:
            recent.popleft()
        if len(recent) > 5:
            self.rate_limit_hits.append(f"more than 5 messages in 5 s in #{channel.name or channel.id}")

    def unexpected_errors(self) -> list[str]:
        return [f"{call.route} -> {exc.status} {exc.code} {exc.message}{_gist(call.body)}"
                for call, exc in self.errors if exc.code not in self.allowed_errors]

    def check(self) -> None:
        """Raise AssertionError for unknown routes, fake crashes, and (strict) unexpected API errors."""
        problems = list(self.failures)
        if self.strict:
            problems += [f"unexpected API error: {e}" for e in self.unexpected_errors()]
        if problems:
            raise AssertionError("fake Discord saw problems:\n  " + "\n  ".join(problems))

    # -- observation ------------------------------------------------------------------------------
    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "") -> Any:
        """Wait until `predicate()` is truthy (re-checked on every change) and return its value."""
        return await self.world.notifier.wait_for(predicate, timeout, what)

    async def idle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until no REST call is in flight and none ended during the last `quiet` seconds."""
        def quiet_now() -> bool:
            return self.in_flight == 0 and time.monotonic() - self.last_call_end >= quiet
        await self.wait_for(quiet_now, timeout, "the bot to go quiet")

    def mark(self) -> int:
        return len(self.calls)

    def pinged(self, user: Any) -> list[Any]:
        """Messages whose sending notified `user` (a FakeUser or id): by their mention, a role
        they hold, or @everyone/@here in a server they are a member of (it does nothing in a DM)."""
        uid = getattr(user, "id", user)
        out = []
        for note in self.world.notifications:
            msg, said = note.message, note.mentions
            guild = msg.channel.guild
            member = guild.members.get(uid) if guild is not None else None
            roles = set(member.roles) if member is not None else set()
            if (uid in said.users or roles & set(said.roles)
                    or (said.everyone and member is not None)):
                out.append(msg)
        return out

    def calls_since(self, mark: int, route: str | None = None) -> list[CallRecord]:
        """REST calls made after `mark()`, optionally only those whose route template contains `route`."""
        return [c for c in self.calls[mark:] if route is None or route in c.route]

    def calls_for(self, interaction: Any) -> list[CallRecord]:
        """REST calls serving one action: those using its token, plus the calls made after it was
        dispatched and before the next interaction (exact when a test acts one step at a time)."""
        iid = getattr(interaction, "interaction", interaction).id
        return [c for c in self.calls
                if c.interaction_id == iid or (c.interaction_id is None and c.after == iid)]

    @contextmanager
    def track(self) -> Iterator[list[CallRecord]]:
        """`with server.track() as calls:` — `calls` fills with the REST calls made inside the block."""
        out: list[CallRecord] = []
        start = self.mark()
        try:
            yield out
        finally:
            out.extend(self.calls[start:])

    def latencies(self) -> list[float]:
        """Dispatch → callback seconds for every answered interaction."""
        return [i.latency for i in self.world.interactions.values() if i.latency is not None]

    def users_by_id(self) -> dict[int, User]:
        return self.world.users


def _gist(body: Any) -> str:
    """What a failed call was trying to say, so a failure names the message at fault."""
    if not isinstance(body, dict):
        return ""
    said = body.get("content") or next((e.get("title") or e.get("description") for e in body.get("embeds") or []
                                        if isinstance(e, dict)), None)
    return f" (sending {str(said)[:80]!r})" if said else ""
