"""Conference / League card ids (spec §2.1) in words and in a hand's order, for the pictures and
the screens: `CU-K` is "K Cups", `T21` "The World", the Fool "Fool"; from plain ids, never game state."""

from __future__ import annotations

# -- the cards as data --------------------------------------------------------------------------------
#: The four suits, in the spec's canonical order (the trumps come before them in a hand).
SUIT_ORDER = ("CU", "CO", "SW", "BA")
TRUMPS = "T"  # the group of the trumps and the Fool
FOOL = "FOOL"
#: The rows of a hand, top to bottom.
GROUP_ORDER = (TRUMPS, *SUIT_ORDER)
SUIT_NAMES = {"CU": "Cups", "CO": "Coins", "SW": "Swords", "BA": "Batons", TRUMPS: "Trumps"}
#: Ranks, low to high (A=1 … 10, V=11, C=12, Q=13, K=14).
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "Q", "K")
RANK_NAMES = {"A": "Ace", "V": "Valet", "C": "Cavalier", "Q": "Queen", "K": "King"}
HONOURS = frozenset({"T01", "T21", FOOL})
TRUMP_NAMES = {1: "The Juggler", 21: "The World"}
#: Every card id in the canonical order (FOOL, T01…T21, then CU, CO, SW, BA each A…K).
DECK: tuple[str, ...] = (FOOL, *(f"T{n:02d}" for n in range(1, 22)),
                         *(f"{suit}-{rank}" for suit in SUIT_ORDER for rank in RANKS))
_KEYS = {card: (0 if card == FOOL or card[0] == "T" else 1 + SUIT_ORDER.index(card[:2]),
                0 if card == FOOL else int(card[1:]) if card[0] == "T" else 1 + RANKS.index(card[3:]))
         for card in DECK}


#: Each card's place in a hand's order (`sort_key`), for sorting by a lookup alone.
HAND_ORDER: dict[str, int] = {card: n for n, card in enumerate(sorted(_KEYS, key=_KEYS.__getitem__))}


def check_card(card: str) -> str:
    if card not in _KEYS:
        raise ValueError(f"not a tarot card id: {card!r}")
    return card


def group(card: str) -> str:
    """The row a card sits in: `T` for the trumps and the Fool, else its suit."""
    return TRUMPS if check_card(card) == FOOL or card[0] == "T" else card[:2]


def rank_text(card: str) -> str:
    """What the card's corner shows: K Q C V 10 … 2 A, a trump's number, "Fool"."""
    check_card(card)
    if card == FOOL:
        return "Fool"
    return str(int(card[1:])) if card[0] == "T" else card[3:]


def sort_key(card: str) -> tuple[int, int]:
    """A hand's order: the Fool, the trumps 1…21, then Cups, Coins, Swords, Batons, each A…K
    (the spec's canonical order)."""
    check_card(card)
    return _KEYS[card]


def card_label(card: str) -> str:
    """Plain words: "King of Cups", "7 of Swords", "Trump 21 (The World)", "The Fool"."""
    check_card(card)
    if card == FOOL:
        return "The Fool"
    if card[0] == "T":
        number = int(card[1:])
        return f"Trump {number} ({TRUMP_NAMES[number]})" if number in TRUMP_NAMES else f"Trump {number}"
    rank = card[3:]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[card[:2]]}"


def card_short(card: str) -> str:
    """Short words for a select menu: "K Cups", "10 Swords", "Trump 21", "Fool"."""
    check_card(card)
    if card == FOOL:
        return "Fool"
    if card[0] == "T":
        return f"Trump {int(card[1:])}"
    return f"{card[3:]} {SUIT_NAMES[card[:2]]}"


