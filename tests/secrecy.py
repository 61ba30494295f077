"""The leak check that can see secrets: change each declared secret, compare every view.

An engine declares where its hidden items live (`Engine.secrets`: paths into the state,
with the seat that owns each). For each one in turn, the value is swapped for another of
its pool (another card for a card, another shape for a shape, a different RNG counter);
every view but the owner's — the public view included — must stay byte-identical. So a
pending "rock" copied into the public view is caught even though "rock" also appears in
every button label, which matching by value could never tell apart.
"""

from __future__ import annotations

import random
from typing import Any

import orjson

from games.core import Engine, Secret, State, copy_state

RNG_SECRETS = (Secret(None, ("rng", "seed"), "rng"), Secret(None, ("rng", "n"), "rng"))


def get(state: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        state = state[key]
    return state


def put(state: Any, path: tuple[str | int, ...], value: Any) -> None:
    for key in path[:-1]:
        state = state[key]
    state[path[-1]] = value


def alternatives(engine: Engine, state: State, secret: Secret, found: dict[str, list[Any]]) -> list[Any]:
    """Other values the secret could hold: its pool's declared values and the values of the
    other secrets of its pool; a number (the RNG, a hidden delay) otherwise moves by one."""
    current = get(state, secret.path)
    pool = [*engine.secret_pools.get(secret.pool, ()), *found.get(secret.pool, ())]
    out: list[Any] = []
    for value in pool:
        if value != current and value not in out:
            out.append(value)
    if not out and isinstance(current, int | float) and not isinstance(current, bool):
        out.append(current + 1)
    if not out and isinstance(current, str):
        out.append(current + "~")
    return out


#: Views publish commitments (SHA-256 of a pick and a 128-bit nonce) under this key: they
#: change with the secret by design and reveal nothing of it, so the comparison skips them.
COMMITMENTS = "commitments"


SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
COMMITMENT_KEY = f'"{COMMITMENTS}":'.encode()


def without_commitments(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_commitments(v) for k, v in value.items() if k != COMMITMENTS}
    if isinstance(value, list):
        return [without_commitments(v) for v in value]
    return value


def dumped(engine: Engine, state: State, viewer: int | None) -> bytes:
    """The view as sorted-key JSON bytes, commitments left out (orjson: the check serialises
    every view of every changed state, so the json module's cost was most of the check's)."""
    view = engine.view(state, viewer)
    out = orjson.dumps(view, option=SORTED)
    return orjson.dumps(without_commitments(view), option=SORTED) if COMMITMENT_KEY in out else out


def leaks(engine: Engine, state: State, *, sample: int | None = None,
          chooser: random.Random | None = None, tries: int = 2) -> list[str]:
    """Every (secret, viewer) whose view changes when only that secret changes.

    `sample` limits the secrets tried per state (picked by `chooser`) and `tries` the other
    values tried for each, for long playouts."""
    declared = [*RNG_SECRETS, *engine.secrets(state)]
    for secret in declared:
        get(state, secret.path)  # a declared path that leads nowhere is an engine bug: KeyError here
    found: dict[str, list[Any]] = {}
    for secret in declared:
        value = get(state, secret.path)
        if value is not None and not isinstance(value, dict | list):
            found.setdefault(secret.pool, []).append(value)
    tried = [s for s in declared if get(state, s.path) is not None]
    if sample is not None and len(tried) > sample:
        tried = (chooser or random.Random(0)).sample(tried, sample)
    viewers: list[int | None] = [None, *range(state["players"])]
    base = {viewer: dumped(engine, state, viewer) for viewer in viewers}
    problems: list[str] = []
    for secret in tried:
        for value in alternatives(engine, state, secret, found)[:tries]:
            changed = copy_state(state)
            put(changed, secret.path, value)
            for viewer in viewers:
                if viewer == secret.owner or viewer in secret.shared:
                    continue
                if dumped(engine, changed, viewer) != base[viewer]:
                    whose = "nobody's" if secret.owner is None else f"seat {secret.owner}'s"
                    seen = "the public view" if viewer is None else f"seat {viewer}'s view"
                    problems.append(f"{seen} changes with {whose} secret at {'/'.join(map(str, secret.path))}")
    return problems
