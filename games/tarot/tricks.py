"""Tricks: the led suit, legal plays (R7, R8, R16a) and the winner (R9, R16b).

A play is `[seat, card, as_led]`; `as_led` is true only for a gallowglass card standing in
for the led suit."""

from __future__ import annotations

from typing import Any

from games.core import IllegalAction
from games.tarot.cards import FOOL, SUIT_NAMES, SUITS, TRUMP, is_court, is_trump, rank, suit

Play = list[Any]  # [seat, card, as_led]


def led_suit(plays: list[Play]) -> str | None:
    """The suit of the first card that is not the Fool (R7, R8); None before one is down."""
    return next((suit(card) for _seat, card, _as_led in plays if card != FOOL), None)


def substitutes(hand: list[str], led: str | None, g_suit: str | None) -> list[str]:
    """Gallowglass cards this hand may play as the led suit (R16a): a regular suit other than
    G is led, every card of it held is a court card (at least one), and G cards are held."""
    if g_suit is None or led is None or led not in SUITS or led == g_suit:
        return []
    held = [c for c in hand if suit(c) == led]
    if not held or not all(is_court(c) for c in held):
        return []
    return [c for c in hand if suit(c) == g_suit]


def legal_cards(hand: list[str], plays: list[Play], g_suit: str | None) -> list[str]:
    """Every card of `hand` that may be played to this trick (R7)."""
    led = led_suit(plays)
    if led is None:
        return list(hand)
    fool = [FOOL] if FOOL in hand else []
    following = [c for c in hand if suit(c) == led]
    if following:
        extra = substitutes(hand, led, g_suit)
        return [c for c in hand if c in following or c in extra] + [c for c in fool if c not in following]
    trumps = [c for c in hand if is_trump(c)]
    if trumps:
        return trumps + fool
    return list(hand)


def verify_play(hand: list[str], plays: list[Play], card: str, g_suit: str | None) -> bool:
    """Raise unless `card` may be played now; return whether it is played as led."""
    if card not in hand:
        raise IllegalAction("That card is not in your hand.", rule="R7")
    if card in legal_cards(hand, plays, g_suit):
        led = led_suit(plays)
        return card in substitutes(hand, led, g_suit) and suit(card) != led
    led = led_suit(plays)
    assert led is not None  # anything is legal on an empty trick
    if led == TRUMP:
        raise IllegalAction("Trumps were led: you must play a trump (or the Fool).", rule="R7")
    if any(suit(c) == led for c in hand):
        raise IllegalAction(f"You must follow suit: play one of your {SUIT_NAMES[led]} (or the Fool).", rule="R7")
    raise IllegalAction("You have no card of the suit led, so you must play a trump (or the Fool).", rule="R7")


def winner(plays: list[Play]) -> int:
    """The seat that wins a complete trick (R9): the highest trump; else the highest card
    counting as the led suit, the later of two equal ranks (R16b). The Fool never wins."""
    trumps = [(rank(card), index) for index, (_s, card, _a) in enumerate(plays) if is_trump(card)]
    if trumps:
        return int(plays[max(trumps)[1]][0])
    led = led_suit(plays)
    counting = [(rank(card), index) for index, (_s, card, as_led) in enumerate(plays)
                if card != FOOL and (suit(card) == led or as_led)]
    return int(plays[max(counting)[1]][0])


def winning_card(plays: list[Play]) -> str:
    seat = winner(plays)
    card: str = next(card for s, card, _a in plays if s == seat)
    return card
