"""Short private answers: refusals as a sentence, surprises as a reference code, and the
limits every answer keeps (Discord's 2,000 characters; never more than a few words of what
the user typed echoed back)."""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord

from cogs.table import codec
from cogs.table.components import BuiltView
from cogs.table.deferral import PATIENCE, STARTING_PATIENCE, answering, watched
from cogs.table.mentions import neutral
from cogs.table.quiet import update_pressed
from games.core import IllegalAction
from runtime.errors import NotAllowed, Refusal, StaleComponent

log = logging.getLogger(__name__)

#: Discord's limit for a message's content.
CONTENT_LIMIT = 2000
#: The most of a user's own input an answer repeats.
ECHO_LIMIT = 100
NO_LONGER_VALID = "That button is no longer valid. Use the buttons on the current table, or `/game status`."

#: Draws the table as it is now, for a stale button's answer (None when there is none to show).
TableNow = Callable[[int], Awaitable[discord.Embed | None]]


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    return text if len(text) <= limit else text[:max(limit - 1, 0)] + "…"


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """What the user typed, fit to be repeated: one line, at most `limit` characters, no mention."""
    return neutral(clip(" ".join(str(text).split()), limit))


async def redraw_in_place(interaction: discord.Interaction, **edit: Any) -> None:
    """Edit the message whose component was used: as the response, or after a deferral."""
    async with answering(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**edit)
        else:
            await update_pressed(interaction, **edit)


class Answers:
    def __init__(self, table_now: TableNow) -> None:
        self._table_now = table_now
        #: While the bot catches up after a start (the edge sets it): watched actions are
        #: deferred sooner, since their answers wait behind the start-up's redraws.
        self.hurry = False

    def watched(self, interaction: discord.Interaction, *,
                thinking: bool | None = None) -> contextlib.AbstractAsyncContextManager[Any]:
        """`async with answers.watched(interaction):` around handling an action whose answer
        may be late: deferred unless answered within `deferral.PATIENCE` of the press
        (`thinking`: defer as "thinking…" even for a button; see `deferral.Watch`)."""
        return watched(interaction, patience=STARTING_PATIENCE if self.hurry else PATIENCE, thinking=thinking)

    @contextlib.asynccontextmanager
    async def guard(self, interaction: discord.Interaction) -> AsyncIterator[None]:
        """Turn refusals into an ephemeral sentence and surprises into a reference code."""
        try:
            yield
        except (Refusal, IllegalAction) as exc:
            extra = None
            if isinstance(exc, StaleComponent) and exc.game_id is not None:
                with contextlib.suppress(Exception):  # the refusal matters more than the picture
                    extra = await self._table_now(exc.game_id)
            # a refusal may quote what the player typed (a form's line): its mentions are
            # defused; only an access refusal names a user on purpose ("Only @host …")
            text, view = (exc.message if isinstance(exc, NotAllowed) else neutral(exc.message)), None
            if isinstance(exc, Refusal) and exc.rule and exc.game_id is not None:
                text, view = cited(text, exc.game_id, exc.rule)
            await self.tell(interaction, text, extra=extra, view=view)
        except Exception:
            ref = secrets.token_hex(3)
            log.exception("interaction failed (ref %s)", ref)
            await self.tell(interaction, f"Something went wrong (ref `{ref}`). The game is unchanged.")

    @contextlib.asynccontextmanager
    async def committed(self, interaction: discord.Interaction) -> AsyncIterator[None]:
        """After the commit a failure no longer means "unchanged": the move counts, only
        showing it went wrong, and the player is told so."""
        try:
            yield
        except Exception:
            ref = secrets.token_hex(3)
            log.exception("showing a committed step failed (ref %s)", ref)
            await self.tell(interaction, f"Your move counts, but I could not show it (ref `{ref}`). "
                                         "`/game status` shows the table.")

    async def tell(self, interaction: discord.Interaction, text: str,
                   *, extra: discord.Embed | None = None, view: discord.ui.View | None = None) -> None:
        """A short ephemeral answer, whether or not the interaction was answered already."""
        kwargs: dict[str, Any] = {"ephemeral": True}
        if extra is not None:
            kwargs["embed"] = extra
        if view is not None:
            kwargs["view"] = view
        try:
            await send(interaction, clip(text or "Done."), **kwargs)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id)


async def send(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Send `text` (clipped to Discord's limit) as the response, or as a followup once answered."""
    await respond(interaction, content=clip(text), **kwargs)


async def respond(interaction: discord.Interaction, **kwargs: Any) -> tuple[int | None, list[discord.Attachment]]:
    """Send a message as the response, or as a followup once answered (or deferred: the
    followup then replaces a "thinking…" placeholder). Returns the message's id (when Discord
    says) and its attachments."""
    async with answering(interaction):
        if interaction.response.is_done():
            message = await interaction.followup.send(wait=True, **kwargs)
            return message.id, list(message.attachments)
        sent = await interaction.response.send_message(**kwargs)
    resource = sent.resource if sent is not None else None
    attachments = list(resource.attachments) if isinstance(resource, discord.InteractionMessage) else []
    return (sent.message_id if sent is not None else None), attachments


def cited(text: str, game_id: int, rule: str) -> tuple[str, discord.ui.View | None]:
    """A refusal that ends with the rule it applies, and a button showing that rule's text."""
    try:
        custom_id = codec.rule_id(game_id, rule)
    except codec.CodecError:
        return text, None
    view = BuiltView(timeout=None)
    view.add_item(discord.ui.Button(label=f"Rule {rule}"[:80], emoji="📖", custom_id=custom_id,
                                    style=discord.ButtonStyle.secondary))
    return f"{text.rstrip()} (rule {rule})", view
