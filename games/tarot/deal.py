"""The deal (R3, R15b) and the dealer's discard (R4)."""

from __future__ import annotations

from games.core import IllegalAction
from games.tarot.cards import DECK, HONOURS, cheap_key, is_ace, is_trump, rank_name, trump

SEATS = 4
ROUNDS = (4, 5, 5, 5)


def partner(seat: int) -> int:
    return seat ^ 1


def team_of(seat: int) -> int:
    """Team A (0) is seats 0 and 1, team B (1) seats 2 and 3: partners sit side by side."""
    return seat // 2


def league_pack() -> tuple[list[str], str, str]:
    """League sets T21 (the Driver's) and T20 (the Catcher's) aside before the shuffle."""
    return [c for c in DECK if c not in (trump(20), trump(21))], trump(21), trump(20)


def deal(deck: list[str], dealer: int, *, league: bool = False) -> list[list[str]]:
    """Rounds of 4, 5, 5 and 5 from the dealer's left, the dealer served last, then the last
    two cards to the dealer (19/19/19/21). In League the Driver already holds T21 and the
    Catcher T20, and both get 3 cards in the first round."""
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    catcher = partner(dealer)
    if league:
        hands[dealer].append(trump(21))
        hands[catcher].append(trump(20))
    cards = iter(deck)
    for number, size in enumerate(ROUNDS):
        for step in range(1, SEATS + 1):
            seat = (dealer + step) % SEATS
            count = size - 1 if league and number == 0 and seat in (dealer, catcher) else size
            hands[seat].extend(next(cards) for _ in range(count))
    hands[dealer].extend(cards)
    return hands


# ----- the discard (R4) -----------------------------------------------------------------
def never_discardable(card: str, *, allegiances: bool) -> bool:
    return rank_name(card) == "K" or card in HONOURS or (allegiances and is_ace(card))


def discard_shortfall(hand: list[str], *, allegiances: bool) -> tuple[list[str], list[str], int]:
    """(eligible non-trumps, eligible trumps, how many trumps must go)."""
    eligible = [c for c in hand if not never_discardable(c, allegiances=allegiances)]
    plain = [c for c in eligible if not is_trump(c)]
    trumps = [c for c in eligible if is_trump(c)]
    return plain, trumps, max(0, 2 - len(plain))


def verify_discard(hand: list[str], cards: list[str], *, allegiances: bool) -> None:
    if len(cards) != 2 or len(set(cards)) != 2:
        raise IllegalAction("Discard exactly two different cards.", rule="R4")
    missing = [c for c in cards if c not in hand]
    if missing:
        raise IllegalAction("You can only discard cards from your hand.", rule="R4")
    for card in cards:
        if rank_name(card) == "K":
            raise IllegalAction("Kings may not be discarded.", rule="R4")
        if card in HONOURS:
            raise IllegalAction("Honours (the Juggler, the World, the Fool) may not be discarded.", rule="R4")
        if allegiances and is_ace(card):
            raise IllegalAction("With Allegiances on, Aces may not be discarded.", rule="R4")
    _plain, _trumps, shortfall = discard_shortfall(hand, allegiances=allegiances)
    trumps = sum(is_trump(c) for c in cards)
    if trumps > shortfall:
        raise IllegalAction("A trump may be discarded only when you hold fewer than two other cards "
                            "you could discard.", rule="R4")


def default_discard(hand: list[str], *, allegiances: bool) -> list[str]:
    """The timer's discard (§4): the cheapest eligible non-trumps, then the cheapest trumps
    for the shortfall only."""
    plain, trumps, shortfall = discard_shortfall(hand, allegiances=allegiances)
    return sorted(plain, key=cheap_key)[:2 - shortfall] + sorted(trumps, key=cheap_key)[:shortfall]


def discard_choices(hand: list[str], *, allegiances: bool) -> list[str]:
    """Cards that may appear in some legal discard."""
    plain, trumps, shortfall = discard_shortfall(hand, allegiances=allegiances)
    return plain + (trumps if shortfall else [])
