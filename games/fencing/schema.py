"""Table Fencing's declared contract: the actions a player (or the game's own timers) may send,
the events the engine emits, and the view the table screen, the map and the computer player
read (docs/engines.md).

Nothing in this game is private: `engine.view` returns the public view with `seat` set to the
seat asking (None for the table), so `SeatView` is `PublicView`. Only the RNG's future stays
out (deck order, a catch's `opens_at` before it opens, a duel's S before the snaps are
judged). mypy (strict, `tasks.py lint`) checks `views.py`, `ai.py`, `ai_plan.py` and the cogs'
modules against it; `tests/test_schemas.py` checks seeded games' events, views and listed
actions key by key. Actions arrive as untrusted JSON, so the engine still checks each field.

Seats are ints 0-2, towns region ids ("COL"), pieces "BK" "WR" "BN" "WN" "WB", cards strings
like "7H" "10S" "AD" "KC" (`cards.card_value`), times integer ms on the game clock (the `now`
of actions, x1000). Fields are only ever added.
"""

# No `from __future__ import annotations` here: on Python 3.11 a TypedDict only counts a key as
# NotRequired (`__optional_keys__`, which the shape test reads) when its annotation is evaluated.
from typing import Literal, NotRequired, TypedDict

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

# ----- actions -------------------------------------------------------------------------------
Kind = Literal["game", "fire", "stamp", "thrust", "don", "quickswitch", "done", "catch", "count", "snap",
               "stay", "attack", "hose", "handout", "insult", "applaud", "move", "anthem", "pay", "hat",
               "expire", "catch_open", "resume"]


class Press(TypedDict):
    """A button with nothing but its name: GAME!, the gun, a stamp, Thrust, Don hat!, a
    quick-switch, Done, Catch!, the Count, Snap back!, Stay."""

    type: Literal["game", "fire", "stamp", "thrust", "don", "quickswitch", "done", "catch", "count", "snap",
                  "stay"]
    timeout: NotRequired[bool]  # runtime-only: a timer pressed it for the player (or the game)
    typed: NotRequired[bool]    # runtime-only: typed as a slash command (a rule broken is a miscue)


class Attack(TypedDict):
    """Call the attacked piece (rules 2, 20)."""

    type: Literal["attack"]
    piece: Piece
    timeout: NotRequired[bool]


class Hose(TypedDict):
    """Hose `target` (rule 12); a typed target that names nobody arrives as None."""

    type: Literal["hose"]
    target: int | None
    typed: NotRequired[bool]


class Handout(TypedDict):
    """Hand out both golf balls: yellow to `yellow`, purple to the third (rule 13)."""

    type: Literal["handout"]
    yellow: int
    timeout: NotRequired[bool]


class InsultForm(TypedDict):
    """The Insult button before its form adds the text."""

    type: Literal["insult"]


class Insult(InsultForm):
    """A duellist's insult ("" skips)."""

    text: str


class Applaud(TypedDict):
    type: Literal["applaud"]
    who: int


class Move(TypedDict):
    """Move the attacked piece to `to` by the road through `via` (rule 19: without it the
    default road), or the straight line off the road (rule 18). Typed, `piece` and `to` may
    name anything: the engine judges."""

    type: Literal["move"]
    piece: str
    to: str
    via: NotRequired[list[str]]
    offroad: bool
    typed: NotRequired[bool]


class AnthemAction(TypedDict):
    type: Literal["anthem"]
    part: AnthemPart


class Pay(TypedDict):
    """Pay the penalty at the head of the seat's queue (rule 23)."""

    type: Literal["pay"]
    how: Literal["chocolate", "slide"]
    timeout: NotRequired[bool]


class HatKeep(TypedDict):
    """`/fencing hat`: keep the hat on after the trick, or take it off then (rule 9)."""

    type: Literal["hat"]
    keep: bool
    typed: NotRequired[bool]


class Timer(TypedDict):
    """The game's own timers (seat None): a race or window ran out, a thrown ball opens."""

    type: Literal["expire", "catch_open"]
    timeout: bool


