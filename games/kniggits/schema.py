"""Kniggits' declared contract: the actions a seat may send (`schema_actions`), the events the
engine emits (`schema_events`) and the views every panel, picture and computer player reads.

The public view (`view(state, None)`) is `PublicView`. A seat's view (`SeatView`) is the same
dict plus `me` (`SeatItems`): its own and its army's private items (drafts, the pending pick,
the move panel's cursor, destinations and preview, facings to choose, the attack menu, the
gesture panel). Nothing hidden (pending picks, another army's drafts, nonces before the
reveal, the RNG) is in any view but its owner's. The engine's `view` returns these and mypy
(strict, `tasks.py lint`) checks it, the computer player and the cog against them: a key
renamed on either side fails lint; `tests/test_schemas.py` checks seeded games field by field.

Coordinates are `[x, y]` lists (1-based; `y = 1` is Army A's home row, drawn at the
bottom). Armies are "A" and "B". Heights are "high" | "mid" | "low". Costs are display
strings ("4.83", "3"): the engine compares them exactly and never in floating point.
"""

# No `from __future__ import annotations` here: on Python 3.11 a TypedDict only counts a key as
# NotRequired (`__optional_keys__`, which the shape test reads) when its annotation is evaluated.
from typing import Literal, NotRequired, TypedDict

from games.kniggits.schema_actions import ACTIONS as ACTIONS
from games.kniggits.schema_actions import Action as Action
from games.kniggits.schema_actions import ArmyLine as ArmyLine
from games.kniggits.schema_actions import Attack, Shoot
from games.kniggits.schema_actions import Height as Height
from games.kniggits.schema_actions import Kind as Kind
from games.kniggits.schema_actions import Xy as Xy
from games.kniggits.schema_events import EVENTS as EVENTS
from games.kniggits.schema_events import ArmyName as ArmyName
from games.kniggits.schema_events import ChoiceRound as ChoiceRound
from games.kniggits.schema_events import EventKind as EventKind
from games.kniggits.schema_events import ExchangeResult as ExchangeResult
from games.kniggits.schema_events import Gestures as Gestures
from games.kniggits.schema_events import Hit as Hit
from games.kniggits.schema_events import Purchase as Purchase
from games.kniggits.schema_events import Shown as Shown

Army = ArmyName

#: Phases as the view names them. "map": captains accept the map or re-roll; "build":
#: secret army building; "deploy": secret deployment; "rps": rock-paper-scissors for the
#: first turn; "move": the active army moves (K6-K8); "facing": the active army sets
#: facings (K9); "turning": the other army turns (K10); "fight": the active army picks
#: attacks (K11); "exchange": a gesture exchange is open (K12-K16); "over".
Phase = Literal["map", "build", "deploy", "rps", "move", "facing", "turning", "fight", "exchange", "over"]


class ArmyInfo(TypedDict):
    seats: list[int]  # in seat order; the first is the captain (K1)
    captain: int
    shares: dict[str, int]  # str(seat) -> budget share (K1: even split, remainder to the captain)


class Potion(TypedDict):
    id: str  # "P1", ...
    pos: Xy
    kind: Literal["M", "A", "D"]  # +5 of that colour (V6)


class Flag(TypedDict):
    army: Army  # whose flag
    home: Xy
    pos: Xy | None  # where it lies; None while carried
    carrier: str | None  # kniggit id carrying it
    hand: Literal["sword", "shield"] | None


class Battlefield(TypedDict):
    width: int
    height: int
    zones: dict[str, list[int]]  # "A" -> [lowest row, highest row] of its deployment zone
    obstacles: list[Xy]
    potions: list[Potion]
    flags: list[Flag]


