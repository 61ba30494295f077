"""Calls to Discord whose replies nothing reads: a ping's post, the edit of a table or a hand,
the pressed message updated as a press's answer.

Each goes out as discord.py's `Messageable.send`, `PartialMessage.edit` or
`InteractionResponse.edit_message` would send it (the same payload, on the client's HTTP
client), but its reply is not made into a discord.py Message, with its embeds, components and
mentions parsed, only to be thrown away: of an edit's reply only the attachments are read (the
picture kept by id), and a press's update does not ask for the message back at all. A stand-in
host or interaction (tests) gets discord.py's own calls.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord.enums import InteractionResponseType, InteractionType
from discord.http import Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

from cogs.table.pressed import pressed


@dataclass
class Edited:
    """What is read of an edited message: its attachments (the kept picture)."""

    attachments: list[discord.Attachment]


async def post(host: Any, channel: Any, content: str, *, allowed_mentions: discord.AllowedMentions,
               reference: discord.MessageReference | None = None) -> int:
    """Send `content` to `channel` (link previews off) and return the new message's id."""
    http, state = getattr(host, "http", None), getattr(host, "_connection", None)
    if http is None or state is None:
        sent = await channel.send(content, suppress_embeds=True, allowed_mentions=allowed_mentions,
                                  reference=reference)
        return int(sent.id)
    flags = discord.MessageFlags._from_value(0)
    flags.suppress_embeds = True
    with handle_message_parameters(
        content=content, nonce=secrets.randbits(64), flags=flags, allowed_mentions=allowed_mentions,
        message_reference=reference.to_message_reference_dict() if reference is not None else MISSING,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        data = await http.send_message(channel.id, params=params)
    return int(data["id"])


def editor(host: Any, channel_id: int, message_id: int) -> Callable[..., Awaitable[Edited | discord.Message]]:
    """`edit(embed=…, view=…, attachments=…)` of a message we drew."""
    http, state = getattr(host, "http", None), getattr(host, "_connection", None)
    if http is None or state is None:
        edit: Callable[..., Awaitable[discord.Message]] = (
            host.get_partial_messageable(channel_id).get_partial_message(message_id).edit)
        return edit

    async def quiet_edit(*, embed: discord.Embed | None = MISSING, view: discord.ui.View | None = MISSING,
                         attachments: Sequence[discord.Attachment | discord.File] = MISSING) -> Edited:
        if view is not MISSING:
            state.prevent_view_updates_for(message_id)
        with handle_message_parameters(embed=embed, view=view, attachments=attachments) as params:
            data = await http.edit_message(channel_id, message_id, params=params)
        if view and not view.is_finished() and view.is_dispatchable():
            state.store_view(view, message_id)
        return Edited([discord.Attachment(data=a, state=state) for a in data.get("attachments", [])])

    return quiet_edit


async def update_pressed(interaction: discord.Interaction, **edit: Any) -> None:
    """Answer a press by updating its message (a type-7 callback) with `edit` (embed, view,
    attachments), without `with_response`: Discord then sends nothing back to parse."""
    state, session = getattr(interaction, "_state", None), getattr(interaction, "_session", None)
    message = (pressed(interaction) if state is not None and session is not None
               and interaction.type in (InteractionType.component, InteractionType.modal_submit) else None)
    if message is None or state is None or session is None or set(edit) - {"embed", "view", "attachments"}:
        await interaction.response.edit_message(**edit)
        return
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    if edit.get("view", MISSING) is not MISSING:
        state.prevent_view_updates_for(message.id)
    params = interaction_message_response_params(
        type=InteractionResponseType.message_update.value, previous_allowed_mentions=state.allowed_mentions,
        **edit)
    route = Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                  webhook_id=interaction.id, webhook_token=interaction.token)
    http = state.http
    if params.files:  # as discord.py sends it: a picture goes as multipart, else JSON
        await async_context.get().request(route, session=session, proxy=http.proxy, proxy_auth=http.proxy_auth,
                                          files=params.files, multipart=params.multipart)
    else:
        await async_context.get().request(route, session=session, proxy=http.proxy, proxy_auth=http.proxy_auth,
                                          payload=params.payload)
    interaction.response._response_type = InteractionResponseType.message_update
