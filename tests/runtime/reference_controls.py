"""The controls builder as it was before `cogs/table/rows.py`: discord.ui items in a View, turned
into their payload by discord.py. Kept as the reference the row layout is compared with."""

from __future__ import annotations

from typing import Any

import discord
import orjson

from cogs.table import codec
from cogs.table.components import BuiltView, TableItem
from cogs.table.present import HAND_ROW, LASTING, STYLES
from cogs.table.ui import Button, Choice, FormButton, Screen, Select


def _option(choice: Choice) -> discord.SelectOption:
    orjson.dumps(choice.action, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)  # as the old key was made
    return discord.SelectOption(label=choice.label[:100], value=codec.select_value(choice.action),
                                description=(choice.description or None) and choice.description[:100],
                                emoji=choice.emoji, default=choice.default)


def _button(custom_id: str, label: str, style: discord.ButtonStyle, emoji: str | None = None,
            disabled: bool = False, row: int | None = None) -> TableItem:
    return TableItem(discord.ui.Button(label=label, style=style, emoji=emoji, disabled=disabled, row=row,
                                       custom_id=custom_id))


def reference_rows(game_id: int, version: int, screen: Screen, *, hand_button: bool,
                   hinted: bool = False) -> list[dict[str, Any]]:
    view = BuiltView(timeout=None)
    slot = 0
    for control in screen.controls:
        if isinstance(control, Button):
            view.add_item(_button(codec.action_id(game_id, LASTING if control.lasting else version, control.action),
                                  control.label[:80], STYLES[control.style], control.emoji, control.disabled,
                                  control.row))
        elif isinstance(control, Select):
            multi = control.pick > 1 and control.gather is not None
            view.add_item(TableItem(discord.ui.Select(
                custom_id=codec.select_id(game_id, version, slot, control.gather if multi else None),
                placeholder=control.placeholder[:150], row=control.row,
                min_values=control.pick if multi else 1, max_values=control.pick if multi else 1,
                options=[_option(c) for c in list(control.choices)[:25]])))
            slot += 1
        elif isinstance(control, FormButton):
            view.add_item(_button(codec.form_id(game_id, version, control.action), control.label[:80],
                                  STYLES[control.style], control.emoji, row=control.row))
    if hand_button:
        if screen.hand_label is not None:
            view.add_item(_button(codec.hand_id(game_id), screen.hand_label[:80], discord.ButtonStyle.primary, "✋",
                                  row=HAND_ROW))
        else:
            view.add_item(_button(codec.hand_id(game_id), "My hand", discord.ButtonStyle.secondary, "🃏",
                                  row=HAND_ROW))
    if hinted:
        for row in (HAND_ROW, None):
            try:
                view.add_item(discord.ui.Button(label="Hint", emoji="💡", style=discord.ButtonStyle.success,
                                                custom_id=codec.hint_id(game_id), row=row))
                break
            except ValueError:
                continue
    return view.to_components()
