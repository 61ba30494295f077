"""Properties of every hallway game, checked along random playouts with their events."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import Event, State
from games.hallway import ENGINE
from games.hallway.board import EXIT, left_penalty
from tests.playout import MAX_STEPS, choose

KINDS = ("land", "deal", "offer", "fee")


def playout(seed: int) -> list[tuple[State, list[Event]]]:
    """A random game (timeouts included), keeping each state with the events that made it."""
    chooser = random.Random(seed)
    state = ENGINE.new_game(2, seed)
    steps: list[tuple[State, list[Event]]] = [(state, [])]
    for _ in range(MAX_STEPS):
        if ENGINE.outcome(state) is not None:
            return steps
        seat, action = choose(ENGINE, state, chooser)
        state, events = ENGINE.apply(state, seat, action, 0.0)
        steps.append((state, events))
    raise AssertionError(f"no end after {MAX_STEPS} actions (seed {seed})")


def check_positions(state: State) -> None:
    red, blue = state["pos"]
    assert 0 <= red <= 20 and 0 <= blue <= 20
    for seat in state["exited"]:
        assert state["pos"][seat] == EXIT[seat]
    if not state["passed"]:
        assert red < blue, "tokens shared or crossed a space before passing"
        assert state["encounters"] <= 4 and not state["exited"]
    elif not state["exited"]:
        assert red > blue


@settings(max_examples=60)
@given(seed=st.integers(0, 2**31))
def test_tokens_never_cross_and_scores_are_their_ledger(seed: int) -> None:
    steps = playout(seed)
    sums = {kind: [0, 0] for kind in KINDS}
    for state, events in steps:
        assert json.loads(json.dumps(state)) == state
        check_positions(state)
        for event in events:
            if "delta" in event.data:
                for seat in (0, 1):
                    sums[event.data["kind"]][seat] += event.data["delta"][seat]
        for seat in (0, 1):
            assert state["score"][seat] == sum(sums[kind][seat] for kind in KINDS)
            stats = state["stats"][seat]
            assert sums["offer"][seat] == -stats["offers"]
            assert sums["deal"][seat] == stats["received"] - stats["paid"]
    final = steps[-1][0]
    outcome = ENGINE.outcome(final)
    assert outcome is not None  # every game ends
    if outcome.reason != "forfeit":
        assert final["exited"], "a game only ends when someone leaves the hallway"
        expected = [final["score"][s] - (0 if s in final["exited"] else left_penalty(s, final["pos"][s]))
                    for s in (0, 1)]
        assert list(outcome.scores or ()) == expected


@settings(max_examples=40)
@given(seed=st.integers(0, 2**31))
def test_the_edge_alternates_and_deals_leave_it_alone(seed: int) -> None:
    steps = playout(seed)
    for (before, _), (after, events) in itertools.pairwise(steps):
        kinds = {e.type for e in events}
        if "edge" in kinds:
            assert after["edge"] == 1 - before["edge"]
        elif before["edge"] is not None:
            assert after["edge"] == before["edge"]
