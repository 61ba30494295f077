"""A screen's controls laid out in rows as the payload Discord reads, with no discord.ui objects.

discord.py builds a `ui.Button` or `ui.Select` (and its `SelectOption`s, a `PartialEmoji` parsed
from each emoji, a `_ViewWeights`) per control of every screen drawn, only for `View.to_components`
to turn them into these dicts; a press draws two or three screens. `RowLayout` places controls
as discord.py's `View` does (an item with a row goes there, one without goes in the first row
with room; a button is 1 wide, a menu 5; rows listed in order, empty ones left out) and builds the
dicts directly: the same payload, byte for byte (`tests/runtime/test_rows.py` compares them over
every screen of seeded games of all five), for a fraction of the work. What repeats (an emoji, a
select's option: actions, not versions) is made once.
"""

from __future__ import annotations

from typing import Any

import discord
import orjson

from cogs.table import codec
from cogs.table.ui import Choice

ROWS = 5
ROW_WIDTH = 5
MAX_ITEMS = 25
BUTTON_WIDTH, MENU_WIDTH = 1, 5

#: An emoji as Discord's payload names it, by the text a UI gives ("🎲", "<:name:123>").
_EMOJIS: dict[str, dict[str, Any]] = {}
#: A select option's payload by what it is made of (see `option`); forgotten all at once past MAX.
_OPTIONS: dict[tuple[str, bytes, str | None, str | None, bool], dict[str, Any]] = {}
MAX_OPTIONS = 20_000


def emoji(text: str) -> dict[str, Any]:
    made = _EMOJIS.get(text)
    if made is None:
        if len(_EMOJIS) >= MAX_OPTIONS:
            _EMOJIS.clear()
        made = _EMOJIS[text] = dict(discord.PartialEmoji.from_str(text).to_dict())
    return made


def button(custom_id: str, label: str, style: discord.ButtonStyle, *, emoji_text: str | None = None,
           disabled: bool = False) -> dict[str, Any]:
    made: dict[str, Any] = {"type": 2, "style": style.value, "disabled": disabled}
    if label:
        made["label"] = label
    made["custom_id"] = custom_id
    if emoji_text:
        made["emoji"] = emoji(emoji_text)
    return made


def option(choice: Choice) -> dict[str, Any]:
    """A choice's option payload, made once: it names an action, not a state version, so the same
    letters and places come back step after step and seat after seat."""
    key = (choice.label, orjson.dumps(choice.action, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS),
           choice.description, choice.emoji, choice.default)
    made = _OPTIONS.get(key)
    if made is None:
        if len(_OPTIONS) >= MAX_OPTIONS:
            _OPTIONS.clear()
        made = {"label": choice.label[:100], "value": codec.select_value(choice.action), "default": choice.default}
        if choice.description:
            made["description"] = choice.description[:100]
        if choice.emoji:
            made["emoji"] = emoji(choice.emoji)
        _OPTIONS[key] = made
    return made


def menu(custom_id: str, placeholder: str, choices: list[Choice], *, pick: int = 1) -> dict[str, Any]:
    made: dict[str, Any] = {"type": 3, "custom_id": custom_id, "min_values": pick, "max_values": pick,
                            "disabled": False, "required": True}
    if placeholder:
        made["placeholder"] = placeholder
    if choices:
        made["options"] = [option(c) for c in choices]
    return made


class RowLayout:
    """Items placed in rows as discord.py's `View.add_item` places them (`ValueError` when one
    does not fit, as there), and their payload (`rows`)."""

    __slots__ = ("_placed", "_weights", "bound")

    def __init__(self) -> None:
        self._weights = [0] * ROWS
        self._placed: list[tuple[int, dict[str, Any]]] = []  # (row, item), in the order added
        #: Whether an item is tied to the state version it was drawn at (a press of it after the
        #: game moved on is stale): said by whoever adds it, so nobody parses the ids back.
        self.bound = False

    def add(self, item: dict[str, Any], *, row: int | None = None, bound: bool = False) -> None:
        if len(self._placed) >= MAX_ITEMS:
            raise ValueError("maximum number of children exceeded")
        width = MENU_WIDTH if item["type"] == 3 else BUTTON_WIDTH
        if row is None:
            row = next((r for r, weight in enumerate(self._weights) if weight + width <= ROW_WIDTH), None)
            if row is None:
                raise ValueError("could not find open space for item")
        elif self._weights[row] + width > ROW_WIDTH:
            raise ValueError(f"item would not fit at row {row}")
        self._weights[row] += width
        self._placed.append((row, item))
        self.bound = self.bound or bound

    def copy(self) -> RowLayout:
        twin = RowLayout()
        twin._weights, twin._placed, twin.bound = list(self._weights), list(self._placed), self.bound
        return twin

    def __bool__(self) -> bool:
        return bool(self._placed)

    def rows(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": items}
                for r in range(ROWS) if (items := [item for row, item in self._placed if row == r])]