class Kniggit(TypedDict):
    id: str  # "A1"
    army: Army
    owner: int  # seat
    name: str  # the buyer's label for it ("" when none)
    kind: Literal["normal", "archer"]
    two_swords: bool
    pos: Xy
    facing: str | None  # enemy id, meaningful only while engaged
    heading: str  # N, NE, ..., NW (cosmetic)
    M: int
    A: int
    D: int  # Range for archers
    status: Literal["active", "fled", "gone"]
    mounted: bool  # V1
    horse_lost: bool
    magic_sword: bool  # V2 (live)
    double_guard: bool  # V3 able (live)
    moved: bool  # changed cell this turn
    attacks_made: list[str]  # target ids attacked this turn
    guarded_double: bool  # V3 used this turn: no striking back
    carrying: Literal["A", "B"] | None  # the flag it carries (V7)
    hand: Literal["sword", "shield"] | None  # the hand holding it


class RpsThrow(TypedDict):
    A: str  # "rock" | "paper" | "scissors" | "miss"
    B: str
    winner: Army | None  # None: a draw or both missed (replayed)


class Rps(TypedDict):
    score: dict[str, int]  # "A"/"B" -> throws won
    throws: list[RpsThrow]
    both_missed: int  # both-miss throws in a row (3: the RNG decides)
    rounds: list[ChoiceRound]  # each throw's revealed round (picks, nonces, commitments)
    open: ChoiceRound | None
    winner: Army | None
    by_lot: bool  # the RNG picked the winner (K3)


class ExchangeSide(TypedDict):
    id: str
    seat: int
    role: Literal["attacker", "target"]
    sword: bool  # asked for a sword
    swords: int  # how many swords (2 for V4 unless carrying)
    shield: bool  # asked for a shield
    double: bool  # offered the V3 toggle


class OpenExchange(TypedDict):
    number: int  # exchanges so far in the game, this one included
    attacker: str
    target: str
    mode: Literal["mutual", "one_way", "shot"]
    sides: list[ExchangeSide]  # attacker first; a side with nothing to pick is absent
    round: ChoiceRound  # 🔒 per participant and commitments


class LastMove(TypedDict):
    id: str
    seat: int
    path: list[Xy]  # the start cell first, then every cell entered
    cost: str
    engaged: list[str]
    potions: list[str]
    flag: str | None  # flag taken or sent home on the way


class Turn(TypedDict):
    round: int
    rounds: int  # the turn limit (K17)
    army: Army  # whose turn
    first: Army  # who won rock-paper-scissors
    done: list[int]  # seats done with the current phase
    exchanges: int  # exchanges this turn


class MapRolls(TypedDict):
    rolls: int  # re-rolls so far
    accepted: dict[str, bool]  # "A"/"B" -> its captain accepted the map


class Result(TypedDict):
    winner: Army | None
    reason: str  # the outcome's code (Victory.reason)
    strength: dict[str, int]  # "A"/"B" -> strength at the end (K17)


class Options(TypedDict):
    """The table's settings as the lobby resolved them (games/kniggits/engine.py's options)."""

    size: Literal[24, 36, 48]
    preset: Literal["open", "woods", "ruins"]
    budget: int
    rounds: int
    horses: bool
    magic_swords: bool
    double_defence: bool
    two_swords: bool
    archers: bool
    potions: Literal[0, 2, 4, 6]
    scenario: Literal["annihilation", "flag"]
    timers: Literal["live", "async"]
    team_sizes: NotRequired[list[int]]  # a team lobby's armies of one or two


class PublicView(TypedDict):
    phase: Phase
    options: Options
    armies: dict[str, ArmyInfo]
    battlefield: Battlefield
    map: MapRolls
    build: ChoiceRound | None  # open army building round
    revealed: dict[str, list[Purchase]] | None  # after the reveal
    deploy: ChoiceRound | None  # open deployment round
    rps: Rps | None
    # the deployed kniggits (empty before the deployment reveal)
    kniggits: list[Kniggit]
    engaged: list[list[str]]  # [[A id, B id], ...]
    turn: Turn | None
    awaited: list[int]  # seats the game waits for
    last_move: LastMove | None
    last_exchange: ExchangeResult | None
    exchange: OpenExchange | None
    idle: dict[str, int]  # own turns in a row with no action of the army (forfeit claim at 3)
    claimable: Army | None  # the army that may claim a forfeit now
    left_handed: list[bool]  # per seat (§4): mirrors the figure art and panel labels only
    result: Result | None


