"""Two Fat Dudes' declared contract: the actions a player may send, the events the engine
emits, and the view every screen, picture and computer player reads.

The engine's `view` returns `PublicView` and mypy (strict, `tasks.py lint`) checks it against
this file, as it checks `ai.py`, `cogs/hallway/ui.py` and `render.py` reading it: a key renamed
on either side fails lint. Actions arrive as untrusted JSON, so the engine still checks each
field (`negotiation.verify_offer`); what the UI and the policy send is built from the payloads
here. Event payloads are what `Event.data` holds; `tests/test_schemas.py` checks, on seeded
games, that every event, view and listed action has exactly the keys declared here.
Everything in this game is public, so a seat sees the public view (`SeatView`).
"""

# No `from __future__ import annotations` here: on Python 3.11 a TypedDict only counts a key as
# NotRequired (`__optional_keys__`, which the shape test reads) when its annotation is evaluated.
from typing import Literal, NotRequired, TypedDict

# ----- actions -------------------------------------------------------------------------------
Kind = Literal["roll", "offer", "accept", "decline", "nodeal", "edge"]
#: Who pays in an offer, or who goes back with the Edge, from the sender's mouth.
Who = Literal["me", "you"]


class Roll(TypedDict):
    """Roll the die: a turn, or a press in the roll-off (rules 2, 4)."""

    type: Literal["roll"]
    timeout: NotRequired[bool]  # runtime-only: a timer rolled for the dude


class OfferForm(TypedDict):
    """An offer's button before its modal adds the amount."""

    type: Literal["offer"]
    payer: Who


class Offer(OfferForm):
    """An offer or counter-offer: "I pay you 5" is payer "me" (rules 9-11)."""

    amount: int


class Accept(TypedDict):
    type: Literal["accept"]


class Decline(TypedDict):
    type: Literal["decline"]
    timeout: NotRequired[bool]


class NoDeal(TypedDict):
    type: Literal["nodeal"]
    timeout: NotRequired[bool]


class Edge(TypedDict):
    """The Edge holder sends someone back to their start (rule 12)."""

    type: Literal["edge"]
    back: Who
    timeout: NotRequired[bool]


Action = Roll | Offer | Accept | Decline | NoDeal | Edge
#: Each kind's payload, for the shape check of listed actions.
ACTIONS: dict[Kind, type] = {"roll": Roll, "offer": Offer, "accept": Accept, "decline": Decline,
                             "nodeal": NoDeal, "edge": Edge}


# ----- the view --------------------------------------------------------------------------------
Phase = Literal["rolloff", "turn", "negotiate", "edge", "over"]


class Space(TypedDict):
    """One position of the hallway (0-20); the semicircles have no number."""

    pos: int
    colour: Literal["R", "B", "G"]
    number: int | None
    label: str


class RolloffView(TypedDict):
    """The roll-off round: who has pressed Roll (the secret-choice block's public part) and
    the dice of earlier, tied rounds (Red's first)."""

    round: int
    key: str
    seats: list[int]
    chosen: list[int]
    past: list[list[int]]


class PendingOffer(TypedDict):
    """An offer waiting for its answer, in seats: `payer` pays `amount` to the other."""

    maker: int
    payer: int
    amount: int


class NegotiationView(TypedDict):
    offers: int
    limit: int
    nodeal: list[int]
    pending: PendingOffer | None


class LastRoll(TypedDict):
    seat: int
    roll: int


class Stats(TypedDict):
    """Per-dude figures for the leaderboard; `edge` lists each use of the Edge."""

    deals: int
    paid: int
    received: int
    offers: int
    edge: list[Who]


class Final(TypedDict):
    totals: list[int]
    ranks: list[int]


class PublicView(TypedDict):
    """The whole table; per-seat lists are indexed by seat (0 Red, 1 Blue)."""

    phase: Phase
    track: list[Space]
    pos: list[int]
    score: list[int]
    start: int | None
    turn: int | None
    round: int
    edge: int | None
    encounters: int
    fee: int
    passed: bool
    exited: list[int]
    penalty: list[int]
    rolloff: RolloffView
    negotiation: NegotiationView | None
    last_roll: LastRoll | None
    timeouts: list[int]
    stats: list[Stats]
    final: Final | None
    forfeit: int | None
    afk: bool


SeatView = PublicView


# ----- events ----------------------------------------------------------------------------------
class Score(TypedDict):
    """The ledger part of a score change: `delta` per seat and what caused it."""

    delta: list[int]
    kind: Literal["land", "offer", "deal", "fee"]


class Rolled(TypedDict):
    seat: int
    round: int
    timeout: NotRequired[bool]


class Rolloff(TypedDict):
    rolls: list[int]
    round: int


class RolloffTie(TypedDict):
    roll: int
    round: int  # the new round


class Start(TypedDict):
    start: int
    edge: int


How = Literal["walk", "bump", "blocked", "beside", "slip", "swap"]


class Exit(Score):
    """A dude left the hallway (nothing scored)."""

    seat: int
    pos: int
    how: How
    roll: NotRequired[int]
    timeout: NotRequired[bool]


class Land(Exit):
    """A dude landed on `pos` and scored it (rule 5); `score` is their total after."""

    score: int


class Encounter(TypedDict):
    encounter: int
    seat: int
    of: int


class Passed(TypedDict):
    how: Literal["final", "deal"]
    encounters: NotRequired[int]


class LastTurn(TypedDict):
    seat: int


class Penalty(TypedDict):
    seat: int
    steps: int
    penalty: int
    total: int


class Over(TypedDict):
    totals: list[int]
    ranks: list[int]
    reason: Literal["points", "exit", "shared"]
    winner: int | None
    exited: list[bool]


class OfferMade(Score):
    seat: int
    offer: PendingOffer
    counter: bool
    number: int
    limit: int
    score: int


class Deal(Score):
    seat: int
    payer: int
    amount: int
    scores: list[int]


class Declined(TypedDict):
    seat: int
    offer: PendingOffer
    edge: int
    timeout: NotRequired[bool]


class NoDealSaid(TypedDict):
    """A dude said No deal; `ended` once both have, or the timer ran out."""

    seat: int
    ended: bool
    timeout: bool
    edge: int


class EdgeUsed(Score):
    """`seat` used the Edge: `goer` went back and paid `fee`; `edge` is its new holder."""

    seat: int
    back: Who
    goer: int
    fee: int
    score: int
    edge: int
    timeout: NotRequired[bool]


class Afk(TypedDict):
    seat: int
    limit: int
    winner: int


class Forfeit(TypedDict):
    seat: int
    winner: int


EventKind = Literal["rolled", "rolloff", "rolloff_tie", "start", "land", "exit", "encounter", "passed",
                    "last_turn", "penalty", "over", "offer", "deal", "decline", "nodeal", "edge", "afk",
                    "forfeit"]
#: The event catalogue: every event type the engine emits and its payload.
EVENTS: dict[EventKind, type] = {
    "rolled": Rolled, "rolloff": Rolloff, "rolloff_tie": RolloffTie, "start": Start, "land": Land,
    "exit": Exit, "encounter": Encounter, "passed": Passed, "last_turn": LastTurn, "penalty": Penalty,
    "over": Over, "offer": OfferMade, "deal": Deal, "decline": Declined, "nodeal": NoDealSaid,
    "edge": EdgeUsed, "afk": Afk, "forfeit": Forfeit,
}
