"""The gateway websocket: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME, dispatches.

Frames are plain JSON text (discord.py only inflates binary frames, so compression is skipped).
Sessions survive a dropped socket: events dispatched meanwhile are replayed on RESUME, as
Discord does. A client closing with 1000/1001 ends its session.
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


class Gateway:
    """Serves /gateway and /resume-gateway; the bot's current session receives dispatches."""

    def __init__(self, server: FakeDiscord, *, heartbeat_interval_ms: int = 41250) -> None:
        self.server = server
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, Session] = {}
        self.session: Session | None = None
        self.identifies = 0
        self.resumes = 0
        self.connections = 0
        self.heartbeats = 0
        self.urls: list[str] = []
        self.privileged_intents = PRIVILEGED
        self._sockets: set[web.WebSocketResponse] = set()
        self._closed_by_us: set[int] = set()

    @property
    def connected(self) -> bool:
        return self.session is not None and self.session.ws is not None and not self.session.ws.closed

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

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session:
        self.identifies += 1
        if self.session is not None:
            self.end_session(self.session)
        session = Session(token(16), data.get("intents", 0), data.get("shard"))
        self.sessions[session.id] = session
        self.session = session
        session.ws = ws
        world = self.server.world
        guilds = [g for g in world.guilds.values() if world.bot.id in g.members]
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
            self.session = session
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
        if self.session is session:
            self.session = None

    # -- dispatching -----------------------------------------------------------------------
    async def dispatch(self, event: str, data: dict[str, Any], *, intent: int | None = None,
                       session: Session | None = None) -> bool:
        """Send (or buffer for RESUME) one event to the bot. False if no session wants it."""
        session = session or self.session
        if session is None or (intent is not None and not session.has(intent)):
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
    async def force_reconnect(self, how: str = "reconnect") -> None:
        """Make the bot reconnect: "reconnect" (op 7), "close" (socket closed with 4000, resumable),
        or "invalidate" (op 9 false: the bot must IDENTIFY again)."""
        session = self.session
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