class Mover(TypedDict):
    """A kniggit the seat may still move this turn (move panel step 1)."""

    id: str
    M: int
    A: int
    D: int
    pos: Xy
    allowance: int  # K5 / V1, inches
    pinned: bool  # K8: engaged with no legal first step
    held: bool  # left where it stands this phase (Hold)


class Destination(TypedDict):
    """One option of the destination select (move panel step 2), at most 24."""

    tag: str  # "hold" | "engage" | "potion" | "flag" | "advance" | "fall_back" | "near"
    cell: Xy  # the kniggit's own cell for "hold"
    cost: str  # "4.83"; "0" for hold
    enemy: str | None  # the enemy id for "engage" (also "near": the nearest enemy)
    item: str | None  # potion id or flag army for "potion" / "flag"
    path: list[Xy]  # the route `plan` would take, start included (hold: the start alone)


class Plan(TypedDict):
    """The previewed move awaiting Confirm (move panel step 3)."""

    id: str
    path: list[Xy]  # start first
    cost: str
    allowance: int
    engages: list[str]  # new engagements at the end
    potions: list[str]  # potions it would drink
    flag: str | None  # flag it would take ("A"/"B") or send home
    hand: Literal["sword", "shield"] | None  # carrying hand, when a flag is taken


class FacingChoice(TypedDict):
    id: str
    current: str | None
    enemies: list[str]  # engaged active enemies it may face, nearest first
    default: str  # what a timeout picks (K9 nearest; K10 preferences)


class AttackOption(TypedDict):
    attacker: str
    target: str
    mode: Literal["mutual", "one_way", "shot"]
    action: Attack | Shoot  # the action to send


class GesturePanel(TypedDict):
    """This seat's part in the open exchange."""

    id: str  # its kniggit in the exchange
    role: Literal["attacker", "target"]
    swords: int  # 0, 1 or 2 swords to set
    sword_heights: list[Height]  # legal sword heights (V1 removes "high")
    shield: bool
    double: bool  # the V3 toggle is offered
    draft: Gestures  # current selection (counts at timeout, K16)
    locked: bool


class SightLine(TypedDict):
    """One active enemy as an archer sees it (V5): shootable when clear and in range."""

    id: str
    clear: bool  # no obstacle or other kniggit on the line (2.2)
    in_range: bool  # within 2 inches per Range token


class DeployDraft(TypedDict):
    placements: dict[str, Xy]  # kniggit id -> cell, the army's shared draft
    mine: list[str]  # ids this seat places
    zone: list[int]  # [lowest row, highest row]


class SeatItems(TypedDict):
    """`me`: what one seat sees beyond the table (its own and its army's private items)."""

    seat: int
    army: Army
    captain: bool
    share: int  # budget share
    draft: NotRequired[list[ArmyLine]]  # own army list being built
    team_drafts: NotRequired[dict[str, list[ArmyLine]]]  # str(seat) -> teammate drafts (K2)
    build_cost: NotRequired[int]
    locked: NotRequired[bool]  # this seat locked the open secret round
    deploy: NotRequired[DeployDraft]
    rps_pick: NotRequired[str | None]
    movers: NotRequired[list[Mover]]
    cursor: NotRequired[str | None]  # the selected mover
    destinations: NotRequired[list[Destination]]
    plan: NotRequired[Plan | None]
    can_undo: NotRequired[bool]
    facings: NotRequired[list[FacingChoice]]  # K9 (own army) or K10 (turning phase)
    attacks: NotRequired[list[AttackOption]]
    gesture: NotRequired[GesturePanel | None]
    can_claim: bool  # forfeit claim offered
    reach: NotRequired[list[Xy]]  # move phase: every reachable end cell of the selected kniggit (x, then y)
    sight: NotRequired[list[SightLine]]  # move phase: the selected kniggit's lines, when it is an archer that may shoot
    sights: NotRequired[dict[str, list[SightLine]]]  # every own archer that may shoot now -> its lines (`/kniggits los`)




class SeatView(PublicView):
    """`view(state, seat)`: the table's view and the seat's own items."""

    me: SeatItems
