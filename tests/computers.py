"""The one computer-vs-random playout: every game's `tests/<game>/test_ai.py` and `bench/ai.py`
play their seeded games through `versus_random`, so "a random legal player" means the same
thing for every game and for the measured win rates in the docs.

The computer seats are asked through `games.computer.Policy` with their seat's view alone
(the `decision_rng` of the game's seed, version and seat); the other seats play uniformly at
random among `Engine.legal_actions` (their wait's default 5 % of the time, 0.5, 2 or 30 s
after the last step); the game's own timers (waits with no seat) fire first 3 % of the time
while players are awaited, as in the contract playouts (`tests/playout.py`).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.computer import Asked, Policy, decision_rng
from games.core import Action, Engine, Event, IllegalAction, State, Wait
from tests.playout import OWN_TIMER_FIRST

#: How long a game may go on before it counts as unfinished (bench/ai.py's limit).
MAX_STEPS = 20_000
#: Seconds the random player takes, picked uniformly.
RANDOM_PACE = (0.5, 2.0, 30.0)
#: How often the random player picks an action rather than letting its wait's default happen.
RANDOM_PICKS = 0.95


@dataclass
class Decision:
    """A state where a computer seat was asked, as it was before the computer acted."""
    state: State
    seat: int
    version: int
    now: float


@dataclass
class Versus:
    """One computer-vs-random game: how it ended and what the computers did."""
    final: State
    finished: bool
    events: list[Event] = field(default_factory=list)
    samples: list[Decision] = field(default_factory=list)
    choices: list[tuple[int, Action]] = field(default_factory=list)
    illegal: int = 0
    decision_ms: list[float] = field(default_factory=list)


def sometimes(share: float) -> Callable[[State, Wait, random.Random], bool]:
    """A sample rule keeping about `share` of the computer's decisions."""
    return lambda _state, _wait, chooser: chooser.random() < share


def versus_random(
    engine: Engine, policy: Policy[Any], seed: int, players: int, computers: set[int],
    options: dict[str, Any] | None = None, *, salt: int = 0xA1,
    own_timer: float | None = OWN_TIMER_FIRST, pace: float | None = None, afk: float = 0.0,
    keep: int = 0, sample: Callable[[State, Wait, random.Random], bool] | None = None,
    until: Callable[[State], bool] | None = None, strict: bool = True, limit: int = MAX_STEPS,
) -> Versus:
    """Play one seeded game, `computers` by `policy` and the other seats at random.

    `salt` seeds the random player (`seed ^ salt`); `own_timer` is the share of steps on which
    the game's own timer fires first (None: a wait with no seat is as likely as any other);
    `pace` is the computer's seconds per decision (None: `policy.delay`, a human pace); `afk`
    the share of its waits it lets time out (the wait's default, as an absent player). Up to
    `keep` decision states for which `sample` says yes (default: a quarter of them) are kept;
    it may draw from the chooser, so keeping samples may change the game. `until` stops the game early.
    `strict`: a computer's illegal choice fails the test; otherwise it is counted and the
    wait's default (or a random legal action) is played instead, as bench/ai.py reports it.
    """
    sample = sample or sometimes(0.25)
    chooser = random.Random(seed ^ salt)
    state = engine.new_game(players, seed, options or {})
    run = Versus(state, False)
    now = 1_000.0
    for version in range(1, limit + 1):
        if engine.outcome(state) is not None or (until is not None and until(state)):
            run.final, run.finished = state, True
            return run
        waits = engine.to_act(state)
        if own_timer is not None:
            seated = [w for w in waits if w.seat is not None]
            if seated and len(seated) < len(waits) and chooser.random() >= own_timer:
                waits = seated
        wait = chooser.choice(waits)
        seat, action = wait.seat, wait.default
        if seat is not None and seat in computers and afk and chooser.random() < afk and action is not None:
            now += 0.5  # an absent player: the wait's default, at its deadline
        elif seat is not None and seat in computers:
            if len(run.samples) < keep and sample(state, wait, chooser):
                run.samples.append(Decision(json.loads(json.dumps(state)), seat, version, now))
            asked = Asked(seat, tuple(w.key for w in waits if w.seat == seat), now)
            view = engine.view(state, seat)
            rng = decision_rng(seed, version, seat)
            started = time.perf_counter()
            chosen: Action = policy.choose(view, asked, rng)
            run.decision_ms.append((time.perf_counter() - started) * 1000)
            run.choices.append((seat, chosen))
            now += policy.delay(view, asked, rng) if pace is None else pace
            try:
                state, events = engine.apply(state, seat, chosen, now)
                run.events += events
                continue
            except IllegalAction as exc:
                if strict:
                    raise AssertionError(f"{engine.name} seed {seed}: seat {seat}'s {chosen} refused:"
                                         f" {exc.message}") from exc
                run.illegal += 1
                if action is None:
                    actions = engine.legal_actions(state, seat)
                    action = chooser.choice(actions) if actions else None
        elif seat is not None:
            actions = engine.legal_actions(state, seat)
            if actions and (wait.default is None or chooser.random() < RANDOM_PICKS):
                action = chooser.choice(actions)
            now += chooser.choice(RANDOM_PACE)
        else:
            now += 0.5
        if action is None:
            raise AssertionError(f"{engine.name}: seat {seat} has nothing to do ({wait.key})")
        state, events = engine.apply(state, seat, action, now)
        run.events += events
    if strict:
        raise AssertionError(f"{engine.name} seed {seed}: the game did not end in {limit} steps")
    run.final = state
    return run


def setup(engine: Engine, game: int) -> tuple[int, dict[str, Any], set[int]]:
    """Players, options and the computer's seats for the `game`-th game of a strength test:
    one side against the other in a two-sided game, alternating sides from game to game; in
    tarot a computer pair against a random pair; in Table Fencing one computer against two."""
    if engine.name == "tarot":
        return 4, {}, {0, 1} if game % 2 == 0 else {2, 3}
    if engine.name == "kniggits":
        return 2, {"team_sizes": [1, 1]}, {game % 2}
    if engine.name == "fencing":
        return 3, {}, {game % 3}
    return 2, {}, {game % 2}


def won(engine: Engine, run: Versus, computers: set[int], players: int) -> str:
    """"win" when the computer side has a first place it does not share with every other seat,
    "draw" when it shares it, else "loss"."""
    outcome = engine.outcome(run.final)
    assert outcome is not None
    ours = {outcome.ranks[s] for s in computers}
    theirs = {outcome.ranks[s] for s in range(players) if s not in computers}
    if min(ours) == 0:
        return "win" if min(theirs) > 0 else "draw"
    return "loss"


def assert_beats_random(engine: Engine, policy: Policy[Any], *, games: int, first_seed: int,
                        floor: float) -> None:
    """The computer side wins at least `floor` of `games` seeded games (seeds `first_seed`
    on, seats by `setup`) against random play, never chooses illegally and ends every game:
    a fixed-seed floor against regressions, the same games `bench/ai.py --seed` plays."""
    results: dict[str, int] = {"win": 0, "draw": 0, "loss": 0}
    for game in range(games):
        players, options, computers = setup(engine, game)
        run = versus_random(engine, policy, first_seed + game, players, computers, options, strict=False)
        assert run.illegal == 0, f"{engine.name} seed {first_seed + game}: {run.illegal} illegal choices"
        assert run.finished, f"{engine.name} seed {first_seed + game}: unfinished"
        results[won(engine, run, computers, players)] += 1
    assert results["win"] / games >= floor, results
