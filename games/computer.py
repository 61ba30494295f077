"""Computer players: the interface every game's policy implements.

A policy is pure and deterministic, like an engine. It is handed one seat's view (what
`Engine.view(state, seat)` shows that seat, nothing more), what that seat is asked for
(the keys of its waits) and a random source derived from the game's seed, so a replay of
the game's record reproduces it exactly (the computer's moves are logged like anyone's).
It never sees the state: hidden cards, letters and picks cannot reach it.

Each game's policy lives in `games/<game>/ai.py` as `POLICY`; `games.registry.get_policy`
finds it. A game without one offers no computer seats.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Generic

from games.core import Action, SeatT


@dataclass(frozen=True)
class Asked:
    """What a computer seat must decide now: the keys of its waits (public: the table shows
    who is awaited for what), and the game time of the decision."""

    seat: int
    keys: tuple[str, ...]
    now: float


class Policy(Generic[SeatT]):
    """A game's computer player. Subclasses implement `choose`; `delay` may be tuned. A game
    with a schema names the view it reads: `class HallwayPolicy(Policy[SeatView])`."""

    #: Shown in the lobby beside the 🤖 ("plays to its partner, counts trumps").
    summary: str = ""

    def choose(self, view: SeatT, asked: Asked, rng: random.Random) -> Action:
        """The action to take, from the view alone. It must be legal; the runtime falls back
        to the wait's default (or refuses nothing and logs) when it is not."""
        raise NotImplementedError

    def delay(self, view: SeatT, asked: Asked, rng: random.Random) -> float:
        """Seconds a human would take before acting (races: a reaction time)."""
        return rng.uniform(1.2, 2.8)


def decision_rng(seed: int, version: int, seat: int) -> random.Random:
    """The random source of one decision: fixed by the game's seed, the state version and
    the seat, so the same game asks the same question and gets the same answer."""
    digest = hashlib.blake2b(f"{seed}:{version}:{seat}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))
