"""Decks and the Thrust / trump war (rules 5-8): each player flips the top card of a
personal 52-card deck; a pair starts a war that the odd player out may parry.

A deck is a list whose index 0 is the top (its order is the RNG's future, declared
secret). Cards are "AS" … "10H" … "KC"; suits are cosmetic.
"""

from __future__ import annotations

from games.core import Rng, State

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


def card_value(card: str) -> int:
    """A=1 … 10, J=11, Q=12, K=13 (aces low, rule 5)."""
    return RANKS.index(card[:-1]) + 1


def fresh_decks(state: State) -> None:
    """Every bumper: a fresh shuffled deck each (spec §2, rule 4)."""
    rng = Rng(state)
    state["decks"] = [rng.shuffled(list(DECK)) for _ in range(3)]
    state["drawn"] = [[], [], []]


def draw_card(state: State, seat: int) -> str:
    """The top card of `seat`'s deck; an empty deck is rebuilt from every card that player
    drew this bumper (face-up ones included), shuffled by the RNG."""
    deck = state["decks"][seat]
    if not deck:
        deck.extend(Rng(state).shuffled(state["drawn"][seat]))
        state["drawn"][seat] = []
    card: str = deck.pop(0)
    state["drawn"][seat].append(card)
    return card


def judge_thrust(values: list[int]) -> tuple[str, list[int]]:
    """("triple", []), ("trump", [w1, w2]) or ("high", [winner]) for the three Thrust values."""
    if values[0] == values[1] == values[2]:
        return "triple", []
    pair = matching_pair(values)
    if pair:
        return "trump", pair
    return "high", [max(range(3), key=lambda s: values[s])]


def matching_pair(values: list[int]) -> list[int]:
    for a in range(3):
        for b in range(a + 1, 3):
            if values[a] == values[b]:
                return [a, b]
    return []


def judge_war(values: list[int], warriors: list[int], parrier: int) -> tuple[str, list[int]]:
    """Rule 7 in order: ("triple", []), ("trump", new warriors), ("parry", [parrier]) or
    ("war_win", [winner]). The war cards are the two drawn in this step (the spec's decision)."""
    if values[0] == values[1] == values[2]:
        return "triple", []
    pair = matching_pair(values)
    if pair:
        return "trump", pair
    parry = values[parrier]
    w1, w2 = warriors
    if parry == 1 or parry > values[w1] + values[w2]:
        return "parry", [parrier]
    return "war_win", [w1 if values[w1] > values[w2] else w2]
