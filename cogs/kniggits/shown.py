"""What the Kniggits pictures show, typed: the fields of the game's declared views
(`games/kniggits/schema.py`) that a picture reads, copied key by key by `board.facts` (so
mypy checks every key against the schema) and serialised as the pictures' cache key. Types
are the schema's own, so a key renamed or retyped there fails lint in the pictures too."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypedDict

from games.kniggits.schema import Army, Xy

Status = Literal["active", "fled", "gone"]
Mode = Literal["mutual", "one_way", "shot"]


class KniggitLook(TypedDict):
    """A kniggit as drawn: the view's `Kniggit` fields a disc, its marks and its roster line show."""

    id: str
    army: Army
    kind: Literal["normal", "archer"]
    two_swords: bool
    pos: Xy
    facing: str | None
    heading: str
    M: int
    A: int
    D: int
    status: Status
    mounted: bool
    magic_sword: bool
    carrying: Army | None
    hand: Literal["sword", "shield"] | None


class FieldLook(TypedDict):
    """The static layer's facts (the key of its cache): size, deployment zones, obstacles."""

    width: int
    height: int
    zones: dict[str, list[int]]
    obstacles: list[Xy]


class PotionLook(TypedDict):
    id: str
    pos: Xy
    kind: Literal["M", "A", "D"]


class FlagLook(TypedDict):
    army: Army
    home: Xy
    pos: Xy | None
    carrier: str | None


class PairLook(TypedDict):
    """An exchange as drawn (the last one's burst, the open one's white burst)."""

    attacker: str
    target: str
    mode: Mode


class Ground(TypedDict):
    """The board under the battle: the field and its items (all the deployment strip shows of it)."""

    field: FieldLook
    potions: list[PotionLook]
    flags: list[FlagLook]


class Shown(Ground):
    """Everything the battlefield shows (and the base of every private picture)."""

    kniggits: list[KniggitLook]
    engaged: list[list[str]]
    headline: str  # the title over the field (board.headline: the map, the round and army, the result)
    last_move: list[Xy] | None  # the path of the last move, its start first
    last_exchange: PairLook | None
    exchange: PairLook | None


class Target(TypedDict):
    """An enemy on an archer's sight picture: its line is clear (green) or blocked (red)."""

    id: str
    clear: bool


class Bought(TypedDict):
    """What the deployment picture shows of a revealed kniggit (its disc's pips and marks)."""

    M: int
    A: int
    D: int
    kind: Literal["normal", "archer"]
    two_swords: bool


#: A destination's route on the reach picture: its number in the move panel's list and its cells.
Route = tuple[int, Sequence[Sequence[int]]]

#: The fields of a kniggit the pictures read (tests check they are the view's).
KNIGGIT_FIELDS = tuple(KniggitLook.__annotations__)
