"""REST: channels, messages, DMs, threads and thread members."""

from __future__ import annotations

import time
from typing import Any

from . import errors
from . import permissions as perm
from .gateway import GUILD_MESSAGES, GUILDS
from .ids import DISCORD_EPOCH_MS, now_iso, snowflake
from .messages import create_message, delete_message, edit_message
from .router import NO_CONTENT, Ctx, Router
from .state import PRIVATE_THREAD, PUBLIC_THREAD, THREAD_CREATED, Channel, Message

router = Router()


# -- helpers -------------------------------------------------------------------------------------
def bot_can_see(ctx: Ctx, channel: Channel) -> bool:
    if channel.is_dm:
        return True
    guild = channel.guild
    bot_id = ctx.server.world.bot.id
    if guild is None or bot_id not in guild.members:
        return False
    perms = guild.permissions_for(bot_id, channel)
    if not perms & perm.VIEW_CHANNEL:
        return False
    if channel.type == PRIVATE_THREAD and bot_id not in channel.thread_members:
        return bool(perms & perm.MANAGE_THREADS)
    return True


def get_channel(ctx: Ctx, key: str = "channel_id") -> Channel:
    channel = ctx.server.world.channels.get(int(ctx.params[key]))
    if channel is None or channel.deleted:
        raise errors.unknown_channel()
    ctx.call.channel_id = channel.id
    if channel.is_dm and channel.recipient is not None:
        ctx.call.user_id = channel.recipient.id
    if not bot_can_see(ctx, channel):
        raise errors.missing_access()
    return channel


def bot_perms(ctx: Ctx, channel: Channel) -> int:
    if channel.is_dm or channel.guild is None:
        return perm.ALL
    return channel.guild.permissions_for(ctx.server.world.bot.id, channel)


def need(ctx: Ctx, channel: Channel, bits: int) -> None:
    if bot_perms(ctx, channel) & bits != bits:
        raise errors.missing_permissions()


def get_message(ctx: Ctx, channel: Channel) -> Message:
    msg = ctx.server.world.messages.get(int(ctx.params["message_id"]))
    if msg is None or msg.channel is not channel or msg.deleted or msg.visible_to is not None:
        raise errors.unknown_message()
    return msg


# -- channels --------------------------------------------------------------------------------------
@router.add("GET", "/channels/{channel_id}")
async def get_channel_route(ctx: Ctx) -> Any:
    return get_channel(ctx).to_dict()


@router.add("PATCH", "/channels/{channel_id}")
async def edit_channel(ctx: Ctx) -> Any:
    channel = get_channel(ctx)
    body = ctx.body or {}
    bot_id = ctx.server.world.bot.id
    if channel.is_thread:
        if channel.owner_id != bot_id:
            need(ctx, channel, perm.MANAGE_THREADS)
        for key in ("name", "archived", "locked", "invitable", "auto_archive_duration"):
            if key in body:
                setattr(channel, key, body[key])
        event = "THREAD_UPDATE"
    else:
        need(ctx, channel, perm.MANAGE_CHANNELS)
        for key in ("name", "topic", "position"):
            if key in body:
                setattr(channel, key, body[key])
        event = "CHANNEL_UPDATE"
    await ctx.server.gateway.dispatch(event, channel.to_dict(), intent=GUILDS)
    return channel.to_dict()


@router.add("DELETE", "/channels/{channel_id}")
async def delete_channel(ctx: Ctx) -> Any:
    channel = get_channel(ctx)
    if channel.is_dm:
        return channel.to_dict()
    need(ctx, channel, perm.MANAGE_THREADS if channel.is_thread else perm.MANAGE_CHANNELS)
    channel.deleted = True
    data = channel.to_dict()
    if channel.is_thread:
        await ctx.server.gateway.dispatch("THREAD_DELETE", {
            "id": data["id"], "guild_id": data["guild_id"], "parent_id": data["parent_id"],
            "type": channel.type}, intent=GUILDS)
    else:
        await ctx.server.gateway.dispatch("CHANNEL_DELETE", data, intent=GUILDS)
    return data


