"""The Two Fat Dudes computer player: it counts, then haggles.

Everything in this game is public, so the policy can value any position exactly: the
expected difference of the two final totals (Red's minus Blue's, end penalties included)
if both dudes keep rolling and every later encounter is settled by the Edge, its holder
choosing whatever is best for them. That value (`value`, memoised over the few thousand
positions a game can reach) is the policy's whole judgement:

- **The Edge:** send back whoever going back costs more (usually the other dude; early, with
  a 5-point fee and a good home half to re-walk, sometimes itself).
- **Haggling:** a deal swaps the dudes (both score their new spaces) and moves the agreed
  points. It is worth doing when the swap beats what the Edge would do by more than the
  points paid: the fair price is half that difference (a point paid is a point the other
  gains). The policy opens well above fair and comes down toward fair as the offers of the
  encounter run out, accepts any offer at least as good as no deal, counters one that is far
  off while counters remain, and declines the rest. When the swap and the Edge come to
  nearly the same, it says No deal rather than pay a point for an offer.

Scores do not enter the value (it is a difference, and points already scored are scored), so
the policy plays for points, not for the margin; behind in a race, points are all there is.
"""

from __future__ import annotations

import random
from functools import cache

from games.computer import Asked, Policy
from games.core import Action
from games.hallway import schema
from games.hallway.board import EXIT, LENGTH, START, STEP, encounter_fee, left_penalty, points
from games.hallway.schema import SeatView, Who
from games.hallway.state import FINAL_ENCOUNTER, MAX_AMOUNT, OFFER_LIMIT

DIE = 4


def _place(seat: int, pos: int) -> tuple[int, bool]:
    """Where a token ends (clamped to its exit) and whether that takes it out."""
    if (seat == 0 and pos >= LENGTH) or (seat == 1 and pos <= 0):
        return EXIT[seat], True
    return pos, False


def _land(seat: int, pos: int, out: bool) -> int:
    """The landing's points as Red-minus-Blue (an exited dude scores nothing)."""
    gained = 0 if out else points(seat, pos)
    return gained if seat == 0 else -gained


def _finish(pos: tuple[int, int], out: tuple[bool, bool]) -> float:
    """End scoring (rule 17) as Red-minus-Blue."""
    return float((0 if out[1] else left_penalty(1, pos[1])) - (0 if out[0] else left_penalty(0, pos[0])))


def _end_turn(pos: tuple[int, int], enc: int, passed: bool, edge: int, mover: int,
              out: tuple[bool, bool], start: int) -> float:
    """Rule 16: the game ends, or the other dude's turn comes."""
    second = 1 - start
    if out[second] or (out[start] and mover == second):
        return _finish(pos, out)
    if passed:  # once past, encounters and the Edge no longer matter: one key for all
        enc, edge = FINAL_ENCOUNTER + 1, 0
    return value(pos[0], pos[1], enc, passed, edge, 1 - mover, out[0], out[1], start)


@cache
def value(p0: int, p1: int, enc: int, passed: bool, edge: int, turn: int, x0: bool, x1: bool,
          start: int) -> float:
    """Expected Red-minus-Blue points from here to the end, `turn` about to roll."""
    if not passed and enc == FINAL_ENCOUNTER and p1 - p0 == 1:
        return _slippery_standoff(p0, p1, edge, turn, start)
    total = 0.0
    for roll in range(1, DIE + 1):
        total += after_roll(p0, p1, enc, passed, edge, turn, x0, x1, start, roll)
    return total / DIE


def _slippery_standoff(p0: int, p1: int, edge: int, turn: int, start: int) -> float:
    """Side by side after the fourth encounter, a 1 stands still and re-scores (rule 14), so
    the two turns may repeat forever: V_t = A_t + V_(other)/4, solved for V_turn."""
    def rest(mover: int) -> float:  # the rolls that slip past, and a 1's points, each /4
        total: float = _land(mover, (p0, p1)[mover], False)
        for roll in range(2, DIE + 1):
            total += after_roll(p0, p1, FINAL_ENCOUNTER, False, edge, mover, False, False, start, roll)
        return total / DIE
    here, there = rest(turn), rest(1 - turn)
    return (here + there / DIE) / (1 - 1 / DIE**2)


def after_roll(p0: int, p1: int, enc: int, passed: bool, edge: int, mover: int, x0: bool, x1: bool,
               start: int, roll: int) -> float:
    pos = [p0, p1]
    out = [x0, x1]
    here, there = pos[mover], pos[1 - mover]
    if passed:
        pos[mover], out[mover] = _place(mover, here + STEP[mover] * roll)
        gained = _land(mover, pos[mover], out[mover])
        return gained + _end_turn((pos[0], pos[1]), enc, True, edge, mover, (out[0], out[1]), start)
    gap = abs(there - here)
    beside = there - STEP[mover]
    if roll < gap:
        pos[mover] = here + STEP[mover] * roll
    elif enc < FINAL_ENCOUNTER:  # an encounter: stop beside, score it, then no deal → the Edge
        pos[mover] = beside
        gained = _land(mover, beside, False)
        return gained + edge_value(pos[0], pos[1], enc + 1, edge, mover, start)[0]
    elif roll == gap:
        pos[mover] = beside
    else:
        pos[mover] = there + STEP[mover]
        gained = _land(mover, pos[mover], False)
        return gained + _end_turn((pos[0], pos[1]), FINAL_ENCOUNTER + 1, True, edge, mover, (False, False), start)
    gained = _land(mover, pos[mover], False)
    return gained + _end_turn((pos[0], pos[1]), enc, False, edge, mover, (False, False), start)


