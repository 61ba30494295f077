"""Properties that hold at every step of any Fighting Words game."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.words import ENGINE
from tests.playout import MANY_GAMES, random_playout
from tests.words.support import check_cards_and_scores, check_hand_limits


@MANY_GAMES
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_every_step_of_random_games_keeps_the_invariants(players: int, seed: int) -> None:
    """One playout serves every invariant: the costly part is playing the game."""
    run = random_playout(ENGINE, players, seed)
    for state in run.states:
        check_cards_and_scores(state)
        check_hand_limits(state)
    assert ENGINE.outcome(run.final) is not None  # every game ends
