"""The contract every registered engine keeps (DESIGN.md, "Tests" 1)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import IllegalAction
from games.registry import ENGINES, load_builtin
from tests.playout import random_playout, replay
from tests.secrecy import leaks

load_builtin()
ENGINE_NAMES = sorted(ENGINES)


def seat_counts(name: str) -> list[int]:
    engine = ENGINES[name]
    return list(range(engine.min_players, engine.max_players + 1))


@pytest.mark.parametrize("name", ENGINE_NAMES)
@given(data=st.data())
def test_random_playouts_reach_the_end_and_replay(name: str, data: st.DataObject) -> None:
    engine = ENGINES[name]
    players = data.draw(st.sampled_from(seat_counts(name)), label="players")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    run = random_playout(engine, players, seed)
    outcome = engine.outcome(run.final)
    assert outcome is not None
    assert len(outcome.ranks) == players
    assert min(outcome.ranks) == 0
    assert engine.to_act(run.final) == []
    assert replay(engine, players, seed, {}, run.log) == run.final


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_same_seed_same_game(name: str) -> None:
    engine = ENGINES[name]
    players = engine.min_players
    first = random_playout(engine, players, 1234)
    again = random_playout(engine, players, 1234)
    assert first.log == again.log
    assert first.final == again.final


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_different_seeds_differ(name: str) -> None:
    engine = ENGINES[name]
    players = engine.min_players
    starts = {json.dumps(engine.new_game(players, seed), sort_keys=True) for seed in range(20)}
    assert len(starts) > 1


@pytest.mark.parametrize("name", ENGINE_NAMES)
@pytest.mark.parametrize("seed", range(5))
def test_every_state_round_trips_through_json(name: str, seed: int) -> None:
    engine = ENGINES[name]
    for players in seat_counts(name):
        random_playout(engine, players, seed, check_json=True)


@pytest.mark.parametrize("name", ENGINE_NAMES)
@given(data=st.data())
def test_no_view_leaks_another_seats_secrets(name: str, data: st.DataObject) -> None:
    engine = ENGINES[name]
    players = data.draw(st.sampled_from(seat_counts(name)), label="players")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    run = random_playout(engine, players, seed)
    chooser = random.Random(seed)
    # A dozen states a game, a few secrets each: over the profile's games every kind of
    # secret in every phase is changed many times (3,000 games with the thorough profile).
    for state in chooser.sample(run.states, min(12, len(run.states))):
        assert leaks(engine, state, sample=4, chooser=chooser, tries=1) == []


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_apply_never_mutates_its_input(name: str) -> None:
    engine = ENGINES[name]
    run = random_playout(engine, engine.min_players, 7)
    for before, (seat, action, now) in zip(run.states, run.log, strict=False):
        frozen = json.dumps(before, sort_keys=True)
        engine.apply(before, seat, action, now)
        assert json.dumps(before, sort_keys=True) == frozen


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_views_are_json(name: str) -> None:
    engine = ENGINES[name]
    run = random_playout(engine, engine.max_players, 3)
    for state in run.states[:: max(1, len(run.states) // 10)]:
        for seat in [None, *range(engine.max_players)]:
            view = engine.view(state, seat)
            assert json.loads(json.dumps(view)) == view


@pytest.mark.parametrize("name", ENGINE_NAMES)
@pytest.mark.parametrize("seed", range(3))
def test_views_together_are_the_views_one_by_one(name: str, seed: int) -> None:
    """`Engine.views` (a commit's seats at once) equals asking each seat alone, at every state,
    in any order of seats; and what it hands out for one seat does not change another's."""
    engine = ENGINES[name]
    players = engine.max_players
    for state in random_playout(engine, players, seed).states:
        seats = [*range(players), None]
        alone = {seat: json.dumps(engine.view(state, seat), sort_keys=True) for seat in seats}
        together = engine.views(state, seats[::-1])
        assert {seat: json.dumps(v, sort_keys=True) for seat, v in together.items()} == alone
        assert {seat: json.dumps(engine.view(state, seat), sort_keys=True) for seat in seats} == alone


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_forfeit_ends_the_game_with_the_leaver_last(name: str) -> None:
    engine = ENGINES[name]
    state = engine.new_game(engine.min_players, 99)
    ended, _ = engine.forfeit(state, 0, 5.0)
    outcome = engine.outcome(ended)
    assert outcome is not None
    assert outcome.ranks[0] == max(outcome.ranks)
    assert outcome.ranks[0] > min(outcome.ranks)
    with pytest.raises(IllegalAction):
        waits = engine.waits(state)
        engine.apply(ended, waits[0].seat, waits[0].default or {"type": "x"}, 6.0)


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_garbage_actions_are_refused_cleanly(name: str) -> None:
    engine = ENGINES[name]
    state = engine.new_game(engine.min_players, 5)
    seat = engine.to_act(state)[0].seat
    for junk in ({}, {"type": 3}, {"type": "no-such-action"}, "play", None):
        with pytest.raises(IllegalAction):
            engine.apply(state, seat, junk, 1.0)  # type: ignore[arg-type]


def playout_with_leavers(engine, players: int, seed: int) -> list[str]:
    """Random legal play where players leave at random moments; what went wrong, if anything.

    After a seat leaves, no wait may name it; every wait's default must be accepted by
    `apply` (a timer that cannot fire wedges the game forever); the game must still end."""
    chooser = random.Random(seed ^ 0x1EAF)
    state = engine.new_game(players, seed)
    departed: set[int] = set()
    problems: list[str] = []
    now = 1_000.0
    for _ in range(5_000):
        if engine.outcome(state) is not None:
            return problems
        waits = engine.to_act(state)
        if not waits:
            return [*problems, f"nobody is awaited but the game is not over (left: {sorted(departed)})"]
        for wait in waits:
            if wait.seat in departed:
                problems.append(f"waits for {wait.seat}, who left ({wait.key})")
            if wait.default is not None:
                try:
                    engine.apply(state, wait.seat, wait.default, now + 1)
                except IllegalAction as exc:
                    problems.append(f"the default of {wait.key} for {wait.seat} is refused: {exc.message}")
        if problems:
            return problems
        stayers = [s for s in range(players) if s not in departed]
        if len(stayers) > 1 and chooser.random() < 0.03:
            leaver = chooser.choice(stayers)
            state, _ = engine.forfeit(state, leaver, now)
            departed.add(leaver)
            continue
        wait = chooser.choice(waits)
        actions = engine.legal_actions(state, wait.seat) if wait.seat is not None else []
        action = chooser.choice(actions) if actions and chooser.random() < 0.9 else wait.default
        if action is None:
            action = chooser.choice(actions)
        now += 2.0
        state, _ = engine.apply(state, wait.seat, action, now)
    return [*problems, "no end after 5,000 steps"]


@pytest.mark.parametrize("name", ENGINE_NAMES)
@given(data=st.data())
def test_departed_players_are_never_waited_on(name: str, data: st.DataObject) -> None:
    engine = ENGINES[name]
    players = data.draw(st.sampled_from(seat_counts(name)), label="players")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    assert playout_with_leavers(engine, players, seed) == []
