"""The fake Discord's world: users, guilds, channels, messages, interactions, commands.

Objects serialise themselves to Discord's JSON shapes (`to_dict`). Tests read them directly
(they are live: an edited message changes in place), usually through the driver's helpers.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from . import permissions as perm
from .components import iter_components
from .ids import now_iso, snowflake, token
from .mentions import Mentions, Notification

GUILD_TEXT, DM, ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 10, 11, 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

# Interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

# Message types
DEFAULT, THREAD_CREATED, REPLY, CHAT_INPUT_COMMAND, THREAD_STARTER = 0, 18, 19, 20, 21
SYSTEM_TYPES = frozenset({THREAD_CREATED, THREAD_STARTER, 7, 6})


@dataclass(eq=False)
class User:
    id: int
    username: str
    bot: bool = False
    accepts_dms: bool = True
    global_name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "username": self.username, "discriminator": "0",
            "global_name": self.global_name or self.username, "avatar": None, "bot": self.bot,
            "public_flags": 0, "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "color": 0, "colors": {"primary_color": 0},
            "hoist": False, "icon": None, "unicode_emoji": None, "position": self.position,
            "permissions": str(self.permissions), "managed": self.managed, "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=now_iso)

    def to_dict(self, *, with_user: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "roles": [str(r) for r in self.roles], "nick": self.nick, "avatar": None,
            "joined_at": self.joined_at, "premium_since": None, "deaf": False, "mute": False,
            "flags": 0, "pending": False, "communication_disabled_until": None,
        }
        if with_user:
            out["user"] = self.user.to_dict()
        return out


@dataclass
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id), "filename": self.filename, "size": len(self.data),
            "url": self.url, "proxy_url": self.url,
        }
        if self.content_type:
            out["content_type"] = self.content_type
        if self.description:
            out["description"] = self.description
        return out


@dataclass(eq=False)
class Message:
    """A message as stored; `visible_to` is set for ephemeral messages (one user sees them)."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = DEFAULT
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    visible_to: int | None = None
    interaction: Interaction | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    message_reference: dict[str, Any] | None = None
    thread: Channel | None = None
    deleted: bool = False
    edits: int = 0
    #: The content's mentions that its allowed_mentions let through (see mentions.py).
    mentioned: Mentions = field(default_factory=Mentions)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def visible_for(self, user_id: int | None) -> bool:
        """Whether `user_id` (None: anyone looking at the channel) can see this message."""
        if self.deleted:
            return False
        return self.visible_to is None or self.visible_to == user_id

    # -- reading helpers for tests -------------------------------------------------------
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def button_labels(self) -> list[str]:
        return [b.get("label") or "" for b in self.buttons()]

    def text(self) -> str:
        """Content plus every embed's visible text, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [embed.get("author", {}).get("name", ""), embed.get("footer", {}).get("text", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
        for c in iter_components(self.components):
            if c.get("type") == 10:
                parts.append(c.get("content", ""))
        return "\n".join(p for p in parts if p)

    def to_dict(self, *, gateway: bool = False) -> dict[str, Any]:
        ch = self.channel
        out: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(ch.id), "author": self.author.to_dict(),
            "content": self.content, "timestamp": self.timestamp, "edited_timestamp": self.edited_timestamp,
            "tts": False, "mention_everyone": self.mentioned.everyone,
            "mentions": [ch.world.users[u].to_dict() for u in self.mentioned.users if u in ch.world.users],
            "mention_roles": [str(r) for r in self.mentioned.roles],
            "attachments": [a.to_dict() for a in self.attachments], "embeds": self.embeds,
            "pinned": False, "type": self.type, "flags": self.flags, "components": self.components,
        }
        if ch.guild_id is not None and gateway:
            out["guild_id"] = str(ch.guild_id)
            guild = ch.world.guilds.get(ch.guild_id)
            member = guild.members.get(self.author.id) if guild else None
            if member is not None and self.webhook_id is None:
                out["member"] = member.to_dict(with_user=False)
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            out["application_id"] = str(self.application_id)
        if self.message_reference:
            out["message_reference"] = self.message_reference
        if self.thread is not None:
            out["thread"] = self.thread.to_dict()
        if self.interaction is not None:
            out["interaction_metadata"] = self.interaction.metadata()
            if self.interaction.type == APPLICATION_COMMAND:
                out["interaction"] = {
                    "id": str(self.interaction.id), "type": self.interaction.type,
                    "name": self.interaction.command_name, "user": self.interaction.user.to_dict(),
                }
        return out


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    world: World
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    recipient: User | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    thread_members: dict[int, str] = field(default_factory=dict)  # user id -> join timestamp
    created: str = field(default_factory=now_iso)
    messages: list[Message] = field(default_factory=list)
    sent_count: int = 0
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def guild(self) -> Guild | None:
        return self.world.guilds.get(self.guild_id) if self.guild_id is not None else None

    @property
    def parent(self) -> Channel | None:
        return self.world.channels.get(self.parent_id) if self.parent_id is not None else None

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    # -- reading helpers for tests -------------------------------------------------------
    def history(self, user: User | int | None = None, *, include_system: bool = False) -> list[Message]:
        """Messages in order that `user` sees (None: only public messages)."""
        uid = user.id if isinstance(user, User) else user
        return [
            m for m in self.messages
            if m.visible_for(uid) and (include_system or m.type not in SYSTEM_TYPES)
        ]

    def last_message(self, user: User | int | None = None, *, include_system: bool = False) -> Message | None:
        msgs = self.history(user, include_system=include_system)
        return msgs[-1] if msgs else None

    def threads(self) -> list[Channel]:
        return [c for c in self.world.channels.values() if c.is_thread and c.parent_id == self.id]

    def last_message_id(self) -> str | None:
        public = [m for m in self.messages if m.visible_to is None]
        return str(public[-1].id) if public else None

    def to_dict(self) -> dict[str, Any]:
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id), "type": DM, "last_message_id": self.last_message_id(),
                "recipients": [self.recipient.to_dict()], "flags": 0,
            }
        out: dict[str, Any] = {
            "id": str(self.id), "type": self.type, "guild_id": str(self.guild_id), "name": self.name,
            "last_message_id": self.last_message_id(), "rate_limit_per_user": 0, "flags": 0,
            "parent_id": str(self.parent_id) if self.parent_id else None,
        }
        if self.is_thread:
            out.update(
                owner_id=str(self.owner_id), message_count=self.sent_count,
                total_message_sent=self.sent_count, member_count=min(len(self.thread_members), 50),
                thread_metadata={
                    "archived": self.archived, "locked": self.locked, "invitable": self.invitable,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created, "create_timestamp": self.created,
                },
            )
        else:
            out.update(
                position=self.position, topic=self.topic, nsfw=False,
                permission_overwrites=[o.to_dict() for o in self.overwrites.values()],
            )
        return out

    def thread_member_dict(self, user_id: int) -> dict[str, Any]:
        return {
            "id": str(self.id), "user_id": str(user_id),
            "join_timestamp": self.thread_members.get(user_id, self.created), "flags": 0,
        }


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    world: World
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)

    @property
    def channels(self) -> dict[int, Channel]:
        return {
            cid: c for cid, c in self.world.channels.items() if c.guild_id == self.id and not c.is_thread
        }

    @property
    def threads(self) -> list[Channel]:
        return [c for c in self.world.channels.values() if c.guild_id == self.id and c.is_thread]

    def channel(self, name: str) -> Channel:
        for c in self.channels.values():
            if c.name == name:
                return c
        raise KeyError(f"no channel named {name!r} in guild {self.name!r}")

    def permissions_for(self, user_id: int, channel: Channel | None = None) -> int:
        if channel is None:
            return perm.base_permissions(self, user_id)
        return perm.channel_permissions(self, channel, user_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(self.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [r.to_dict() for r in self.roles.values()], "emojis": [], "stickers": [],
            "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None,
            "description": None, "banner": None, "premium_tier": 0, "preferred_locale": "en-US",
            "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
        }

    def create_payload(self, bot_id: int) -> dict[str, Any]:
        """GUILD_CREATE: the guild with every channel, thread, member and role."""
        out = self.to_dict()
        threads = []
        for t in self.threads:
            if not t.archived:
                d = t.to_dict()
                if bot_id in t.thread_members:
                    d["member"] = t.thread_member_dict(bot_id)
                threads.append(d)
        out.update(
            unavailable=False, large=False, member_count=len(self.members), joined_at=now_iso(),
            members=[m.to_dict() for m in self.members.values()],
            channels=[c.to_dict() for c in self.channels.values()], threads=threads,
            voice_states=[], presences=[], stage_instances=[], guild_scheduled_events=[],
            soundboard_sounds=[],
        )
        return out


@dataclass(eq=False)
class Interaction:
    """One interaction from a simulated user, with how and when the bot answered it."""

    id: int
    type: int
    user: User
    channel: Channel
    data: dict[str, Any]
    application_id: int
    message: Message | None = None
    token: str = field(default_factory=token)
    created: float = field(default_factory=time.monotonic)
    dispatched_at: float | None = None
    response_type: int | None = None
    responded_at: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    late_callbacks: int = 0
    deleted_original: bool = False
    #: Those waiting for the bot's first answer (`driver.FakeUser._interact`), woken by `answered`:
    #: a click waits on its own interaction, not on every change of the world (with hundreds of
    #: clicks in flight, waking each on every change was most of a benchmark's own CPU).
    waiters: list[asyncio.Future[None]] = field(default_factory=list, repr=False)

    def answered(self) -> None:
        """The bot answered (or answered too late): wake who waits for it."""
        waiters, self.waiters = self.waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    @property
    def guild_id(self) -> int | None:
        return self.channel.guild_id

    @property
    def command_name(self) -> str:
        return self.data.get("name", "")

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the callback (None while unanswered)."""
        if self.responded_at is None or self.dispatched_at is None:
            return None
        return self.responded_at - self.dispatched_at

    def metadata(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id), "type": self.type, "user": self.user.to_dict(),
            "authorizing_integration_owners": {"0": str(self.guild_id)} if self.guild_id else {
                "1": str(self.user.id)},
        }
        if self.type == APPLICATION_COMMAND:
            out["name"] = self.command_name
            out["command_type"] = 1
        if self.original is not None:
            out["original_response_message_id"] = str(self.original.id)
        if self.message is not None:
            out["interacted_message_id"] = str(self.message.id)
        return out