@router.add("POST", "/channels/{channel_id}/typing")
async def typing(ctx: Ctx) -> Any:
    get_channel(ctx)
    return NO_CONTENT


@router.add("POST", "/users/@me/channels")
async def open_dm(ctx: Ctx) -> Any:
    world = ctx.server.world
    user = world.users.get(int((ctx.body or {}).get("recipient_id", 0)))
    if user is None:
        raise errors.unknown_user()
    ctx.call.user_id = user.id
    channel = world.dm_channel(user)
    ctx.call.channel_id = channel.id
    return channel.to_dict()


# -- messages ----------------------------------------------------------------------------------------
@router.add("POST", "/channels/{channel_id}/messages")
async def send_message(ctx: Ctx) -> Any:
    channel = get_channel(ctx)
    world = ctx.server.world
    if channel.is_dm:
        assert channel.recipient is not None
        if not channel.recipient.accepts_dms or channel.recipient.bot:
            raise errors.cannot_dm()
    else:
        if channel.is_thread:
            need(ctx, channel, perm.SEND_MESSAGES_IN_THREADS)
            if channel.archived or channel.locked:
                raise errors.ApiError(400, 50083, "Thread is archived")
        else:
            need(ctx, channel, perm.SEND_MESSAGES)
        body = ctx.body or {}
        if body.get("embeds"):
            need(ctx, channel, perm.EMBED_LINKS)
        if ctx.files:
            need(ctx, channel, perm.ATTACH_FILES)
    if (ctx.body or {}).get("flags", 0) & 64:
        raise errors.ApiError(400, 50035, "Invalid Form Body", {"flags": {"_errors": [
            {"code": "MESSAGE_FLAGS_INVALID", "message": "Ephemeral messages can only be interaction responses"}]}})
    msg = await create_message(ctx.server, channel, world.bot, ctx.body, ctx.files)
    return msg.to_dict()


@router.add("GET", "/channels/{channel_id}/messages")
async def list_messages(ctx: Ctx) -> Any:
    channel = get_channel(ctx)
    need(ctx, channel, perm.READ_MESSAGE_HISTORY)
    msgs = [m for m in channel.messages if m.visible_for(None)]
    limit = int(ctx.query.get("limit", 50))
    if "before" in ctx.query:
        msgs = [m for m in msgs if m.id < int(ctx.query["before"])]
    if "after" in ctx.query:
        msgs = [m for m in msgs if m.id > int(ctx.query["after"])][:limit]
    return [m.to_dict() for m in reversed(msgs[-limit:])]


@router.add("GET", "/channels/{channel_id}/messages/{message_id}")
async def fetch_message(ctx: Ctx) -> Any:
    channel = get_channel(ctx)
    need(ctx, channel, perm.READ_MESSAGE_HISTORY)
    return get_message(ctx, channel).to_dict()


