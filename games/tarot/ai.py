"""The Conference / League computer player: a card player that reads only its own seat's view.

Every card it may play is weighed by what it is worth to the partnership: the chance that
the trick ends with its side (each player still to play may beat the best card if it can
hold a higher card of the suit, or a higher trump when void, estimated from the cards not
yet seen and the voids the play so far revealed), times the points in the trick for its
side, minus the points that go to the opponents when it does not, minus what spending the
card costs later (a high trump, the Fool's one escape). From that fall the habits of a card
player: win cheaply when it can, dump low when it can't, feed points to a partner who holds
the trick, keep Kings and the Juggler out of tricks the opponents take, and slip the Fool
into a trick that is lost when everything else would give points away.

The dealer banks points in the discard (a Queen is safer there than in a trick) and makes
short suits void; it names no gallowglass suit; an allegiance is called for the pair its
hand is richer in; an AFK vote is always to go on.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Literal

from games.computer import Asked, Policy
from games.core import Action
from games.tarot import schema
from games.tarot.cards import DECK, FOOL, PAIR_OF, PAIRS, SUITS, TRUMP, is_trump, points, rank, suit, trump
from games.tarot.deal import partner, team_of
from games.tarot.schema import SeatView, unpack
from games.tarot.scoring import Rules, card_value
from games.tarot.tricks import led_suit, winner

#: Points a player still to play adds to a trick, on average (most cards are empty).
EXPECTED_ADD = 1.3
#: What keeping the Fool for a later escape is worth (in points of difference).
FOOL_KEEP = 1.5
#: The points a lost Fool trick costs: one empty card paid to the opponents (1 each way).
FOOL_PAYMENT = 2.0
WORLD = trump(21)


class TarotPolicy(Policy[SeatView]):
    summary = "follows suit wisely, feeds its partner, saves honours, escapes with the Fool"

    def choose(self, view: SeatView, asked: Asked, rng: random.Random) -> Action:
        return dict(self.decide(view, asked.keys))

    def decide(self, view: SeatView, keys: tuple[str, ...]) -> schema.Action:
        """The move as a schema action, from the seat's view and the keys of its waits."""
        if any(k.startswith("afk-") for k in keys):
            return {"type": "vote", "vote": "continue"}
        if view.get("discard_options") is not None and any(k.startswith("discard-") for k in keys):
            return {"type": "discard", "cards": choose_discard(view)}
        if view.get("nominate"):
            return {"type": "nominate", "suit": "none"}
        calling = view.get("can_call")
        if calling and not calling["passed"]:
            return {"type": "call", "call": choose_call(view["hand"], calling["ace"])}
        if view.get("legal"):
            return {"type": "play", "card": choose_card(view)}
        if view.get("discard_options") is not None:
            return {"type": "discard", "cards": choose_discard(view)}
        return {"type": "vote", "vote": "continue"}

    def delay(self, view: SeatView, asked: Asked, rng: random.Random) -> float:
        legal = view.get("legal") or []
        if len(legal) == 1:
            return rng.uniform(0.8, 1.5)  # nothing to think about
        return rng.uniform(1.2, 2.8)


# ----- the dealer and the calls ---------------------------------------------------------
def choose_discard(view: SeatView) -> list[str]:
    """Bank the richest cards the rules let go, preferring those that leave a suit void or
    short (so the dealer can trump it); trumps only for the shortfall, the lowest."""
    options: list[str] = view["discard_options"]
    shortfall: int = view.get("discard_trumps", 0)
    held: list[str] = view["hand"]
    counts: dict[str, int] = {s: sum(1 for c in held if suit(c) == s) for s in SUITS}
    plain = [c for c in options if not is_trump(c)]

    def worth(card: str) -> tuple[float, int]:
        short = counts[suit(card)]
        bonus = 2.0 if short == 1 else 1.0 if short == 2 else 0.0
        return (points(card) + bonus, -rank(card))

    chosen = sorted(plain, key=worth, reverse=True)[: 2 - shortfall]
    trumps = sorted((c for c in options if is_trump(c)), key=rank)[:shortfall]
    return chosen + trumps


def choose_call(hand: list[str], ace: str) -> Literal["ours", "yours"]:
    """Ours when the partnership's caller holds more points in the Ace's pair than in the other."""
    pair = PAIRS[PAIR_OF[suit(ace)]]
    mine = sum(points(c) for c in hand if suit(c) in pair)
    other = sum(points(c) for c in hand if suit(c) in SUITS and suit(c) not in pair)
    return "ours" if mine >= other else "yours"


