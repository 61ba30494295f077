"""Games are found one way (issue 22): a game's packages export their parts under fixed names —
ENGINE in `games/<game>/__init__.py`, POLICY in `games/<game>/ai.py`, UI in `cogs/<game>/__init__.py`
— and `games.registry.load_game` / `cogs.table.registry.load_ui` read them. Nothing registers
itself at import and no module is scanned for classes; the test games load by the same calls."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from cogs.table.registry import UIS, load_builtin_uis, load_ui
from games.registry import BUILTIN_GAMES, ENGINES, get_policy, load_builtin, load_game
from tests.conftest import TEST_GAMES

ROOT = Path(__file__).resolve().parents[1]
load_builtin()
load_builtin_uis()


@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_a_builtin_game_is_its_packages_exports(game: str) -> None:
    assert ENGINES[game] is importlib.import_module(f"games.{game}").ENGINE
    assert UIS[game] is importlib.import_module(f"cogs.{game}").UI
    assert get_policy(game) is importlib.import_module(f"games.{game}.ai").POLICY


@pytest.mark.parametrize("game", TEST_GAMES)
def test_a_test_game_is_found_the_same_way(game: str) -> None:
    assert ENGINES[game] is importlib.import_module(f"tests.engines.{game}").ENGINE
    assert UIS[game] is importlib.import_module(f"tests.engines.{game}_ui").UI
    assert load_game(f"tests.engines.{game}") is ENGINES[game]  # loading again changes nothing


def test_a_game_without_a_computer_player_has_none() -> None:
    assert get_policy("race") is None
    assert get_policy("race") is None  # the missing ai module is not looked for again


def test_a_module_that_exports_nothing_is_refused() -> None:
    with pytest.raises(LookupError, match="exports no ENGINE"):
        load_game("tests.engines")
    with pytest.raises(LookupError, match="exports no UI"):
        load_ui("tests.engines")


def calls(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            found.add(func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else "")
    return found


def test_nothing_registers_itself_or_is_found_by_a_class_scan() -> None:
    """Only the loaders register; nothing under games/ or cogs/ calls register at import or
    looks through a module's classes (`inspect.getmembers`)."""
    loaders = {ROOT / "games" / "registry.py", ROOT / "cogs" / "table" / "registry.py"}
    doing = {str(path.relative_to(ROOT)): found for folder in ("games", "cogs")
             for path in sorted((ROOT / folder).rglob("*.py")) if path not in loaders
             if (found := calls(path) & {"register", "register_ui", "register_policy", "getmembers"})}
    assert not doing, doing
