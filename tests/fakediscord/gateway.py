"""The gateway websocket: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME, dispatches.

Frames are plain JSON text (discord.py only inflates binary frames, so compression is skipped).
Sessions survive a dropped socket: events dispatched meanwhile are replayed on RESUME, as
Discord does. A client closing with 1000/1001 ends its session.

Shards, as Discord has them: several sessions at once, one per `[shard_id, shard_count]` sent
with IDENTIFY (none sent: `[0, 1]`; a bad pair closes the socket with 4010). Each session gets
READY with its `shard` and GUILD_CREATE for its guilds only; a guild's events and interactions go
to the session whose shard is `(guild_id >> 22) % shard_count`, DM events and DM interactions to
shard 0. IDENTIFY is rate limited per bucket `shard_id % max_concurrency`, one per
`identify_spacing` seconds (5 on Discord): every IDENTIFY is logged in `identify_log`, and when
`enforce_identify_limit` is on a too-early one is answered with op 9 (Invalid Session, not
resumable), as Discord does; the client must wait and IDENTIFY again.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .ids import token

if TYPE_CHECKING:
    from .server import FakeDiscord

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION = (
    0, 1, 2, 3, 4, 6, 7, 8, 9)
HELLO, HEARTBEAT_ACK = 10, 11

# Intents
GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1, 1 << 1, 1 << 9, 1 << 12, 1 << 15
PRIVILEGED = GUILD_MEMBERS | (1 << 8) | MESSAGE_CONTENT


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % shard_count


@dataclass(eq=False)
class Session:
    """One gateway session (identified once, possibly resumed over several sockets)."""

    id: str
    intents: int
    shard: list[int] | None = None
    seq: int = 0
    buffer: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    resumes: int = 0

    def has(self, intent: int) -> bool:
        return bool(self.intents & intent)

    @property
    def key(self) -> tuple[int, int]:
        """(shard_id, shard_count); an unsharded session is shard 0 of 1."""
        return (self.shard[0], self.shard[1]) if self.shard else (0, 1)

    @property
    def shard_id(self) -> int:
        return self.key[0]

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord routes this guild's events here (None: a DM, which goes to shard 0)."""
        shard_id, count = self.key
        return shard_id == 0 if guild_id is None else shard_of(guild_id, count) == shard_id


@dataclass(frozen=True)
class IdentifyRecord:
    """One IDENTIFY as the gateway saw it: when (monotonic), which shard and bucket, let in or not."""

    at: float
    shard: tuple[int, int]
    bucket: int
    accepted: bool
    too_early: bool


def valid_shard(shard: Any) -> bool:
    return (isinstance(shard, list) and len(shard) == 2 and all(type(n) is int for n in shard)
            and shard[1] >= 1 and 0 <= shard[0] < shard[1])


