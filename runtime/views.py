"""The views a commit compares, each computed once per state.

Every commit asks which seats' views changed (to send only those) and whether the public view
did: the views of the state before and of the state after, for every person and the public. The
state before is the one the previous commit produced, whose views that commit already computed:
they are kept here, keyed by the state object itself, so each state's views are computed once.
A state reloaded from storage (another process moved the game) is a new object and computes its
views again. Views are compared here, never handed out, so nobody can change a kept one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core import Engine, State

View = Callable[[int | None], Any]


class ViewMemo:
    def __init__(self) -> None:
        #: game id -> (the state, its views by seat; None is the public view)
        self._kept: dict[int, tuple[State, dict[int | None, Any]]] = {}

    def of(self, engine: Engine, state: State | None, game_id: int) -> View:
        """`view(seat)` of `state`: from what was kept for it, else computed (and not kept)."""
        kept = self._kept.get(game_id)
        views = kept[1] if kept is not None and kept[0] is state else {}
        return _lazy(engine, state, views)

    def put(self, engine: Engine, state: State, game_id: int) -> View:
        """`view(seat)` of `state`, the game's newest: the views computed are kept for the next
        commit's `of`."""
        if len(self._kept) > 50_000:
            self._kept.clear()
        views: dict[int | None, Any] = {}
        self._kept[game_id] = (state, views)
        return _lazy(engine, state, views)

    def drop(self, game_id: int) -> None:
        self._kept.pop(game_id, None)


def _lazy(engine: Engine, state: State | None, views: dict[int | None, Any]) -> View:
    def view(seat: int | None) -> Any:
        if seat not in views:
            views[seat] = engine.view(state, seat)
        return views[seat]

    return view
