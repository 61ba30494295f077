"""Last Stick as a pure engine: a row of 15-25 sticks (a seeded count); in turn each player
takes 1, 2 or 3; whoever takes the last stick loses. Built the way the five real games are:
one `phase` accessor (in state.py), a VERIFY table that `legal_actions` and the handlers share, a HANDLERS
table keyed by the schema's action kinds, views in views.py, missed turns counted by games.afk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import afk
from games.core import Action, Engine, Event, IllegalAction, Outcome, State, Wait
from tests.engines.sticks import views
from tests.engines.sticks.schema import Kind, PublicView, SeatView
from tests.engines.sticks.state import new_state
from tests.engines.sticks.state import phase as phase  # the accessor, read here by tests/test_phases.py

TURN_TIMEOUT = 60.0
#: A player who misses this many turns in a row gets half the time.
SHORT_AFTER = 3
MOST = 3


class SticksEngine(Engine[PublicView, SeatView]):
    name = "sticks"
    title = "Last Stick"
    min_players = 2
    max_players = 4
    summary = "Take 1, 2 or 3 sticks in turn; whoever takes the last one loses."

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        return new_state(players, rng_state)

    def waits(self, state: State) -> list[Wait]:
        if phase(state).name != "play":
            return []
        seat = state["turn"]
        timeout = TURN_TIMEOUT / 2 if state["missed"][seat] >= SHORT_AFTER else TURN_TIMEOUT
        return [Wait(seat, f"take-{state['sticks']}", "take 1, 2 or 3 sticks", timeout,
                     {"type": "take", "count": 1, "timeout": True})]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The candidates the rule checks accept: the same checks `play` runs."""
        legal: list[Action] = []
        for count in range(1, MOST + 1):
            action: Action = {"type": "take", "count": count}
            try:
                self.verify(state, seat, action)
            except IllegalAction:
                continue
            legal.append(action)
        return legal

    def verify(self, state: State, seat: int, action: Action) -> None:
        check = VERIFY.get(action["type"])
        if check is None:
            raise IllegalAction("In Last Stick you can only take sticks.")
        check(state, seat, action)

    def play(self, state: State, seat: int, action: Action, now: float) -> list[Event]:
        self.verify(state, seat, action)
        return HANDLERS[action["type"]](state, seat, action)

    def view(self, state: State, seat: int | None) -> PublicView:
        return views.view(state)

    def result(self, state: State) -> Outcome | None:
        loser = state["loser"]
        if loser is None:
            return None
        return Outcome(ranks=tuple(1 if seat == loser else 0 for seat in range(state["players"])),
                       scores=tuple(float(n) for n in state["taken"]), reason="last_stick",
                       detail={"seat": loser})


def verify_take(state: State, seat: int, action: Action) -> None:
    if phase(state).name != "play":
        raise IllegalAction("This game is already over.")
    if seat != state["turn"]:
        raise IllegalAction("Not your turn: {turn} is taking sticks.", seats={"turn": state["turn"]})
    count = action.get("count")
    if type(count) is not int or not 1 <= count <= MOST:
        raise IllegalAction("Take 1, 2 or 3 sticks.")
    if count > state["sticks"]:
        raise IllegalAction(f"Only {state['sticks']} left: you can't take {count}.")


def take(state: State, seat: int, action: Action) -> list[Event]:
    count, timeout = int(action["count"]), bool(action.get("timeout"))
    afk.tally(state["missed"], seat, missed=timeout)
    state["sticks"] -= count
    state["taken"][seat] += count
    state["last"] = {"seat": seat, "count": count}
    events = [Event("took", {"seat": seat, "count": count, "left": state["sticks"], "timeout": timeout})]
    if state["sticks"] == 0:
        state["phase"], state["loser"] = "over", seat
        return [*events, Event("lost", {"seat": seat})]
    state["turn"] = (seat + 1) % state["players"]
    return events


#: Every action kind of the schema and its rule check, shared by `legal_actions` and `play`.
VERIFY: dict[Kind, Callable[[State, int, Action], None]] = {"take": verify_take}
#: Every action kind of the schema and its rule; `play` looks the kind up here.
HANDLERS: dict[Kind, Callable[[State, int, Action], list[Event]]] = {"take": take}