class Resume(TypedDict):
    """After a restart (`Engine.resume_action`): passed deadlines move on, waits get new keys."""

    type: Literal["resume"]


Action = (Press | Attack | Hose | Handout | Insult | Applaud | Move | AnthemAction | Pay | HatKeep | Timer
          | Resume)
#: Each kind's payload, for the shape check of listed actions.
ACTIONS: dict[Kind, type] = {
    "game": Press, "fire": Press, "stamp": Press, "thrust": Press, "don": Press, "quickswitch": Press,
    "done": Press, "catch": Press, "count": Press, "snap": Press, "stay": Press, "attack": Attack,
    "hose": Hose, "handout": Handout, "insult": Insult, "applaud": Applaud, "move": Move,
    "anthem": AnthemAction, "pay": Pay, "hat": HatKeep, "expire": Timer, "catch_open": Timer, "resume": Resume,
}


# ----- the view --------------------------------------------------------------------------------
class Stamps(TypedDict):
    """One bumper's stamps: "self" (the player pressed), "bot" (stamped at the timeout) or None."""

    open: Literal["self", "bot"] | None
    close: Literal["self", "bot"] | None


class PlayerView(TypedDict):
    seat: int
    score: int                  # the current bumper (may be negative)
    bumpers_won: int
    bumper_scores: list[int]    # each finished bumper's final score
    chocolate: int
    hat_on: bool
    hat_keep: bool
    stamps: list[Stamps]        # index = bumper_no - 1
    afk_misses: int
    miscues: int
    butt_kicks: int
    choc_eaten: int
    themes: int
    builds: int                 # points built over the game (dice and yellow)
    hats: int                   # times a hat was donned
    applause: int               # applause received for insults
    deck_left: int              # cards left in the deck (the order is secret)
    deck_colour: Literal["red", "blue"]  # "red" for the Start (cosmetic)


class PieceView(TypedDict):
    town: str
    colour: Colour
    offroad: bool               # stands on a town with no road allowed at this difficulty


class YellowView(TypedDict):
    holder: int | None
    boxed_until: int | None     # released after that trick's control step (rule 16)


class StepView(TypedDict):
    """One drawing of cards: the Thrust (all three) or a war step (the third seat parries)."""

    kind: Literal["thrust", "war"]
    cards: list[str]            # by seat
    warriors: list[int] | None  # the warriors this step was drawn for (None: the Thrust)
    parrier: int | None
    result: Result
    level: int                  # trump level after this step
    winner: int | None


class Build(TypedDict):
    dice: list[int]
    mult: int
    total: int


class TrickView(TypedDict):
    no: int
    attacked: Piece | None
    level: int                  # trump level
    steps: list[StepView]
    warriors: list[int] | None  # the current war's warriors
    parrier: int | None
    winner: int | None
    how: Result | None          # the winning step's result
    build: Build | None
    qs_used: bool
    hose_used: bool


#: One move of a piece (`from` is a Python keyword: the functional syntax).
MoveRecord = TypedDict("MoveRecord", {"piece": Piece, "from": str, "to": str, "route": list[str], "km": int,
                                      "offroad": bool})


class RouteView(TypedDict):
    via: list[str]              # towns between origin and destination, in order
    route: list[str]            # every town entered (via + destination)
    km: int
    offroad: bool               # the straight line (rule 18)
    penalty: int                # 1 when leaving the road costs a penalty
    default: bool               # rule 19's default for this destination


class DestinationView(TypedDict):
    to: str | None              # None = Stay (always first)
    km: int                     # cheapest cost
    penalty: int                # cheapest penalty among the cheapest routes
    routes: list[RouteView]


class MoveMenuView(TypedDict):
    piece: Piece
    origin: str
    controller: int
    destinations: list[DestinationView]


