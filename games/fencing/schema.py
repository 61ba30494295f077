"""Table Fencing's declared contract: the actions a player (or the game's own timers) may send,
the events the engine emits (their catalogue in `schema_events.py`, re-exported here), and the view
the table screen, the map and the computer player read (docs/engines.md).

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

# The event catalogue and the words both halves use live in schema_events.py (re-exported here).
from games.fencing.schema_events import EVENTS as EVENTS
from games.fencing.schema_events import AnthemPart as AnthemPart
from games.fencing.schema_events import Ball as Ball
from games.fencing.schema_events import Colour as Colour
from games.fencing.schema_events import DuelPurpose as DuelPurpose
from games.fencing.schema_events import EventKind as EventKind
from games.fencing.schema_events import MoveRecord as MoveRecord
from games.fencing.schema_events import Piece as Piece
from games.fencing.schema_events import PromptKind as PromptKind
from games.fencing.schema_events import Result as Result
from games.fencing.schema_events import ThemeView as ThemeView

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


#: A duel's stages: the step of the phase "duel" (`engine.phase`).
DuelStage = Literal["insult", "count", "snap"]


class DuelView(TypedDict):
    """A yo-yo duel's public facts (the hidden S stays out until judged)."""

    seats: list[int]
    third: int
    stage: DuelStage
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
