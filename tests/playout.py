"""Random legal playouts, shared by the contract tests, engine tests and benchmarks."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from games.core import Action, Engine, IllegalAction, State

MAX_STEPS = 5_000


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


def leaks(engine: Engine, state: State) -> list[str]:
    """Describe every secret of one seat visible to another seat or to the public."""
    problems: list[str] = []
    secrets = engine.secrets(state)
    seats: list[int | None] = [None, *range(state["players"])]
    for viewer in seats:
        view = engine.view(state, viewer)
        seen = leaves(json.loads(json.dumps(view)))
        if "rng" in seen:
            problems.append(f"view of {viewer} contains the rng state")
        for owner, items in secrets.items():
            if owner == viewer:
                continue
            for item in items:
                if item in seen:
                    problems.append(f"view of {viewer} shows seat {owner}'s secret {item!r}")
    return problems