@cache
def edge_value(p0: int, p1: int, enc: int, edge: int, mover: int, start: int) -> tuple[float, Who]:
    """No deal at encounter `enc` (already counted): the holder's best choice and its value
    (Red-minus-Blue), from the moment before anyone goes back."""
    fee = encounter_fee(enc)
    options: list[tuple[float, Who]] = []
    back: Who
    for back in ("me", "you"):
        goer = edge if back == "me" else 1 - edge
        pos = [p0, p1]
        pos[goer] = START[goer]
        paid = -fee if goer == 0 else fee
        options.append((paid + _end_turn((pos[0], pos[1]), enc, False, 1 - edge, mover, (False, False), start),
                        back))
    best = max if edge == 0 else min
    return best(options, key=lambda option: option[0])


@cache
def swap_value(p0: int, p1: int, enc: int, edge: int, mover: int, start: int) -> float:
    """A deal without its payment: the dudes swap, both score (the mover first), passed."""
    pos, out = [p1, p0], [False, False]
    total = 0.0
    for s in (0, 1):
        pos[s], out[s] = _place(s, pos[s])
        total += _land(s, pos[s], out[s])
    return total + _end_turn((pos[0], pos[1]), enc, True, edge, mover, (out[0], out[1]), start)


def mine(seat: int, red_minus_blue: float) -> float:
    return red_minus_blue if seat == 0 else -red_minus_blue


class HallwayPolicy(Policy[SeatView]):
    summary = "counts every space, haggles to a fair price, and uses the Edge where it hurts"

    #: How much better than the fair price the first offer asks; it comes down toward fair as
    #: the offers of the encounter run out.
    opening_margin = 15
    #: An offer costs a point and a sensible opponent concedes little: offer only when the
    #: swap and the Edge differ by more than this.
    worth_offering = 10.0
    #: Counter only an offer at least this far from fair (else decline, or accept).
    worth_countering = 6.0

    def choose(self, view: SeatView, asked: Asked, rng: random.Random) -> Action:
        return dict(self.decide(view, asked.seat))

    def decide(self, view: SeatView, seat: int) -> schema.Action:
        phase = view["phase"]
        if phase == "edge":
            return {"type": "edge", "back": self.edge_choice(view)}
        if phase == "negotiate":
            return self.haggle(view, seat)
        return {"type": "roll"}

    # ----- the Edge ------------------------------------------------------------------
    @staticmethod
    def edge_choice(view: SeatView) -> Who:
        p0, p1 = view["pos"]
        return edge_value(p0, p1, view["encounters"], *acting(view))[1]

    # ----- haggling -------------------------------------------------------------------
    @staticmethod
    def stakes(view: SeatView, seat: int) -> tuple[float, float]:
        """(no deal, the swap without payment), each as this seat's expected margin."""
        p0, p1 = view["pos"]
        enc = view["encounters"]
        edge, mover, start = acting(view)
        no_deal = mine(seat, edge_value(p0, p1, enc, edge, mover, start)[0])
        swap = mine(seat, swap_value(p0, p1, enc, edge, mover, start))
        return no_deal, swap

    def haggle(self, view: SeatView, seat: int) -> schema.Action:
        nego = view["negotiation"]
        assert nego is not None, "haggling only in the negotiate phase"
        no_deal, swap = self.stakes(view, seat)
        # The points this seat must receive (negative: may pay) for the deal to equal no deal.
        fair = (no_deal - swap) / 2
        offers = nego["offers"]
        pending = nego["pending"]
        if pending is not None and pending["maker"] != seat:
            received = pending["amount"] if pending["payer"] != seat else -pending["amount"]
            if received >= fair:
                return {"type": "accept"}
            if offers < nego["limit"] and received < fair - self.worth_countering:
                return self.offer(fair, offers, seat)
            return {"type": "decline"}
        if abs(swap - no_deal) <= self.worth_offering:
            return {"type": "nodeal"}  # too little at stake to pay for an offer
        return self.offer(fair, offers, seat)

    def offer(self, fair: float, offers: int, seat: int) -> schema.Offer:
        """Ask a little better than fair, less so as the haggling goes on."""
        margin = max(1.0, self.opening_margin * (1 - offers / OFFER_LIMIT))
        wanted = fair + margin  # signed: what this seat receives
        if wanted >= 0:
            return {"type": "offer", "payer": "you", "amount": min(MAX_AMOUNT, int(wanted + 0.999))}
        return {"type": "offer", "payer": "me", "amount": min(MAX_AMOUNT, int(-wanted))}


def acting(view: SeatView) -> tuple[int, int, int]:
    """(the Edge's holder, whose turn, the start player): set once the roll-off is over."""
    edge, turn, start = view["edge"], view["turn"], view["start"]
    assert edge is not None and turn is not None and start is not None, "the roll-off is over"
    return edge, turn, start


def warm() -> None:
    """Value every position a game can reach from either start (about 0.15 s, once per
    process), so no decision pays for it."""
    for start in (0, 1):
        value(START[0], START[1], 0, False, 1 - start, start, False, False, start)


warm()
POLICY = HallwayPolicy()
