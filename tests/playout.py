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
    log: list[tuple[int | None, Action, float]] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.states[-1]


#: How often the game's own timer (a wait with no seat) fires while players are still awaited:
#: it runs out at its deadline, by which time the players have usually acted, so a playout
#: that fired it as often as a player acts would end most Table Fencing games at their first
#: step (nobody pressed GAME! in time).
OWN_TIMER_FIRST = 0.03


def choose(engine: Engine, state: State, chooser: random.Random) -> tuple[int | None, Action]:
    """Pick a random awaited seat and a random legal action (or its timeout default)."""
    waits = engine.to_act(state)
    assert waits, "a game that is not over must be waiting for someone"
    seated = [w for w in waits if w.seat is not None]
    if seated and len(seated) < len(waits) and chooser.random() >= OWN_TIMER_FIRST:
        waits = seated
    wait = chooser.choice(waits)
    if wait.seat is None:  # the game itself waits (a delay before GO!): its deadline passes
        assert wait.default is not None, f"a wait with no seat must have a default ({wait.key})"
        return None, wait.default
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
           log: list[tuple[int | None, Action, float]]) -> State:
    state = engine.new_game(players, seed, options)
    for seat, action, now in log:
        state, _ = engine.apply(state, seat, action, now)
    return state
