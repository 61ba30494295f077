"""Table Fencing invariants over random legal games (hypothesis): no two pieces share a
town, every move is legal for the difficulty and within the thread, chocolate and scores
reconcile with the event log, every game ends, a replay reproduces it, states are JSON."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.fencing import ENGINE
from games.fencing.region import load

GAMES = max(10, settings.default.max_examples // 4)
MAX_STEPS = 4_000

OPTIONS = st.fixed_dictionaries({
    "direction": st.sampled_from(["cw", "ccw"]),
    "difficulty": st.sampled_from(["interstate", "state", "backroads"]),
    "duel_mode": st.sampled_from(["sleeper", "dice"]),
    "offroad": st.sampled_from(["on", "off"]),
    "champion": st.sampled_from([-1, 0, 1, 2]),
})


def road_km(region, route: list[str], origin: str, difficulty: str) -> int | None:
    km, here = 0, origin
    for town in route:
        roads = [r for other, r in region.neighbours(here, difficulty) if other == town]
        if not roads:
            return None
        km += roads[0].km
        here = town
    return km


class Ledger:
    """Scores and chocolate rebuilt from events alone."""

    def __init__(self) -> None:
        self.score = [0, 0, 0]
        self.choc = [0, 0, 0]

    def see(self, event: Any) -> None:
        d = event.data
        if event.type == "bumper":
            self.score = [0, 0, 0]
        elif event.type == "build":
            self.score[d["seat"]] += d["points"]
        elif event.type == "slide":
            self.score[d["seat"]] -= d["points"]
        elif event.type == "chocolate_dealt":
            assert d["chocolate"] == min(self.choc[d["seat"]], 1) + 2
            self.choc[d["seat"]] = d["chocolate"]
        elif event.type == "chocolate":
            self.choc[d["seat"]] -= 1
        elif event.type == "surplus":
            self.choc[d["seat"]] -= d["count"]


@settings(max_examples=GAMES, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), options=OPTIONS, chooser_seed=st.integers(0, 2**32))
def test_random_games_keep_the_invariants(seed: int, options: dict[str, Any], chooser_seed: int) -> None:
    chooser = random.Random(chooser_seed)
    state = ENGINE.new_game(3, seed, options)
    region = load("ohio")
    difficulty = state["options"]["difficulty"]
    ledger = Ledger()
    log: list[tuple[int | None, dict[str, Any], float]] = []
    now = 1_000.0
    for _ in range(MAX_STEPS):
        waits = ENGINE.to_act(state)
        if not waits:
            break
        wait = chooser.choice(waits)
        actions = ENGINE.legal_actions(state, wait.seat) if wait.seat is not None else []
        # GAME! is pressed by everyone (a cancelled game proves little); otherwise mostly legal play
        if wait.seat is None and state["step"]["kind"] == "game":
            wait = waits[0]
            actions = ENGINE.legal_actions(state, wait.seat)
        if actions and (wait.default is None or chooser.random() < 0.9):
            action = chooser.choice(actions)
        else:
            action = dict(wait.default or {})
        now += chooser.choice((0.3, 1.0, 4.0))
        before = state
        state, events = ENGINE.apply(state, wait.seat, action, now)
        log.append((wait.seat, action, now))
        assert json.loads(json.dumps(state)) == state
        assert len(set(state["pieces"].values())) == 5, "two pieces on one town"
        for event in events:
            ledger.see(event)
            if event.type == "move":
                d = event.data
                assert d["to"] not in before["pieces"].values()
                if d["offroad"]:
                    assert state["options"]["offroad"] == "on"
                    assert d["km"] == region.straight_km(d["from"], d["to"]) <= region.max_km
                else:
                    assert road_km(region, d["route"], d["from"], difficulty) == d["km"] <= region.max_km
        if state["bumper_no"]:
            assert [p["score"] for p in state["seats"]] == ledger.score
            assert [p["chocolate"] for p in state["seats"]] == ledger.choc
    outcome = ENGINE.outcome(state)
    assert outcome is not None, "no end within the bound"
    assert min(outcome.ranks) == 0 and len(outcome.ranks) == 3
    replayed = ENGINE.new_game(3, seed, options)
    for seat, action, at in log:
        replayed, _ = ENGINE.apply(replayed, seat, action, at)
    assert replayed == state
