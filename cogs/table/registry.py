"""Game UIs by engine name, found as the engines are (`games.registry`): a game's interface
package exports its GameUI as `UI` (`cogs/<game>/__init__.py`), and `load_ui` reads it."""

from __future__ import annotations

import logging
from typing import Any, TypeAlias

from cogs.table.ui import GameUI
from games.registry import BUILTIN_GAMES, exported

log = logging.getLogger(__name__)

#: The UI of some game: it reads its own game's views (the schema's types, parameters of its
#: methods), which the table hands on unread, so no one type takes every game's: Any.
AnyUI: TypeAlias = GameUI[Any, Any]

UIS: dict[str, AnyUI] = {}


def register_ui(ui: AnyUI) -> AnyUI:
    UIS[ui.name] = ui
    return ui


def load_ui(package: str) -> AnyUI:
    """Register the UI `package` exports (a built-in game's `cogs.<game>`, a test game's module)."""
    ui = exported(package, "UI")
    if not isinstance(ui, GameUI):
        raise LookupError(f"{package}.UI is not a GameUI")
    return register_ui(ui)


def ui_for(kind: str) -> AnyUI:
    try:
        return UIS[kind]
    except KeyError:
        raise KeyError(f"no interface registered for {kind!r}") from None


def load_builtin_uis() -> dict[str, AnyUI]:
    """The UI of every built-in game (a game without an interface package is not offered)."""
    for kind in BUILTIN_GAMES:
        if kind in UIS:
            continue
        try:
            ui = load_ui(f"cogs.{kind}")
        except ModuleNotFoundError as exc:
            if exc.name != f"cogs.{kind}":
                raise
            log.warning("game %r has no interface yet; not offered", kind)
            continue
        if ui.name != kind:
            raise LookupError(f"cogs.{kind}.UI is named {ui.name!r}")
    return UIS
