"""Random legal playouts, shared by the contract tests, engine tests and benchmarks."""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, settings

from games.core import Action, Engine, IllegalAction, State

MAX_STEPS = 5_000

#: Whole random games per invariant test: a thousand on every run, three thousand with
#: HYPOTHESIS_PROFILE=thorough. (Contract checks, which replay and diff every state, use
#: the profile's own, smaller count.)
GAMES_PER_INVARIANT = 3_000 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1_000
MANY_GAMES = settings(max_examples=GAMES_PER_INVARIANT, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])


@dataclass
class Playout:
    engine: Engine
    players: int
    seed: int
    options: dict[str, Any]
    states: list[State] = field(default_factory=list)
    log: list[tuple[int, Action, float]] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.states[-1]


def choose(engine: Engine, state: State, chooser: random.Random) -> tuple[int, Action]:
    """Pick a random awaited seat and a random legal action (or its timeout default)."""
    waits = engine.to_act(state)
    assert waits, "a game that is not over must be waiting for someone"
    wait = chooser.choice(waits)
    actions = engine.legal_actions(state, wait.seat)
    if actions and (wait.default is None or chooser.random() < 0.95):
        return wait.seat, chooser.choice(actions)
    assert wait.default is not None, f"seat {wait.seat} has no legal action and no default"
    return wait.seat, wait.default


def random_playout(
    engine: Engine, players: int, seed: int, options: dict[str, Any] | None = None,
    *, keep_states: bool = True, check_json: bool = False,
) -> Playout:
    chooser = random.Random(seed ^ 0x5EED)
    state = engine.new_game(players, seed, options or {})
    run = Playout(engine, players, seed, dict(options or {}), [state])
    now = 1_000.0
    for _ in range(MAX_STEPS):
        if engine.outcome(state) is not None:
            return run
        seat, action = choose(engine, state, chooser)
        now += chooser.choice((0.5, 2.0, 30.0))
        try:
            state, _events = engine.apply(state, seat, action, now)
        except IllegalAction as exc:  # a listed action must be legal
            raise AssertionError(f"listed action {action} refused: {exc.message}") from exc
        if check_json:
            assert json.loads(json.dumps(state)) == state
        run.log.append((seat, action, now))
        if keep_states:
            run.states.append(state)
        else:
            run.states[-1:] = [state]
    raise AssertionError(f"{engine.name}: no end after {MAX_STEPS} actions (seed {seed})")


def replay(engine: Engine, players: int, seed: int, options: dict[str, Any],
           log: list[tuple[int, Action, float]]) -> State:
    state = engine.new_game(players, seed, options)
    for seat, action, now in log:
        state, _ = engine.apply(state, seat, action, now)
    return state


def leaves(value: Any) -> list[Any]:
    """Every sub-value of a JSON value (dicts, lists and scalars), for leak checks."""
    out = [value]
    if isinstance(value, dict):
        for key, item in value.items():
            out.append(key)
            out.extend(leaves(item))
    elif isinstance(value, list):
        for item in value:
            out.extend(leaves(item))
    return out


#: Dict keys as `json.dumps` writes them (then `json.loads` reads them back as strings).
_JSON_KEYS = {True: "true", False: "false", None: "null"}


def scalars(value: Any) -> set[Any]:
    """Every scalar sub-value of a JSON value (dict keys included), as a set: what `leaves`
    holds minus the containers, read as after a JSON round trip (tuples are lists, keys are
    strings), without building that copy. Anything JSON cannot hold raises TypeError."""
    out: set[Any] = set()
    add = out.add
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str or kind is int or item is None:
            add(item)
        elif kind is dict:
            for key in item:
                add(key if type(key) is str else _json_key(key))
            extend(item.values())
        elif kind is list or kind is tuple:
            extend(item)
        elif isinstance(item, dict):
            for key in item:
                add(_json_key(key))
            extend(item.values())
        elif isinstance(item, list | tuple):
            extend(item)
        elif isinstance(item, str | int | float):
            add(item)
        else:
            raise TypeError(f"a view holds a {type(item).__name__}: {item!r}")
    return out


def _json_key(key: Any) -> str:
    """A dict key as `json.dumps` writes it."""
    if isinstance(key, str):
        return str(key)
    if key is None or isinstance(key, bool):
        return _JSON_KEYS[key]
    if isinstance(key, int | float):
        return json.dumps(key)
    raise TypeError(f"a view has a {type(key).__name__} key: {key!r}")


def leaks(engine: Engine, state: State) -> list[str]:
    """Describe every secret of one seat visible to another seat or to the public.

    Each view is walked once into a set of its scalars, so every secret is a hash lookup;
    a secret that is itself a list or dict (no engine has one yet) is compared, as before,
    against every sub-value of the view after a JSON round trip."""
    problems: list[str] = []
    secrets = engine.secrets(state)
    bulky = any(isinstance(item, dict | list | tuple) for items in secrets.values() for item in items)
    seats: list[int | None] = [None, *range(state["players"])]
    for viewer in seats:
        view = engine.view(state, viewer)
        seen = scalars(view)
        everything = leaves(json.loads(json.dumps(view))) if bulky else []
        if "rng" in seen:
            problems.append(f"view of {viewer} contains the rng state")
        for owner, items in secrets.items():
            if owner == viewer:
                continue
            for item in items:
                if isinstance(item, dict | list | tuple):
                    found = json.loads(json.dumps(item)) in everything
                else:
                    found = item in seen
                if found:
                    problems.append(f"view of {viewer} shows seat {owner}'s secret {item!r}")
    return problems
