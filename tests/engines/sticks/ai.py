"""Last Stick's computer player: it leaves a row of 4k+1 sticks when it can (then whatever the
next player takes, it can do it again, and the last stick falls to someone else), else takes
one and waits for a slip."""

from __future__ import annotations

import random

from games.computer import Asked, Policy
from games.core import Action
from tests.engines.sticks.engine import MOST
from tests.engines.sticks.schema import SeatView, Take


class SticksPolicy(Policy[SeatView]):
    summary = "counts to the next 4k+1"

    def choose(self, view: SeatView, asked: Asked, rng: random.Random) -> Action:
        return dict(self.decide(view))

    @staticmethod
    def decide(view: SeatView) -> Take:
        best = (view["sticks"] - 1) % (MOST + 1)
        count = best if 1 <= best <= min(MOST, view["sticks"]) else 1
        return {"type": "take", "count": count}


POLICY = SticksPolicy()
