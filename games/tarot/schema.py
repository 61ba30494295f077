"""Conference / League's declared contract: the actions a player may send, the events the
engine emits, and the views the screens, pictures and computer player read (docs/engines.md).

The engine's `view` returns `PublicView` for the table and `SeatView` for a seat: its hand and
what it may do now, nothing public besides (so a seat's DM changes only when its own situation
does), plus the table as the mover remembers it (`MoverTable`) while it must play. mypy
(strict, `tasks.py lint`) checks the engine, `ai.py`, `cogs/tarot/ui.py` and `render.py`
against them. Actions arrive as untrusted JSON: the engine still checks each field
(`hand.discard`, `tricks.verify_play`). The timers' own defaults for `play` and `discard`
(`{"type": "play", "timeout": True}`) name no card: the engine then picks the cheapest (§4);
no player or policy sends one. `tests/test_schemas.py` checks events, views and listed
actions of seeded games against this. A card is its id (`CU-K`, `SW-10`, `T21`, `FOOL`).
"""

# No `from __future__ import annotations` here: on Python 3.11 a TypedDict only counts a key as
# NotRequired (`__optional_keys__`, which the shape test reads) when its annotation is evaluated.
from typing import Literal, NotRequired, TypedDict

# ----- actions -------------------------------------------------------------------------------
Kind = Literal["discard", "nominate", "play", "call", "vote", "close"]
Suit = Literal["CU", "CO", "SW", "BA"]
#: A suit a trick can be led in: a regular suit or trumps (the Fool leads nothing).
LedSuit = Literal["CU", "CO", "SW", "BA", "T"]
CallChoice = Literal["ours", "yours", "pass"]
VoteChoice = Literal["continue", "abandon"]
#: An allegiance pair (R14): "round" is Cups & Coins, "long" Swords & Batons.
Pair = Literal["round", "long"]


class Discard(TypedDict):
    """The dealer's two cards face down (R4)."""

    type: Literal["discard"]
    cards: list[str]
    timeout: NotRequired[bool]  # runtime-only: the timer discarded for the dealer


class Nominate(TypedDict):
    """The dealer names the gallowglass suit, or none (R5)."""

    type: Literal["nominate"]
    suit: Suit | Literal["none"]
    timeout: NotRequired[bool]


class Play(TypedDict):
    type: Literal["play"]
    card: str
    timeout: NotRequired[bool]


class Call(TypedDict):
    """The holder of the corresponding Ace answers an Ace of Allegiance (R14b)."""

    type: Literal["call"]
    call: CallChoice


class Vote(TypedDict):
    """Wait for a player who let three turns pass, or abandon the game (§4)."""

    type: Literal["vote"]
    vote: VoteChoice
    timeout: NotRequired[bool]


class Close(TypedDict):
    """The runtime closes an Allegiance window when its time is up (seat None)."""

    type: Literal["close"]
    timeout: NotRequired[bool]


Action = Discard | Nominate | Play | Call | Vote | Close
#: Each kind's payload, for the shape check of listed actions.
ACTIONS: dict[Kind, type] = {"discard": Discard, "nominate": Nominate, "play": Play, "call": Call,
                             "vote": Vote, "close": Close}


# ----- the views -------------------------------------------------------------------------------
PhaseName = Literal["discard", "nominate", "play", "window", "over"]
#: A card on a trick as the JSON array `[seat, card, as_led]` (`as_led`: a gallowglass card
#: standing in for the led suit, R16a); `cogs/tarot` and `ai.py` read it with `unpack`.
Played = list[int | str | bool]


def unpack(play: Played) -> tuple[int, str, bool]:
    """A card on a trick as its typed parts (seat, card, as_led)."""
    seat, card, as_led = play
    return int(seat), str(card), bool(as_led)


class Trick(TypedDict):
    leader: int
    plays: list[Played]
    winner: int | None


class Fool(TypedDict):
    """The Fool, played: by whom, to which trick of the hand (0-based)."""

    owner: int
    trick: int


class CallMade(TypedDict):
    """An allegiance called (R14): `mapping[team]` is the pair that team scores from `period`."""

    seat: int
    ace: str
    shown: str
    call: Literal["ours", "yours"]
    team: int
    mapping: list[Pair]
    period: int


class WindowView(TypedDict):
    """An open Ace of Allegiance window as the table sees it: never who may call (R14a)."""

    ace: str
    seat: int


class VoteView(TypedDict):
    """The AFK vote on `seat`: each voter's seat (a string, JSON keys) and vote."""

    seat: int
    votes: dict[str, VoteChoice]


class AfkView(TypedDict):
    flagged: list[bool]
    vote: VoteView | None


#: The Fool's payment (R10): `from` is a Python keyword, so the functional syntax.
Payment = TypedDict("Payment", {"card": str, "from": int, "to": int, "trick": int})


