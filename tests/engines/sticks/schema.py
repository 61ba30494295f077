"""Last Stick's declared contract: the one action, the events and the view (issue 22 item 1).

The sixth game, written by the checklist at the top of docs/engines.md alone: the engine's
`view`, the computer player and the interface are checked against this file by mypy (strict,
`tasks.py lint`), and tests/test_schemas.py checks events and listed actions on seeded games.
Nothing in Last Stick is hidden, so a seat sees the public view.
"""

# No `from __future__ import annotations`: NotRequired must be evaluated for the shape test.
from typing import Literal, NotRequired, TypedDict

# ----- actions -------------------------------------------------------------------------------
Kind = Literal["take"]


class Take(TypedDict):
    """Take 1, 2 or 3 sticks from the row (never more than are left)."""

    type: Literal["take"]
    count: int
    timeout: NotRequired[bool]  # runtime-only: the turn timer took one stick


Action = Take
ACTIONS: dict[Kind, type] = {"take": Take}


# ----- events --------------------------------------------------------------------------------
class Took(TypedDict):
    seat: int
    count: int
    left: int
    timeout: bool


class Lost(TypedDict):
    """Whoever takes the last stick loses."""

    seat: int


EventKind = Literal["took", "lost"]
EVENTS: dict[EventKind, type] = {"took": Took, "lost": Lost}


# ----- the view --------------------------------------------------------------------------------
Phase = Literal["play", "over"]


class LastTake(TypedDict):
    seat: int
    count: int


class PublicView(TypedDict):
    phase: Phase
    sticks: int
    start: int
    turn: int
    taken: list[int]
    missed: list[int]
    last: LastTake | None
    loser: int | None


SeatView = PublicView
