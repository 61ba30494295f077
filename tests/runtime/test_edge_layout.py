"""The Discord edge's shape, checked on the source: small modules with one job each, no import
of bot.py (the edge knows the bot only as a Host), and one place that says who may press."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "cogs" / "table"
#: The edge's modules and the job each has.
EDGE = ("edge.py", "lobby.py", "intake.py", "delivery.py", "results.py", "answers.py", "components.py", "cog.py",
        "controls.py", "codec.py", "options.py", "kept_pictures.py", "pings.py", "deferral.py", "warmup.py",
        "game_groups.py")


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("name", EDGE)
def test_the_edge_never_imports_the_bot(name: str) -> None:
    assert "bot" not in imports(TABLE / name)


@pytest.mark.parametrize("name", EDGE)
def test_each_edge_module_stays_small(name: str) -> None:
    lines = len((TABLE / name).read_text(encoding="utf-8").splitlines())
    assert lines <= 400, f"{name} has {lines} lines: split it by job"


def test_only_one_place_refuses_a_non_player() -> None:
    """`runtime.access.may_press` answers "may this user press this?" for every way in."""
    sentence = "You are not playing in this game"
    holders = [str(path.relative_to(ROOT)) for folder in ("cogs", "runtime") for path in (ROOT / folder).rglob("*.py")
               if sentence in path.read_text(encoding="utf-8")]
    assert holders == ["runtime/access.py"]


def test_no_module_imports_inside_a_function_to_dodge_a_cycle() -> None:
    for name in EDGE:
        tree = ast.parse((TABLE / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{name}: {node.name} imports inside a function"
