"""The only source of chance in an engine (games.core's contract): a generator derived from the
game's seed and a counter that both live in the state, so a game restored from JSON draws the
exact same sequence and (seed, action log) replays it.
"""

from __future__ import annotations

import random
from typing import Any


class Rng:
    """The only source of chance in an engine; its whole state is `state["rng"]`.

    Every draw derives a fresh generator from (seed, counter) and bumps the counter, so a
    state restored from JSON continues the exact same sequence.
    """

    def __init__(self, state: dict[str, Any]) -> None:
        self._box = state["rng"]

    @staticmethod
    def initial(seed: int) -> dict[str, int]:
        return {"seed": int(seed), "n": 0}

    def _next(self) -> random.Random:
        box = self._box
        gen = random.Random(f"{box['seed']}:{box['n']}")
        box["n"] += 1
        return gen

    def randint(self, low: int, high: int) -> int:
        return self._next().randint(low, high)

    def roll(self, sides: int) -> int:
        return self.randint(1, sides)

    def choice(self, items: list[Any]) -> Any:
        return self._next().choice(items)

    def shuffled(self, items: list[Any]) -> list[Any]:
        out = list(items)
        self._next().shuffle(out)
        return out

    def token(self, bits: int = 128) -> str:
        """A random hex string (a commitment nonce), from the game's own sequence."""
        return f"{self._next().getrandbits(bits):0{bits // 4}x}"
