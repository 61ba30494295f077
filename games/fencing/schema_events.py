"""Table Fencing's event catalogue, the second half of its declared contract (`schema.py`
holds the actions and the view, and re-exports what is declared here): every event the engine
emits and its payload, and the words both halves use (pieces, balls, the prompts' kinds, a
move's record, which the view shows again as the last move and the theme).

`tests/test_schemas.py` checks, on seeded games, that every event's data has exactly the keys
declared here; `cogs/fencing/events.py` words each one by its payload type.
"""

# No `from __future__ import annotations` here: on Python 3.11 a TypedDict only counts a key as
# NotRequired (`__optional_keys__`, which the shape test reads) when its annotation is evaluated.
from typing import Literal, TypedDict

Piece = Literal["BK", "WR", "BN", "WN", "WB"]
Colour = Literal["B", "W"]
Ball = Literal["yellow", "purple", "pinkie"]
AnthemPart = Literal["noise", "lyrics", "hat", "hail"]
DuelPurpose = Literal["golf_top", "golf_low", "hose"]
#: How a Thrust or war step came out (rules 5-9).
Result = Literal["high", "trump", "triple", "parry", "war_win"]
#: The main prompt open now (`tally` and `end` wait for penalties; `drawing` only between a
#: hat race and the redraw, `over` once the game is).
PromptKind = Literal["game", "gun", "stamp", "first_attack", "thrust", "hat", "golf", "catch", "handout",
                     "duel", "tally", "move", "attack", "end", "anthem", "drawing", "over"]

#: One move of a piece (`from` is a Python keyword: the functional syntax).
MoveRecord = TypedDict("MoveRecord", {"piece": Piece, "from": str, "to": str, "route": list[str], "km": int,
                                      "offroad": bool})


class ThemeView(TypedDict):
    """The theme that won the bumper (rule 22): its two moves (M1, M2) and the towns both passed."""

    seat: int
    moves: list[MoveRecord]
    through: list[str]


# ----- events ----------------------------------------------------------------------------------
class Seat(TypedDict):
    """An event about one seat and nothing more."""

    seat: int


class Seats(TypedDict):
    seats: list[int]


class MaybeSeat(TypedDict):
    """A press the game may have made itself (None: the timer did)."""

    seat: int | None


class DuelDice(TypedDict):
    seats: list[int]
    rolls: list[int]


class DuelStart(TypedDict):
    seats: list[int]
    purpose: DuelPurpose
    mode: Literal["sleeper", "dice"]


class DuelInsult(TypedDict):
    seat: int
    text: str
    skipped: bool


DuelApplause = TypedDict("DuelApplause", {"seat": int, "for": int})


class DuelSnaps(TypedDict):
    seats: list[int]
    times: list[int | None]
    S: int
    ok: list[bool]


class TooLate(TypedDict):
    seat: int
    prompt: PromptKind | Literal["penalty"]


class Missed(TypedDict):
    seat: int
    misses: int


class CatchOpen(TypedDict):
    seat: int
    ball: Ball


class Cancelled(TypedDict):
    missing: list[int]


class Resumed(TypedDict):
    at: int


class HatKept(TypedDict):
    seat: int
    keep: bool


class Stamped(TypedDict):
    seat: int
    which: Literal["open", "close"]
    by_bot: bool


class GolfClosed(TypedDict):
    seat: int
    timeout: bool


class Bumper(TypedDict):
    no: int
    start: int


class ChocolateDealt(TypedDict):
    seat: int
    chocolate: int


class Rolls(TypedDict):
    rolls: list[int]


class GolfBall(TypedDict):
    seat: int
    ball: Literal["yellow", "purple"]


class DuelWon(TypedDict):
    seat: int
    loser: int
    purpose: DuelPurpose


class ThrustCalled(TypedDict):
    seat: int | None
    trick: int


class Drawn(TypedDict):
    """A Thrust or war step: the cards by seat and how they came out."""

    cards: list[str]
    result: Result
    level: int
    warriors: list[int] | None
    parrier: int | None


class TrickWon(TypedDict):
    seat: int
    how: Result
    level: int
    dice: list[int]
    mult: int
    total: int


class Trick(TypedDict):
    trick: int


class HatDonned(TypedDict):
    seat: int
    at: int


class HatRace(TypedDict):
    presses: dict[str, int]
    payers: list[int]
    missed: list[int]


class QuickSwitch(TypedDict):
    seat: int
    yellow: int


class Throw(TypedDict):
    seat: int
    to: int
    ball: Ball
    wild: bool


Caught = TypedDict("Caught", {"seat": int, "ball": Ball, "from": int})


class Boxed(TypedDict):
    ball: Literal["yellow"]
    release_after_trick: int


class Hosed(TypedDict):
    seat: int
    target: int
    rolls: list[int]
    pollution: str


class HoseResult(TypedDict):
    seat: int
    target: int
    hoser_won: bool


class HandedOut(TypedDict):
    seat: int
    yellow: int
    purple: int
    timeout: bool


