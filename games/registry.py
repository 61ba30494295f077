"""The engine registry: game name -> engine instance.

Real games register themselves in `games/<name>/__init__.py`; `load_builtin()` imports
them. Tests may register extra engines (the tiny test engine) with `register`.
"""

from __future__ import annotations

import importlib

from games.computer import Policy
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
    engine = ENGINES.get(name)
    if engine is not None:
        return engine
    load_builtin()
    try:
        return ENGINES[name]
    except KeyError:
        raise KeyError(f"no game named {name!r}") from None


_loaded = False


def load_builtin() -> dict[str, Engine]:
    """Import the real games once (every action looks its engine up: five imports each
    time cost more than the lookup)."""
    global _loaded
    if not _loaded:
        for package in BUILTIN_GAMES:
            importlib.import_module(f"games.{package}")
        _loaded = True
    return ENGINES


def get_policy(name: str) -> Policy | None:
    """The computer player of game `name` (`games/<name>/ai.py`'s POLICY), or None."""
    engine = get_engine(name)
    policy = POLICIES.get(engine.name)
    if policy is None and name in BUILTIN_GAMES:
        try:
            module = importlib.import_module(f"games.{name}.ai")
        except ModuleNotFoundError as exc:
            if exc.name != f"games.{name}.ai":
                raise
            return None
        policy = POLICIES[name] = module.POLICY
    return policy


#: Policies by game name; tests may add one for a test engine with `register_policy`.
POLICIES: dict[str, Policy] = {}


def register_policy(name: str, policy: Policy) -> Policy:
    POLICIES[name] = policy
    return policy