class Gateway:
    """Serves /gateway and /resume-gateway; each shard's current session receives its dispatches."""

    def __init__(self, server: FakeDiscord, *, heartbeat_interval_ms: int = 41250, max_concurrency: int = 1,
                 identify_spacing: float = 5.0, enforce_identify_limit: bool = False,
                 recommended_shards: int = 1) -> None:
        self.server = server
        self.heartbeat_interval_ms = heartbeat_interval_ms
        #: Resumable sessions by id (a dropped socket keeps its session).
        self.sessions: dict[str, Session] = {}
        #: The current session of each shard, by (shard_id, shard_count).
        self.live: dict[tuple[int, int], Session] = {}
        #: What GET /gateway/bot tells: the recommended shard count and the session start limit.
        self.recommended_shards = recommended_shards
        self.max_concurrency = max_concurrency
        self.session_start_total = 1000
        self.session_start_remaining = 1000
        #: The identify rate limit: one IDENTIFY per bucket per `identify_spacing` seconds.
        self.identify_spacing = identify_spacing
        self.enforce_identify_limit = enforce_identify_limit
        self.identify_log: list[IdentifyRecord] = []
        self._bucket_last: dict[int, float] = {}
        self.identifies = 0
        self.resumes = 0
        self.connections = 0
        self.heartbeats = 0
        self.urls: list[str] = []
        self.privileged_intents = PRIVILEGED
        self._sockets: set[web.WebSocketResponse] = set()
        self._closed_by_us: set[int] = set()

    @property
    def session(self) -> Session | None:
        """The session of shard 0 (of the lowest shard when shard 0 has none): the one session of
        an unsharded bot."""
        if not self.live:
            return None
        return min(self.live.values(), key=lambda s: s.key)

    @property
    def connected(self) -> bool:
        """Whether any shard's session has an open socket."""
        return any(s.connected for s in self.live.values())

    def connected_shards(self) -> set[tuple[int, int]]:
        """(shard_id, shard_count) of every session with an open socket."""
        return {key for key, s in self.live.items() if s.connected}

    def route(self, guild_id: int | None) -> list[Session]:
        """The current sessions Discord would send this guild's events to (None: DMs, shard 0)."""
        return [s for s in self.live.values() if s.owns(guild_id)]

    def identify_times(self, *, accepted: bool = True) -> dict[int, list[float]]:
        """Monotonic IDENTIFY times by shard id (the accepted ones by default)."""
        out: dict[int, list[float]] = {}
        for rec in self.identify_log:
            if rec.accepted or not accepted:
                out.setdefault(rec.shard[0], []).append(rec.at)
        return out

    def session_start_limit(self) -> dict[str, int]:
        return {"total": self.session_start_total, "remaining": max(self.session_start_remaining, 0),
                "reset_after": 0 if self.session_start_remaining >= self.session_start_total else 86_400_000,
                "max_concurrency": self.max_concurrency}

    # -- socket handling -------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connections += 1
        self.urls.append(str(request.rel_url))
        self._sockets.add(ws)
        session: Session | None = None
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"Decode error")
            return ws
        await ws.send_str(json.dumps({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                                      "s": None, "t": None}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    await ws.close(code=4002, message=b"Decode error")
                    break
                frame = json.loads(msg.data)
                session = await self._on_frame(ws, frame, session)
        finally:
            self._sockets.discard(ws)
            by_us = id(ws) in self._closed_by_us
            self._closed_by_us.discard(id(ws))
            if session is not None and session.ws is ws:
                session.ws = None
                if ws.close_code in (1000, 1001) and not by_us:
                    self.end_session(session)
            self.server.world.notifier.notify()
        return ws

    async def _on_frame(self, ws: web.WebSocketResponse, frame: dict[str, Any],
                        session: Session | None) -> Session | None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            self.heartbeats += 1
            await ws.send_str(json.dumps({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None}))
        elif op == IDENTIFY:
            if session is not None:
                await ws.close(code=4005, message=b"Already authenticated")
            elif data.get("token") != self.server.token:
                await ws.close(code=4004, message=b"Authentication failed")
            elif data.get("intents", 0) & PRIVILEGED & ~self.privileged_intents:
                await ws.close(code=4014, message=b"Disallowed intent(s)")
            elif "shard" in data and data["shard"] is not None and not valid_shard(data["shard"]):
                await ws.close(code=4010, message=b"Invalid shard")
            elif not self._identify_allowed(data.get("shard")):
                await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False, "s": None, "t": None}))
            else:
                session = await self._identify(ws, data)
        elif op == RESUME:
            session = await self._resume(ws, data)
        elif op == REQUEST_MEMBERS and session is not None:
            await self._members_chunk(session, data)
        elif op in (PRESENCE, VOICE):
            pass
        else:
            await ws.close(code=4001, message=b"Unknown opcode")
        return session

    def _identify_allowed(self, shard: list[int] | None) -> bool:
        """Log this IDENTIFY against its bucket's rate limit; False when it must be refused."""
        key = (shard[0], shard[1]) if shard else (0, 1)
        bucket = key[0] % self.max_concurrency
        now = time.monotonic()
        last = self._bucket_last.get(bucket)
        too_early = last is not None and now - last < self.identify_spacing
        accepted = not (too_early and self.enforce_identify_limit)
        self.identify_log.append(IdentifyRecord(now, key, bucket, accepted, too_early))
        if accepted:
            self._bucket_last[bucket] = now
            self.session_start_remaining -= 1
        self.server.world.notifier.notify()
        return accepted

    @property
    def identify_violations(self) -> list[IdentifyRecord]:
        """IDENTIFYs sent sooner than `identify_spacing` after their bucket's last one."""
        return [rec for rec in self.identify_log if rec.too_early]

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session:
        self.identifies += 1
        session = Session(token(16), data.get("intents", 0), data.get("shard"))
        old = self.live.get(session.key)
        if old is not None:
            self.end_session(old)
        self.sessions[session.id] = session
        self.live[session.key] = session
        session.ws = ws
        world = self.server.world
        guilds = [g for g in world.guilds.values() if world.bot.id in g.members and session.owns(g.id)]
        ready: dict[str, Any] = {
            "v": 10, "user": {**world.bot.to_dict(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id, "session_type": "normal",
            "resume_gateway_url": self.server.resume_gateway_url, "private_channels": [],
            "relationships": [], "presences": [], "user_settings": {}, "geo_ordered_rtc_regions": [],
            "application": {"id": str(world.application.id), "flags": 0},
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await self.dispatch("READY", ready, session=session)
        if session.has(GUILDS):
            for guild in guilds:
                payload = guild.create_payload(world.bot.id)
                if not session.has(GUILD_MEMBERS):
                    payload["members"] = [guild.members[world.bot.id].to_dict()]
                await self.dispatch("GUILD_CREATE", payload, session=session)
        world.notifier.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.server.token:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False, "s": None, "t": None}))
            return None
        self.resumes += 1
        session.resumes += 1
        if session.ws is not None and not session.ws.closed:
            self._closed_by_us.add(id(session.ws))
            await session.ws.close(code=4000)
        seq = data.get("seq") or 0
        async with session.lock:
            session.ws = ws
            self.live[session.key] = session
            for frame in session.buffer:
                if frame["s"] > seq:
                    await ws.send_str(json.dumps(frame))
        await self.dispatch("RESUMED", {}, session=session)
        self.server.world.notifier.notify()
        return session

    async def _members_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.server.world.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.user.username.startswith(data["query"])]
        limit = data.get("limit") or 0
        if limit:
            members = members[:limit]
        chunk = {"guild_id": str(guild.id), "members": [m.to_dict() for m in members], "chunk_index": 0,
                 "chunk_count": 1, "not_found": []}
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk, session=session)

    def end_session(self, session: Session) -> None:
        self.sessions.pop(session.id, None)
        if self.live.get(session.key) is session:
            del self.live[session.key]

    # -- dispatching -----------------------------------------------------------------------
    async def dispatch(self, event: str, data: dict[str, Any], *, intent: int | None = None,
                       session: Session | None = None, guild_id: int | str | None = "from data") -> bool:
        """Send (or buffer for RESUME) one event to the sessions of its guild's shard (`guild_id`,
        by default the payload's "guild_id"; None: a DM, shard 0). An interaction goes to one
        session only. False if no session wants it."""
        if session is not None:
            return await self._send(session, event, data, intent)
        if guild_id == "from data":
            raw = data.get("guild_id")
            guild_id = int(raw) if raw is not None else None
        assert guild_id is None or isinstance(guild_id, int)
        targets = sorted(self.route(guild_id), key=lambda s: s.key)
        if event == "INTERACTION_CREATE":
            targets = targets[:1]
        delivered = False
        for target in targets:
            delivered = await self._send(target, event, data, intent) or delivered
        return delivered

    async def _send(self, session: Session, event: str, data: dict[str, Any], intent: int | None) -> bool:
        if intent is not None and not session.has(intent):
            return False
        async with session.lock:
            session.seq += 1
            frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
            session.buffer.append(frame)
            if session.ws is not None and not session.ws.closed:
                try:
                    await session.ws.send_str(json.dumps(frame))
                except ConnectionError:
                    session.ws = None
        return True

    # -- test controls -----------------------------------------------------------------------
    async def force_reconnect(self, how: str = "reconnect", *, shard: int | None = None) -> None:
        """Make the bot reconnect: "reconnect" (op 7), "close" (socket closed with 4000, resumable),
        or "invalidate" (op 9 false: the bot must IDENTIFY again). `shard`: which shard's session
        (default: shard 0's, the only one of an unsharded bot)."""
        if shard is None:
            session = self.session
        else:
            session = next((s for s in self.live.values() if s.shard_id == shard), None)
        if session is None or session.ws is None:
            raise AssertionError("the bot is not connected to the gateway")
        ws = session.ws
        if how == "reconnect":
            await ws.send_str(json.dumps({"op": RECONNECT, "d": None, "s": None, "t": None}))
        elif how == "close":
            self._closed_by_us.add(id(ws))
            await ws.close(code=4000, message=b"Unknown error")
        elif how == "invalidate":
            self.end_session(session)
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False, "s": None, "t": None}))
        else:
            raise ValueError(how)

    async def close_all(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"server shutting down")
        deadline = time.monotonic() + 1
        while self._sockets and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
