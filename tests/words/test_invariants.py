"""Properties that hold at every step of any Fighting Words game."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.words import ENGINE
from games.words.cards import BLITZ_FACE, DECK_SIZE, word_value
from tests.playout import MANY_GAMES, random_playout
from tests.words.helpers import all_cards


def blitz_cards(state: dict) -> list[str]:
    b = state["blitz"]
    return b["draw"] + b["discard"] + b["wip"] + [c for h in b["hands"] for c in h]


def check_cards_and_scores(state: dict) -> None:
    """Card conservation (120 at every step) and scores equal to the values of won words."""
    cards = all_cards(state)
    assert len(cards) == DECK_SIZE and len(set(cards)) == DECK_SIZE
    if state["blitz"]:
        assert sorted(blitz_cards(state)) == sorted(BLITZ_FACE)
    for seat, stack in enumerate(state["stacks"]):
        assert state["score"][seat] == sum(word_value(len(w)) for w in stack)


def check_hand_limits(state: dict) -> None:
    """Only the seat in turn (who has just drawn) may hold eight cards."""
    if state["blitz"] or state["over"]:
        return
    for seat, hand in enumerate(state["hands"]):
        assert len(hand) <= (8 if seat == state["turn"] else 7)


@MANY_GAMES
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_every_step_of_random_games_keeps_the_invariants(players: int, seed: int) -> None:
    """One playout serves every invariant: the costly part is playing the game."""
    run = random_playout(ENGINE, players, seed)
    for state in run.states:
        check_cards_and_scores(state)
        check_hand_limits(state)
    assert ENGINE.outcome(run.final) is not None  # every game ends
