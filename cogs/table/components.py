"""Stateless components: each carries what it needs in its custom_id.

They are dynamic items, so a button drawn before a restart still works after it. All of them
share one template — every custom_id starting with `rp:` — so discord.py hands every press of
ours to `TableItem`, which parses the id once (`codec.parse`) and passes the route to the
table edge; an id it cannot read (a forgery, an older release's) is answered, not dropped.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from cogs.table import codec
from cogs.table.ui import Select


class Pressed(Protocol):
    """Who takes our presses: the table edge, which the bot carries as `tables`."""

    async def on_component(self, interaction: discord.Interaction, route: codec.Route | None) -> None: ...


def edge_of(interaction: discord.Interaction) -> Pressed:
    edge = getattr(interaction.client, "tables", None)
    if edge is None:
        raise RuntimeError("this client has no table edge (`client.tables`)")
    return edge


class TableItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=codec.ANY_ID):
    """Any component of ours, as pressed: the item from the message and its parsed route."""

    def __init__(self, item: discord.ui.Item[Any], route: codec.Route | None = None) -> None:
        super().__init__(item)
        self.route = route

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TableItem:
        return TableItem(item, codec.parse(match.string))

    async def callback(self, interaction: discord.Interaction) -> None:
        await edge_of(interaction).on_component(interaction, self.route)


class ActionButton(TableItem, template=codec.ANY_ID):
    def __init__(self, game: int, version: int, action: dict[str, Any], *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 emoji: str | None = None, disabled: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label, style=style, emoji=emoji, disabled=disabled, row=row,
            custom_id=codec.action_id(game, version, action),
        ))


class ActionSelect(TableItem, template=codec.ANY_ID):
    @classmethod
    def build(cls, game: int, version: int, slot: int, control: Select) -> ActionSelect:
        multi = control.pick > 1 and control.gather is not None
        return cls(discord.ui.Select(
            custom_id=codec.select_id(game, version, slot, control.gather if multi else None),
            placeholder=control.placeholder[:150],
            row=control.row,
            min_values=control.pick if multi else 1,
            max_values=control.pick if multi else 1,
            options=[
                discord.SelectOption(label=c.label[:100], value=codec.select_value(c.action),
                                     description=(c.description or None) and c.description[:100],
                                     emoji=c.emoji, default=c.default)
                for c in list(control.choices)[:25]
            ],
        ))


class FormOpenButton(TableItem, template=codec.ANY_ID):
    def __init__(self, game: int, version: int, action: dict[str, Any], *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary,
                 emoji: str | None = None, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label, style=style, emoji=emoji, row=row,
            custom_id=codec.form_id(game, version, action),
        ))


class LobbyButton(TableItem, template=codec.ANY_ID):
    def __init__(self, game: int, verb: str, *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=codec.lobby_id(game, verb)))


class HandButton(TableItem, template=codec.ANY_ID):
    """Shows the presser their own private screen, ephemerally. A screen may relabel it (a
    public "Respond" that every player may press, so pressing reveals nothing)."""

    def __init__(self, game: int, label: str = "My hand", emoji: str = "🃏",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label[:80], emoji=emoji, style=style,
                                           custom_id=codec.hand_id(game), row=4))


class FormModal(discord.ui.Modal):
    """A modal whose submission the edge handles in `on_interaction` (so it works even
    if the bot restarted while the modal was open); its own on_submit does nothing."""

    async def on_submit(self, interaction: discord.Interaction) -> None:  # pragma: no cover
        return None

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        return None  # a submission it could not read is answered by the edge all the same


DYNAMIC_ITEMS = (TableItem,)
