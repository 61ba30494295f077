"""A Conference / League game's stored state: the opening state (before the first deal) and
where the game is, read one way (`phase`, issue 22) by the engine and the rules in `hand.py`
(`state.py` in every game, docs/engines.md). The stored keys are unchanged."""

from __future__ import annotations

from typing import Any, Literal

from games.core import State
from games.phase import Phase
from games.tarot.schema import PhaseName


def new_state(players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
    """The game before its first dealer is drawn and its first hand dealt (the engine does both)."""
    return {"rng": rng_state, "players": players, "options": dict(options),
            "hand_no": 0, "points": [0, 0], "history": [], "over": False,
            "afk": {"streak": [0] * 4, "flagged": [False] * 4, "votes": 0},
            "vote": None, "abandoned": None}


def phase(state: State) -> Phase[PhaseName, Literal["vote"] | None]:
    """Where the game is (the one place that reads it): the hand's phase, "over" once the game
    is over or abandoned, with the step "vote" while play is paused for an AFK vote (§4)."""
    over = finished(state) or state["abandoned"] is not None
    at = hand_phase(state["hand"])
    return Phase("over" if over or at == "done" else at, "vote" if state["vote"] is not None and not over else None)


#: Where one hand's record is: the game's phases within a hand, and "done" once the hand is
#: settled (only ever seen after the last hand, when the game's phase is "over").
HandPhase = Literal["discard", "nominate", "play", "window", "done"]


def hand_phase(hand: dict[str, Any]) -> HandPhase:
    """Where one hand's own record is (its tricks' helpers in `hand.py` take the hand, not the
    game, so they read it here)."""
    at: HandPhase = hand["phase"]
    return at


def finished(state: State) -> bool:
    """All the hands are played (the stored `over`); an abandoned game is over (`phase`) but
    not finished, and its views say so as they always have."""
    return bool(state["over"])
