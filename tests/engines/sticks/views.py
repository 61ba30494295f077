"""Last Stick's view: everything but the RNG is public, so every seat gets the same one."""

from __future__ import annotations

from games.core import State
from tests.engines.sticks.schema import PublicView
from tests.engines.sticks.state import phase


def view(state: State) -> PublicView:
    last = state["last"]
    return {
        "phase": phase(state).name,
        "sticks": state["sticks"],
        "start": state["start"],
        "turn": state["turn"],
        "taken": list(state["taken"]),
        "missed": list(state["missed"]),
        "last": {"seat": last["seat"], "count": last["count"]} if last else None,
        "loser": state["loser"],
    }