class Built(TypedDict):
    seat: int
    points: int
    why: Literal["dice", "yellow"]
    score: int


Control = TypedDict("Control", {"seat": int, "from": int | None})


class CatchCall(TypedDict):
    seat: int
    to: int


class Unboxed(TypedDict):
    seat: int
    ball: Literal["yellow"]


class Moved(MoveRecord):
    seat: int
    penalty: int


class Offroad(TypedDict):
    seat: int
    piece: Piece
    penalty: int


class Stayed(TypedDict):
    seat: int
    piece: Piece
    timeout: bool


class AttackCall(TypedDict):
    seat: int
    piece: Piece
    first: bool


class BumperWon(TypedDict):
    seat: int
    how: Literal["build", "theme"]
    bumper: int
    scores: list[int]


class AnthemStart(TypedDict):
    reader: int | None


class AnthemSung(TypedDict):
    seat: int
    part: AnthemPart


class AnthemEnd(TypedDict):
    auto: list[int]             # the seats the game hailed for
    words: str


class Surplus(TypedDict):
    seat: int
    count: int
    fate: Literal["eaten", "audience"]


class Champion(TypedDict):
    """The game's winner is the region's champion; the map is delivered to them."""

    old: int | None
    new: int
    map: str


class PenaltyOwed(TypedDict):
    seat: int
    reason: str


class PenaltyPrompt(TypedDict):
    seat: int
    reason: str
    queued: int


class Slide(TypedDict):
    seat: int
    points: int
    reason: str
    score: int


class ChocolateEaten(TypedDict):
    seat: int
    reason: str
    left: int
    timeout: bool


class Refused(TypedDict):
    """A typed command the rules refused (rule 24): the refusal's words and placeholders."""

    seat: int
    reason: str
    rule: str | None
    seats: dict[str, int]


class Miscue(TypedDict):
    seat: int
    rule: str | None
    count: int


class ButtKick(TypedDict):
    seat: int
    kicks: int


EventKind = Literal[
    "duel_dice", "duel_start", "duel_insult", "duel_applause", "duel_count_prompt", "duel_count", "duel_snap",
    "duel_snaps", "too_late", "missed", "afk_forfeit", "catch_open", "cancelled", "resumed", "hat_keep", "game",
    "stamp", "golf_closed", "gun", "bumper", "chocolate_dealt", "golf_roll", "golf_ball", "duel_won",
    "thrust_called", "thrust", "war_step", "trick_won", "triple", "hat", "hat_race", "quick_switch", "throw",
    "catch", "drop", "box", "mitt", "hose", "hose_result", "both_balls", "handout", "build", "control",
    "catch_call", "unbox", "move", "offroad", "theme", "stay", "attack_call", "hats_off", "bumper_won",
    "anthem_start", "anthem", "anthem_end", "surplus", "champion", "penalty", "penalty_prompt", "slide",
    "chocolate", "refused", "miscue", "butt_kick", "forfeit"]
#: The event catalogue: every event type the engine emits and its payload.
EVENTS: dict[EventKind, type] = {
    "duel_dice": DuelDice, "duel_start": DuelStart, "duel_insult": DuelInsult, "duel_applause": DuelApplause,
    "duel_count_prompt": Seat, "duel_count": MaybeSeat, "duel_snap": Seat, "duel_snaps": DuelSnaps,
    "too_late": TooLate, "missed": Missed, "afk_forfeit": Seat, "catch_open": CatchOpen, "cancelled": Cancelled,
    "resumed": Resumed, "hat_keep": HatKept, "game": Seat, "stamp": Stamped, "golf_closed": GolfClosed,
    "gun": MaybeSeat, "bumper": Bumper, "chocolate_dealt": ChocolateDealt, "golf_roll": Rolls,
    "golf_ball": GolfBall, "duel_won": DuelWon, "thrust_called": ThrustCalled, "thrust": Drawn,
    "war_step": Drawn, "trick_won": TrickWon, "triple": Trick, "hat": HatDonned, "hat_race": HatRace,
    "quick_switch": QuickSwitch, "throw": Throw, "catch": Caught, "drop": Caught, "box": Boxed, "mitt": Seat,
    "hose": Hosed, "hose_result": HoseResult, "both_balls": Seat, "handout": HandedOut, "build": Built,
    "control": Control, "catch_call": CatchCall, "unbox": Unboxed, "move": Moved, "offroad": Offroad,
    "theme": ThemeView, "stay": Stayed, "attack_call": AttackCall, "hats_off": Seats, "bumper_won": BumperWon,
    "anthem_start": AnthemStart, "anthem": AnthemSung, "anthem_end": AnthemEnd, "surplus": Surplus,
    "champion": Champion, "penalty": PenaltyOwed, "penalty_prompt": PenaltyPrompt, "slide": Slide,
    "chocolate": ChocolateEaten, "refused": Refused, "miscue": Miscue, "butt_kick": ButtKick, "forfeit": Seat,
}
