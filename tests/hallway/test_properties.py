"""Properties of every hallway game, checked along random playouts with their events (a thousand
games a run, tests/playout.py's MANY_GAMES, each checked for every property)."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import given
from hypothesis import strategies as st

from games.core import Event, State
from games.hallway import ENGINE
from games.hallway.board import EXIT, START, STEP, left_penalty, points
from tests.playout import MANY_GAMES, MAX_STEPS, choose

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


def check_ledger_entry(event: Event, before: State) -> None:
    """Each score change is what the rules say it is, recomputed from the board and the state
    before the step, not taken from the engine's own numbers."""
    delta, kind = event.data["delta"], event.data["kind"]
    if kind == "land":
        seat = event.data["seat"]
        expected = [0, 0]
        expected[seat] = 0 if event.type == "exit" else points(seat, event.data["pos"])
        assert delta == expected
    elif kind == "offer":
        assert sorted(delta) == [-1, 0] and delta[event.data["seat"]] == -1
    elif kind == "fee":
        goer = event.data["goer"]
        assert delta[goer] == -(5 if before["encounters"] <= 2 else 10) and delta[1 - goer] == 0
    elif kind == "deal":
        offer = before["nego"]["pending"]
        assert delta[offer["payer"]] == -offer["amount"] and delta[1 - offer["payer"]] == offer["amount"]
    else:  # pragma: no cover - a new kind of score change must be added to KINDS and here
        raise AssertionError(f"unknown score change {kind}")


def check_tokens_never_cross_and_scores_are_their_ledger(steps: list[tuple[State, list[Event]]]) -> None:
    sums = {kind: [0, 0] for kind in KINDS}
    before = steps[0][0]
    for state, events in steps:
        assert json.loads(json.dumps(state)) == state
        check_positions(state)
        for event in events:
            if "delta" in event.data:
                check_ledger_entry(event, before)
                for seat in (0, 1):
                    sums[event.data["kind"]][seat] += event.data["delta"][seat]
        before = state
        for seat in (0, 1):
            assert state["score"][seat] == sum(sums[kind][seat] for kind in KINDS)
            stats = state["stats"][seat]
            assert sums["offer"][seat] == -stats["offers"]
            assert sums["deal"][seat] == stats["received"] - stats["paid"]
    final = steps[-1][0]
    outcome = ENGINE.outcome(final)
    assert outcome is not None  # every game ends
    if outcome.reason not in ("forfeit", "afk"):
        assert final["exited"], "a game only ends when someone leaves the hallway"
        expected = [final["score"][s] - (0 if s in final["exited"] else left_penalty(s, final["pos"][s]))
                    for s in (0, 1)]
        assert list(outcome.scores or ()) == expected


def check_the_edge_alternates_and_deals_leave_it_alone(steps: list[tuple[State, list[Event]]]) -> None:
    for (before, _), (after, events) in itertools.pairwise(steps):
        kinds = {e.type for e in events}
        if "edge" in kinds:
            assert after["edge"] == 1 - before["edge"]
        elif before["edge"] is not None:
            assert after["edge"] == before["edge"]


def expected_move(before: State, seat: int, roll: int) -> tuple[int, bool]:
    """Where a roll takes `seat` by rules 7-8, 14 and 15, and whether it opens an encounter."""
    here, there = before["pos"][seat], before["pos"][1 - seat]
    step = STEP[seat]
    if before["passed"]:
        target = here + step * roll
        return (min(target, EXIT[seat]) if step > 0 else max(target, EXIT[seat])), False
    gap = abs(there - here)
    if roll < gap:
        return here + step * roll, False
    if before["encounters"] < 4:
        return there - step, True
    if roll == gap:
        return there - step, False
    target = there + step
    return (min(target, EXIT[seat]) if step > 0 else max(target, EXIT[seat])), False


def check_every_roll_moves_by_the_rules_and_every_edge_sends_someone_home(
        steps: list[tuple[State, list[Event]]]) -> None:
    for (before, _), (after, events) in itertools.pairwise(steps):
        kinds = [e.type for e in events]
        if before["phase"] == "turn":  # the only move in a turn is a roll (or its timeout)
            seat, roll = after["last_roll"]["seat"], after["last_roll"]["roll"]
            assert seat == before["turn"] and 1 <= roll <= 4
            target, bump = expected_move(before, seat, roll)
            assert after["pos"][seat] == target and after["pos"][1 - seat] == before["pos"][1 - seat]
            assert ("encounter" in kinds) == bump
            assert after["encounters"] == before["encounters"] + (1 if bump else 0) or (
                after["encounters"] == 5 and before["encounters"] == 4)
        if "edge" in kinds:
            edge = next(e for e in events if e.type == "edge")
            goer = edge.data["goer"]
            assert after["pos"][goer] == START[goer]
            assert after["pos"][1 - goer] == before["pos"][1 - goer]
        if "deal" in kinds:
            assert [after["pos"][s] for s in (0, 1)] == [before["pos"][1], before["pos"][0]]
            assert after["passed"] and after["edge"] == before["edge"]


def check_every_game_ends_within_a_bounded_number_of_turns(steps: list[tuple[State, list[Event]]]) -> None:
    final = steps[-1][0]
    assert ENGINE.outcome(final) is not None and ENGINE.to_act(final) == []
    assert final["encounters"] <= 5 and len(steps) < 1_000


@MANY_GAMES
@given(seed=st.integers(0, 2**31))
def test_every_step_of_random_games_keeps_the_invariants(seed: int) -> None:
    """One playout serves every invariant (the costly part is playing the game): tokens never
    cross and scores are their ledger, the Edge alternates and deals leave it alone, every roll
    moves by the rules and every Edge sends someone home, every game ends in bounded turns."""
    steps = playout(seed)
    check_tokens_never_cross_and_scores_are_their_ledger(steps)
    check_the_edge_alternates_and_deals_leave_it_alone(steps)
    check_every_roll_moves_by_the_rules_and_every_edge_sends_someone_home(steps)
    check_every_game_ends_within_a_bounded_number_of_turns(steps)
