"""Tokens: a tiny test-only game that exercises every part of the engine protocol.

Each seat is dealt `hand` hidden tokens (values 1-9, each with a unique id). Seats take
turns playing one token face up onto the pile; when every hand is empty, the highest total
wins (partners add up with `teams`). An AFK player plays their first token on timeout.
"""

from __future__ import annotations

from typing import Any

from games.core import Action, Engine, Event, IllegalAction, Option, Outcome, Rng, Secret, State, Wait

TURN_TIMEOUT = 60.0


class TokensEngine(Engine):
    name = "tokens"
    title = "Tokens"
    min_players = 2
    max_players = 4
    options = (
        Option("hand", "Tokens dealt to each player", 3, choices=(1, 2, 3, 4, 5)),
        Option("teams", "Partners: seats 1+3 against 2+4 (4 players)", False),
    )
    summary = "Play your hidden tokens one by one; the highest total wins."

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        if options["teams"] and players != 4:
            raise IllegalAction("Teams need exactly 4 players.")
        state: State = {"rng": rng_state, "players": players, "options": options}
        rng = Rng(state)
        hands = []
        for seat in range(players):
            hands.append(
                [{"id": f"s{seat}t{i}", "value": rng.roll(9)} for i in range(options["hand"])]
            )
        state.update(hands=hands, pile=[], turn=0, scores=[0] * players, timeouts=[0] * players)
        return state

    def waits(self, state: State) -> list[Wait]:
        seat = state["turn"]
        first = state["hands"][seat][0]["id"]
        return [
            Wait(seat, "play", "play a token", TURN_TIMEOUT,
                 {"type": "play", "token": first, "timeout": True})
        ]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if self.outcome(state) is not None or seat != state["turn"]:
            return []
        return [{"type": "play", "token": t["id"]} for t in state["hands"][seat]]

    def play(self, state: State, seat: int, action: Action, now: float) -> list[Event]:
        if action["type"] != "play":
            raise IllegalAction("In Tokens you can only play a token.")
        if seat != state["turn"]:
            raise IllegalAction("It is {turn}'s turn.", seats={"turn": state["turn"]})
        hand = state["hands"][seat]
        token = next((t for t in hand if t["id"] == action.get("token")), None)
        if token is None:
            raise IllegalAction("You do not hold that token.")
        hand.remove(token)
        state["pile"].append({"seat": seat, **token})
        state["scores"][seat] += token["value"]
        if action.get("timeout"):
            state["timeouts"][seat] += 1
        state["turn"] = (seat + 1) % state["players"]
        return [Event("played", {"seat": seat, "value": token["value"]})]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "turn": state["turn"],
            "pile": [dict(t) for t in state["pile"]],
            "hand_sizes": [len(h) for h in state["hands"]],
            "scores": list(state["scores"]),
        }
        if seat is not None:
            out["hand"] = [dict(t) for t in state["hands"][seat]]
        return out

    def secrets(self, state: State) -> list[Secret]:
        return [Secret(seat, ("hands", seat, i, key), key)
                for seat, hand in enumerate(state["hands"]) for i in range(len(hand)) for key in ("id", "value")]

    def teams(self, state: State) -> tuple[tuple[int, ...], ...] | None:
        return ((0, 2), (1, 3)) if state["options"]["teams"] else None

    def result(self, state: State) -> Outcome | None:
        if any(state["hands"]):
            return None
        scores = state["scores"]
        teams = self.teams(state)
        totals = list(scores)
        if teams:
            for team in teams:
                total = sum(scores[s] for s in team)
                for s in team:
                    totals[s] = total
        ranks = tuple(sorted(set(totals), reverse=True).index(t) for t in totals)
        return Outcome(ranks=ranks, scores=tuple(scores), teams=teams, reason="all tokens played")


ENGINE = TokensEngine()
