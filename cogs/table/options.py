"""Slash-command options built from data (engine options, a game's shortcut params).

discord.py reads a command's options from its callback's signature and a few attributes;
games declare theirs as data, so one helper writes both for every generated command.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from cogs.table.ui import Param
from games.core import Option

_NO_DEFAULT = inspect.Parameter.empty


@dataclass(frozen=True)
class SlashOption:
    name: str
    annotation: Any
    description: str
    choices: Sequence[app_commands.Choice[Any]] = field(default_factory=tuple)
    default: Any = _NO_DEFAULT

    @property
    def python_name(self) -> str:
        """A Python-safe name (`from` → `from_`); Discord still shows `name`."""
        return f"{self.name}_" if keyword.iskeyword(self.name) else self.name


def from_engine_option(option: Option) -> SlashOption:
    """An optional `/<game> new` option; left out, the engine's default applies."""
    if isinstance(option.default, bool):
        annotation: Any = bool | None
    elif isinstance(option.default, int):
        annotation = int | None
    else:
        annotation = str | None
    choices = [] if isinstance(option.default, bool) else [
        app_commands.Choice(name=str(c), value=c) for c in option.choices or ()]
    return SlashOption(option.name, annotation, f"{option.description} (default: {option.default})",
                       choices, default=None)


def from_param(param: Param) -> SlashOption:
    """A required option of a game's shortcut."""
    annotation: Any = str
    if param.integer:
        bounded = param.minimum is not None or param.maximum is not None
        annotation = app_commands.Range[int, param.minimum, param.maximum] if bounded else int
    choices = [app_commands.Choice(name=label[:100], value=value) for value, label in param.choices.items()]
    return SlashOption(param.name, annotation, param.description, choices)


def with_options(callback: Callable[..., Any], options: Sequence[SlashOption]) -> Callable[..., Any]:
    """Give `callback(interaction, **options)` the signature and metadata discord.py reads.
    The callback receives options under their `python_name`."""
    callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
        + [inspect.Parameter(o.python_name, inspect.Parameter.KEYWORD_ONLY, default=o.default,
                             annotation=o.annotation) for o in options]
    )
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        o.python_name: o.description[:100] for o in options}
    callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
        o.python_name: list(o.choices) for o in options if o.choices}
    callback.__discord_app_commands_param_rename__ = {  # type: ignore[attr-defined]
        o.python_name: o.name for o in options if o.python_name != o.name}
    return callback
