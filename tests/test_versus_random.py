"""The one computer-vs-random playout (tests/computers.py) that every game's test_ai.py and
bench/ai.py play: seeded games replay exactly, samples are states a computer was asked in,
an illegal choice fails a test (or, for the bench, is counted and played around), and the
bench counts exactly the games the tests' strength floors play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.ai import bench
from games.computer import Asked, Policy
from games.hallway import ENGINE
from games.hallway.ai import POLICY
from tests.computers import setup, versus_random, won


class Nonsense(Policy[Any]):
    """A computer that always answers something no game takes."""

    def choose(self, view: Any, asked: Asked, rng: random.Random) -> dict[str, Any]:
        return {"type": "nonsense"}


def test_the_same_seed_plays_the_same_game() -> None:
    first = versus_random(ENGINE, POLICY, 42, 2, {0}, keep=10)
    again = versus_random(ENGINE, POLICY, 42, 2, {0}, keep=10)
    assert first.finished and first.final == again.final and first.choices == again.choices
    assert [e.to_json() for e in first.events] == [e.to_json() for e in again.events]
    other = versus_random(ENGINE, POLICY, 42, 2, {0}, salt=0x3C)
    assert other.final != first.final  # the random player's own seed changes the game


def test_samples_are_states_a_computer_seat_was_asked_in() -> None:
    run = versus_random(ENGINE, POLICY, 7, 2, {1}, keep=50)
    assert run.samples
    for sample in run.samples:
        assert sample.seat == 1
        assert 1 in {w.seat for w in ENGINE.to_act(sample.state)}
    assert len(run.samples) <= 50


def test_an_illegal_choice_fails_a_test_and_is_counted_for_the_bench() -> None:
    with pytest.raises(AssertionError, match=r"hallway seed 3: seat 0's \{'type': 'nonsense'\} refused"):
        versus_random(ENGINE, Nonsense(), 3, 2, {0})
    counted = versus_random(ENGINE, Nonsense(), 3, 2, {0}, strict=False)
    assert counted.finished and counted.illegal == len(counted.choices) > 0  # played around, to the end


def test_the_bench_counts_the_games_the_strength_floors_play() -> None:
    results = []
    for game in range(12):
        players, options, computers = setup(ENGINE, game)
        run = versus_random(ENGINE, POLICY, 9_000 + game, players, computers, options, strict=False)
        results.append(won(ENGINE, run, computers, players))
    summary = bench("hallway", 12, 9_000)
    assert (summary["games"], summary["wins"], summary["draws"]) == (12, results.count("win"), results.count("draw"))
