"""Each game's log words against its schema's event catalogue (issue 22), for every game that
declares a schema (`tests/test_schemas.py`'s DECLARED, the test game included).

Every game files its wording functions in one table, `EVENT_WORDS` in the `events.py` beside
its UI, keyed by event kind. mypy checks the keys each function reads against the payload type
it is annotated with, but cannot see that a function sits under the kind whose payload that is
(the table's values are `Callable[[Any, TableInfo], str]`): this test does, so a wording filed
under the wrong kind, or one that declares no payload type (a lambda), fails here.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, get_type_hints

import pytest

from cogs.table.registry import UIS, load_builtin_uis
from cogs.table.ui import Seat, TableInfo
from tests.test_schemas import DECLARED, schema_module

load_builtin_uis()
INFO = TableInfo(7, [Seat(i, 100 + i, name) for i, name in enumerate(("alice", "bob", "cleo", "dmitri"))])
#: Kinds a game may leave out of its table, declared: the runtime's own forfeit, which the shared
#: table words for every game (GameUI.event_line). A kind a game keeps silent is still in its
#: table, as a function of its payload returning None (Tarot's `window_closed`).
WORDED_BY_THE_TABLE = frozenset({"forfeit"})


def events_module(name: str) -> ModuleType:
    """The `events.py` beside the game's UI (`cogs.<game>.events`, a test game's `<game>_ui.events`)."""
    return importlib.import_module(f"{type(UIS[name]).__module__.rpartition('.')[0]}.events")


def payload_type(words: Callable[..., Any]) -> Any:
    """The annotated type of a wording function's first parameter (the event's data); None if unannotated."""
    first = next(iter(inspect.signature(words).parameters))
    return get_type_hints(words).get(first)


def misfiled(table: Mapping[str, Callable[..., Any]], events: Mapping[str, type]) -> dict[str, Any]:
    """Each kind whose wording does not take exactly that kind's payload type, and the type it takes."""
    return {kind: payload_type(words) for kind, words in table.items()
            if payload_type(words) is not events.get(kind)}


@pytest.mark.parametrize("name", DECLARED)
def test_every_event_kind_is_worded_by_a_function_of_its_payload_type(name: str) -> None:
    schema = importlib.import_module(str(schema_module(name)))
    table = events_module(name).EVENT_WORDS
    assert set(table) <= set(schema.EVENTS), "only the catalogue's kinds are worded"
    assert set(schema.EVENTS) - set(table) <= WORDED_BY_THE_TABLE, "every kind is worded, or declared"
    assert misfiled(table, schema.EVENTS) == {}
    for kind in set(schema.EVENTS) - set(table):
        assert "alice" in str(UIS[name].event_line({"type": kind, "data": {"seat": 0}}, INFO))


def test_a_wording_under_the_wrong_kind_or_untyped_fails() -> None:
    from cogs.words.events import EVENT_WORDS
    from games.words import schema

    planted: dict[str, Callable[..., Any]] = dict(EVENT_WORDS)
    planted["draw"], planted["keep"] = EVENT_WORDS["keep"], EVENT_WORDS["draw"]
    planted["claim"] = lambda d, info: ""
    assert misfiled(planted, schema.EVENTS) == {"draw": schema.Word, "keep": schema.Seat, "claim": None}
