"""Slash-command options built from data (engine options, a game's shortcut params), and
the check that what arrives is what was declared.

discord.py reads a command's options from its callback's signature and a few attributes;
games declare theirs as data, so one helper writes both for every generated command.
discord.py passes option values on as Discord sent them, unchecked; `misfit` holds every
value to its declared type, range and choices before any command runs.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

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
    """An option of a game's shortcut or lookup: required unless the param says not."""
    annotation: Any = str
    if param.integer:
        bounded = param.minimum is not None or param.maximum is not None
        annotation = app_commands.Range[int, param.minimum, param.maximum] if bounded else int
    choices = [app_commands.Choice(name=label[:100], value=value) for value, label in param.choices.items()]
    if param.required:
        return SlashOption(param.name, annotation, param.description, choices)
    return SlashOption(param.name, annotation | None, param.description, choices, default=None)


def given_options(params: Sequence[Param], options: dict[str, Any]) -> dict[str, Any]:
    """The values of `params` as their `build`/`show` receives them: by param name, with an
    optional param left out when it was not given."""
    out = {}
    for param in params:
        value = options.get(from_param(param).python_name)
        if value is not None or param.required:
            out[param.name] = value
    return out


def with_options(callback: Callable[..., Any], options: Sequence[SlashOption]) -> Callable[..., Any]:
    """Give `callback(interaction, **options)` the signature and metadata discord.py reads.
    The callback receives options under their `python_name`."""
    # Set on the function itself, where inspect and discord.py's decorators put them.
    vars(callback).update(
        __signature__=inspect.Signature(
            [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                               annotation=discord.Interaction)]
            + [inspect.Parameter(o.python_name, inspect.Parameter.KEYWORD_ONLY, default=o.default,
                                 annotation=o.annotation) for o in options]
        ),
        __discord_app_commands_param_description__={o.python_name: o.description[:100] for o in options},
        __discord_app_commands_param_choices__={o.python_name: list(o.choices) for o in options if o.choices},
        __discord_app_commands_param_rename__={o.python_name: o.name for o in options if o.python_name != o.name},
    )
    return callback


#: The largest integer Discord sends in an option (and JavaScript numbers hold exactly).
DISCORD_INT = 2**53
_SUBCOMMANDS = (1, 2)
_RESOLVED = {
    AppCommandOptionType.user: ("users",), AppCommandOptionType.role: ("roles",),
    AppCommandOptionType.channel: ("channels",), AppCommandOptionType.mentionable: ("users", "roles"),
    AppCommandOptionType.attachment: ("attachments",),
}
_NOT_FOUND = {
    AppCommandOptionType.user: "I can't find that user here.",
    AppCommandOptionType.role: "I can't find that role here.",
    AppCommandOptionType.channel: "I can't find that channel here.",
    AppCommandOptionType.mentionable: "I can't find that user or role here.",
    AppCommandOptionType.attachment: "I can't find that file.",
}


def misfit(interaction: discord.Interaction) -> str | None:
    """Why a slash command's options are not what the command declared, or None when they are.
    Only commands run are checked (autocomplete sends half-typed values by design)."""
    if interaction.type is not discord.InteractionType.application_command:
        return None
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    data: Mapping[str, Any] = interaction.data or {}  # JSON as sent: each field checked below
    options = data.get("options") or []
    while (isinstance(options, list) and len(options) == 1 and isinstance(options[0], dict)
           and options[0].get("type") in _SUBCOMMANDS):
        options = options[0].get("options") or []
    if not isinstance(options, list) or not all(isinstance(o, dict) for o in options):
        return "I could not read that command's options."
    found = data.get("resolved")
    resolved: dict[str, Any] = found if isinstance(found, dict) else {}
    given = {str(o.get("name")): o for o in options}
    params = {p.display_name: p for p in command.parameters}
    unknown = [name for name in given if name not in params]
    if unknown:
        return f"`/{command.qualified_name}` has no option `{_shown(unknown[0])}`."
    for name, param in params.items():
        option = given.get(name)
        if option is None:
            if param.required:
                return f"`{name}` is required."
            continue
        problem = _value_misfit(param, option.get("value"), resolved)
        if problem is not None:
            return f"`{name}`: {problem}"
    return None


def _value_misfit(param: app_commands.Parameter, value: Any, resolved: dict[str, Any]) -> str | None:
    kind = param.type
    if kind is AppCommandOptionType.string:
        if not isinstance(value, str):
            return "that should be text."
    elif kind is AppCommandOptionType.integer:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > DISCORD_INT:
            return "that should be a whole number."
    elif kind is AppCommandOptionType.number:
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            return "that should be a number."
    elif kind is AppCommandOptionType.boolean:
        if not isinstance(value, bool):
            return "that should be true or false."
    elif kind in _RESOLVED:
        key = str(value)
        if not key.isdigit() or not any(key in (resolved.get(where) or {}) for where in _RESOLVED[kind]):
            return _NOT_FOUND[kind]
        return None
    if param.choices and value not in [c.value for c in param.choices]:
        return "please pick one of the offered choices."
    if isinstance(value, int | float) and not isinstance(value, bool):
        low, high = param.min_value, param.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            return f"that should be between {low if low is not None else '…'} and {high if high is not None else '…'}."
    return None


def _shown(text: str) -> str:
    return text if len(text) <= 32 else text[:31] + "…"
