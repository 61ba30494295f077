"""Last Stick's computer player, on the shared computer-vs-random harness (tests/computers.py)."""

from __future__ import annotations

import random

from games.computer import Asked
from tests.computers import assert_beats_random, versus_random
from tests.engines.sticks import ENGINE
from tests.engines.sticks.ai import POLICY


def test_it_leaves_a_row_of_four_k_plus_one_when_it_can() -> None:
    state = ENGINE.new_game(2, 3)
    for sticks, expected in [(6, 1), (7, 2), (8, 3), (5, 1), (2, 1), (1, 1)]:
        state["sticks"] = sticks
        view = ENGINE.view(state, state["turn"])
        action = POLICY.choose(view, Asked(state["turn"], ("take",), 0.0), random.Random(0))
        assert action == {"type": "take", "count": expected}


def test_it_plays_legal_games_to_the_end_and_replays() -> None:
    first = versus_random(ENGINE, POLICY, 11, 2, {0}, keep=5)
    again = versus_random(ENGINE, POLICY, 11, 2, {0}, keep=5)
    assert first.finished and first.final == again.final


def test_it_beats_random_play() -> None:
    assert_beats_random(ENGINE, POLICY, games=40, first_seed=100, floor=0.7)