# ----- what the table has shown ---------------------------------------------------------
class Reading:
    """What a player at the table knows when it must play: the cards not yet seen, who is
    void in what, the trick on the table and who plays after it."""

    def __init__(self, view: SeatView) -> None:
        table = view["table"]
        self.seat: int = view["seat"]
        self.team = team_of(self.seat)
        self.hand: list[str] = list(view["hand"])
        self.legal: list[str] = list(view["legal"])
        self.as_led = set(view.get("as_led") or [])
        self.direction: int = table["direction"]
        self.sizes: list[int] = table["hand_sizes"]
        periods = table["periods"]
        self.mapping = periods[-1] if periods else None
        self.rules = Rules(g_suit=table["g_suit"], allegiances=bool(view.get("allegiances")),
                           trumps_score=bool(table.get("trumps_score")))
        tricks = table["tricks"]
        current = tricks[-1] if tricks and tricks[-1]["winner"] is None else None
        self.plays: list[list[Any]] = [list(p) for p in current["plays"]] if current else []
        self.leader: int = current["leader"] if current else self.seat
        seen = set(self.hand) | set(view.get("discard") or [])
        self.void: dict[int, set[str]] = {s: set() for s in range(4)}
        for trick in tricks:
            done: list[list[Any]] = []
            for seat, card, as_led in map(unpack, trick["plays"]):
                seen.add(card)
                led = led_suit(done)
                if led is not None and card != FOOL and not as_led and suit(card) != led:
                    self.void[seat].add(led)
                    if not is_trump(card):
                        self.void[seat].add(TRUMP)
                done.append([seat, card, as_led])
        self.known: dict[str, int] = {}
        if table.get("league"):
            dealer = view["dealer"]
            for card, holder in ((trump(21), dealer), (trump(20), partner(dealer))):
                if card not in seen and holder != self.seat:
                    self.known[card] = holder
        self.unseen = [c for c in DECK if c not in seen]
        self.by_suit: dict[str, list[str]] = {s: [] for s in (*SUITS, TRUMP, FOOL)}
        for card in self.unseen:
            self.by_suit[suit(card)].append(card)
        # what each other seat may hold: no suit it showed void in, no card known elsewhere
        self.pools = {s: {c for c in self.unseen if suit(c) not in self.void[s] and c not in self.known}
                      for s in range(4) if s != self.seat}
        self.free_size = {s: self.sizes[s] - sum(1 for h in self.known.values() if h == s) for s in self.pools}
        left = 3 - len(self.plays)
        self.after = [(self.seat + self.direction * k) % 4 for k in range(1, left + 1)]
        self.cards_left = len(self.hand)

    # how likely a seat holds a card of a set
    def holds(self, seat: int, cards: list[str]) -> float:
        if any(self.known.get(c) == seat for c in cards):
            return 1.0
        pool = self.pools[seat]
        return chance_of_any(len(pool), len(pool.intersection(cards)), self.free_size[seat])

    def beats(self, seat: int, best: str, led: str) -> float:
        """How likely `seat` can beat `best` in a trick led in `led` (it plays to win if it can)."""
        trumps_held = self.by_suit[TRUMP]
        if is_trump(best):
            higher = [c for c in trumps_held if rank(c) > rank(best)]
            if led == TRUMP:
                return self.holds(seat, higher)
            void = 1.0 if led in self.void[seat] else 1.0 - self.holds(seat, self._suit(led))
            return void * self.holds(seat, higher)
        if led not in SUITS:
            return 0.0
        higher = [c for c in self._suit(led) if rank(c) > rank(best)]
        follows = self._suit(led)
        void = 1.0 if led in self.void[seat] else 1.0 - self.holds(seat, follows)
        ruff = 0.0 if TRUMP in self.void[seat] else self.holds(seat, trumps_held)
        return min(1.0, self.holds(seat, higher) + void * ruff)

    def beating_card(self, seat: int, best: str, led: str) -> str:
        """The card `seat` likely beats `best` with: the highest it may hold of those that
        would (a higher card of the suit when it probably follows, else a higher trump),
        estimated where the highest of its likely share of them falls."""
        trumps = [c for c in self.by_suit[TRUMP] if rank(c) > rank(best) or not is_trump(best)]
        beating = trumps
        if not is_trump(best) and led in SUITS:
            higher = [c for c in self.by_suit[led] if rank(c) > rank(best)]
            follows = self.holds(seat, higher) if led not in self.void[seat] else 0.0
            if higher and (follows >= 0.5 or not trumps):
                beating = higher
        if not beating:
            return best
        share = len(beating) * self.free_size[seat] / max(1, len(self.pools[seat]))
        return beating[min(len(beating) - 1, int(len(beating) * share / (share + 1)))]

    def _suit(self, led: str) -> list[str]:
        return self.by_suit[led]

    def value(self, card: str, team: int, voided: bool) -> float:
        return card_value(card, team, self.mapping, voided, self.rules)


