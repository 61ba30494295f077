"""The 78-card tarot pack as data (spec §2.1): ids, ranks, points, and the orders the rules
and the timers use. A card is its id: `CU-K`, `SW-10`, `T21`, `FOOL`."""

from __future__ import annotations

from functools import cache, lru_cache

from games.tarot.schema import Pair, Suit

SUITS: tuple[Suit, ...] = ("CU", "CO", "SW", "BA")
SUIT_NAMES = {"CU": "Cups", "CO": "Coins", "SW": "Swords", "BA": "Batons", "T": "Trumps"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "Q", "K")
COURTS = frozenset({"V", "C", "Q", "K"})
FOOL = "FOOL"
HONOURS = frozenset({"T01", "T21", FOOL})
#: The two allegiance pairs (R14): each Ace corresponds to the other Ace of its pair.
PAIRS: dict[str, tuple[str, str]] = {"round": ("CU", "CO"), "long": ("SW", "BA")}
PAIR_OF: dict[str, Pair] = {"CU": "round", "CO": "round", "SW": "long", "BA": "long"}
TRUMP = "T"


def trump(number: int) -> str:
    return f"T{number:02d}"


#: Canonical order (FOOL, T01…T21, then CU, CO, SW, BA each A…K): tests and tie-breaks.
DECK: tuple[str, ...] = (FOOL, *(trump(n) for n in range(1, 22)),
                         *(f"{suit}-{rank}" for suit in SUITS for rank in RANKS))
CANONICAL = {card: index for index, card in enumerate(DECK)}


def suit(card: str) -> str:
    """CU/CO/SW/BA for a suit card, T for a trump, FOOL for the Fool (looked up for the deck's
    cards: every view asks it of every card, hundreds of times a step)."""
    known = _SUIT_OF.get(card)
    return known if known is not None else _suit(card)


def _suit(card: str) -> str:
    if card == FOOL:
        return FOOL
    return TRUMP if card[0] == "T" else card[:2]


_SUIT_OF = {card: _suit(card) for card in DECK}


def rank_name(card: str) -> str:
    return card[3:] if suit(card) in SUITS else card


@cache
def rank(card: str) -> int:
    """A=1 … 10, V=11, C=12, Q=13, K=14; a trump's number; the Fool 0 (it never wins)."""
    if card == FOOL:
        return 0
    if card[0] == "T":
        return int(card[1:])
    return RANKS.index(card[3:]) + 1


@cache
def points(card: str) -> int:
    """Face points (§2.1): honours and Kings 5, Queens 4, Cavaliers 3, Valets 2, others 1."""
    if card in HONOURS:
        return 5
    return {"K": 5, "Q": 4, "C": 3, "V": 2}.get(rank_name(card), 1)


def is_trump(card: str) -> bool:
    return suit(card) == TRUMP


def is_court(card: str) -> bool:
    return suit(card) in SUITS and rank_name(card) in COURTS


def is_ace(card: str) -> bool:
    """Whether `card` is one of the four suit aces (a set lookup: a table's view asks it of
    every card played this hand)."""
    return card in _ACES


_ACES = frozenset(f"{s}-A" for s in SUITS)


def corresponding_ace(ace: str) -> str:
    """CU-A ↔ CO-A, SW-A ↔ BA-A."""
    pair = PAIRS[PAIR_OF[suit(ace)]]
    other = pair[1] if suit(ace) == pair[0] else pair[0]
    return f"{other}-A"


_SUIT_KEY = {"CU": 0, "CO": 1, "SW": 2, "BA": 3, TRUMP: 4, FOOL: 5}


def cheap_key(card: str) -> tuple[int, int, int, int]:
    """The timers' order (§4): not-the-Fool first, then face points, rank, suit CU<CO<SW<BA<T.
    The lowest key is what a timed-out player plays or discards."""
    return (card == FOOL, points(card), rank(card), _SUIT_KEY[suit(card)])


def hand_key(card: str) -> tuple[int, int]:
    """How a hand is sorted for its player: the Fool, trumps, then Cups, Coins, Swords,
    Batons, each low to high (made once per card: every view sorts every hand)."""
    known = _HAND_KEYS.get(card)
    return known if known is not None else (_HAND_ORDER[suit(card)], rank(card))


_HAND_ORDER = {FOOL: 0, TRUMP: 1, "CU": 2, "CO": 3, "SW": 4, "BA": 5}
_HAND_KEYS = {card: (_HAND_ORDER[suit(card)], rank(card)) for card in DECK}


def sort_hand(cards: list[str]) -> list[str]:
    """`cards` in hand order. Kept by hand: a step sorts every seat's hand for its view, and
    all but the mover's are as they were the step before."""
    return list(_sorted_hand(tuple(cards)))


@lru_cache(maxsize=4096)
def _sorted_hand(cards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=hand_key))
