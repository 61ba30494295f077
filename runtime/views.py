"""The views a commit compares, each computed once per state.

Every commit asks which seats' views changed (to send only those) and whether the public view
did: the views of the state before and of the state after, for every person and the public. The
state before is the one the previous commit produced, whose views that commit already computed:
their digests are kept here, keyed by the state object itself, so each state's views are
computed once. A state reloaded from storage (another process moved the game) is a new object
and computes its views again. Only a 16-byte digest per view is kept (a whole view is kilobytes;
a thousand live games would hold tens of megabytes of them), but for the last few states
committed, whose messages are drawn next from the same views (`view_of`).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import orjson

from games.core import State
from games.registry import AnyEngine

#: `digest(seat)`: the digest of a seat's view (None: the public view).
View = Callable[[int | None], bytes]
#: The newest states' whole views, for the messages drawn right after their commit (the table,
#: each changed hand), which would compute them again: state id -> (the state, views by seat).
#: Only the last few games' (a commit's views are drawn within moments of it).
_RECENT: OrderedDict[int, tuple[State, dict[int | None, Any]]] = OrderedDict()
RECENT_STATES = 256


def view_of(engine: AnyEngine, state: State, seat: int | None) -> Any:
    """`engine.view(state, seat)`, taken from what a commit just computed when it can (the
    state object itself is the key: a state another process committed is another object)."""
    if engine.one_view:
        seat = None
    kept = _RECENT.get(id(state))
    if kept is None or kept[0] is not state:
        return engine.view(state, seat)
    if seat not in kept[1]:  # a view the commit did not compare (the public one, when its log changed)
        kept[1][seat] = engine.view(state, seat)
    return kept[1][seat]


def _remember(state: State, seat: int | None, view: Any) -> None:
    kept = _RECENT.get(id(state))
    if kept is None or kept[0] is not state:
        kept = _RECENT[id(state)] = (state, {})
        while len(_RECENT) > RECENT_STATES:
            _RECENT.popitem(last=False)
    kept[1][seat] = view


class ViewMemo:
    def __init__(self) -> None:
        #: game id -> (the state, its views' digests by seat; None is the public view)
        self._kept: dict[int, tuple[State, dict[int | None, bytes]]] = {}

    def of(self, engine: AnyEngine, state: State, game_id: int) -> View:
        """`digest(seat)` of `state`'s views: from what was kept for it, else computed (and
        not kept)."""
        kept = self._kept.get(game_id)
        views = kept[1] if kept is not None and kept[0] is state else {}
        return _lazy(engine, state, views)

    def put(self, engine: AnyEngine, state: State, game_id: int, seats: Sequence[int | None] = ()) -> View:
        """`digest(seat)` of the views of `state`, the game's newest: those computed are kept
        for the next commit's `of`. `seats` (the people's and the table's) are computed together
        when the first of them is asked for (`Engine.views`)."""
        if len(self._kept) > 50_000:
            self._kept.clear()
        views: dict[int | None, bytes] = {}
        self._kept[game_id] = (state, views)
        return _lazy(engine, state, views, recent=True, together=tuple(seats))

    def drop(self, game_id: int) -> None:
        self._kept.pop(game_id, None)


def digest(view: object) -> bytes:
    """Equal views give equal digests (keys sorted, as JSON; `json` for what orjson refuses)."""
    try:
        packed = orjson.dumps(view, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except TypeError:
        packed = json.dumps(view, sort_keys=True, default=repr).encode()
    return hashlib.blake2b(packed, digest_size=16).digest()


def _lazy(engine: AnyEngine, state: State, views: dict[int | None, bytes], *, recent: bool = False,
          together: tuple[int | None, ...] = ()) -> View:
    """`recent`: the newest state's whole views are remembered too (`view_of`). `together`:
    seats whose views are computed at once, when the first of them is asked for."""

    def view(seat: int | None) -> bytes:
        if engine.one_view:
            seat = None
        if seat not in views:
            wanted = together if seat in together and not engine.one_view else (seat,)
            wholes = engine.views(state, wanted) if len(wanted) > 1 else {seat: engine.view(state, seat)}
            for each, whole in wholes.items():
                if recent:
                    _remember(state, each, whole)
                views[each] = digest(whole)
        return views[seat]

    return view
