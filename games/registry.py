"""Where the games are found: game name -> engine, computer policy and (in `cogs.table.registry`)
interface, all three discovered the one same way.

A game is a package that *exports* its parts under fixed names, and registers nothing itself:

    games/<game>/__init__.py     ENGINE = <the engine>
    games/<game>/ai.py           POLICY = <the computer player>    (optional; read when first asked:
                                                                    its import may take seconds)
    cogs/<game>/__init__.py      UI = <the GameUI>                 (cogs.table.registry.load_ui)

`load_game(package)` reads a package's ENGINE (and remembers where its POLICY is);
`load_builtin()` does it once for every package of BUILTIN_GAMES. The test games in tests/ are
loaded by the same call (`load_game("tests.engines.tokens")`); `register` and `register_policy`
are what it uses underneath, left for an engine a test defines in place.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any, TypeAlias

from games.computer import Policy
from games.core import Engine

#: An engine of some game: its views are JSON objects, read-only, their keys its schema's (each
#: game's own modules are the ones checked against that). The registry holds every game's engine
#: in one table; the runtime passes views on, to the game's own UI and computer player.
AnyEngine: TypeAlias = Engine[Mapping[str, Any], Mapping[str, Any]]
#: A computer player of some game: it reads the seat view of its own game's engine, which the
#: runtime hands it without knowing the schema (a policy's view type is a parameter it reads,
#: so no one type takes every game's: Any).
AnyPolicy: TypeAlias = Policy[Any]

ENGINES: dict[str, AnyEngine] = {}
#: Policies by game name, once read (`get_policy`); a test may set one with `register_policy`.
POLICIES: dict[str, AnyPolicy] = {}
#: Game name -> the module whose POLICY is its computer player (read when first asked).
POLICY_MODULES: dict[str, str] = {}

#: Packages under games/ that hold a real game; imported by `load_builtin`.
BUILTIN_GAMES: tuple[str, ...] = ("words", "hallway", "tarot", "fencing", "kniggits")


def exported(module: ModuleType | str, name: str) -> object:
    """What a game's module exports as `name` (ENGINE, POLICY, UI): the one way a part is found."""
    module = importlib.import_module(module) if isinstance(module, str) else module
    try:
        return getattr(module, name)
    except AttributeError:
        raise LookupError(f"{module.__name__} exports no {name}") from None


def register(engine: AnyEngine) -> AnyEngine:
    """Add an engine under its `name` (idempotent for the same class)."""
    existing = ENGINES.get(engine.name)
    if existing is not None and type(existing) is not type(engine):
        raise ValueError(f"two engines named {engine.name!r}")
    ENGINES[engine.name] = engine
    return engine


def load_game(package: str) -> AnyEngine:
    """Register the ENGINE `package` exports; its POLICY is `<package>.ai`'s, read when first asked."""
    engine = exported(package, "ENGINE")
    if not isinstance(engine, Engine):
        raise LookupError(f"{package}.ENGINE is not an Engine")
    POLICY_MODULES.setdefault(engine.name, f"{package}.ai")
    return register(engine)


def get_engine(name: str) -> AnyEngine:
    engine = ENGINES.get(name)
    if engine is not None:
        return engine
    load_builtin()
    try:
        return ENGINES[name]
    except KeyError:
        raise KeyError(f"no game named {name!r}") from None


_loaded = False


def load_builtin() -> dict[str, AnyEngine]:
    """Load the real games once (every action looks its engine up: five imports each time cost
    more than the lookup)."""
    global _loaded
    if not _loaded:
        for package in BUILTIN_GAMES:
            load_game(f"games.{package}")
        _loaded = True
    return ENGINES


def get_policy(name: str) -> AnyPolicy | None:
    """The computer player of game `name` (its `ai` module's POLICY), or None for a game without one."""
    engine = get_engine(name)
    policy = POLICIES.get(engine.name)
    where = POLICY_MODULES.get(engine.name)
    if policy is None and where is not None:
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError as exc:
            if exc.name != where:
                raise  # the policy module exists but imports something missing: a bug to see
            del POLICY_MODULES[engine.name]  # no computer player: not looked for again
            return None
        found = exported(module, "POLICY")
        if not isinstance(found, Policy):
            raise LookupError(f"{where}.POLICY is not a Policy")
        policy = POLICIES[engine.name] = found
    return policy


def register_policy(name: str, policy: AnyPolicy) -> AnyPolicy:
    POLICIES[name] = policy
    return policy
