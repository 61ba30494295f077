"""Pictures a message already shows, kept on the next edit instead of uploaded again.

A table or hand picture often stays the same across a step (a letter chosen, a timer moved).
Re-uploading it costs bytes and Discord's time; an edit may instead name the attachment the
message has. Only attachments the bot itself saw come back from its own last edit of that
message are kept — a message as it was when pressed may show a picture another edit replaced.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from cogs.table.present import Rendered

log = logging.getLogger(__name__)

#: Discord's "Invalid Form Body": among others, an edit keeping an attachment the message no
#: longer has.
INVALID_FORM_BODY = 50035
#: Messages remembered; forgotten all at once past this (the next edit simply uploads).
MAX_REMEMBERED = 20_000


class KeptPictures:
    def __init__(self) -> None:
        #: message id -> (digest of the picture it shows, its attachments)
        self._shown: dict[int, tuple[str, list[discord.Attachment]]] = {}

    def edit_kwargs(self, message_id: int, rendered: Rendered) -> dict[str, Any]:
        """Edit arguments for a message, keeping the picture it shows when the new one is the same."""
        kwargs = rendered.edit_kwargs()
        shown = self._shown.get(message_id)
        if rendered.file is not None and shown is not None and shown[0] == rendered.image_digest:
            attachments = [a for a in shown[1] if a.filename == rendered.file.filename]
            if attachments:
                kwargs["attachments"] = attachments
        return kwargs

    async def edit(self, message_id: int, rendered: Rendered,
                   edit: Callable[..., Awaitable[Any]]) -> tuple[Any, dict[str, Any]]:
        """`edit(**kwargs)` keeping an unchanged picture; returns edit's result and the kwargs
        that worked. When Discord no longer knows the kept attachment (another process sharing
        the database replaced the picture since our last edit), the picture is uploaded again
        instead of the edit being lost."""
        kwargs = self.edit_kwargs(message_id, rendered)
        try:
            return await edit(**kwargs), kwargs
        except discord.HTTPException as exc:
            if exc.code != INVALID_FORM_BODY or not kept(kwargs):
                raise
            log.info("message %s no longer shows the picture we kept; uploading it again", message_id)
            self._shown.pop(message_id, None)
            kwargs = rendered.edit_kwargs()
            return await edit(**kwargs), kwargs

    def remember(self, message_id: int, rendered: Rendered, attachments: Sequence[discord.Attachment] = ()) -> None:
        if len(self._shown) >= MAX_REMEMBERED:
            self._shown.clear()
        if rendered.file is None or rendered.image_digest is None:
            self._shown.pop(message_id, None)
        else:
            self._shown[message_id] = (rendered.image_digest, list(attachments))


def kept(kwargs: dict[str, Any]) -> list[discord.Attachment]:
    """The attachments an edit keeps (none when it uploads a new picture)."""
    attachments = kwargs.get("attachments") or []
    return [a for a in attachments if isinstance(a, discord.Attachment)]
