"""Last Stick's rules (tests/engines/sticks/rules.md), each with a test that fails when the rule breaks."""

from __future__ import annotations

from itertools import pairwise
from typing import get_args

import pytest

from games.core import IllegalAction, State
from tests.engines.sticks import ENGINE
from tests.engines.sticks.engine import HANDLERS, SHORT_AFTER, TURN_TIMEOUT, VERIFY
from tests.engines.sticks.schema import Kind


def game(seed: int = 1, players: int = 3) -> State:
    return ENGINE.new_game(players, seed)


def take(state: State, count: int, *, seat: int | None = None, timeout: bool = False) -> State:
    action = {"type": "take", "count": count, **({"timeout": True} if timeout else {})}
    return ENGINE.apply(state, state["turn"] if seat is None else seat, action, 0.0)[0]


def test_the_deal_lays_15_to_25_sticks_and_picks_the_starter() -> None:
    counts = {game(seed)["sticks"] for seed in range(200)}
    starters = {game(seed)["turn"] for seed in range(200)}
    assert counts == set(range(15, 26)) and starters == {0, 1, 2}


@pytest.mark.parametrize("count", [0, 4, -1, "2", 2.0, None, True])
def test_only_1_2_or_3_sticks_may_be_taken(count: object) -> None:
    state = game()
    with pytest.raises(IllegalAction, match="Take 1, 2 or 3"):
        ENGINE.apply(state, state["turn"], {"type": "take", "count": count}, 0.0)


def test_not_more_than_are_left() -> None:
    state = game()
    while state["sticks"] > 2:
        state = take(state, 1)
    with pytest.raises(IllegalAction, match="Only 2 left"):
        take(state, 3)
    assert [a["count"] for a in ENGINE.legal_actions(state, state["turn"])] == [1, 2]


def test_only_the_player_whose_turn_it_is_takes() -> None:
    state = game()
    other = (state["turn"] + 1) % 3
    with pytest.raises(IllegalAction, match="Not your turn"):
        take(state, 1, seat=other)
    assert ENGINE.legal_actions(state, other) == []


def test_turns_go_round_and_whoever_takes_the_last_stick_loses() -> None:
    state = game(seed=4)
    order = []
    while ENGINE.outcome(state) is None:
        order.append(state["turn"])
        state = take(state, 1 if state["sticks"] % 2 else 2)
    assert all((b - a) % 3 == 1 for a, b in pairwise(order))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks[order[-1]] == 1
    assert sorted(outcome.ranks) == [0, 0, 1] and ENGINE.waits(state) == []


def test_a_missed_turn_takes_one_and_three_in_a_row_halve_the_clock() -> None:
    state = game(players=2)
    seat = state["turn"]
    before = state["sticks"]
    for _ in range(SHORT_AFTER):
        assert state["turn"] == seat and ENGINE.waits(state)[0].timeout == TURN_TIMEOUT
        state = take(state, 1, timeout=True)
        state = take(state, 2)
    assert state["sticks"] == before - SHORT_AFTER * 3
    assert ENGINE.waits(state)[0].timeout == TURN_TIMEOUT / 2
    state = take(state, 1)  # playing again restores the full clock
    state = take(state, 1)
    assert ENGINE.waits(state)[0].timeout == TURN_TIMEOUT


def test_every_action_kind_has_a_check_and_a_handler_and_legal_agrees_with_verify() -> None:
    assert set(VERIFY) == set(HANDLERS) == set(get_args(Kind))
    for seed in range(20):
        state = game(seed, players=2 + seed % 3)
        while ENGINE.outcome(state) is None:
            for seat in range(state["players"]):
                for count in range(0, 5):
                    action = {"type": "take", "count": count}
                    try:
                        ENGINE.verify(state, seat, action)
                        accepted = True
                    except IllegalAction:
                        accepted = False
                    assert accepted == (action in ENGINE.legal_actions(state, seat))
            state = take(state, 1 + seed % 3 if state["sticks"] > 3 else 1)
