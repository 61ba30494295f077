"""One phase representation (issue 22 item 2): every engine reads where its game is through one
accessor, `phase(state) -> games.phase.Phase[Name, Step]`, typed with its schema's Literals,
whatever key its stored state keeps it under (the stored shapes are unchanged). Seeded games
of each check that every state's phase is one the schema declares."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from pathlib import Path
from types import NoneType, UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest

from games.phase import Phase
from games.registry import ENGINES, load_builtin
from tests.test_schemas import DECLARED, played

load_builtin()


def accessor(name: str) -> Callable[[dict[str, Any]], Phase[Any, Any]]:
    """A game's `phase`, where its engine module (or, Fighting Words, its `state` module) has it:
    found, not listed, so a new game with a schema is checked as soon as it is registered."""
    module = importlib.import_module(type(ENGINES[name]).__module__)
    found = getattr(module, "phase", None)
    if found is None:
        found = importlib.import_module(f"{module.__name__.rpartition('.')[0]}.state").phase
    return found  # type: ignore[no-any-return]


#: Each game's accessor: every game that declares a schema has one.
ACCESSORS: dict[str, Callable[[dict[str, Any]], Phase[Any, Any]]] = {name: accessor(name) for name in DECLARED}
SEEDS = range(4)


def values(hint: Any) -> set[Any]:
    """Every value a Literal (or a union of Literals and None) allows."""
    if hint is NoneType or hint is None:
        return {None}
    if get_origin(hint) is Literal:
        return set(get_args(hint))
    if get_origin(hint) in (Union, UnionType):
        return set().union(*(values(arg) for arg in get_args(hint)))
    raise AssertionError(f"{hint!r} is not a Literal")


@pytest.mark.parametrize("name", sorted(ACCESSORS))
def test_every_state_of_seeded_games_is_in_a_declared_phase(name: str) -> None:
    accessor = ACCESSORS[name]
    names, steps = (values(arg) for arg in get_args(get_type_hints(accessor)["return"]))
    seen: set[tuple[Any, Any]] = set()
    for seed in SEEDS:
        for state, _events in played(ENGINES[name], seed):
            at = accessor(state)
            assert isinstance(at, Phase)
            assert at.name in names and at.step in steps, (seed, at)
            seen.add(tuple(at))
    assert len(seen) >= min(3, len(names) * len(steps)), seen  # more than the start and the end


def test_the_accessor_changes_no_stored_state() -> None:
    """Reading the phase is a read: the state is the same dict, unchanged, after it."""
    for name, accessor in ACCESSORS.items():
        state, _events = next(played(ENGINES[name], 0))
        before = repr(state)
        accessor(state)
        assert repr(state) == before


# ----- the stored phase is read in state.py only -------------------------------------------
GAMES = Path(__file__).resolve().parent.parent / "games"

#: The stored keys that say where each game is, read by its `state.py` alone (`phase`, and the
#: record-level `hand_phase` / `duel_stage` for helpers that take a hand or a duel's step); a
#: write where a phase starts is fine. A key, or a path of keys where the last alone is data
#: elsewhere. Per game: Two Fat Dudes' `phase`; Conference / League's hand `phase` and the
#: game's `over` (its `vote` and `abandoned` are records with a seat); Fighting Words' phase
#: `name` and `step` (the phase's other fields, its seat, box or word, are its data); Table
#: Fencing's `["step"]["kind"]` (a trick's steps have kinds too) and duel `stage`; Kniggits'
#: `phase` (its `over` and `exchange` are records read for their contents).
PHASE_KEYS: dict[str, frozenset[tuple[str, ...]]] = {
    "hallway": frozenset({("phase",)}),
    "tarot": frozenset({("phase",), ("over",)}),
    "words": frozenset({("name",), ("step",)}),
    "fencing": frozenset({("step", "kind"), ("stage",)}),
    "kniggits": frozenset({("phase",)}),
}
#: Modules that read views, not the state: a view's `phase` is public data, as the schema says.
VIEW_READERS = ("ai", "explain")


def key_path(node: ast.expr) -> tuple[str, ...]:
    """The constant keys subscripted down to `node`: `state["step"]["kind"]` gives ("step", "kind")."""
    path: list[str] = []
    while isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        path.insert(0, str(node.slice.value))
        node = node.value
    return tuple(path)


def phase_reads(source: str, keys: frozenset[tuple[str, ...]]) -> list[int]:
    """Lines that read one of `keys` (paths) from a dict: `x["key"]` as a value (not the target
    of an assignment or `del`), or `x.get("key")`."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            path = key_path(node)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args and isinstance(node.args[0], ast.Constant)):
            path = (*key_path(node.func.value), str(node.args[0].value))
        else:
            continue
        if any(path[-len(key):] == key for key in keys):
            lines.append(node.lineno)
    return sorted(lines)


def offenders(folder: Path, keys: frozenset[tuple[str, ...]]) -> list[str]:
    """`module:line` for every read of the stored phase outside the game's `state.py`."""
    found = []
    for path in sorted(folder.glob("*.py")):
        if path.name == "state.py" or path.stem.startswith(VIEW_READERS):
            continue
        found += [f"{path.name}:{line}" for line in phase_reads(path.read_text(encoding="utf-8"), keys)]
    return found


def test_every_game_says_which_keys_hold_its_phase() -> None:
    """A new game under games/ with a `phase` accessor must list its stored keys here."""
    games = {p.parent.name for p in GAMES.glob("*/state.py") if "def phase(" in p.read_text(encoding="utf-8")}
    assert games == set(PHASE_KEYS)


@pytest.mark.parametrize("name", sorted(PHASE_KEYS))
def test_only_state_py_reads_the_stored_phase(name: str) -> None:
    assert offenders(GAMES / name, PHASE_KEYS[name]) == []


def test_a_planted_read_of_the_stored_phase_is_caught(tmp_path: Path) -> None:
    """The check fails on a rule module that reads the phase itself, and passes state.py's read,
    a write where a phase starts, and a computer player reading its view."""
    (tmp_path / "state.py").write_text('def phase(state):\n    return state["phase"]\n', encoding="utf-8")
    (tmp_path / "ai.py").write_text('def choose(view):\n    return view["phase"]\n', encoding="utf-8")
    (tmp_path / "rules.py").write_text(
        "def verify(state):\n"
        '    state["phase"] = "edge"\n'
        '    del state["phase"]\n'
        '    if state["phase"] != "edge":\n'
        '        return state.get("phase")\n'
        '    state["phase"]["name"] = state["phase"]\n'
        '    return state["step"]["kind"], state["step"].get("kind"), trick["kind"]\n', encoding="utf-8")
    keys = frozenset({("phase",), ("step", "kind")})
    assert offenders(tmp_path, keys) == ["rules.py:4", "rules.py:5", "rules.py:6", "rules.py:6", "rules.py:7",
                                         "rules.py:7"]
