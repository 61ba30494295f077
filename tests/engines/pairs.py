"""Pairs: a test-only partnership game for the shared team features. Four players in two
teams (A: seats 0-1, B: seats 2-3) join the lobby by team; in two rounds each, in turn,
discards two of their face-up cards at once (a two-pick menu); a team scores the ranks its
players discarded, and the higher team total wins."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.core import Action, Engine, Event, IllegalAction, Option, Outcome, Rng, State, Wait

TURN_TIMEOUT = 120.0
HAND = 4
ROUNDS = 2
DECK = [f"{colour}{rank}" for colour in "RGBY" for rank in range(1, 10)]


class PairsEngine(Engine):
    name = "pairs"
    title = "Pairs"
    min_players = 4
    max_players = 4
    lobby_teams = ("A", "B")
    options = (Option("confer", "Partners get a private thread to confer", True),)
    summary = "Two teams of two; discard two cards at once; the higher team total wins."

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        state: State = {"rng": rng_state, "players": players}
        deck = Rng(state).shuffled(DECK)
        state.update(hands=[deck[HAND * s:HAND * s + HAND] for s in range(players)], turn=0, step=0,
                     totals=[0, 0], discards=[])
        return state

    def teams(self, state: State) -> tuple[tuple[int, ...], ...] | None:
        return ((0, 1), (2, 3))

    def waits(self, state: State) -> list[Wait]:
        seat = state["turn"]
        hand = state["hands"][seat]
        return [Wait(seat, "discard", "discard two cards", TURN_TIMEOUT,
                     {"type": "discard", "cards": hand[:2], "timeout": True})]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat != state["turn"]:
            return []
        return [{"type": "discard", "cards": list(pair)} for pair in combinations(state["hands"][seat], 2)]

    def play(self, state: State, seat: int, action: Action, now: float) -> list[Event]:
        if action["type"] != "discard":
            raise IllegalAction("In Pairs you can only discard.")
        if seat != state["turn"]:
            raise IllegalAction("It is {turn}'s turn.", seats={"turn": state["turn"]})
        cards, hand = action.get("cards"), state["hands"][seat]
        if not isinstance(cards, list) or len(cards) != 2 or len(set(map(str, cards))) != 2:
            raise IllegalAction("Discard exactly two different cards.")
        if any(card not in hand for card in cards):
            raise IllegalAction("You can only discard cards from your hand.")
        for card in cards:
            hand.remove(card)
        state["totals"][self.team_of(state, seat)] += sum(int(card[1:]) for card in cards)
        state["discards"].append({"seat": seat, "cards": list(cards)})
        state["step"] += 1
        state["turn"] = (seat + 1) % state["players"]
        return [Event("discarded", {"seat": seat, "cards": list(cards)})]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state["step"] >= ROUNDS * state["players"]
        return {"hands": [list(h) for h in state["hands"]], "turn": None if over else state["turn"],
                "totals": list(state["totals"]), "discards": list(state["discards"])}

    def result(self, state: State) -> Outcome | None:
        if state["step"] < ROUNDS * state["players"]:
            return None
        a, b = state["totals"]
        team_ranks = (0, 0) if a == b else (0, 1) if a > b else (1, 0)
        team = [self.team_of(state, seat) for seat in range(state["players"])]
        return Outcome(ranks=tuple(team_ranks[t] for t in team),
                       scores=tuple(float(state["totals"][t]) for t in team),
                       teams=self.teams(state), reason="totals")

    def team_of(self, state: State, seat: int) -> int:
        teams = self.teams(state) or ()
        return next(i for i, members in enumerate(teams) if seat in members)


ENGINE = PairsEngine()
