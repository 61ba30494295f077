"""Kniggits' event catalogue (re-exported by `schema.py`): every `Event.type` the engine
emits and its `data`, facts only (ids, seats, armies; `owner` is the seat owning a kniggit, so
the log can name its player). `tests/test_schemas.py` checks seeded games against it.
"""

# No `from __future__ import annotations`: NotRequired keys are read by the shape test.
from typing import Any, Literal, NotRequired, TypedDict

ArmyName = Literal["A", "B"]
Xy = list[int]
EventKind = Literal["concede", "handed", "held", "attack", "exchange", "dismounted", "fled", "flag_dropped",
                    "potion", "flag_taken", "flag_home", "moved", "undone", "run", "gone", "map_accepted",
                    "map", "phase", "army_locked", "reveal_armies", "deploy_locked", "deployed", "thrown", "rps",
                    "rps_won", "victory", "turn", "done", "faced", "locked", "turn_end", "afk", "forfeit"]

Height = Literal["high", "mid", "low"]


class Purchase(TypedDict):
    """One line of a revealed army (K2): runaways keep their id but never deploy."""

    id: str
    owner: int
    name: str
    M: int
    A: int
    D: int
    kind: Literal["normal", "archer"]
    two_swords: bool
    valid: bool  # False: it ran away before the battle (2.5)
    reason: str  # why it ran ("" when valid)


class ChoiceRound(TypedDict):
    """`games.choices.public`: who is in it, who has locked (🔒) and each lock's sha256
    commitment; after the reveal also the picks and nonces."""

    key: str
    seats: list[int]
    chosen: list[int]
    commitments: NotRequired[dict[str, str]]
    picks: NotRequired[dict[str, Any]]
    nonces: NotRequired[dict[str, str]]


class Gestures(TypedDict):
    """A seat's gesture draft (K16: it counts at a timeout as it stands)."""

    sword: NotRequired[Height]
    swords: NotRequired[list[Height]]  # two swords (V4)
    shield: NotRequired[Height]
    double: NotRequired[bool]  # V3: sword and shield both guard
    asked: NotRequired[bool]  # the panel asked "Lock with no shield?" once (a note, never a pick)


class Shown(TypedDict):
    """One kniggit's revealed gestures (None: not picked, fumbled)."""

    sword: Height | None
    swords: list[Height] | None
    shield: Height | None
    double: bool


class Hit(TypedDict):
    id: str  # the kniggit that lost tokens
    pool: Literal["M", "A", "D"]
    lost: int


class ExchangeResult(TypedDict):
    number: int
    attacker: str
    target: str
    mode: Literal["mutual", "one_way", "shot"]
    gestures: dict[str, Shown]  # kniggit id -> revealed gestures
    fumbled: dict[str, list[str]]  # kniggit id -> ["sword", "shield", ...] without a pick (K16)
    timed_out: list[str]  # kniggit ids whose side ran out of time (the rest of `fumbled` locked so)
    hits: list[Hit]
    tokens: dict[str, list[int]]  # kniggit id -> [M, A, D] after
    fled: list[str]
    dismounted: list[str]
    round: ChoiceRound  # revealed: picks, nonces, commitments


class Exchanged(ExchangeResult):
    """The exchange's result (also the view's `last_exchange`) and who owns its two kniggits."""

    attacker_owner: int
    target_owner: int
    owners: dict[str, int]  # kniggit id -> seat


class Conceded(TypedDict):
    seat: int
    army: ArmyName


class Handed(TypedDict):
    seat: int
    left: bool


class Held(TypedDict):
    """A kniggit left where it stands this move phase (K7)."""

    id: str
    seat: int
    owner: int


class Attacked(TypedDict):
    """An exchange opens (K11): `seats` pick gestures in secret."""

    attacker: str
    target: str
    mode: Literal["mutual", "one_way", "shot"]
    seats: list[int]
    number: int
    attacker_owner: int
    target_owner: int


class Owned(TypedDict):
    """A kniggit and the seat owning it: dismounted (V1), gone home (K15)."""

    id: str
    owner: int