@dataclass
class Application:
    id: int
    name: str
    owner: User
    bot: User

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "icon": None, "description": "", "rpc_origins": [],
            "bot_public": True, "bot_require_code_grant": False, "owner": self.owner.to_dict(),
            "bot": self.bot.to_dict(), "team": None, "verify_key": "0" * 64, "flags": 0,
            "summary": "", "tags": [], "redirect_uris": [], "interactions_endpoint_url": None,
            "approximate_guild_count": 1, "integration_types_config": {"0": {}, "1": {}},
        }


class Notifier:
    """Wakes waiters whenever the world changes (every REST call or gateway event)."""

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] = []
        self.version = 0
        #: Plain callbacks run on every change (cheaper than `wait_for` for many waiters, e.g. in
        #: benchmarks): they must be quick and must not raise.
        self.listeners: list[Callable[[], None]] = []

    def notify(self) -> None:
        self.version += 1
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)
        for listener in list(self.listeners):
            listener()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float, what: str = "") -> Any:
        """Return predicate()'s first truthy value; re-checked on every change (and every 50 ms
        for conditions on the bot's own state). Raises AssertionError on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate!r}")
            fut: asyncio.Future[None] = loop.create_future()
            self._waiters.append(fut)
            # asyncio.wait, not wait_for: on Python 3.11 wait_for swallows a cancellation that
            # arrives as `fut` completes (a notify in the same loop turn), so a cancelled waiter
            # went on waiting; with many users acting at once a cancelled task never ended
            await asyncio.wait((fut,), timeout=min(remaining, 0.05))
            if not fut.done():
                fut.cancel()


class World:
    """Everything the fake Discord knows."""

    def __init__(self) -> None:
        self.notifier = Notifier()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.dm_channels: dict[int, Channel] = {}
        #: Every message that pinged someone when it was sent, in order.
        self.notifications: list[Notification] = []
        owner = self.add_user("owner")
        bot_id = snowflake()
        self.bot = User(bot_id, "Rumpus", bot=True)
        self.users[bot_id] = self.bot
        self.application = Application(bot_id, "Rumpus", owner, self.bot)

    # -- building --------------------------------------------------------------------------
    def add_user(self, username: str, *, bot: bool = False) -> User:
        user = User(snowflake(), username, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, owner: User, *, guild_id: int | None = None) -> Guild:
        gid = guild_id or snowflake()
        guild = Guild(gid, name, owner.id, self)
        guild.roles[gid] = Role(gid, "@everyone", perm.EVERYONE_DEFAULT)
        self.guilds[gid] = guild
        guild.members[owner.id] = Member(owner)
        return guild

    def add_channel(self, guild: Guild, name: str, *, position: int | None = None) -> Channel:
        pos = len(guild.channels) if position is None else position
        ch = Channel(snowflake(), GUILD_TEXT, self, name=name, guild_id=guild.id, position=pos)
        self.channels[ch.id] = ch
        return ch

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with `user` (created on first use, as Discord does)."""
        ch = self.dm_channels.get(user.id)
        if ch is None:
            ch = Channel(snowflake(), DM, self, recipient=user)
            self.channels[ch.id] = ch
            self.dm_channels[user.id] = ch
        return ch

    # -- messages --------------------------------------------------------------------------
    def add_message(self, channel: Channel, author: User, **fields: Any) -> Message:
        msg = Message(snowflake(), channel, author, **fields)
        channel.messages.append(msg)
        if channel.is_thread and msg.type not in SYSTEM_TYPES:
            channel.sent_count += 1
        self.messages[msg.id] = msg
        return msg

    def ephemerals_for(self, user: User) -> list[Message]:
        return [m for m in self.messages.values() if m.visible_to == user.id and not m.deleted]

    def interaction_by_token(self, tok: str) -> Interaction | None:
        for inter in self.interactions.values():
            if inter.token == tok:
                return inter
        return None

    def commands_for(self, guild_id: int | None) -> Iterable[dict[str, Any]]:
        if guild_id is not None:
            yield from self.guild_commands.get(guild_id, [])
        yield from self.global_commands
