"""REST: interaction callbacks (types 4-9, `with_response`) and the interaction webhook
(followups, @original and followup edits/deletes)."""

from __future__ import annotations

import time
from typing import Any

from . import errors
from .messages import create_message, delete_message, edit_message
from .router import NO_CONTENT, Ctx, Router
from .state import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CHAT_INPUT_COMMAND,
    DEFAULT,
    EPHEMERAL,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Interaction,
    Message,
)
from .validation import check_modal

router = Router()

CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 5, 6, 7, 8, 9


def _response_message_fields(inter: Interaction, ephemeral: bool) -> dict[str, Any]:
    app_id = inter.application_id
    return {
        "webhook_id": app_id, "application_id": app_id, "interaction": inter,
        "visible_to": inter.user.id if ephemeral else None,
        "type": CHAT_INPUT_COMMAND if inter.type == APPLICATION_COMMAND else DEFAULT,
    }


@router.add("POST", "/interactions/{interaction_id}/{token}/callback", auth=False)
async def callback(ctx: Ctx) -> Any:
    server = ctx.server
    inter = server.world.interactions.get(int(ctx.params["interaction_id"]))
    if inter is None or inter.token != ctx.params["token"]:
        raise errors.unknown_interaction()
    ctx.call.interaction_id, ctx.call.user_id, ctx.call.channel_id = inter.id, inter.user.id, inter.channel.id
    if inter.acknowledged:
        raise errors.already_acknowledged()
    now = time.monotonic()
    if inter.dispatched_at is None or now - inter.dispatched_at > server.interaction_timeout:
        inter.late_callbacks += 1
        inter.answered()
        raise errors.unknown_interaction()
    body = ctx.body or {}
    rtype = body.get("type")
    data = body.get("data") or {}
    ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
    has_message = inter.message is not None
    bad = errors.ApiError(400, 40043 if rtype in (6, 7) else 50035, "Interaction response type not allowed")
    if rtype == CHANNEL_MESSAGE:
        if inter.type == AUTOCOMPLETE:
            raise bad
        msg = await create_message(server, inter.channel, server.world.bot, data, ctx.files,
                                   **_response_message_fields(inter, ephemeral))
        msg.flags |= EPHEMERAL if ephemeral else 0
        inter.original = msg
    elif rtype == DEFERRED_MESSAGE:
        if inter.type == AUTOCOMPLETE:
            raise bad
        flags = LOADING | (EPHEMERAL if ephemeral else 0)
        msg = await create_message(server, inter.channel, server.world.bot, {}, validate=False, flags=flags,
                                   **_response_message_fields(inter, ephemeral))
        inter.original = msg
    elif rtype == DEFERRED_UPDATE:
        if inter.type not in (MESSAGE_COMPONENT, MODAL_SUBMIT) or not has_message:
            raise bad
        inter.original = inter.message
    elif rtype == UPDATE_MESSAGE:
        if inter.type not in (MESSAGE_COMPONENT, MODAL_SUBMIT) or inter.message is None:
            raise bad
        await edit_message(server, inter.message, data, ctx.files)
        inter.original = inter.message
    elif rtype == MODAL:
        if inter.type not in (APPLICATION_COMMAND, MESSAGE_COMPONENT):
            raise bad
        check_modal(data)
        inter.modal = data
    elif rtype == AUTOCOMPLETE_RESULT:
        if inter.type != AUTOCOMPLETE:
            raise bad
        choices = data.get("choices") or []
        if len(choices) > 25:
            raise errors.ApiError(400, 50035, "Invalid Form Body", {"data": {"choices": {"_errors": [
                {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}}})
        inter.autocomplete_choices = choices
    else:
        raise errors.ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
            {"code": "BASE_TYPE_CHOICES", "message": f"Value must be one of (4, 5, 6, 7, 8, 9): {rtype!r}"}]}})
    inter.response_type = rtype
    inter.responded_at = time.monotonic()
    inter.answered()
    if not ctx.flag("with_response"):
        return NO_CONTENT
    original = inter.original
    out: dict[str, Any] = {"interaction": {
        "id": str(inter.id), "type": inter.type,
        "response_message_id": str(original.id) if original is not None else None,
        "response_message_loading": rtype == DEFERRED_MESSAGE,
        "response_message_ephemeral": bool(original is not None and original.ephemeral),
    }}
    if rtype in (CHANNEL_MESSAGE, DEFERRED_MESSAGE, UPDATE_MESSAGE) and original is not None:
        out["resource"] = {"type": rtype, "message": original.to_dict()}
    else:
        out["resource"] = {"type": rtype}
    return out


# -- the interaction webhook -------------------------------------------------------------------------
def _interaction(ctx: Ctx) -> Interaction:
    server = ctx.server
    if int(ctx.params["app_id"]) != server.world.application.id:
        raise errors.unknown_webhook()
    inter = server.world.interaction_by_token(ctx.params["token"])
    if inter is None:
        raise errors.unknown_webhook()
    ctx.call.interaction_id, ctx.call.user_id, ctx.call.channel_id = inter.id, inter.user.id, inter.channel.id
    if time.monotonic() - inter.created > server.token_lifetime:
        raise errors.ApiError(401, 50027, "Invalid Webhook Token")
    if not inter.acknowledged:
        raise errors.unknown_webhook()
    return inter


def _target(ctx: Ctx, inter: Interaction) -> Message:
    key = ctx.params["message_id"]
    if key == "@original":
        msg = inter.original
    else:
        mid = int(key)
        msg = next((m for m in [inter.original, *inter.followups] if m is not None and m.id == mid), None)
        if msg is None:
            cand = ctx.server.world.messages.get(mid)
            if (cand is not None and cand.channel is inter.channel and cand.visible_to is None
                    and cand.webhook_id == inter.application_id):
                msg = cand
    if msg is None or msg.deleted:
        raise errors.unknown_message()
    return msg


@router.add("POST", "/webhooks/{app_id}/{token}", auth=False)
async def followup(ctx: Ctx) -> Any:
    inter = _interaction(ctx)
    server = ctx.server
    body = ctx.body or {}
    original = inter.original
    if inter.response_type == DEFERRED_MESSAGE and original is not None and original.loading:
        # Discord: the first followup after a "thinking" defer replaces the loading message.
        msg = await edit_message(server, original, body, ctx.files)
    else:
        ephemeral = bool((body.get("flags") or 0) & EPHEMERAL)
        channel = inter.channel
        if "thread_id" in ctx.query:
            channel = server.world.channels.get(int(ctx.query["thread_id"])) or channel
        msg = await create_message(server, channel, server.world.bot, body, ctx.files,
                                   **_response_message_fields(inter, ephemeral))
        msg.flags |= EPHEMERAL if ephemeral else 0
        inter.followups.append(msg)
    return msg.to_dict() if ctx.flag("wait") else NO_CONTENT


@router.add("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
async def get_webhook_message(ctx: Ctx) -> Any:
    inter = _interaction(ctx)
    return _target(ctx, inter).to_dict()


@router.add("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
async def edit_webhook_message(ctx: Ctx) -> Any:
    inter = _interaction(ctx)
    msg = _target(ctx, inter)
    await edit_message(ctx.server, msg, ctx.body, ctx.files)
    return msg.to_dict()


@router.add("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
async def delete_webhook_message(ctx: Ctx) -> Any:
    inter = _interaction(ctx)
    msg = _target(ctx, inter)
    await delete_message(ctx.server, msg)
    if msg is inter.original:
        inter.deleted_original = True
    return NO_CONTENT