@router.add("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def patch_message(ctx: Ctx) -> Any:
    channel = get_channel(ctx)
    msg = get_message(ctx, channel)
    if msg.author.id != ctx.server.world.bot.id:
        raise errors.cannot_edit_other()
    await edit_message(ctx.server, msg, ctx.body, ctx.files)
    return msg.to_dict()


@router.add("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def remove_message(ctx: Ctx) -> Any:
    channel = get_channel(ctx)
    msg = get_message(ctx, channel)
    if msg.author.id != ctx.server.world.bot.id:
        need(ctx, channel, perm.MANAGE_MESSAGES)
    await delete_message(ctx.server, msg)
    return NO_CONTENT


#: Discord's bulk delete takes messages younger than two weeks only.
BULK_DELETE_MAX_AGE_MS = 14 * 24 * 3600 * 1000


@router.add("POST", "/channels/{channel_id}/messages/bulk-delete")
async def bulk_delete_messages(ctx: Ctx) -> Any:
    """As Discord: guild channels only, MANAGE_MESSAGES needed (even for the bot's own
    messages), 2-100 ids, none duplicated nor older than 14 days (400 50034); ids of messages
    that do not exist (or are in another channel) count but are skipped; one
    MESSAGE_DELETE_BULK event."""
    channel = get_channel(ctx)
    if channel.is_dm:
        raise errors.ApiError(403, 50003, "Cannot execute action on a DM channel")
    need(ctx, channel, perm.MANAGE_MESSAGES)
    raw = (ctx.body or {}).get("messages")
    if not isinstance(raw, list) or not 2 <= len(raw) <= 100:
        raise errors.ApiError(400, 50035, "Invalid Form Body", {"messages": {"_errors": [
            {"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 2 and 100 in length."}]}})
    ids = [int(i) for i in raw]
    if len(set(ids)) != len(ids):
        raise errors.ApiError(400, 50035, "Invalid Form Body", {"messages": {"_errors": [
            {"code": "BULK_DELETE_DUPLICATE", "message": "Duplicate message ids."}]}})
    oldest = (int(time.time() * 1000) - DISCORD_EPOCH_MS - BULK_DELETE_MAX_AGE_MS) << 22
    if any(i < oldest for i in ids):
        raise errors.ApiError(400, 50034, "You can only bulk delete messages that are under 14 days old.")
    world = ctx.server.world
    gone = [m for i in ids if (m := world.messages.get(i)) is not None and m.channel is channel
            and not m.deleted and m.visible_to is None]
    for msg in gone:
        msg.deleted = True
    if gone:
        data: dict[str, Any] = {"ids": [str(m.id) for m in gone], "channel_id": str(channel.id)}
        if channel.guild_id:
            data["guild_id"] = str(channel.guild_id)
        await ctx.server.gateway.dispatch("MESSAGE_DELETE_BULK", data, intent=GUILD_MESSAGES)
    return NO_CONTENT


# -- threads -----------------------------------------------------------------------------------------
async def _new_thread(ctx: Ctx, parent: Channel, body: dict[str, Any], ttype: int,
                      thread_id: int | None = None) -> Channel:
    name = body.get("name") or ""
    if not 1 <= len(name) <= 100:
        raise errors.ApiError(400, 50035, "Invalid Form Body", {"name": {"_errors": [
            {"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}]}})
    if parent.is_thread or parent.is_dm:
        raise errors.ApiError(400, 50024, "Cannot execute action on this channel type")
    need(ctx, parent, perm.CREATE_PUBLIC_THREADS if ttype == PUBLIC_THREAD else perm.CREATE_PRIVATE_THREADS)
    world = ctx.server.world
    bot_id = world.bot.id
    thread = Channel(thread_id or snowflake(), ttype, world, name=name, guild_id=parent.guild_id,
                     parent_id=parent.id, owner_id=bot_id,
                     auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
                     invitable=bool(body.get("invitable", True)))
    thread.thread_members[bot_id] = now_iso()
    world.channels[thread.id] = thread
    data = thread.to_dict()
    data.update(newly_created=True, member=thread.thread_member_dict(bot_id))
    await ctx.server.gateway.dispatch("THREAD_CREATE", data, intent=GUILDS)
    return thread


@router.add("POST", "/channels/{channel_id}/threads")
async def create_thread(ctx: Ctx) -> Any:
    parent = get_channel(ctx)
    body = ctx.body or {}
    ttype = int(body.get("type") or PRIVATE_THREAD)
    if ttype not in (PUBLIC_THREAD, PRIVATE_THREAD):
        raise errors.ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
            {"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {11, 12}."}]}})
    thread = await _new_thread(ctx, parent, body, ttype)
    if ttype == PUBLIC_THREAD:
        await create_message(ctx.server, parent, ctx.server.world.bot, {"content": thread.name},
                             validate=False, type=THREAD_CREATED,
                             message_reference={"channel_id": str(thread.id), "guild_id": str(parent.guild_id)})
    out = thread.to_dict()
    out["member"] = thread.thread_member_dict(ctx.server.world.bot.id)
    return out


@router.add("POST", "/channels/{channel_id}/messages/{message_id}/threads")
async def create_thread_from_message(ctx: Ctx) -> Any:
    parent = get_channel(ctx)
    msg = get_message(ctx, parent)
    if msg.thread is not None:
        raise errors.ApiError(400, 160004, "A thread has already been created for this message")
    thread = await _new_thread(ctx, parent, ctx.body or {}, PUBLIC_THREAD, thread_id=msg.id)
    msg.thread = thread
    out = thread.to_dict()
    out["member"] = thread.thread_member_dict(ctx.server.world.bot.id)
    return out


def _thread(ctx: Ctx) -> Channel:
    thread = get_channel(ctx)
    if not thread.is_thread:
        raise errors.ApiError(400, 50024, "Cannot execute action on this channel type")
    return thread


async def _members_update(ctx: Ctx, thread: Channel, added: list[int], removed: list[int]) -> None:
    guild = thread.guild
    assert guild is not None
    added_members = []
    for uid in added:
        d = thread.thread_member_dict(uid)
        if uid in guild.members:
            d["member"] = guild.members[uid].to_dict()
        added_members.append(d)
    await ctx.server.gateway.dispatch("THREAD_MEMBERS_UPDATE", {
        "id": str(thread.id), "guild_id": str(guild.id), "member_count": len(thread.thread_members),
        "added_members": added_members, "removed_member_ids": [str(u) for u in removed]}, intent=GUILDS)


def _target(ctx: Ctx) -> int:
    raw = ctx.params["user_id"]
    uid = ctx.server.world.bot.id if raw == "@me" else int(raw)
    ctx.call.user_id = uid
    return uid


@router.add("PUT", "/channels/{channel_id}/thread-members/{user_id}")
async def add_thread_member(ctx: Ctx) -> Any:
    thread = _thread(ctx)
    uid = _target(ctx)
    guild = thread.guild
    assert guild is not None
    if uid not in guild.members:
        raise errors.unknown_member()
    if thread.archived:
        raise errors.ApiError(400, 50083, "Thread is archived")
    bot_id = ctx.server.world.bot.id
    if uid != bot_id and bot_id not in thread.thread_members:
        need(ctx, thread, perm.MANAGE_THREADS)
    if uid != bot_id:
        need(ctx, thread, perm.SEND_MESSAGES_IN_THREADS)
    if uid not in thread.thread_members:
        thread.thread_members[uid] = now_iso()
        await _members_update(ctx, thread, [uid], [])
    return NO_CONTENT


@router.add("DELETE", "/channels/{channel_id}/thread-members/{user_id}")
async def remove_thread_member(ctx: Ctx) -> Any:
    thread = _thread(ctx)
    uid = _target(ctx)
    if uid != ctx.server.world.bot.id and thread.owner_id != ctx.server.world.bot.id:
        need(ctx, thread, perm.MANAGE_THREADS)
    if thread.thread_members.pop(uid, None) is not None:
        await _members_update(ctx, thread, [], [uid])
    return NO_CONTENT


@router.add("GET", "/channels/{channel_id}/thread-members/{user_id}")
async def get_thread_member(ctx: Ctx) -> Any:
    thread = _thread(ctx)
    uid = _target(ctx)
    if uid not in thread.thread_members:
        raise errors.unknown_member()
    return thread.thread_member_dict(uid)


@router.add("GET", "/channels/{channel_id}/thread-members")
async def list_thread_members(ctx: Ctx) -> Any:
    thread = _thread(ctx)
    return [thread.thread_member_dict(uid) for uid in thread.thread_members]
