"""REST: the bot user, application info, gateway discovery, command sync, guilds, members, roles."""

from __future__ import annotations

import copy
from typing import Any

from . import errors
from . import permissions as perm
from .gateway import GUILD_MEMBERS, GUILDS
from .ids import snowflake
from .router import NO_CONTENT, Ctx, Router
from .state import Guild, Member, Role
from .validation import check_commands

router = Router()


# -- identity --------------------------------------------------------------------------------
@router.add("GET", "/users/@me")
async def get_me(ctx: Ctx) -> Any:
    bot = ctx.server.world.bot
    return {**bot.to_dict(), "verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}


@router.add("GET", "/users/{user_id}")
async def get_user(ctx: Ctx) -> Any:
    user = ctx.server.world.users.get(int(ctx.params["user_id"]))
    if user is None:
        raise errors.unknown_user()
    return user.to_dict()


@router.add("GET", "/oauth2/applications/@me")
@router.add("GET", "/applications/@me")
async def get_application(ctx: Ctx) -> Any:
    return ctx.server.world.application.to_dict()


@router.add("GET", "/gateway")
async def get_gateway(ctx: Ctx) -> Any:
    return {"url": ctx.server.gateway_url}


@router.add("GET", "/gateway/bot")
async def get_gateway_bot(ctx: Ctx) -> Any:
    gateway = ctx.server.gateway
    return {"url": ctx.server.gateway_url, "shards": gateway.recommended_shards,
            "session_start_limit": gateway.session_start_limit()}


# -- application commands -------------------------------------------------------------------------
def _check_app(ctx: Ctx) -> None:
    if int(ctx.params["app_id"]) != ctx.server.world.application.id:
        raise errors.missing_access()


def _store_commands(ctx: Ctx, body: list[dict[str, Any]], old: list[dict[str, Any]],
                    guild_id: int | None) -> list[dict[str, Any]]:
    if not isinstance(body, list):
        raise errors.ApiError(400, 50035, "Invalid Form Body", {"_errors": [{"code": "LIST_TYPE_CONVERT",
                                                                              "message": "Must be an array."}]})
    check_commands(body)
    ids = {(c.get("type", 1), c["name"]): c["id"] for c in old}
    app_id = str(ctx.server.world.application.id)
    out = []
    for cmd in body:
        stored = copy.deepcopy(cmd)
        stored.setdefault("type", 1)
        stored.update(
            id=ids.get((stored["type"], stored["name"])) or str(snowflake()), application_id=app_id,
            version=str(snowflake()), default_member_permissions=cmd.get("default_member_permissions"),
            nsfw=cmd.get("nsfw", False), description=cmd.get("description", ""),
        )
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        else:
            stored.setdefault("contexts", None)
            stored.setdefault("integration_types", [0])
        out.append(stored)
    ctx.server.command_syncs += 1
    return out


@router.add("PUT", "/applications/{app_id}/commands")
async def put_global_commands(ctx: Ctx) -> Any:
    _check_app(ctx)
    world = ctx.server.world
    world.global_commands = _store_commands(ctx, ctx.body, world.global_commands, None)
    return world.global_commands


@router.add("GET", "/applications/{app_id}/commands")
async def get_global_commands(ctx: Ctx) -> Any:
    _check_app(ctx)
    return ctx.server.world.global_commands


@router.add("PUT", "/applications/{app_id}/guilds/{guild_id}/commands")
async def put_guild_commands(ctx: Ctx) -> Any:
    _check_app(ctx)
    world = ctx.server.world
    guild = _guild(ctx)
    world.guild_commands[guild.id] = _store_commands(ctx, ctx.body, world.guild_commands.get(guild.id, []),
                                                     guild.id)
    return world.guild_commands[guild.id]


@router.add("GET", "/applications/{app_id}/guilds/{guild_id}/commands")
async def get_guild_commands(ctx: Ctx) -> Any:
    _check_app(ctx)
    return ctx.server.world.guild_commands.get(_guild(ctx).id, [])


# -- guilds, members, roles -------------------------------------------------------------------------
def _guild(ctx: Ctx) -> Guild:
    guild = ctx.server.world.guilds.get(int(ctx.params["guild_id"]))
    if guild is None or ctx.server.world.bot.id not in guild.members:
        raise errors.unknown_guild()
    return guild


def _member(ctx: Ctx, guild: Guild) -> Member:
    member = guild.members.get(int(ctx.params["user_id"]))
    if member is None:
        raise errors.unknown_member()
    return member


def _need(ctx: Ctx, guild: Guild, bits: int) -> None:
    if guild.permissions_for(ctx.server.world.bot.id) & bits != bits:
        raise errors.missing_permissions()


@router.add("GET", "/guilds/{guild_id}")
async def get_guild(ctx: Ctx) -> Any:
    guild = _guild(ctx)
    out = guild.to_dict()
    if ctx.flag("with_counts"):
        out.update(approximate_member_count=len(guild.members), approximate_presence_count=0)
    return out


@router.add("GET", "/guilds/{guild_id}/channels")
async def get_guild_channels(ctx: Ctx) -> Any:
    return [c.to_dict() for c in _guild(ctx).channels.values()]


@router.add("GET", "/guilds/{guild_id}/threads/active")
async def get_active_threads(ctx: Ctx) -> Any:
    guild = _guild(ctx)
    threads = [t for t in guild.threads if not t.archived]
    bot_id = ctx.server.world.bot.id
    return {"threads": [t.to_dict() for t in threads],
            "members": [t.thread_member_dict(bot_id) for t in threads if bot_id in t.thread_members]}


@router.add("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_member(ctx: Ctx) -> Any:
    guild = _guild(ctx)
    return _member(ctx, guild).to_dict()


@router.add("GET", "/guilds/{guild_id}/members")
async def list_members(ctx: Ctx) -> Any:
    guild = _guild(ctx)
    after = int(ctx.query.get("after", 0))
    limit = int(ctx.query.get("limit", 1))
    members = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)
    return [m.to_dict() for m in members[:limit]]


@router.add("GET", "/guilds/{guild_id}/roles")
async def get_roles(ctx: Ctx) -> Any:
    return [r.to_dict() for r in _guild(ctx).roles.values()]


@router.add("POST", "/guilds/{guild_id}/roles")
async def create_role(ctx: Ctx) -> Any:
    guild = _guild(ctx)
    _need(ctx, guild, perm.MANAGE_ROLES)
    body = ctx.body or {}
    role = Role(snowflake(), body.get("name") or "new role", int(body.get("permissions") or 0),
                position=len(guild.roles))
    guild.roles[role.id] = role
    await ctx.server.gateway.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_dict()},
                                      intent=GUILDS)
    return role.to_dict()


@router.add("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}")
@router.add("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}")
async def member_role(ctx: Ctx) -> Any:
    guild = _guild(ctx)
    _need(ctx, guild, perm.MANAGE_ROLES)
    member = _member(ctx, guild)
    role_id = int(ctx.params["role_id"])
    if role_id not in guild.roles:
        raise errors.unknown_role()
    if ctx.request.method == "PUT" and role_id not in member.roles:
        member.roles.append(role_id)
    elif ctx.request.method == "DELETE" and role_id in member.roles:
        member.roles.remove(role_id)
    await ctx.server.gateway.dispatch("GUILD_MEMBER_UPDATE", {"guild_id": str(guild.id), **member.to_dict()},
                                      intent=GUILD_MEMBERS)
    return NO_CONTENT
