"""Race: a test-only game judged by reaction time. The game itself waits a random delay
(a wait with no seat), says GO!, and every player presses; the fastest press — judged by
each action's `now`, the moment it was pressed — scores. Exercises seat-less waits and
"time is the press"."""

from __future__ import annotations

from typing import Any

from games.core import Action, Engine, Event, IllegalAction, Outcome, Rng, Secret, State, Wait

PRESS_TIMEOUT = 10.0
TARGET = 3
MAX_ROUNDS = 10


class RaceEngine(Engine):
    name = "race"
    title = "Race"
    min_players = 2
    max_players = 3
    summary = "Wait for GO!, then press first."

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        state: State = {"rng": rng_state, "players": players, "points": [0] * players, "round": 0}
        start_round(state)
        return state

    def waits(self, state: State) -> list[Wait]:
        if state["phase"] == "countdown":
            return [Wait(None, f"go-{state['round']}", "get ready…", state["delay"], {"type": "go"},
                         countdown=False)]
        return [Wait(s, f"press-{state['round']}", "press!", PRESS_TIMEOUT, {"type": "press", "timeout": True},
                     independent=True)
                for s in range(state["players"]) if state["presses"][s] is None]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat is not None and state["phase"] == "race" and state["presses"][seat] is None:
            return [{"type": "press"}]
        return []

    def play(self, state: State, seat: int | None, action: Action, now: float) -> list[Event]:
        kind = action["type"]
        if kind == "go":
            if seat is not None:
                raise IllegalAction("Only the game says GO!")
            if state["phase"] != "countdown":
                raise IllegalAction("The race is already on.")
            state.update(phase="race", go_at=now)
            return [Event("go", {"round": state["round"]})]
        if kind != "press":
            raise IllegalAction("In Race you can only press.")
        if seat is None or state["phase"] != "race":
            raise IllegalAction("Wait for GO!")
        if state["presses"][seat] is not None:
            raise IllegalAction("You already pressed.")
        state["presses"][seat] = -1.0 if action.get("timeout") else round(now - state["go_at"], 3)
        events = [Event("press", {"seat": seat, "reaction": state["presses"][seat]})]
        if all(p is not None for p in state["presses"]):
            times = [(p, s) for s, p in enumerate(state["presses"]) if p >= 0]
            winner = min(times)[1] if times else None
            if winner is not None:
                state["points"][winner] += 1
            events.append(Event("round", {"winner": winner, "presses": list(state["presses"])}))
            if max(state["points"]) < TARGET and state["round"] < MAX_ROUNDS:
                start_round(state)
            else:
                state["phase"] = "over"
        return events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"phase": state["phase"], "round": state["round"], "points": list(state["points"]),
                "presses": list(state.get("presses") or [])}

    def secrets(self, state: State) -> list[Secret]:
        return [Secret(None, ("delay",), "delay")]  # when GO! comes is nobody's to know

    def result(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        points = state["points"]
        ranks = tuple(sorted(set(points), reverse=True).index(p) for p in points)
        return Outcome(ranks=ranks, scores=tuple(float(p) for p in points), reason="points")


def start_round(state: State) -> None:
    state["round"] += 1
    state.update(phase="countdown", delay=float(Rng(state).randint(2, 5)), go_at=None,
                 presses=[None] * state["players"])


ENGINE = RaceEngine()
