"""Shapes: a test-only game of simultaneous secret choices (rock-paper-scissors, first to
`wins` rounds), built on `games.choices` with commitments. `LeakyShapes` plants a leak
(the pending picks in the public view) to show the contract suite catches it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games import choices
from games.core import Action, Engine, Event, IllegalAction, Option, Outcome, Rng, Secret, State, Wait

SHAPES = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
THROW_TIMEOUT = 20.0


class ShapesEngine(Engine):
    name = "shapes"
    title = "Shapes"
    min_players = 2
    max_players = 2
    options = (Option("wins", "Rounds to win", 2, choices=(1, 2, 3)),)
    secret_pools: ClassVar[Mapping[str, Sequence[Any]]] = {"shape": SHAPES}
    summary = "Rock, paper, scissors, chosen in secret."

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        state: State = {"rng": rng_state, "players": players, "wins": [0, 0], "target": options["wins"],
                        "round": 1, "last": None}
        state["throw"] = choices.open_round("throw-1", range(players), players, actions=("throw",), commit=True)
        return state

    def waits(self, state: State) -> list[Wait]:
        # A missed throw is a random one, drawn when the round resolves, not when it opened.
        return choices.waits(state["throw"], "throw rock, paper or scissors", THROW_TIMEOUT,
                             lambda seat: {"type": "throw", "shape": None, "timeout": True})

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if not choices.pending(state["throw"]).count(seat):
            return []
        return [{"type": "throw", "shape": s} for s in SHAPES]

    def choices(self, state: State) -> list[dict[str, Any]]:
        return [state["throw"]]

    def play(self, state: State, seat: int, action: Action, now: float) -> list[Event]:
        if action["type"] != "throw":
            raise IllegalAction("In Shapes you can only throw a shape.")
        shape = action.get("shape")
        rng = Rng(state)
        if shape is None and action.get("timeout"):
            shape = rng.choice(list(SHAPES))
        if shape not in SHAPES:
            raise IllegalAction("Throw rock, paper or scissors.")
        box = state["throw"]
        events = [Event("chose", {"seat": seat})]
        if not choices.choose(box, seat, shape, rng):
            return events
        picks = choices.reveal(box)
        a, b = picks[0], picks[1]
        winner = None if a == b else (0 if BEATS[a] == b else 1)
        if winner is not None:
            state["wins"][winner] += 1
        state["last"] = {"picks": [a, b], "winner": winner, **choices.public(box, revealed=True)}
        events.append(Event("reveal", {"picks": [a, b], "winner": winner}))
        state["round"] += 1
        state["throw"] = choices.open_round(f"throw-{state['round']}", range(2), 2, actions=("throw",),
                                            commit=True)
        return events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        out = {"wins": list(state["wins"]), "round": state["round"], "last": state["last"],
               "throw": choices.public(state["throw"])}
        if seat is not None:
            out["mine"] = choices.private(state["throw"], seat)
        return out

    def secrets(self, state: State) -> list[Secret]:
        return choices.secrets(state["throw"], ("throw",), "shape")

    def result(self, state: State) -> Outcome | None:
        if max(state["wins"]) < state["target"]:
            return None
        winner = state["wins"].index(max(state["wins"]))
        return Outcome(ranks=(0, 1) if winner == 0 else (1, 0), scores=tuple(float(w) for w in state["wins"]),
                       reason="rounds", detail={"winner": winner})


class LeakyShapesEngine(ShapesEngine):
    """A planted leak: the public view shows the pending picks."""

    name = "leaky_shapes"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        out = super().view(state, seat)
        out["debug"] = list(state["throw"]["picks"])
        return out


ENGINE = ShapesEngine()
LEAKY = LeakyShapesEngine()
