"""💡 Hints (runtime/hints.py, cogs/table/learn.py): at a practice table, the hint is the game's
computer player's move from the seat's own view — the move a computer in that seat would make —
legal, with a reason and a rule that exists; another seat's hidden cards cannot change it; it
is refused anywhere but a practice table, and only a practice table's prompts draw the button."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cogs.table import codec
from cogs.table.present import render_private, render_table
from cogs.table.registry import load_builtin_uis, ui_for
from cogs.table.rules import rule_text
from games.computer import Asked, Policy, decision_rng
from games.core import Action, State
from games.registry import get_engine, get_policy, load_builtin
from runtime.computers import asked
from runtime.errors import Refusal
from runtime.hints import hint_for
from storage import GameRecord, SeatRecord, Status
from tests.playout import random_playout

load_builtin()
load_builtin_uis()
KINDS = [("hallway", 5), ("words", 6), ("tarot", 7), ("fencing", 8), ("kniggits", 9)]


def table_at(kind: str, state: State, version: int, players: int, *, practice: bool = True,
             computers: tuple[int, ...] = ()) -> GameRecord:
    engine = get_engine(kind)
    game = GameRecord(id=3, guild_id=1, channel_id=2, thread_id=None, kind=kind, host_id=100,
                      options={}, status=Status.ACTIVE, version=version, seed=41, state=state,
                      deadlines=[w.to_json() for w in engine.to_act(state)], log=[], table_message_id=None,
                      table_message_at=None, created_at=0.0, updated_at=0.0, practice=practice)
    game.seats = [SeatRecord(seat=s, user_id=-1 - s if s in computers else 100 + s, name=f"p{s}",
                             computer=s in computers) for s in range(players)]
    return game


def prompts(kind: str, seed: int, every: int = 5) -> list[tuple[GameRecord, int, float]]:
    """(practice table, awaited seat, time) at every `every`-th step of a seeded playout."""
    engine = get_engine(kind)
    run = random_playout(engine, engine.min_players, seed)
    out = []
    for step in range(0, len(run.log), every):
        state = run.states[step]
        at = run.log[step][2]
        seats = sorted({w.seat for w in engine.to_act(state) if w.seat is not None})
        if seats:
            game = table_at(kind, state, step + 1, engine.min_players)
            out.append((game, seats[0], at))
    return out


@pytest.mark.parametrize(("kind", "seed"), KINDS, ids=[k for k, _ in KINDS])
def test_a_hint_is_the_computers_move_from_the_seats_view_and_it_is_legal(kind: str, seed: int) -> None:
    engine, policy = get_engine(kind), get_policy(kind)
    assert policy is not None
    given = 0
    for game, seat, now in prompts(kind, seed):
        assert game.state is not None
        try:
            hint = hint_for(engine, policy, game, seat, now)
        except Refusal:
            continue  # a prompt the policy has no answer for (the runtime falls back the same way)
        given += 1
        view = engine.view(game.state, seat)
        rng = decision_rng(game.seed, game.version, seat)
        assert hint.action == policy.choose(view, asked(seat, game.deadlines, now), rng)
        engine.apply(game.state, seat, hint.action, now)  # legal: raises otherwise
        assert hint.reason.why and not hint.reason.why.endswith(".")
        assert hint.reason.rule is None or rule_text(kind, hint.reason.rule), hint.reason
    assert given >= 3, f"only {given} hints in a whole game of {kind}"


class Spy(Policy):
    """The real policy, noting what it was shown."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.shown: list[dict[str, Any]] = []

    def choose(self, view: dict[str, Any], asked: Asked, rng: Any) -> Action:
        self.shown.append(copy.deepcopy(view))
        return self.inner.choose(view, asked, rng)


def test_a_hint_is_drawn_from_the_seats_view_alone() -> None:
    engine, policy = get_engine("tarot"), get_policy("tarot")
    assert policy is not None
    checked = 0
    for game, seat, now in prompts("tarot", 12, every=9):
        state = game.state
        assert state is not None
        spy = Spy(policy)
        try:
            hint = hint_for(engine, spy, game, seat, now)
        except Refusal:
            continue
        assert spy.shown == [engine.view(state, seat)]
        # Another seat's hand swapped for a third's: nothing the seat sees changes, nor the hint.
        others = [s for s in range(4) if s != seat and state["hand"]["hands"][s]]
        if len(others) < 2:
            continue
        moved = json.loads(json.dumps(state))
        hands = moved["hand"]["hands"]
        hands[others[0]][0], hands[others[1]][0] = hands[others[1]][0], hands[others[0]][0]
        assert engine.view(moved, seat) == engine.view(state, seat)
        game.state = moved
        assert hint_for(engine, policy, game, seat, now) == hint
        checked += 1
    assert checked >= 3


def test_hints_are_refused_off_a_practice_table_after_the_end_and_when_nothing_is_asked() -> None:
    engine, policy = get_engine("hallway"), get_policy("hallway")
    game, seat, now = prompts("hallway", 5)[0]
    game.practice = False
    with pytest.raises(Refusal, match="only at practice tables"):
        hint_for(engine, policy, game, seat, now)
    game.practice = True
    idle = [s for s in range(2) if s != seat and all(d["seat"] != s for d in game.deadlines)]
    if idle:
        with pytest.raises(Refusal, match="Nothing is asked of you"):
            hint_for(engine, policy, game, idle[0], now)
    game.status = Status.FINISHED
    with pytest.raises(Refusal, match="over"):
        hint_for(engine, policy, game, seat, now)


def hint_ids(view: Any) -> list[str]:
    rows = view.to_components() if view is not None else []
    return [str(c["custom_id"]) for row in rows for c in row["components"]
            if str(c.get("custom_id", "")).startswith("rp:i:")]


async def test_only_a_practice_tables_prompts_draw_the_hint_button() -> None:
    engine, ui = get_engine("hallway"), ui_for("hallway")
    game, seat, _ = prompts("hallway", 5)[0]
    game.seats = [SeatRecord(seat=0, user_id=100, name="p0"), SeatRecord(seat=1, user_id=-1, name="🤖 Ada",
                                                                         computer=True)]
    game.deadlines = [d for d in game.deadlines if d["seat"] == 0] or [
        {"seat": 0, "key": "roll", "prompt": "roll the die", "at": None}]
    shown = await render_table(game, engine, ui, 0.0, with_image=False)
    assert hint_ids(shown.view) == [codec.hint_id(game.id)]
    game.practice = False
    assert hint_ids((await render_table(game, engine, ui, 0.0, with_image=False)).view) == []
    game.practice, game.deadlines = True, []
    assert hint_ids((await render_table(game, engine, ui, 0.0, with_image=False)).view) == []

    tarot = get_engine("tarot")
    for table, seat, _ in prompts("tarot", 7, every=11)[:3]:
        private = await render_private(table, tarot, ui_for("tarot"), seat, jump_url=None)
        assert private is not None and hint_ids(private.view) == [codec.hint_id(table.id)]
        table.practice = False
        private = await render_private(table, tarot, ui_for("tarot"), seat, jump_url=None)
        assert private is not None and hint_ids(private.view) == []
