"""Permission bits and the guild → role → channel-overwrite computation Discord performs."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import Channel, Guild

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

ALL = (1 << 53) - 1

#: What @everyone gets in a fresh guild (roughly Discord's default).
EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
    | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | CHANGE_NICKNAME | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS
)

NAMES = {
    "view_channel": VIEW_CHANNEL, "send_messages": SEND_MESSAGES, "embed_links": EMBED_LINKS,
    "attach_files": ATTACH_FILES, "manage_messages": MANAGE_MESSAGES, "manage_guild": MANAGE_GUILD,
    "manage_threads": MANAGE_THREADS, "create_public_threads": CREATE_PUBLIC_THREADS,
    "create_private_threads": CREATE_PRIVATE_THREADS, "send_messages_in_threads": SEND_MESSAGES_IN_THREADS,
    "administrator": ADMINISTRATOR, "manage_roles": MANAGE_ROLES, "read_message_history": READ_MESSAGE_HISTORY,
}


def bits(*names: str) -> int:
    """Permission bits from names like "send_messages"."""
    out = 0
    for name in names:
        out |= NAMES[name]
    return out


def base_permissions(guild: Guild, user_id: int) -> int:
    """Guild-level permissions of a member: owner/admin get everything."""
    if user_id == guild.owner_id:
        return ALL
    member = guild.members.get(user_id)
    perms = guild.roles[guild.id].permissions
    if member is not None:
        for role_id in member.roles:
            role = guild.roles.get(role_id)
            if role is not None:
                perms |= role.permissions
    return ALL if perms & ADMINISTRATOR else perms


def channel_permissions(guild: Guild, channel: Channel, user_id: int) -> int:
    """Permissions of a member in a channel (threads use their parent's overwrites)."""
    perms = base_permissions(guild, user_id)
    if perms & ADMINISTRATOR or perms == ALL:
        return ALL
    target = guild.channels.get(channel.parent_id) if channel.is_thread and channel.parent_id else channel
    overwrites = target.overwrites if target is not None else {}
    member = guild.members.get(user_id)
    role_ids = member.roles if member is not None else []
    everyone = overwrites.get(guild.id)
    if everyone:
        perms = (perms & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in role_ids:
        if role_id in overwrites:
            allow |= overwrites[role_id].allow
            deny |= overwrites[role_id].deny
    perms = (perms & ~deny) | allow
    own = overwrites.get(user_id)
    if own is not None and own.type == 1:
        perms = (perms & ~own.deny) | own.allow
    if not perms & VIEW_CHANNEL:
        return 0
    return perms
