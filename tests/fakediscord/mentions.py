"""Who a message pings, as Discord decides it: the mentions in its content ("<@id>", "<@!id>",
"<@&role>", "@everyone", "@here") that its `allowed_mentions` lets through. Without
`allowed_mentions` every kind is parsed. Embeds never ping, an ephemeral message notifies
nobody, and an edit re-reads the mentions without notifying anyone (Discord's behaviour).

Each notifying send is logged in `World.notifications`, so a test can prove who was pinged."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .errors import ApiError

USER = re.compile(r"<@!?([0-9]+)>")
ROLE = re.compile(r"<@&([0-9]+)>")
EVERYONE = re.compile(r"@(everyone|here)")
KINDS = ("users", "roles", "everyone")


@dataclass(frozen=True)
class Mentions:
    """What a message's content mentions, after `allowed_mentions`."""

    users: tuple[int, ...] = ()
    roles: tuple[int, ...] = ()
    everyone: bool = False

    def __bool__(self) -> bool:
        return bool(self.users or self.roles or self.everyone)


@dataclass
class Notification:
    """One message that pinged someone when it was sent."""

    message: Any  # state.Message
    mentions: Mentions = field(default_factory=Mentions)


def _invalid(key: str, message: str) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body",
                    {"allowed_mentions": {key: {"_errors": [{"code": "INVALID", "message": message}]}}})


def check_allowed(allowed: Any) -> None:
    """Discord's checks: `parse` holds known kinds; a kind is either parsed or listed, never
    both; at most 100 users and 100 roles."""
    if allowed is None:
        return
    if not isinstance(allowed, dict):
        raise _invalid("_errors", "Must be an object")
    parse = allowed.get("parse") or []
    for kind in parse:
        if kind not in KINDS:
            raise _invalid("parse", f"Value {kind!r} is not a valid enum value")
    for kind in ("users", "roles"):
        listed = allowed.get(kind)
        if listed and kind in parse:
            raise _invalid(kind, f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.')
        if listed is not None and len(listed) > 100:
            raise _invalid(kind, "Must be 100 or fewer in length.")


def resolve(content: str, allowed: dict[str, Any] | None) -> Mentions:
    """The mentions of `content` that ping under `allowed` (None: Discord parses everything)."""
    parse = set(KINDS) if allowed is None else set(allowed.get("parse") or [])
    listed_users = {int(u) for u in (allowed or {}).get("users") or []}
    listed_roles = {int(r) for r in (allowed or {}).get("roles") or []}
    users = [int(u) for u in dict.fromkeys(USER.findall(content))]
    roles = [int(r) for r in dict.fromkeys(ROLE.findall(content))]
    return Mentions(
        users=tuple(u for u in users if "users" in parse or u in listed_users),
        roles=tuple(r for r in roles if "roles" in parse or r in listed_roles),
        everyone="everyone" in parse and EVERYONE.search(content) is not None,
    )
