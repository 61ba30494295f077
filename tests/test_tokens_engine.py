"""Rules of the test engine itself, so the contract suite runs on something trustworthy."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from tests.engines.tokens import ENGINE


def test_only_the_seat_in_turn_may_play() -> None:
    state = ENGINE.new_game(2, 1)
    token = state["hands"][1][0]["id"]
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 1, {"type": "play", "token": token}, 0.0)
    assert refused.value.render({0: "alice", 1: "bob"}.get) == "It is alice's turn."


def test_cannot_play_a_token_you_do_not_hold() -> None:
    state = ENGINE.new_game(2, 1)
    with pytest.raises(IllegalAction, match="do not hold"):
        ENGINE.apply(state, 0, {"type": "play", "token": state["hands"][1][0]["id"]}, 0.0)


def test_partners_share_the_team_total() -> None:
    state = ENGINE.new_game(4, 3, {"hand": 1, "teams": True})
    for seat in range(4):
        state, _ = ENGINE.apply(state, seat, {"type": "play", "token": state["hands"][seat][0]["id"]}, 0.0)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.ranks[0] == outcome.ranks[2]
    assert outcome.ranks[1] == outcome.ranks[3]
    s = state["scores"]
    assert (outcome.ranks[0] < outcome.ranks[1]) == (s[0] + s[2] > s[1] + s[3])


def test_forfeit_in_teams_puts_both_partners_last() -> None:
    state = ENGINE.new_game(4, 3, {"teams": True})
    ended, _ = ENGINE.forfeit(state, 1, 0.0)
    assert ENGINE.outcome(ended).ranks == (0, 1, 0, 1)


def test_unknown_option_is_refused() -> None:
    with pytest.raises(IllegalAction, match="Unknown option"):
        ENGINE.new_game(2, 1, {"colour": "red"})
