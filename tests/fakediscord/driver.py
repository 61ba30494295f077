"""Simulated users: run slash commands, click buttons, pick in selects, submit modals, read what
they can see (channels, threads, their DMs, their own ephemerals).

Everything a user does is checked the way Discord's client would: a command or option that was
not synced, a disabled button, a message the user cannot see or an invalid modal input fails the
test (AssertionError) instead of reaching the bot.
"""

from __future__ import annotations

import asyncio
import shlex
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import permissions as perm
from .components import BUTTON, LABEL, SELECT_TYPES, TEXT_INPUT, iter_components
from .ids import snowflake
from .state import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PRIVATE_THREAD,
    Channel,
    Guild,
    Interaction,
    Message,
    Role,
    User,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


@dataclass(frozen=True)
class Raw:
    """An option value sent as is, past the synced schema: what a forged request (or a
    client bug) could send — text in an integer option, the id of a user nobody resolved."""

    value: Any


class InteractionFailed(AssertionError):
    """The bot did not acknowledge an interaction in time ("This interaction failed")."""


@dataclass
class InteractionResult:
    """What the user got back from one interaction (live: reflects later edits/followups)."""

    server: FakeDiscord
    interaction: Interaction

    @property
    def acknowledged(self) -> bool:
        return self.interaction.acknowledged

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def message(self) -> Message | None:
        """The response message (type 4/5) or the updated component message (type 6/7)."""
        return self.interaction.original

    @property
    def content(self) -> str:
        return self.message.content if self.message is not None else ""

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal

    @property
    def followups(self) -> list[Message]:
        return [m for m in self.interaction.followups if not m.deleted]

    @property
    def latency(self) -> float | None:
        return self.interaction.latency

    def text(self) -> str:
        """All text the user was shown by this interaction (response and followups)."""
        msgs = [m for m in [self.message, *self.followups] if m is not None and not m.deleted]
        return "\n".join(m.text() for m in msgs)

    async def done(self, timeout: float = 5.0) -> InteractionResult:
        """Wait until a deferred ("thinking") response has been filled in."""
        await self.server.wait_for(lambda: self.message is not None and not self.message.loading, timeout,
                                   "the deferred response to be edited")
        return self

    async def followup(self, n: int = 1, timeout: float = 5.0) -> Message:
        """Wait for the n-th followup message and return it."""
        await self.server.wait_for(lambda: len(self.followups) >= n, timeout, f"followup #{n}")
        return self.followups[n - 1]


