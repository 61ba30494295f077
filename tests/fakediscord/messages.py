"""Creating, editing and deleting messages (shared by channel, DM, interaction and webhook routes),
with the gateway events Discord sends for each."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .components import assign_ids
from .errors import ApiError
from .gateway import DIRECT_MESSAGES, GUILD_MESSAGES, MESSAGE_CONTENT
from .ids import now_iso, snowflake
from .mentions import Notification, check_allowed, resolve
from .router import UploadedFile
from .state import EPHEMERAL, LOADING, Attachment, Channel, Message, User
from .validation import check_message

if TYPE_CHECKING:
    from .server import FakeDiscord

#: Flags a bot may set when sending (suppress embeds, ephemeral, suppress notifications, components v2).
SETTABLE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | (1 << 15)


def _attachments(server: FakeDiscord, channel: Channel, body: dict[str, Any], files: list[UploadedFile],
                 existing: list[Attachment] | None) -> list[Attachment]:
    """Uploaded files (+ kept existing attachments on edit), following `attachments` metadata."""
    by_index = {}
    for i, f in enumerate(files):
        idx = f.field.removeprefix("files[").removesuffix("]")
        by_index[idx if idx.isdigit() else str(i)] = f

    def new(f: UploadedFile, meta: dict[str, Any]) -> Attachment:
        aid = snowflake()
        filename = meta.get("filename") or f.filename
        return Attachment(aid, filename, f.data, f.content_type, meta.get("description"),
                          f"{server.base_url}/attachments/{channel.id}/{aid}/{filename}")

    meta_list = body.get("attachments")
    if meta_list is None:
        kept = list(existing or [])
        return kept + [new(f, {}) for f in by_index.values()]
    out: list[Attachment] = []
    old = {str(a.id): a for a in existing or []}
    used: set[str] = set()
    for meta in meta_list:
        key = str(meta.get("id"))
        if key in by_index:
            out.append(new(by_index[key], meta))
            used.add(key)
        elif key in old:
            out.append(old[key])
        else:
            raise ApiError(400, 50035, "Invalid Form Body",
                           {"attachments": {"_errors": [{"code": "ATTACHMENT_NOT_FOUND",
                                                         "message": f"Unknown attachment {key}"}]}})
    out += [new(f, {}) for k, f in by_index.items() if k not in used]
    return out


def build_fields(body: dict[str, Any]) -> dict[str, Any]:
    return {
        "content": body.get("content") or "",
        "embeds": copy.deepcopy(body.get("embeds") or []),
        "components": assign_ids(copy.deepcopy(body.get("components") or [])),
        "flags": (body.get("flags") or 0) & SETTABLE_FLAGS,
    }


async def create_message(server: FakeDiscord, channel: Channel, author: User, body: dict[str, Any] | None,
                         files: list[UploadedFile] | None = None, *, validate: bool = True,
                         **extra: Any) -> Message:
    """Validate and store a message, note rate limits, and dispatch MESSAGE_CREATE if public."""
    body = body or {}
    files = files or []
    if validate:
        check_message(body, creating=True, attachments=len(files))
    check_allowed(body.get("allowed_mentions"))
    fields = build_fields(body)
    fields.update(extra)
    fields["attachments"] = _attachments(server, channel, body, files, None)
    fields["mentioned"] = resolve(fields["content"], body.get("allowed_mentions"))
    msg = server.world.add_message(channel, author, **fields)
    _notify(server, msg)
    ref = body.get("message_reference")
    if ref and ref.get("message_id"):
        msg.message_reference = {"message_id": str(ref["message_id"]), "channel_id": str(channel.id),
                                 **({"guild_id": str(channel.guild_id)} if channel.guild_id else {})}
        msg.type = 19
    if author.id == server.world.bot.id and msg.visible_to is None:
        server.note_bot_message(channel)
    if msg.visible_to is None:
        await dispatch_message(server, "MESSAGE_CREATE", msg)
    return msg


async def edit_message(server: FakeDiscord, msg: Message, body: dict[str, Any] | None,
                       files: list[UploadedFile] | None = None) -> Message:
    """Apply a partial edit (only the keys present), then dispatch MESSAGE_UPDATE if public."""
    body = body or {}
    files = files or []
    check_message(body, creating=False, attachments=len(files))
    check_allowed(body.get("allowed_mentions"))
    sending = msg.loading  # a deferred response's first followup is its real send
    if "content" in body:
        msg.content = body["content"] or ""
        msg.mentioned = resolve(msg.content, body.get("allowed_mentions"))
    if "embeds" in body:
        msg.embeds = copy.deepcopy(body["embeds"] or [])
    if "components" in body:
        msg.components = assign_ids(copy.deepcopy(body["components"] or []))
    if body.get("flags") is not None:
        keep = msg.flags & (EPHEMERAL | LOADING)
        msg.flags = (body["flags"] & SETTABLE_FLAGS & ~EPHEMERAL) | keep
    if "attachments" in body or files:
        msg.attachments = _attachments(server, msg.channel, body, files, msg.attachments)
    if not (msg.content or msg.embeds or msg.components or msg.attachments):
        raise ApiError(400, 50006, "Cannot send an empty message")
    msg.flags &= ~LOADING
    msg.edited_timestamp = now_iso()
    msg.edits += 1
    if sending:
        _notify(server, msg)
    if msg.visible_to is None:
        await dispatch_message(server, "MESSAGE_UPDATE", msg)
    return msg


def _notify(server: FakeDiscord, msg: Message) -> None:
    """Log a send that pings someone (an ephemeral or still-loading message notifies nobody)."""
    if msg.mentioned and msg.visible_to is None and not msg.ephemeral and not msg.loading:
        server.world.notifications.append(Notification(msg, msg.mentioned))


async def delete_message(server: FakeDiscord, msg: Message) -> None:
    msg.deleted = True
    if msg.visible_to is None:
        ch = msg.channel
        data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(ch.id)}
        if ch.guild_id:
            data["guild_id"] = str(ch.guild_id)
        await server.gateway.dispatch("MESSAGE_DELETE", data, intent=_intent(ch))


def _intent(channel: Channel) -> int:
    return DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES


async def dispatch_message(server: FakeDiscord, event: str, msg: Message) -> None:
    """MESSAGE_CREATE/UPDATE; without MESSAGE_CONTENT the bot sees others' guild messages blank."""
    data = msg.to_dict(gateway=True)
    routed = server.gateway.route(msg.channel.guild_id)
    session = routed[0] if routed else None
    bot_id = server.world.bot.id
    mentioned = f"<@{bot_id}>" in msg.content
    if (session is not None and not session.has(MESSAGE_CONTENT) and msg.author.id != bot_id
            and not msg.channel.is_dm and not mentioned):
        data.update(content="", embeds=[], attachments=[], components=[])
    await server.gateway.dispatch(event, data, intent=_intent(msg.channel))
