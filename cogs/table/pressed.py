"""The message a press came from, read from the press's own JSON.

While parsing every interaction, discord.py makes a full `Message` of the message whose
component was used: its embeds, attachments, author and every row, button, menu and option as
objects. A press reads three things of it: its id, whether it is ephemeral, and whether it
carries the component pressed. `LazyInteraction`, installed as the interaction discord.py's
gateway makes, keeps that message's JSON and makes the `Message` only if something asks for
`interaction.message`; `pressed` reads the three from the JSON (issue 21: the `Message` was
2-3% of a press's CPU, more for a table with long menus).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, cast

import discord
import discord.state
from discord.message import Message
from discord.ui.view import ViewStore

#: The slot discord.py's own `_from_data` fills, under the property below.
_MESSAGE_SLOT: Any = discord.Interaction.__dict__["message"]
EPHEMERAL_FLAG = 64


class Pressed(NamedTuple):
    """The pressed message: its id, whether it is ephemeral, its rows as Discord's JSON."""

    id: int
    ephemeral: bool
    components: Sequence[Any]


class LazyInteraction(discord.Interaction):
    """A discord.py `Interaction` whose `message` is made from its JSON when first read."""

    __slots__ = ("_message_data",)

    def _from_data(self, data: Any) -> None:
        self._message_data: Any = None
        raw = data.get("message")
        if raw is None:
            super()._from_data(data)
            return
        super()._from_data(cast(Any, {key: value for key, value in data.items() if key != "message"}))
        self._message_data = raw

    @property
    def message(self) -> Message | None:
        raw = self._message_data
        if raw is not None:
            self._message_data = None
            message = Message(state=self._state, channel=cast(Any, self.channel), data=raw)  # as discord.py passes it
            guild = self.guild
            if guild is not None and message.guild is None:  # as discord.py's own `_from_data` does
                message.guild = guild
            _MESSAGE_SLOT.__set__(self, message)
        found: Message | None = _MESSAGE_SLOT.__get__(self)
        return found

    @message.setter
    def message(self, value: Message | None) -> None:
        self._message_data = None
        _MESSAGE_SLOT.__set__(self, value)


def install() -> None:
    """Have discord.py's gateway make `LazyInteraction`s (it names the class once, in
    `ConnectionState.parse_interaction_create`), and its view store look for the pressed
    message's view only when it holds any (it reads `interaction.message` for the id)."""
    setattr(discord.state, "Interaction", LazyInteraction)  # noqa: B010 (a module's global, swapped)
    if ViewStore.dispatch_view is not _dispatch_view_when_held:
        global _dispatch_view
        _dispatch_view = ViewStore.dispatch_view
        setattr(ViewStore, "dispatch_view", _dispatch_view_when_held)  # noqa: B010


_dispatch_view: Callable[..., None] = ViewStore.dispatch_view


def _dispatch_view_when_held(store: ViewStore, component_type: int, custom_id: str,
                             interaction: discord.Interaction) -> None:
    """`ViewStore.dispatch_view`, which finds nothing to call (so does nothing) while the store
    holds no view and no dynamic item: the table's presses are read by the edge, not by views
    discord.py keeps (tests/e2e/test_press_dispatch_e2e.py)."""
    if store._views or store._dynamic_items:
        _dispatch_view(store, component_type, custom_id, interaction)


def pressed(interaction: discord.Interaction) -> Pressed | None:
    """The message whose component was used (None for a command or a form from one)."""
    raw = getattr(interaction, "_message_data", None)
    if isinstance(raw, Mapping):
        flags = raw.get("flags")
        rows = raw.get("components")
        return Pressed(int(raw["id"]), isinstance(flags, int) and bool(flags & EPHEMERAL_FLAG),
                       rows if isinstance(rows, list) else [])
    message = interaction.message
    if message is None:
        return None
    return Pressed(message.id, bool(message.flags.ephemeral), [row.to_dict() for row in message.components])


def has_message(interaction: discord.Interaction) -> bool:
    """Whether the interaction came from a message's component, without making the message."""
    return isinstance(getattr(interaction, "_message_data", None), Mapping) or interaction.message is not None


def holds(rows: Sequence[Any], custom_id: object, kind: object) -> bool:
    """Whether `rows` (Discord's JSON of a message's rows and what they hold) include the
    component `custom_id` of type `kind`. A function of its own: a recursive closure is a
    reference cycle left for the collector on every press."""
    for component in rows:
        if not isinstance(component, Mapping):
            continue
        if component.get("custom_id") == custom_id and component.get("type") == kind:
            return True
        inner = component.get("components")
        if isinstance(inner, list) and holds(inner, custom_id, kind):
            return True
    return False


def menu_of(rows: Sequence[Any], custom_id: object) -> Mapping[str, Any] | None:
    """The string menu `custom_id` among `rows`, as JSON."""
    for row in rows:
        if not isinstance(row, Mapping):
            continue
        for item in row.get("components") or ():
            if isinstance(item, Mapping) and item.get("type") == discord.ComponentType.string_select.value \
                    and item.get("custom_id") == custom_id:
                return item
    return None
