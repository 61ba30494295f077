"""Stateless components: each parses what it needs out of its custom_id.

They are registered once with `bot.add_dynamic_items`, so a button drawn before a restart
still works after it. Callbacks only hand over to the table edge (`bot.tables`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.table import codec
from cogs.table.ui import Select

if TYPE_CHECKING:
    from cogs.table.edge import TableEdge


def edge_of(interaction: discord.Interaction) -> TableEdge:
    return interaction.client.tables  # type: ignore[attr-defined]


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=codec.ACTION_ID):
    def __init__(self, game: int, version: int, action: dict[str, Any], *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 emoji: str | None = None, disabled: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label, style=style, emoji=emoji, disabled=disabled, row=row,
            custom_id=codec.action_id(game, version, action),
        ))
        self.game, self.version, self.action = game, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ActionButton:
        return cls(int(match["game"]), int(match["version"]), codec.unpack(match["payload"]),
                   label=item.label or "…", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await edge_of(interaction).on_action(interaction, self.game, self.action, self.version)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select], template=codec.SELECT_ID):
    def __init__(self, game: int, version: int, slot: int, select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=codec.select_id(game, version, slot)))
        self.game, self.version = game, version

    @classmethod
    def build(cls, game: int, version: int, slot: int, control: Select) -> ActionSelect:
        select = discord.ui.Select(
            custom_id=codec.select_id(game, version, slot),
            placeholder=control.placeholder[:150],
            row=control.row,
            options=[
                discord.SelectOption(label=c.label[:100], value=codec.select_value(c.action),
                                     description=(c.description or None) and c.description[:100],
                                     emoji=c.emoji)
                for c in list(control.choices)[:25]
            ],
        )
        return cls(game, version, slot, select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str]) -> ActionSelect:
        return cls(int(match["game"]), int(match["version"]), int(match["slot"] or 0), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values or (interaction.data or {}).get("values", [])
        action = codec.unpack(values[0]) if values else {}
        await edge_of(interaction).on_action(interaction, self.game, action, self.version)


class FormOpenButton(discord.ui.DynamicItem[discord.ui.Button], template=codec.FORM_ID):
    def __init__(self, game: int, version: int, action: dict[str, Any], *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary,
                 emoji: str | None = None, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label, style=style, emoji=emoji, row=row,
            custom_id=codec.form_id(game, version, action),
        ))
        self.game, self.version, self.action = game, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> FormOpenButton:
        return cls(int(match["game"]), int(match["version"]), codec.unpack(match["payload"]),
                   label=item.label or "…", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await edge_of(interaction).open_form(interaction, self.game, self.action, self.version)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=codec.LOBBY_ID):
    def __init__(self, game: int, verb: str, *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=codec.lobby_id(game, verb)))
        self.game, self.verb = game, verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> LobbyButton:
        return cls(int(match["game"]), match["verb"], label=item.label or "…", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await edge_of(interaction).on_lobby(interaction, self.game, self.verb)


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=codec.HAND_ID):
    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="My hand", emoji="🃏", style=discord.ButtonStyle.secondary,
                                           custom_id=codec.hand_id(game), row=4))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> HandButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await edge_of(interaction).show_hand(interaction, self.game)


class FormModal(discord.ui.Modal):
    """A modal whose submission the edge handles in `on_interaction` (so it works even
    if the bot restarted while the modal was open); its own on_submit does nothing."""

    async def on_submit(self, interaction: discord.Interaction) -> None:  # pragma: no cover
        return None


DYNAMIC_ITEMS = (ActionButton, ActionSelect, FormOpenButton, LobbyButton, HandButton)
