"""The leak check itself must fail when a secret shows: a planted leak of a pending pick."""

from __future__ import annotations

import json
from dataclasses import replace

from tests.engines.shapes import ENGINE as SHAPES
from tests.engines.shapes import LEAKY
from tests.engines.tokens import ENGINE as TOKENS
from tests.secrecy import leaks


def pending_pick(engine) -> dict:
    state = engine.new_game(2, 5)
    state, _ = engine.apply(state, 0, {"type": "throw", "shape": "rock"}, 1.0)
    return json.loads(json.dumps(state))


def test_a_pending_pick_in_the_public_view_is_caught() -> None:
    state = pending_pick(LEAKY)
    problems = leaks(LEAKY, state)
    assert "the public view changes with seat 0's secret at throw/picks/0" in problems
    assert "seat 1's view changes with seat 0's secret at throw/picks/0" in problems


def test_matching_by_value_could_not_see_that_leak() -> None:
    """Why paths: "rock" is in every view anyway (a button, the last round), so a value
    search finds it everywhere and proves nothing; only changing the secret does."""
    state = pending_pick(LEAKY)
    state["last"] = {"picks": ["rock", "paper"], "winner": 1}
    assert "rock" in json.dumps(SHAPES.view(state, None))  # a value check must ignore it
    assert leaks(SHAPES, state) == []
    assert leaks(LEAKY, state) != []


def test_the_honest_engine_passes() -> None:
    assert leaks(SHAPES, pending_pick(SHAPES)) == []


def test_a_hand_card_in_another_seats_view_is_caught() -> None:
    class Peeking(type(TOKENS)):
        name = "peeking"

        def view(self, state, seat):
            out = super().view(state, seat)
            if seat == 1:
                out["peek"] = state["hands"][0][0]["value"]
            return out

    engine = Peeking()
    state = engine.new_game(2, 3)
    problems = leaks(engine, state)
    assert any(p.startswith("seat 1's view changes with seat 0's secret at hands/0/0/value") for p in problems)
    assert not any(p.startswith("the public view") for p in problems)


def test_the_rng_is_always_checked() -> None:
    class RngShowing(type(TOKENS)):
        name = "rng_showing"

        def view(self, state, seat):
            return {**super().view(state, seat), "n": state["rng"]["n"]}

    engine = RngShowing()
    assert any("rng/n" in p for p in leaks(engine, engine.new_game(2, 3)))


def test_a_secret_shared_with_a_teammate_may_show_to_that_teammate_only() -> None:
    """Kniggits' army draft: both players of an army see it; the enemy and the table don't."""
    class TeamPeek(type(TOKENS)):
        name = "team_peek"

        def view(self, state, seat):
            out = super().view(state, seat)
            if seat in (0, 1):
                out["draft"] = state["hands"][0][0]["value"]
            return out

        def secrets(self, state):
            return [replace(s, shared=(1,)) if s.owner == 0 else s for s in super().secrets(state)]

    engine = TeamPeek()
    state = engine.new_game(3, 3)
    assert leaks(engine, state) == []
    state_problems = leaks(type("NoShare", (TeamPeek,), {"name": "no_share", "secrets": type(TOKENS).secrets})(),
                           state)
    assert any(p.startswith("seat 1's view changes with seat 0's secret at hands/0/0/value") for p in state_problems)
