"""Why a computer player chooses what it does, in one clause and the rule it follows: the hint
a practice table (`/<game> learn`) gives on the learner's prompts.

Each game may explain its policy's choices in `games/<game>/explain.py`, whose
`explain(view, seat, action)` reads only the seat's own view (the one the policy chose from) and
the action chosen; a game without one gets the plain reason below. Pure, like the policies.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.core import Action


@dataclass(frozen=True)
class Reason:
    """Why, as a clause a sentence can end with ("it follows suit as cheaply as it can"), and
    the number of the rule that move follows (its text is the 📖 Rule button's), if any."""

    why: str
    rule: str | None = None


#: `explain(view, seat, action)`: the view is the game's own SeatView (its schema's), which the
#: runtime hands on unread; no one type takes every game's, hence Any (as `registry.AnyPolicy`).
Explain = Callable[[Any, int, Action], Reason]
PLAIN = Reason("it is the move the computer player rates best from what you can see")


def explainer(kind: str) -> Explain:
    """The game's `explain`, or one that gives the plain reason."""
    try:
        module = importlib.import_module(f"games.{kind}.explain")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.{kind}.explain":
            raise
        return lambda view, seat, action: PLAIN
    explain: Explain = module.explain
    return explain