class DuelView(TypedDict):
    """A yo-yo duel's public facts (the hidden S stays out until judged)."""

    seats: list[int]
    third: int
    stage: Literal["insult", "count", "snap"]
    insults: list[str | None]   # None: not posted (or skipped)
    skipped: list[bool]
    applauded: list[bool]
    t0: int | None              # when the Count threw
    snapped: list[bool]


class PromptView(TypedDict):
    """The main prompt open now: `seats` are the seats it waits on; `opened_at` and `deadline`
    are None while the moment is hidden (a catch before it opens). The other keys are present
    only for their kinds."""

    kind: PromptKind
    seats: list[int]
    opened_at: int | None
    deadline: int | None
    pressed: NotRequired[list[bool]]          # game, anthem (hail pressed), hat (donned in this race)
    which: NotRequired[Literal["open", "close"]]  # stamp
    stamped: NotRequired[list[Literal["self", "bot"] | None]]  # stamp: per seat
    presses: NotRequired[dict[str, int]]      # hat: seat (as str) -> press ms after the race opened
    bare: NotRequired[list[int]]              # hat: the seats that must don
    holder: NotRequired[int]                  # golf window, handout
    qs_available: NotRequired[bool]           # golf: a quick-switch may be called now
    hose_targets: NotRequired[list[int]]      # golf: who may be hosed now
    ball: NotRequired[Ball]                   # catch
    thrower: NotRequired[int]                 # catch
    receiver: NotRequired[int]                # catch
    open: NotRequired[bool]                   # catch: the Catch button is enabled
    purpose: NotRequired[Literal["qs1", "qs2", "pinkie", "golf_top", "golf_low", "hose"]]  # catch, duel
    duel: NotRequired[DuelView]               # duel
    piece: NotRequired[Piece]                 # move: the attacked piece
    parts: NotRequired[list[list[AnthemPart]]]  # anthem: per seat, the parts pressed
    reader: NotRequired[int | None]           # anthem: the champion who reads the lyrics (None: the bot)


class PenaltyView(TypedDict):
    seat: int
    reason: str                 # the rule label or cause ("9", "11", "12", "15", "18", "24")
    deadline: int | None        # the open prompt's deadline (the head of this seat's queue)
    queued: int                 # further penalties waiting behind it


class StreakView(TypedDict):
    owner: int | None
    last_move: MoveRecord | None


class ThemeView(TypedDict):
    """The theme that won the bumper (rule 22): its two moves (M1, M2) and the towns both passed."""

    seat: int
    moves: list[MoveRecord]
    through: list[str]


class Options(TypedDict):
    """The game's options (`FencingEngine.options`)."""

    direction: Literal["cw", "ccw"]
    region: str
    difficulty: Literal["interstate", "state", "backroads"]
    duel_mode: Literal["sleeper", "dice"]
    offroad: Literal["on", "off"]
    carpet: Literal["other", "blue"]
    timers: Literal["live", "async"]
    champion: int


class PublicView(TypedDict):
    """The whole table; per-seat lists are indexed by seat."""

    seat: int | None            # whose view (None: the table)
    region: str
    difficulty: Literal["interstate", "state", "backroads"]
    direction: Literal["cw", "ccw"]
    options: Options
    bumper_no: int
    trick_no: int
    start: int
    champion: int | None        # the seated region champion, if any
    clock_started_at: int | None
    players: list[PlayerView]
    pieces: dict[str, PieceView]
    control: int | None         # also the pinkie holder
    mitt: int | None
    yellow: YellowView
    purple: int | None
    attacked: Piece | None
    choc_supply: int
    trick: TrickView | None
    last_trick: TrickView | None
    streak: StreakView
    last_move: MoveRecord | None  # the latest move of the bumper, kept across changes of control
    theme: ThemeView | None     # the theme that just won the bumper (until the next bumper opens)
    prompt: PromptView
    penalties: list[PenaltyView]
    moves: MoveMenuView | None  # the controller's menu while the move prompt is open
    attack_choices: list[Piece]  # pieces the controller may call (attack / first_attack prompts)
    winner: int | None          # the game's winner once over
    over: bool


SeatView = PublicView


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
