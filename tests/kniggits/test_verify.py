"""Kniggits' one dispatch style (issue 22 item 2), as in Two Fat Dudes: every action kind of the
schema has its rule check (`VERIFY`) and its handler (`HANDLERS`); `legal_actions` is the
candidates that check accepts, and `play` refuses exactly what the check refuses, so the
panels, random play and the handlers never disagree. Checked on seeded random games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

from games.core import IllegalAction
from games.kniggits import checks, engine, moves, schema
from games.kniggits.candidates import candidates
from games.kniggits.engine import HANDLERS, VERIFY
from tests.playout import random_playout

ENGINE = engine.KniggitsEngine()
KINDS = set(get_args(schema.Kind))
#: Seeded games: players and options vary (variants on, a short game that ends on points).
GAMES = [(0, 2, {"horses": True, "magic_swords": True, "double_defence": True}),
         (1, 4, {"two_swords": True, "archers": True, "potions": 4, "scenario": "flag", "team_sizes": [2, 2]}),
         (2, 3, {"archers": True, "horses": True, "potions": 2, "size": 24, "budget": 30, "rounds": 3})]


def test_every_action_kind_has_its_check_and_its_rule() -> None:
    assert set(VERIFY) == set(HANDLERS) == KINDS
    # Where each kind may be sent: a phase of the schema; the rest anywhere (no turn's action).
    assert set(checks.WHEN) | engine.NO_TURN == KINDS
    assert not set(checks.WHEN) & engine.NO_TURN
    assert all(set(where) <= set(get_args(schema.Phase)) - {"over"} for where in checks.WHEN.values())


def test_each_kind_has_the_payload_of_its_own_type() -> None:
    assert set(schema.ACTIONS) == KINDS
    for kind, payload in schema.ACTIONS.items():
        assert get_args(payload.__annotations__["type"]) == (kind,), kind


def refusal(call: Callable[..., object], *args: Any) -> tuple[str, str | None, dict[str, int]] | None:
    """What `call(*args)` refused: the words, the rule and the seats; None if it passed."""
    try:
        call(*args)
    except IllegalAction as exc:
        return exc.message, exc.rule, exc.seats
    return None


def probes(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """An action of every kind (and an unknown one), with payloads naming real kniggits."""
    mine = [k["id"] for k in state["kniggits"] if k["owner"] == seat] or ["A1"]
    foes = [k["id"] for k in state["kniggits"] if k["owner"] != seat] or ["B1"]
    mover = moves.cursor(state, seat) if state["turn"] is not None and seat < state["players"] else None
    cells = moves.sample_cells(state, mover) if mover is not None else []
    goal = {"id": mover["id"], "to": list(cells[0])} if mover is not None and cells else {"id": mine[0], "to": [9, 9]}
    payloads: dict[str, dict[str, Any]] = {
        "army": {"lines": "Bob 3 2 2"}, "deploy": {"preset": "back"}, "throw": {"shape": "paper"},
        "gesture": {"sword": "mid"}, "select": {"id": mine[0]}, "plan": goal, "move": goal, "hand": {"hand": "sword"}, "hold": {"id": mine[0]},
        "face": {"id": mine[0], "target": foes[0]}, "attack": {"id": mine[0], "target": foes[0]},
        "shoot": {"id": mine[-1], "target": foes[-1]}, "handed": {"left": True},
    }
    return [{"type": kind, **payloads.get(kind, {})} for kind in [*sorted(KINDS), "dance"]]


def played(seed: int, players: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Each state of a seeded random game (the shared playout: listed actions, timers now and then)."""
    return random_playout(ENGINE, players, seed, options).states


def test_legal_actions_are_the_candidates_verify_accepts_and_play_takes() -> None:
    listed = 0
    for seed, players, options in GAMES:
        for state in played(seed, players, options):
            for seat in range(players):
                awaited = seat in {w.seat for w in ENGINE.to_act(state)}
                legal = ENGINE.legal_actions(state, seat)
                accepted = [a for a in candidates(state, seat, awaited)
                            if refusal(ENGINE.verify, state, seat, a) is None]
                assert legal == accepted, (seed, seat)
                for action in legal:
                    assert refusal(ENGINE.apply, state, seat, action, 1_000.0) is None, (seed, action)
                listed += len(legal)
    assert listed > 500


def test_play_refuses_exactly_what_verify_refuses() -> None:
    """A refused action is refused by `verify`, with the same words, rule and seats, before any
    handler runs; what `verify` passes is only ever refused for its payload (a cell out of reach)."""
    kinds_passed: set[str] = set()
    for seed, players, options in GAMES:
        for number, state in enumerate(played(seed, players, options)):
            if number % 3:
                continue
            for seat in range(players + 1):
                for action in probes(state, seat):
                    checked = refusal(ENGINE.verify, state, seat, action)
                    done = refusal(ENGINE.apply, state, seat, action, 1_000.0)
                    if checked is not None:
                        assert done == checked, (seed, number, seat, action)
                    elif done is not None:
                        assert action["type"] in ("army", "deploy", "gesture", "plan", "move", "confirm"), (action, done)
                    else:
                        kinds_passed.add(action["type"])
    assert kinds_passed >= KINDS - {"claim_forfeit", "confirm", "hand", "shoot"}, KINDS - kinds_passed
