"""Game UIs by engine name. A game's cog package registers its UI at import."""

from __future__ import annotations

import importlib
import inspect
import logging

from cogs.table.ui import GameUI
from games.registry import BUILTIN_GAMES

UIS: dict[str, GameUI] = {}


def register_ui(ui: GameUI) -> GameUI:
    UIS[ui.name] = ui
    return ui


def ui_for(kind: str) -> GameUI:
    try:
        return UIS[kind]
    except KeyError:
        raise KeyError(f"no interface registered for {kind!r}") from None


def load_builtin_uis() -> dict[str, GameUI]:
    """Import `cogs/<game>/ui.py` of every built-in game and register its GameUI."""
    for kind in BUILTIN_GAMES:
        if kind in UIS:
            continue
        try:
            module = importlib.import_module(f"cogs.{kind}.ui")
        except ModuleNotFoundError as exc:
            if exc.name not in (f"cogs.{kind}", f"cogs.{kind}.ui"):
                raise
            logging.getLogger(__name__).warning("game %r has no interface yet; not offered", kind)
            continue
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, GameUI) and cls is not GameUI and getattr(cls, "name", None) == kind:
                register_ui(cls())
                break
        else:
            raise LookupError(f"cogs/{kind}/ui.py defines no GameUI named {kind!r}")
    return UIS
