"""Properties that hold at every step of any Fighting Words game."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.words import ENGINE
from games.words.cards import BLITZ_FACE, DECK_SIZE, word_value
from tests.playout import random_playout
from tests.words.helpers import all_cards


def blitz_cards(state: dict) -> list[str]:
    b = state["blitz"]
    return b["draw"] + b["discard"] + b["wip"] + [c for h in b["hands"] for c in h]


@settings(max_examples=40)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_cards_are_conserved_and_scores_match_won_words(players: int, seed: int) -> None:
    run = random_playout(ENGINE, players, seed)
    for state in run.states:
        cards = all_cards(state)
        assert len(cards) == DECK_SIZE and len(set(cards)) == DECK_SIZE
        if state["blitz"]:
            assert sorted(blitz_cards(state)) == sorted(BLITZ_FACE)
        for seat, stack in enumerate(state["stacks"]):
            assert state["score"][seat] == sum(word_value(len(w)) for w in stack)
    assert ENGINE.outcome(run.final) is not None  # every game ends


@settings(max_examples=25)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_only_the_seat_in_turn_ever_holds_eight(players: int, seed: int) -> None:
    run = random_playout(ENGINE, players, seed)
    for state in run.states:
        if state["blitz"] or state["over"]:
            continue
        for seat, hand in enumerate(state["hands"]):
            assert len(hand) <= (8 if seat == state["turn"] else 7)
