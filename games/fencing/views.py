"""What the table sees (spec §4): Table Fencing has no private information, so every seat's
view is the public view plus `"seat"`. Only the RNG's future stays out: deck order, a
catch's `opens_at` before the catch opens, a duel's S before the snaps are judged.

The shape below is a contract with the renderer and the UI: fields are only ever added.
Seats are ints 0-2, towns are region ids ("COL"), pieces "BK" "WR" "BN" "WN" "WB", cards
strings like "7H" "10S" "AD" "KC" (value = `card_value`), times integer ms on the game clock
(the `now` of actions, x1000).
"""

from __future__ import annotations

from typing import Any, TypedDict


class StampsView(TypedDict):
    open: str | None     # "self" (the player pressed), "bot" (stamped at the timeout) or None
    close: str | None


class PlayerView(TypedDict):
    seat: int
    score: int                  # the current bumper (may be negative)
    bumpers_won: int
    bumper_scores: list[int]    # each finished bumper's final score
    chocolate: int
    hat_on: bool
    hat_keep: bool
    stamps: list[StampsView]    # index = bumper_no - 1
    afk_misses: int
    miscues: int
    butt_kicks: int
    choc_eaten: int
    themes: int
    builds: int                 # points built over the game (dice and yellow)
    hats: int                   # times a hat was donned
    applause: int               # applause received for insults
    deck_left: int              # cards left in the deck (the order is secret)
    deck_colour: str            # "red" for the Start, else "blue" (cosmetic)


class PieceView(TypedDict):
    town: str
    colour: str                 # "B" or "W"
    offroad: bool               # stands on a town with no road allowed at this difficulty


class YellowView(TypedDict):
    holder: int | None
    boxed_until: int | None     # BOX(release_after_trick): released after that trick's control step


class StepView(TypedDict, total=False):
    """One drawing of cards: the Thrust (all three) or a war step (warriors + parrier)."""
    kind: str                   # "thrust" | "war"
    cards: list[str | None]     # by seat; None = did not draw in this step
    warriors: list[int]         # war steps: the two warriors; the third seat parries
    parrier: int
    level: int                  # trump_level after this step
    result: str                 # "high" | "trump" | "triple" | "parry" | "war_win" | "double"...
    winner: int | None


class TrickView(TypedDict, total=False):
    no: int
    attacked: str | None
    level: int                  # trump_level
    steps: list[StepView]
    winner: int | None
    build: dict[str, Any] | None  # {"dice": [..], "mult": n, "total": n}
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
    piece: str
    origin: str
    controller: int
    destinations: list[DestinationView]


class PromptView(TypedDict, total=False):
    """The main prompt open now. `kind` is one of: game, gun, stamp, first_attack, thrust, hat,
    golf, catch, handout, duel, tally (waiting for penalties), move, attack, end (waiting for
    penalties), anthem, over. `seats` are the seats it waits on; `deadline` is None when the
    moment is hidden (a catch before it opens) or there is none."""
    kind: str
    seats: list[int]
    opened_at: int
    deadline: int | None
    # kind-specific public facts (present only for that kind):
    pressed: list[bool]         # game, anthem (hail pressed), hat (donned within this race)
    which: str                  # stamp: "open" | "close"
    stamped: list[str | None]   # stamp: per seat
    presses: dict[str, int]     # hat: seat (as str) -> press ms
    bare: list[int]             # hat: the seats that must don
    holder: int                 # golf window / handout: the holder
    qs_available: bool          # golf: a quick-switch may be called now
    hose_targets: list[int]     # golf: who may be hosed now
    ball: str                   # catch: "purple" | "yellow" | "pinkie"
    thrower: int                # catch
    receiver: int               # catch
    open: bool                  # catch: the Catch button is enabled
    purpose: str                # catch: "qs1" | "qs2" | "pinkie"; duel: "golf_top" | "golf_low" | "hose"
    duel: dict[str, Any]        # duel: {"seats": [a, b], "third": c, "stage": "insult"|"count"|"snap",
                                #        "insults": [text|None, text|None], "skipped": [bool, bool],
                                #        "applauded": [bool, bool], "t0": ms|None, "snapped": [bool, bool]}
    piece: str                  # move: the attacked piece
    parts: list[list[str]]      # anthem: per seat, the parts pressed ("noise", "lyrics", "hat", "hail")
    reader: int | None          # anthem: the champion who reads the lyrics (None: the bot)


class PenaltyView(TypedDict):
    seat: int
    reason: str                 # the rule label or cause ("9", "11", "12", "15", "18", "24")
    deadline: int | None        # the open prompt's deadline (the head of this seat's queue)
    queued: int                 # further penalties waiting behind it


class StreakView(TypedDict):
    owner: int | None
    last_move: dict[str, Any] | None  # {"piece", "from", "to", "route", "km", "offroad"}


class FencingView(TypedDict):
    seat: int | None            # whose view (None: the table)
    region: str
    difficulty: str
    direction: str              # "cw" | "ccw"
    options: dict[str, Any]
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
    attacked: str | None
    choc_supply: int
    trick: TrickView | None
    last_trick: TrickView | None
    streak: StreakView
    prompt: PromptView
    penalties: list[PenaltyView]
    moves: MoveMenuView | None  # the controller's menu while the move prompt is open
    attack_choices: list[str]   # pieces the controller may call (attack / first_attack prompts)
    winner: int | None          # the game's winner once over
    over: bool
