"""The engine registry: game name -> engine instance.

Real games register themselves in `games/<name>/__init__.py`; `load_builtin()` imports
them. Tests may register extra engines (the tiny test engine) with `register`.
"""

from __future__ import annotations

import importlib

from games.core import Engine

ENGINES: dict[str, Engine] = {}

#: Packages under games/ that hold a real game; imported by `load_builtin`.
BUILTIN_GAMES: tuple[str, ...] = ("words", "hallway", "tarot", "fencing", "kniggits")


def register(engine: Engine) -> Engine:
    """Add an engine under its `name` (idempotent for the same class)."""
    existing = ENGINES.get(engine.name)
    if existing is not None and type(existing) is not type(engine):
        raise ValueError(f"two engines named {engine.name!r}")
    ENGINES[engine.name] = engine
    return engine


def get_engine(name: str) -> Engine:
    load_builtin()
    try:
        return ENGINES[name]
    except KeyError:
        raise KeyError(f"no game named {name!r}") from None


def load_builtin() -> dict[str, Engine]:
    for package in BUILTIN_GAMES:
        importlib.import_module(f"games.{package}")
    return ENGINES