class Breakdown(TypedDict):
    """A finished hand: per team (0 A, 1 B) totals, tricks, card points and game points won."""

    hand: int
    dealer: int
    league: bool
    g_suit: Suit | None
    calls: list[CallMade]
    totals: list[int]
    tricks: list[int]
    card_points: list[int]
    swing: list[int]
    declarer: int
    payment: Payment | None
    voided: list[str]
    discard: list[str]
    periods: list[list[Pair] | None]


class Options(TypedDict):
    """The game's options as resolved at the start (`TarotEngine.options`)."""

    mode: Literal["classic", "league"]
    conference: Literal["auto", "on", "off"]
    allegiances: bool
    allegiance_trumps_score: bool
    gallowglass: bool
    timers: Literal["live", "async"]


class PublicView(TypedDict):
    """The table; per-team lists are indexed by team (0 A, 1 B), per-seat lists by seat."""

    hand_no: int
    hands: int
    dealer: int
    mode: Literal["classic", "league"]
    direction: int
    options: Options
    conference: bool
    phase: PhaseName
    turn: int | None
    g_suit: Suit | None
    points: list[int]
    tricks_won: list[int]
    trick_no: int
    trick: Trick | None
    last_trick: Trick | None
    fool: Fool | None
    calls: list[CallMade]
    periods: list[list[Pair] | None]
    window: WindowView | None
    played_aces: list[str]
    hand_sizes: list[int]
    discarded: bool
    afk: AfkView
    history: list[Breakdown]
    over: bool
    abandoned: int | None


class MoverTable(TypedDict):
    """What a seat about to play remembers of the table: this hand's tricks, the Fool, the
    allegiance periods (shown only while it must play, so the other DMs stay put)."""

    tricks: list[Trick]
    g_suit: Suit | None
    direction: int
    league: bool
    fool: Fool | None
    periods: list[list[Pair] | None]
    hand_sizes: list[int]
    points: list[int]
    trumps_score: bool


class CanCall(TypedDict):
    """To the one seat that may answer an Ace of Allegiance: the Ace, the one it would show."""

    ace: str
    shown: str
    passed: bool


class SeatView(TypedDict):
    """A seat's own screen: its sorted hand, the cards it may play now (`as_led`: those it
    may play as the led suit `led`), the dealer's discard and its choices."""

    seat: int
    hand_no: int
    hands: int
    dealer: int
    allegiances: bool
    hand: list[str]
    legal: list[str]
    as_led: list[str]
    led: LedSuit | None
    window: bool
    nominate: bool
    table: NotRequired[MoverTable]
    discard: NotRequired[list[str]]
    discard_options: NotRequired[list[str]]
    discard_trumps: NotRequired[int]
    can_call: NotRequired[CanCall]


# ----- events ----------------------------------------------------------------------------------
class Seat(TypedDict):
    """An event about one seat and nothing more (discarded, passed, afk, back, …)."""

    seat: int


class Dealt(TypedDict):
    hand: int
    dealer: int
    league: bool
    direction: int


class DiscardMade(TypedDict):
    """To the dealer only: the two cards discarded."""

    cards: list[str]


class Nominated(TypedDict):
    seat: int
    suit: Suit | None


class CardPlayed(TypedDict):
    seat: int
    card: str
    as_led: bool
    timeout: bool


class TrickWon(TypedDict):
    winner: int
    number: int
    plays: list[Played]


class WindowOpened(TypedDict):
    ace: str
    seat: int


class MayCall(TypedDict):
    """To the one seat that may call only: the Ace played and the one it would show."""

    ace: str
    shown: str


class Called(TypedDict):
    seat: int
    ace: str
    shown: str
    call: Literal["ours", "yours"]
    mapping: list[Pair]


class Nothing(TypedDict):
    """An event with no payload (the window closed)."""


class HandEnd(TypedDict):
    hand: int
    totals: list[int]
    swing: list[int]
    points: list[int]
    payment: Payment | None


class Voted(TypedDict):
    seat: int
    vote: VoteChoice


EventKind = Literal["dealt", "discarded", "discard_made", "nominated", "played", "trick", "window",
                    "may_call", "passed", "called", "window_closed", "hand_end", "afk", "voted",
                    "continued", "abandoned", "back", "forfeit"]
#: The event catalogue: every event type the engine emits and its payload.
EVENTS: dict[EventKind, type] = {
    "dealt": Dealt, "discarded": Seat, "discard_made": DiscardMade, "nominated": Nominated,
    "played": CardPlayed, "trick": TrickWon, "window": WindowOpened, "may_call": MayCall,
    "passed": Seat, "called": Called, "window_closed": Nothing, "hand_end": HandEnd, "afk": Seat,
    "voted": Voted, "continued": Seat, "abandoned": Seat, "back": Seat, "forfeit": Seat,
}
