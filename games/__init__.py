"""Pure game engines and the registry that names them."""

from __future__ import annotations

from games.core import Action, Engine, Event, IllegalAction, Option, Outcome, Rng, State, Wait
from games.registry import ENGINES, get_engine, register

__all__ = [
    "ENGINES",
    "Action",
    "Engine",
    "Event",
    "IllegalAction",
    "Option",
    "Outcome",
    "Rng",
    "State",
    "Wait",
    "get_engine",
    "register",
]
