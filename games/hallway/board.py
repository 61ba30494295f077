"""The designed hallway (spec §2): 21 positions, semicircles at both ends.

Red walks up from 0 to 20, Blue walks down from 20 to 0. Every rectangle p mirrors
20 - p with the same number in the other colour; the centre is the one green 10.
"""

from __future__ import annotations

import functools
from typing import Literal

from games.hallway.schema import Space

RED, BLUE = 0, 1
LENGTH = 20  # positions 0..20
START = (0, LENGTH)
EXIT = (LENGTH, 0)
STEP = (1, -1)
PENALTY_PER_STEP = 5
GREEN_POINTS = 10

#: position -> (colour letter, number); 0 and 20 are the semicircles (no number).
SPACES: dict[int, tuple[Literal["R", "B", "G"], int]] = {
    1: ("R", 3), 2: ("R", 5), 3: ("B", 2), 4: ("R", 6), 5: ("R", 4),
    6: ("B", 3), 7: ("R", 8), 8: ("R", 5), 9: ("R", 9), 10: ("G", 10),
    11: ("B", 9), 12: ("B", 5), 13: ("B", 8), 14: ("R", 3), 15: ("B", 4),
    16: ("B", 6), 17: ("R", 2), 18: ("B", 5), 19: ("B", 3),
}


def label(pos: int) -> str:
    """`R5`, `G10`, or `[R]`/`[B]` for the semicircles (Red's start is position 0)."""
    if pos == 0:
        return "[R]"
    if pos == LENGTH:
        return "[B]"
    colour, number = SPACES[pos]
    return f"{colour}{number}"


def points(seat: int, pos: int) -> int:
    """What `seat` scores for landing on `pos`: own colour adds, the other subtracts,
    green adds 10 to anyone, a semicircle scores nothing."""
    space = SPACES.get(pos)
    if space is None:
        return 0
    colour, number = space
    if colour == "G":
        return number
    return number if colour == "RB"[seat] else -number


def steps_to_exit(seat: int, pos: int) -> int:
    return abs(EXIT[seat] - pos)


def left_penalty(seat: int, pos: int) -> int:
    """Rule 17: 5 points per step still to walk when the game ends."""
    return PENALTY_PER_STEP * steps_to_exit(seat, pos)


def encounter_fee(encounter: int) -> int:
    """Going back to the start costs 5 at encounters 1-2 and 10 at encounters 3-4."""
    return 5 if encounter <= 2 else 10


@functools.cache
def track() -> list[Space]:
    """The whole board as JSON, for views and pictures: built once, shared by every view (which
    only ever read it)."""
    out: list[Space] = []
    for pos in range(LENGTH + 1):
        space = SPACES.get(pos)
        out.append({"pos": pos, "colour": space[0] if space else ("B" if pos == LENGTH else "R"),
                    "number": space[1] if space else None, "label": label(pos)})
    return out
