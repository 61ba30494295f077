"""The layers of DESIGN.md, checked on the source: engines stay pure, SQL stays in storage/,
the runtime stays Discord-free. A shortcut across a layer fails here, not in review."""

from __future__ import annotations

import ast
import fnmatch
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: What each layer must never import (top-level module names).
FORBIDDEN = {
    "games": {"discord", "aiosqlite", "sqlite3", "storage", "runtime", "cogs", "bot", "asyncio", "time",
              "datetime", "os", "threading", "secrets", "uuid", "PIL"},
    "runtime": {"discord", "cogs", "bot", "sqlite3", "aiosqlite"},
    "storage": {"discord", "cogs", "runtime", "games", "bot"},
    # The Discord edge knows the bot only through what it is given (a discord Client, protocols
    # such as cogs.table.host.Host and records.Desk): bot.py is what wires the cogs up.
    "cogs": {"bot"},
}
#: SQL as this project writes it (keywords in capitals), so English prose in the UIs does not match.
SQL = re.compile(r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+TABLE)\b",
                 re.DOTALL)


def sources(package: str) -> Iterator[Path]:
    yield from sorted((ROOT / package).rglob("*.py"))


def imported(path: Path) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module.split(".")[0]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_it_must_not(package: str) -> None:
    crossings = [f"{path.relative_to(ROOT)}:{line} imports {name}"
                 for path in sources(package) for line, name in imported(path)
                 if name in FORBIDDEN[package]]
    assert crossings == []


def global_random(path: Path) -> Iterator[tuple[int, str]]:
    """Uses of the global `random` module other than its `Random` class. Its functions
    (`random.choice`, `from random import shuffle`) draw from one hidden, process-wide generator,
    so a game would not replay from its seed; a `random.Random` seeded from the game (`games.core.Rng`,
    `games.computer.decision_rng`, a policy's `rng` parameter) is the one way chance enters."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "random" and alias.asname not in (None, "random"):
                    yield node.lineno, f"random as {alias.asname}"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "random":
            for alias in node.names:
                if alias.name != "Random":
                    yield node.lineno, f"random.{alias.name}"
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random"
              and node.attr != "Random"):
            yield node.lineno, f"random.{node.attr}"
        elif isinstance(node, ast.Call) and unseeded_random(node):
            yield node.lineno, "random.Random() without a seed"


def unseeded_random(call: ast.Call) -> bool:
    """`random.Random()`, `Random()` or `Random(None)`: seeded from the OS, so it never replays."""
    func = call.func
    named = (isinstance(func, ast.Name) and func.id == "Random") or (
        isinstance(func, ast.Attribute) and func.attr == "Random" and isinstance(func.value, ast.Name)
        and func.value.id == "random")
    seeds = [*call.args, *(keyword.value for keyword in call.keywords)]
    return named and all(isinstance(seed, ast.Constant) and seed.value is None for seed in seeds)


#: The only modules of games/ that import `random`: the game's generator (games.rng), the computer's
#: per-decision one (games.computer.decision_rng) and the policies that are handed it (`rng: random.Random`).
#: An engine module takes chance from games.rng, never a generator of its own.
RANDOM_IMPORTERS = ("games/rng.py", "games/computer.py", "games/*/ai.py", "games/*/ai_*.py")


def may_import_random(relative: str) -> bool:
    return any(fnmatch.fnmatch(relative, pattern) for pattern in RANDOM_IMPORTERS)


def test_engines_take_chance_only_from_a_seeded_generator() -> None:
    uses = [f"{path.relative_to(ROOT)}:{line} uses {name}"
            for path in sources("games") for line, name in global_random(path)]
    assert uses == []


def test_only_the_generators_and_the_policies_import_random() -> None:
    importers = [f"{path.relative_to(ROOT)}:{line}" for path in sources("games") for line, name in imported(path)
                 if name == "random" and not may_import_random(path.relative_to(ROOT).as_posix())]
    assert importers == []


def test_sql_is_written_only_in_storage() -> None:
    found = []
    for package in ("games", "runtime", "cogs", "bench"):
        for path in sources(package):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    bot = ROOT / "bot.py"
    if SQL.search(bot.read_text(encoding="utf-8")):
        found.append("bot.py")
    assert found == []


def test_the_checks_would_see_a_crossing(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("import discord\nfrom storage.database import Storage\nQ = 'SELECT id FROM games'\n")
    assert [name for _, name in imported(sample)] == ["discord", "storage"]
    chance = tmp_path / "chance.py"
    chance.write_text("import random\nfrom random import Random, shuffle\n"
                      "def f(rng: random.Random) -> int:\n    return random.randint(1, 6)\n")
    assert [name for _, name in global_random(chance)] == ["random.shuffle", "random.randint"]
    unseeded = tmp_path / "unseeded.py"
    unseeded.write_text("import random\nfrom random import Random\nA = random.Random()\nB = Random(None)\n"
                        "C = random.Random(x=None)\nD = random.Random(7)\nE = Random(f'{7}:1')\n")
    assert [line for line, _ in global_random(unseeded)] == [3, 4, 5]
    assert may_import_random("games/kniggits/ai_tactics.py") and may_import_random("games/rng.py")
    assert not may_import_random("games/kniggits/engine.py") and not may_import_random("games/airport.py")
    assert SQL.search("SELECT id FROM games") and not SQL.search("select a letter from your hand")
