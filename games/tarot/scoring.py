"""Settling a hand: card values under gallowglass (R16c) and allegiance periods (R14d-g),
the Fool's payment (R10), totals and the swing in game points (R11, R14g, R16d)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.tarot.cards import CANONICAL, FOOL, PAIRS, SUITS, points, suit
from games.tarot.deal import team_of
from games.tarot.tricks import winning_card

#: Card points in the pack plus one per trick (§2.2).
FULL_HAND = 149
TRICKS = 19


@dataclass(frozen=True)
class Rules:
    """What changes a card's value in this hand."""

    g_suit: str | None = None
    allegiances: bool = False
    trumps_score: bool = False  # `allegiance_trumps_score`: the looser reading of R14d


@dataclass
class Pile:
    """Cards one team captured in one period: a trick (voided when a gallowglass card won
    it), or the dealer's discard."""

    team: int
    period: int
    cards: list[str]
    voided: bool = False
    trick: int | None = None


def card_value(card: str, team: int, mapping: Sequence[str] | None, voided: bool, rules: Rules) -> int:
    """What `card` in `team`'s pile is worth. `mapping[team]` names the pair each team scores
    in this period ("round"/"long"), None while no allegiance was called."""
    if voided or (rules.g_suit is not None and suit(card) == rules.g_suit):
        return 0
    if mapping is None:
        return points(card)
    if suit(card) in SUITS:
        return points(card) if suit(card) in PAIRS[mapping[team]] else 0
    return points(card) if rules.trumps_score else 0


def captured_piles(hand: dict[str, Any]) -> list[Pile]:
    """The discard (the dealer's team, first period) and every complete trick, the Fool
    taken out of the trick it was played to (it goes back to its owner, R10)."""
    piles = [Pile(team_of(hand["dealer"]), 0, list(hand["discard"]))]
    for index, trick in enumerate(hand["tricks"]):
        if trick["winner"] is None:
            continue
        voided = suit(winning_card(trick["plays"])) == hand["g_suit"]
        cards = [card for _seat, card, _as_led in trick["plays"] if card != FOOL]
        piles.append(Pile(team_of(trick["winner"]), trick["period"], cards, voided, index))
    return piles


def _totals(piles: list[Pile], fool: Pile | None, periods: list[Any], tricks: list[int],
            rules: Rules) -> list[int]:
    totals = list(tricks)
    for pile in [*piles, *([fool] if fool else [])]:
        mapping = periods[pile.period]
        totals[pile.team] += sum(card_value(c, pile.team, mapping, pile.voided, rules) for c in pile.cards)
    return totals


def swing(totals: list[int], declarer: int, rules: Rules) -> list[int]:
    """Game points per team. Allegiances: the higher total wins the difference (R14g).
    Otherwise the declarer (the dealer's team) against the contract of 75: 2P - 149, which
    with nothing voided is exactly own - other for the side with 75 or more (R11, R16d)."""
    if rules.allegiances:
        diff = totals[0] - totals[1]
        return [diff, -diff]
    gain = 2 * totals[declarer] - FULL_HAND
    return [gain, -gain] if declarer == 0 else [-gain, gain]


def settle(hand: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The end-of-hand breakdown: the Fool's payment, each team's card points, tricks and
    total, and the game points won."""
    piles = captured_piles(hand)
    periods = hand["periods"]
    tricks = [0, 0]
    for pile in piles:
        if pile.trick is not None:
            tricks[pile.team] += 1
    declarer = team_of(hand["dealer"])
    fool_pile: Pile | None = None
    payment: dict[str, Any] | None = None
    fool = hand.get("fool")
    if fool is not None:
        owner_team = team_of(fool["owner"])
        fool_trick = hand["tricks"][fool["trick"]]
        fool_pile = Pile(owner_team, fool_trick["period"], [FOOL])
        if fool_trick["winner"] is not None and team_of(fool_trick["winner"]) != owner_team:
            payment = _pay_for_the_fool(piles, fool_pile, periods, tricks, rules, owner_team,
                                        fool["trick"], declarer)
            if payment["card"] == FOOL:
                fool_pile = None
    totals = _totals(piles, fool_pile, periods, tricks, rules)
    card_points = [totals[t] - tricks[t] for t in (0, 1)]
    voided = sorted({c for p in piles for c in p.cards
                     if p.voided or (rules.g_suit is not None and suit(c) == rules.g_suit)},
                    key=CANONICAL.__getitem__)
    return {
        "totals": totals, "tricks": tricks, "card_points": card_points,
        "swing": swing(totals, declarer, rules), "declarer": declarer,
        "payment": payment, "voided": voided, "discard": list(hand["discard"]),
        "periods": periods,
    }


def _pay_for_the_fool(piles: list[Pile], fool_pile: Pile, periods: list[Any], tricks: list[int],
                      rules: Rules, owner_team: int, fool_trick: int, declarer: int) -> dict[str, Any]:
    """R10: an opponent won the Fool's trick, so the owner's team pays a captured card into
    that trick: the one that leaves the payers the most game points (then the fewest face
    points, then canonical order). A team that captured nothing gives up the Fool itself.
    Mutates `piles` (the card moves)."""
    receiving = next(p for p in piles if p.trick == fool_trick)
    candidates = [(pile, card) for pile in piles if pile.team == owner_team for card in pile.cards]
    if not candidates:
        receiving.cards.append(FOOL)
        return {"card": FOOL, "from": owner_team, "to": receiving.team, "trick": fool_trick}

    def result(pile: Pile, card: str) -> int:
        pile.cards.remove(card)
        receiving.cards.append(card)
        totals = _totals(piles, fool_pile, periods, tricks, rules)
        receiving.cards.pop()
        pile.cards.append(card)
        return swing(totals, declarer, rules)[owner_team]

    best = max(candidates, key=lambda pc: (result(*pc), -points(pc[1]), -CANONICAL[pc[1]]))
    best[0].cards.remove(best[1])
    receiving.cards.append(best[1])
    return {"card": best[1], "from": owner_team, "to": receiving.team, "trick": fool_trick}