class Fled(TypedDict):
    id: str
    owner: int
    pos: Xy
    tokens: list[int]  # [M, A, D]


class FlagDropped(TypedDict):
    id: str
    owner: int
    flag: ArmyName
    pos: Xy


class Potion(TypedDict):
    id: str
    owner: int
    potion: str
    kind: Literal["M", "A", "D"]
    tokens: list[int]


class FlagTaken(TypedDict):
    id: str
    owner: int
    flag: ArmyName
    hand: Literal["sword", "shield"] | None


class FlagHome(TypedDict):
    id: str
    owner: int
    flag: ArmyName


class Moved(TypedDict):
    id: str
    seat: int
    owner: int
    path: list[Xy]
    cost: str
    engaged: list[str]


class Undone(TypedDict):
    id: str
    seat: int
    owner: int
    pos: Xy


class Run(TypedDict):
    """A fled kniggit runs for its home row (K15); `gone` when it got there."""

    id: str
    owner: int
    path: list[Xy]
    cost: str
    gone: bool


class MapAccepted(TypedDict):
    army: ArmyName
    seat: int


class MapRolled(TypedDict):
    seat: int
    rolls: int


class Phase(TypedDict):
    """A phase begins; the facing, turning and fight phases name the army (and the facing
    phase the kniggits with a facing to choose)."""

    phase: Literal["build", "deploy", "rps", "facing", "turning", "fight"]
    army: NotRequired[ArmyName]
    ids: NotRequired[list[str]]


class Seat(TypedDict):
    """A seat locked its army or deployment, or threw (hidden until the reveal)."""

    seat: int


class Revealed(TypedDict):
    """Both armies' lists (K2); a runaway keeps its line with `valid` false."""

    A: list[Purchase]
    B: list[Purchase]


class Deployed(TypedDict):
    kniggits: dict[str, Xy]


class RpsThrown(TypedDict):
    A: str  # "rock" | "paper" | "scissors" | "miss"
    B: str
    winner: ArmyName | None
    score: dict[str, int]


class RpsWon(TypedDict):
    army: ArmyName
    by_lot: bool


class Victory(TypedDict):
    """The game is over; the facts of its reason beside it."""

    winner: ArmyName | None
    reason: Literal["concede", "forfeit_claim", "no_army", "annihilation", "flag", "on_points"]
    strength: dict[str, int]
    seat: NotRequired[int]  # concede, forfeit_claim
    idle: NotRequired[ArmyName]  # forfeit_claim: the army that sat out
    valid: NotRequired[dict[str, int]]  # no_army: valid kniggits per army
    carrier: NotRequired[str]  # flag
    carrier_owner: NotRequired[int]
    on_points: NotRequired[bool]


class Turn(TypedDict):
    army: ArmyName
    round: int


class Done(TypedDict):
    seat: int
    phase: Literal["move", "turning", "fight"]


class Faced(TypedDict):
    id: str
    target: str
    owner: int
    target_owner: int
    default: NotRequired[bool]  # the timeout's (or Done's) choice (K9, K10)


class Locked(TypedDict):
    """A seat locked its gestures in exchange `exchange`."""

    seat: int
    exchange: int


class Afk(TypedDict):
    seat: int
    army: ArmyName
    turns: int


EVENTS: dict[EventKind, type] = {
    "concede": Conceded, "handed": Handed, "held": Held, "attack": Attacked, "exchange": Exchanged,
    "dismounted": Owned, "fled": Fled, "flag_dropped": FlagDropped, "potion": Potion, "flag_taken": FlagTaken,
    "flag_home": FlagHome, "moved": Moved, "undone": Undone, "run": Run, "gone": Owned,
    "map_accepted": MapAccepted, "map": MapRolled, "phase": Phase, "army_locked": Seat,
    "reveal_armies": Revealed, "deploy_locked": Seat, "deployed": Deployed, "thrown": Seat, "rps": RpsThrown,
    "rps_won": RpsWon, "victory": Victory, "turn": Turn, "done": Done, "faced": Faced, "locked": Locked,
    "turn_end": Turn, "afk": Afk, "forfeit": Seat,  # forfeit: the runtime's Engine.forfeit (a leaver)
}
