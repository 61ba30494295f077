"""Last Stick's stored state: the opening row (a seeded count, a seeded first player) and where
the game is, read one way (`phase`, re-exported as `engine.phase`), as in every game's
`state.py` (docs/engines.md)."""

from __future__ import annotations

from games.core import Rng, State
from games.phase import Phase
from tests.engines.sticks.schema import Phase as PhaseName


def new_state(players: int, rng_state: dict[str, int]) -> State:
    """15-25 sticks and the first player, both drawn from the game's own RNG."""
    state: State = {"rng": rng_state, "players": players, "phase": "play", "last": None, "loser": None,
                    "taken": [0] * players, "missed": [0] * players}
    rng = Rng(state)
    state["sticks"] = rng.randint(15, 25)
    state["start"] = state["turn"] = rng.randint(0, players - 1)
    return state


def phase(state: State) -> Phase[PhaseName, None]:
    """Where the game is: the stored `phase`; no steps."""
    return Phase(state["phase"], None)
