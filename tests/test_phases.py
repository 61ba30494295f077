"""One phase representation (issue 22 item 2): every engine reads where its game is through one
accessor, `phase(state) -> games.phase.Phase[Name, Step]`, typed with its schema's Literals,
whatever key its stored state keeps it under (the stored shapes are unchanged). Seeded games
of each check that every state's phase is one the schema declares."""

from __future__ import annotations

import importlib
from collections.abc import Callable
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