class FakeUser:
    """A person in the guild, driving the bot through Discord's UI."""

    def __init__(self, server: FakeDiscord, user: User) -> None:
        self.server = server
        self.user = user
        self.open_modal: Interaction | None = None
        self.results: list[InteractionResult] = []

    def __repr__(self) -> str:
        return f"<FakeUser {self.name}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.username

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def accepts_dms(self) -> bool:
        return self.user.accepts_dms

    @accepts_dms.setter
    def accepts_dms(self, value: bool) -> None:
        self.user.accepts_dms = value

    def grant(self, *names: str, guild: Guild | None = None) -> Role:
        """Give this user a role with the named permissions (e.g. "manage_guild") in `guild`
        (default: the default guild)."""
        guild = guild or self.server.guild
        role = Role(snowflake(), f"{self.name}-{'-'.join(names)}", perm.bits(*names), position=len(guild.roles))
        guild.roles[role.id] = role
        guild.members[self.id].roles.append(role.id)
        return role

    # -- reading ------------------------------------------------------------------------------------
    def can_see(self, channel: Channel) -> bool:
        if channel.is_dm:
            return channel.recipient is self.user
        guild = channel.guild
        if guild is None or self.id not in guild.members:
            return False
        perms = guild.permissions_for(self.id, channel)
        if not perms & perm.VIEW_CHANNEL:
            return False
        if channel.type == PRIVATE_THREAD and self.id not in channel.thread_members:
            return bool(perms & perm.MANAGE_THREADS)
        return True

    def sees(self, message: Message) -> bool:
        return self.can_see(message.channel) and message.visible_for(self.id)

    @property
    def dm_channel(self) -> Channel | None:
        return self.server.world.dm_channels.get(self.id)

    def dms(self) -> list[Message]:
        """Messages in this user's DM channel with the bot, oldest first."""
        ch = self.dm_channel
        return ch.history(self.id) if ch is not None else []

    def last_dm(self) -> Message | None:
        msgs = self.dms()
        return msgs[-1] if msgs else None

    def ephemerals(self) -> list[Message]:
        """Every ephemeral message (responses and followups) only this user sees, oldest first."""
        return sorted(self.server.world.ephemerals_for(self.user), key=lambda m: m.id)

    def last_ephemeral(self) -> Message | None:
        msgs = self.ephemerals()
        return msgs[-1] if msgs else None

    def messages(self, channel: Channel) -> list[Message]:
        """What this user sees in `channel` (public messages and their own ephemerals)."""
        assert self.can_see(channel), f"{self.name} cannot see #{channel.name}"
        return channel.history(self.id)

    # -- acting ----------------------------------------------------------------------------------------
    async def say(self, channel: Channel, content: str) -> Message:
        """Post a plain message (MESSAGE_CREATE reaches the bot subject to its intents)."""
        from .messages import create_message

        assert self.can_see(channel), f"{self.name} cannot see #{channel.name}"
        return await create_message(self.server, channel, self.user, {"content": content})

    async def slash(self, command: str, *, channel: Channel | None = None, check: bool = True,
                    **options: Any) -> InteractionResult:
        """Run `/command` ("tokens new", "game status", with optional "name:value" parts or kwargs).
        Options are checked against the synced schema first."""
        channel = channel or self.server.general
        words = shlex.split(command.lstrip("/"))
        path = [w for w in words if ":" not in w]
        for w in words:
            if ":" in w:
                key, _, value = w.partition(":")
                options.setdefault(key, value)
        data = self._command_data(path, channel, options)
        return await self._interact(APPLICATION_COMMAND, channel, data, None, check, f"/{' '.join(path)}")

    async def autocomplete(self, command: str, option: str, typed: str, *, channel: Channel | None = None,
                           **options: Any) -> list[dict[str, Any]]:
        """Type `typed` into `option` of `/command` and return the choices the bot offered."""
        channel = channel or self.server.general
        path = shlex.split(command.lstrip("/"))
        data = self._command_data(path, channel, options, focused=(option, typed))
        result = await self._interact(AUTOCOMPLETE, channel, data, None, True, f"autocomplete /{command}")
        return result.interaction.autocomplete_choices or []

    async def click(self, message: Message, button: str, *, check: bool = True) -> InteractionResult:
        """Press the button labelled `button` (or with that custom_id) on `message`."""
        assert self.sees(message), f"{self.name} cannot see message {message.id}"
        buttons = message.buttons()
        found = [b for b in buttons if b.get("custom_id") == button] or [
            b for b in buttons if b.get("label") == button]
        labels = [b.get("label") or b.get("custom_id") for b in buttons]
        assert found, f"no button {button!r} on message {message.id}; buttons: {labels}"
        assert len(found) == 1, f"{len(found)} buttons match {button!r} on message {message.id}: use custom_id"
        comp = found[0]
        assert not comp.get("disabled"), f"button {button!r} is disabled"
        assert comp.get("style") not in (5, 6), f"button {button!r} is a link/premium button"
        data = {"custom_id": comp["custom_id"], "component_type": BUTTON, "id": comp.get("id")}
        return await self._interact(MESSAGE_COMPONENT, message.channel, data, message, check,
                                    f"click {button!r}")

    async def select(self, message: Message, choices: str | list[Any], *, menu: str | None = None,
                     check: bool = True) -> InteractionResult:
        """Pick `choices` (option labels or values; users/roles/channels for those selects)."""
        assert self.sees(message), f"{self.name} cannot see message {message.id}"
        menus = message.selects()
        if menu is not None:
            menus = [m for m in menus if menu in (m.get("custom_id"), m.get("placeholder"))]
        assert len(menus) == 1, f"{len(menus)} select menus match {menu!r} on message {message.id}"
        comp = menus[0]
        assert not comp.get("disabled"), "that select menu is disabled"
        picked = choices if isinstance(choices, list) else [choices]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        assert lo <= len(picked) <= hi, f"must pick between {lo} and {hi} values, not {len(picked)}"
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"], "id": comp.get("id")}
        if comp["type"] == 3:
            values = []
            for choice in picked:
                opt = next((o for o in comp["options"] if choice in (o.get("value"), o.get("label"))), None)
                assert opt is not None, f"no option {choice!r}; options: {[o['label'] for o in comp['options']]}"
                values.append(opt["value"])
            data["values"] = values
        else:
            data["values"], data["resolved"] = self._resolve(picked, message.channel)
        return await self._interact(MESSAGE_COMPONENT, message.channel, data, message, check,
                                    f"select {picked!r}")

    async def forge(self, message: Message, custom_id: str, *, component_type: int = BUTTON,
                    values: list[str] | None = None, check: bool = True) -> InteractionResult:
        """Press a component that `message` does not show: a forged or outdated custom_id, as a
        modified client could send it (Discord's app never would)."""
        assert self.sees(message), f"{self.name} cannot see message {message.id}"
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        return await self._interact(MESSAGE_COMPONENT, message.channel, data, message, check,
                                    f"forged press {custom_id[:40]!r}")

    async def forge_modal(self, custom_id: str, components: list[Any] | None = None, *,
                          channel: Channel | None = None, check: bool = True) -> InteractionResult:
        """Submit a modal the bot never opened (any custom_id, any components)."""
        channel = channel or self.server.general
        data = {"custom_id": custom_id, "components": components or []}
        return await self._interact(MODAL_SUBMIT, channel, data, None, check, f"forged modal {custom_id[:40]!r}")

    async def submit(self, values: dict[str, Any] | None = None, *, check: bool = True,
                     **by_id: Any) -> InteractionResult:
        """Fill and submit the modal the bot last opened for this user. Keys are input labels or
        custom_ids; inputs not given keep their default value."""
        source = self.open_modal
        assert source is not None and source.modal is not None, f"{self.name} has no modal open"
        given = {**(values or {}), **by_id}
        modal = source.modal
        used: set[str] = set()
        components = []
        for top in modal.get("components", []):
            if top.get("type") == 1:
                inner = top["components"][0]
                comps = [_submitted(inner, inner.get("label", ""), given, used)]
                components.append({"type": 1, "id": top.get("id"), "components": comps})
            elif top.get("type") == LABEL:
                inner = top["component"]
                components.append({"type": LABEL, "id": top.get("id"),
                                   "component": _submitted(inner, top.get("label", ""), given, used)})
        unknown = set(given) - used
        assert not unknown, f"modal {modal.get('title')!r} has no inputs {sorted(unknown)}"
        self.open_modal = None
        data = {"custom_id": modal["custom_id"], "components": components}
        return await self._interact(MODAL_SUBMIT, source.channel, data, source.message, check,
                                    f"submit modal {modal.get('title')!r}")

    # -- internals ------------------------------------------------------------------------------------------
    def _visible_commands(self, channel: Channel) -> list[dict[str, Any]]:
        world = self.server.world
        out = []
        for cmd in world.commands_for(channel.guild_id):
            if cmd.get("type", 1) != 1:
                continue
            contexts = cmd.get("contexts")
            if channel.is_dm:
                if contexts is not None and 1 not in contexts:
                    continue
                if contexts is None and cmd.get("dm_permission") is False:
                    continue
            elif contexts is not None and 0 not in contexts:
                continue
            needed = cmd.get("default_member_permissions")
            if needed is not None and channel.guild is not None:
                have = channel.guild.permissions_for(self.id)
                if have & int(needed) != int(needed):
                    continue
            out.append(cmd)
        return out

    def _command_data(self, path: list[str], channel: Channel, options: dict[str, Any],
                      focused: tuple[str, str] | None = None) -> dict[str, Any]:
        assert path, "empty command"
        assert self.can_see(channel), f"{self.name} cannot see #{channel.name}"
        commands = self._visible_commands(channel)
        root = next((c for c in commands if c["name"] == path[0]), None)
        assert root is not None, f"{self.name} has no /{path[0]} here; synced: {sorted(c['name'] for c in commands)}"
        node: dict[str, Any] = root
        chain: list[dict[str, Any]] = []
        for part in path[1:]:
            subs = [o for o in node.get("options") or [] if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            nxt = next((o for o in subs if o["name"] == part), None)
            assert nxt is not None, f"/{' '.join(path)}: no subcommand {part!r}; have {[o['name'] for o in subs]}"
            chain.append(nxt)
            node = nxt
        leftover = [o["name"] for o in node.get("options") or [] if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        assert not leftover, f"/{' '.join(path)} needs a subcommand: {leftover}"
        opts, resolved = self._build_options(node.get("options") or [], options, path, focused, channel)
        payload: list[dict[str, Any]] = opts
        for sub in reversed(chain):
            payload = [{"name": sub["name"], "type": sub["type"], "options": payload}]
        data: dict[str, Any] = {"id": root["id"], "name": root["name"], "type": 1, "options": payload}
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _build_options(self, schema: list[dict[str, Any]], given: dict[str, Any], path: list[str],
                       focused: tuple[str, str] | None,
                       channel: Channel) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        names = {o["name"]: o for o in schema}
        unknown = set(given) - set(names)
        assert not unknown, f"/{' '.join(path)} has no options {sorted(unknown)}; it has {sorted(names)}"
        out: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for opt in schema:
            name = opt["name"]
            if focused is not None and name == focused[0]:
                out.append({"name": name, "type": opt["type"], "value": focused[1], "focused": True})
                continue
            if name not in given:
                assert not opt.get("required") or focused is not None, (
                    f"/{' '.join(path)}: required option {name!r} missing")
                continue
            value = self._option_value(opt, given[name], path, resolved, channel)
            out.append({"name": name, "type": opt["type"], "value": value})
        return out, resolved

    def _option_value(self, opt: dict[str, Any], raw: Any, path: list[str], resolved: dict[str, Any],
                      channel: Channel) -> Any:
        where = f"/{' '.join(path)} {opt['name']}"
        otype = opt["type"]
        if isinstance(raw, Raw):
            return raw.value
        if otype == STRING:
            value: Any = str(raw)
            lo, hi = opt.get("min_length", 0), opt.get("max_length", 6000)
            assert lo <= len(value) <= hi, f"{where}: length must be {lo}..{hi}"
        elif otype in (INTEGER, NUMBER):
            value = int(raw) if otype == INTEGER else float(raw)
            assert not isinstance(raw, bool), f"{where}: expected a number"
            if "min_value" in opt:
                assert value >= opt["min_value"], f"{where}: must be >= {opt['min_value']}"
            if "max_value" in opt:
                assert value <= opt["max_value"], f"{where}: must be <= {opt['max_value']}"
        elif otype == BOOLEAN:
            value = raw if isinstance(raw, bool) else str(raw).lower() in ("true", "yes", "1")
        elif otype in (USER, ROLE, MENTIONABLE, CHANNEL):
            ids, res = self._resolve([raw], channel)
            value = ids[0]
            for key, entries in res.items():
                resolved.setdefault(key, {}).update(entries)
            if otype == CHANNEL and opt.get("channel_types"):
                ch = self.server.world.channels[int(value)]
                assert ch.type in opt["channel_types"], f"{where}: channel type {ch.type} not allowed"
        else:
            raise AssertionError(f"{where}: option type {otype} is not supported by the fake driver")
        choices = opt.get("choices")
        if choices:
            allowed = [c["value"] for c in choices]
            assert value in allowed, f"{where}: {value!r} is not one of the choices {allowed}"
        return value

    def _resolve(self, items: list[Any], where: Channel) -> tuple[list[str], dict[str, Any]]:
        """Ids and the `resolved` block for users, roles and channels picked by this user in
        `where` (members and permissions from its guild)."""
        guild = where.guild or self.server.guild
        ids: list[str] = []
        resolved: dict[str, Any] = {}
        for item in items:
            if isinstance(item, FakeUser):
                item = item.user
            if isinstance(item, User):
                ids.append(str(item.id))
                resolved.setdefault("users", {})[str(item.id)] = item.to_dict()
                member = guild.members.get(item.id)
                if member is not None:
                    resolved.setdefault("members", {})[str(item.id)] = {
                        **member.to_dict(with_user=False),
                        "permissions": str(guild.permissions_for(item.id))}
            elif isinstance(item, Role):
                ids.append(str(item.id))
                resolved.setdefault("roles", {})[str(item.id)] = item.to_dict()
            elif isinstance(item, Channel):
                ids.append(str(item.id))
                d = item.to_dict()
                d["permissions"] = str(guild.permissions_for(self.id, item)) if item.guild_id else "0"
                resolved.setdefault("channels", {})[str(item.id)] = d
            else:
                raise AssertionError(f"cannot pick {item!r}: give a FakeUser, User, Role or Channel")
        return ids, resolved

    def _payload(self, inter: Interaction) -> dict[str, Any]:
        world = self.server.world
        ch = inter.channel
        out: dict[str, Any] = {
            "id": str(inter.id), "application_id": str(inter.application_id), "type": inter.type,
            "data": inter.data, "token": inter.token, "version": 1, "locale": "en-US",
            "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(ch.id), "channel": ch.to_dict(),
        }
        guild = ch.guild
        if guild is not None:
            member = guild.members[self.id]
            out.update(
                guild_id=str(guild.id), guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US", context=0,
                member={**member.to_dict(), "permissions": str(guild.permissions_for(self.id, ch))},
                app_permissions=str(guild.permissions_for(world.bot.id, ch)),
                authorizing_integration_owners={"0": str(guild.id)},
            )
            out["channel"]["permissions"] = str(guild.permissions_for(self.id, ch))
        else:
            out.update(user=self.user.to_dict(), context=1, app_permissions=str(perm.EVERYONE_DEFAULT),
                       authorizing_integration_owners={"0": str(self.id)})
        if inter.message is not None:
            out["message"] = inter.message.to_dict()
        return out

    async def _interact(self, itype: int, channel: Channel, data: dict[str, Any], message: Message | None,
                        check: bool, what: str) -> InteractionResult:
        server = self.server
        assert self.can_see(channel), f"{self.name} cannot see #{channel.name}"
        inter = Interaction(snowflake(), itype, self.user, channel, data, server.world.application.id, message)
        server.world.interactions[inter.id] = inter
        server.last_interaction_id = inter.id
        inter.dispatched_at = time.monotonic()
        delivered = await server.gateway.dispatch("INTERACTION_CREATE", self._payload(inter))
        result = InteractionResult(server, inter)
        self.results.append(result)
        if not delivered:
            raise InteractionFailed(f"{self.name}: {what}: the bot is not connected to the gateway")
        window = server.interaction_timeout
        if not (inter.acknowledged or inter.late_callbacks):  # woken by the callback route only
            answer: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            inter.waiters.append(answer)
            await asyncio.wait((answer,), timeout=window + 0.5)
        if inter.modal is not None:
            self.open_modal = inter
        if check and not inter.acknowledged:
            raise InteractionFailed(f"{self.name}: {what}: the application did not respond within {window}s")
        return result


def _submitted(comp: dict[str, Any], label: str, given: dict[str, Any], used: set[str]) -> dict[str, Any]:
    """One modal input as Discord submits it, from the user's `given` values."""
    cid = comp.get("custom_id", "")
    key = cid if cid in given else label if label in given else None
    out: dict[str, Any] = {"type": comp["type"], "custom_id": cid, "id": comp.get("id")}
    if comp["type"] == TEXT_INPUT:
        value = str(given[key]) if key is not None else comp.get("value") or ""
        if key is not None:
            used.add(key)
        required = comp.get("required", True)
        lo, hi = comp.get("min_length", 0), comp.get("max_length", 4000)
        assert value or not required, f"modal input {label or cid!r} is required"
        assert not value or lo <= len(value) <= hi, f"modal input {label or cid!r} must be {lo}..{hi} characters"
        out["value"] = value
    elif comp["type"] in SELECT_TYPES:
        picked = given.get(key, []) if key is not None else []
        if key is not None:
            used.add(key)
        picked = picked if isinstance(picked, list) else [picked]
        if comp["type"] == 3:
            options = comp.get("options", [])
            values = []
            for p in picked:
                opt = next((o for o in options if p in (o.get("value"), o.get("label"))), None)
                assert opt is not None, f"modal select {label!r} has no option {p!r}"
                values.append(opt["value"])
            out["values"] = values
        else:
            out["values"] = [str(getattr(p, "id", p)) for p in picked]
    return out


def all_inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """Every input of a modal (text inputs and selects), for assertions."""
    return [c for c in iter_components(modal.get("components", [])) if c.get("type") in (TEXT_INPUT, *SELECT_TYPES)]