@lru_cache(maxsize=4096)
def chance_of_any(pool: int, wanted: int, size: int) -> float:
    """P(a hand of `size` cards dealt from `pool` holds at least one of `wanted` of them)."""
    if wanted <= 0 or size <= 0 or pool <= 0:
        return 0.0
    if size >= pool or wanted > pool - size:
        return 1.0
    none = 1.0
    for i in range(size):
        none *= (pool - wanted - i) / (pool - i)
    return 1.0 - none


# ----- the card to play ------------------------------------------------------------------
def choose_card(view: SeatView) -> str:
    legal: list[str] = view["legal"]
    if len(legal) == 1 or "table" not in view:
        return legal[0] if len(legal) == 1 else min(legal, key=spend_cost)
    reading = Reading(view)
    scored = [(worth_of(reading, card), -spend_cost(card), card) for card in legal]
    return max(scored, key=lambda s: (s[0], s[1], -DECK.index(s[2])))[2]


def spend_cost(card: str) -> float:
    """What playing a card now costs later: high trumps win tricks to come; a suit card's
    rank a little (ties go to the lower card), a court card more (it may win a trick later);
    the Fool its one escape."""
    if card == FOOL:
        return FOOL_KEEP
    if is_trump(card):
        return 0.12 * rank(card) + (1.0 if rank(card) >= 19 else 0.0)
    return 0.05 * rank(card) + 0.3 * max(0, rank(card) - 10)


def worth_of(reading: Reading, card: str) -> float:
    """Expected points of difference for the partnership if `card` is played now."""
    me = reading.seat
    if card == FOOL:
        if not reading.plays and reading.cards_left > 1:
            return -50.0  # leading the Fool gives the next player the lead for nothing
        plays = reading.plays
        fool_cost = FOOL_KEEP if reading.cards_left > 1 else 0.0
        if not any(c != FOOL for _s, c, _a in plays):
            return -fool_cost - FOOL_PAYMENT / 2
        ours = chance_ours(reading, plays)
        us, them = trick_values(reading, plays)
        return ours * us - (1 - ours) * (them + FOOL_PAYMENT) - fool_cost
    plays = [*reading.plays, [me, card, card in reading.as_led]]
    ours = chance_ours(reading, plays)
    us, them = trick_values(reading, plays)
    if card == WORLD:  # it wins whenever it is played: its own points are the team's anyway
        us -= reading.value(card, reading.team, False)
    return ours * us - (1 - ours) * them - spend_cost(card)


def chance_ours(reading: Reading, plays: list[list[Any]]) -> float:
    """The chance the trick ends with the partnership, the seats after this one playing in
    turn: each may beat the best card so far (then with a middling card of those that beat it),
    so a partner's likely win is weighed against the opponents after it."""
    if not any(c != FOOL for _s, c, _a in plays):
        return 0.5
    leading = winner(plays)
    best = next(c for s, c, _a in plays if s == leading)
    led = led_suit(plays)
    assert led is not None
    branches = [(1.0, best, team_of(leading) == reading.team)]
    for seat in reading.after:
        ours = team_of(seat) == reading.team
        grown = []
        for chance, card, holding in branches:
            beat = reading.beats(seat, card, led)
            if beat > 0.0:
                grown.append((chance * beat, reading.beating_card(seat, card, led), ours))
            if beat < 1.0:
                grown.append((chance * (1 - beat), card, holding))
        branches = grown
    return sum(chance for chance, _card, holding in branches if holding)


def trick_values(reading: Reading, plays: list[list[Any]]) -> tuple[float, float]:
    """What the trick is worth to the partnership if it takes it, and to the opponents."""
    cards = [c for _s, c, _a in plays if c != FOOL]
    voided = False
    if reading.rules.g_suit is not None and cards:
        voided = suit(next(c for s, c, _a in plays if s == winner(plays))) == reading.rules.g_suit
    extra = EXPECTED_ADD * len(reading.after) + 1
    us = sum(reading.value(c, reading.team, voided) for c in cards) + extra
    them = sum(reading.value(c, 1 - reading.team, voided) for c in cards) + extra
    return us, them


POLICY = TarotPolicy()
