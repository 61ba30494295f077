"""A Kniggits game's stored state: the opening state (§4 options, K1 armies) and where the game
is, read one way (`phase`, issue 22) by the engine, its rule modules and the views.

The stored keys are the ones saved games always had: the phase's name in `phase` ("over" once
`over` holds the result) and an open gesture exchange in `exchange` (K12-K16).
"""

from __future__ import annotations

from typing import Any, Literal

from games.core import IllegalAction, State
from games.kniggits.schema import Phase as PhaseName
from games.phase import Phase


def phase(state: State) -> Phase[PhaseName, Literal["exchange"] | None]:
    """Where the game is (the one place that reads it): the stored phase ("over" once the
    game is), with the step "exchange" while a gesture exchange is open (K12-K16)."""
    if state["over"] is not None:
        return Phase("over", None)
    return Phase(state["phase"], "exchange" if state["exchange"] is not None else None)


def stage(state: State) -> PhaseName:
    """The phase as the views and the dispatch name it: "exchange" while one is open."""
    at = phase(state)
    return "exchange" if at.step == "exchange" else at.name


def new_state(players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
    """The opening state, before the map (`prelude.generate_map`) is drawn on it."""
    if not 20 <= options["budget"] <= 200:
        raise IllegalAction("The budget is 20 to 200 points per army.", rule="K2")
    if not 1 <= options["rounds"] <= 200:
        raise IllegalAction("The turn limit is 1 to 200 rounds.", rule="K17")
    sizes = options.get("team_sizes") or [(players + 1) // 2, players // 2]
    if len(sizes) != 2 or sum(sizes) != players or min(sizes) < 1 or max(sizes) > 2:
        raise IllegalAction("Each army needs one or two players.", rule="K1")
    return {
        "rng": rng_state, "players": players, "options": dict(options),
        "armies": [list(range(sizes[0])), list(range(sizes[0], players))],
        "width": options["size"], "height": options["size"], "phase": "map",
        "rolls": 0, "accepted": [False, False], "build": None, "build_round": None, "revealed": None,
        "deploy": None, "deploy_round": None, "rps": None, "kniggits": [], "turn": None,
        "plans": [None] * players, "cursor": [None] * players, "exchange": None, "exchange_no": 0,
        "last_move": None, "last_exchange": None, "idle": [0, 0], "over": None,
        "left_handed": [False] * players,
    }
