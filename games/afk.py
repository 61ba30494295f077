"""Counting a seat's missed waits, the one way every engine does it.

Each game's rules say what the count means (Two Fat Dudes: 5 timeouts in a row forfeit;
Conference / League: 3 flag the player and call a vote; Fighting Words: 3 make the turns
short, 10 drop the player; Table Fencing: 3 shorten the decision prompts, 5 forfeit;
Kniggits: 3 idle turns let the other army claim the game). What they share is the count
itself: a miss adds one, anything the seat does itself starts it again at 0. The counter
stays where each game's stored state always kept it (a list by seat or army, or a key of a
seat's record), so a game saved before this module loads unchanged.
"""

from __future__ import annotations

from collections.abc import MutableMapping, MutableSequence
from typing import Any


def tally(counter: MutableSequence[int] | MutableMapping[Any, Any], key: Any, missed: bool) -> int:
    """Count one wait of `key` (a seat, an army, or a key of a seat's record): one more if it
    was `missed`, back to 0 if the seat acted itself; the new count in a row."""
    counter[key] = counter[key] + 1 if missed else 0
    return int(counter[key])
