"""One rule check per action kind (issue 22 item 2), as in Two Fat Dudes: every kind of the
schema has its check (`checks.VERIFY`) and its handler (`handlers.HANDLERS`, the game's own in
`TIMERS`), a kind missing from either is refused, and on sample states of most prompts
`legal_actions` and `play` run the same checks."""

from __future__ import annotations

from typing import get_args

import pytest

from games.core import IllegalAction
from games.fencing import ENGINE
from games.fencing.checks import ASKS, OUT_OF_STEP, VERIFY, WHEN, allowed, candidates
from games.fencing.handlers import BESIDE, HANDLERS, TIMERS
from games.fencing.samples import samples
from games.fencing.schema import Kind, PromptKind
from tests.fencing.support import A, new_table, opened


def uncovered() -> dict[str, set[str]]:
    """Action kinds of the schema missing from a dispatch table (or listed there but not kinds)."""
    kinds = set(get_args(Kind))
    return {"VERIFY": kinds ^ set(VERIFY), "HANDLERS or TIMERS": kinds ^ (set(HANDLERS) | set(TIMERS)),
            "WHEN": (kinds - BESIDE) ^ set(WHEN), "OUT_OF_STEP": set(OUT_OF_STEP) - kinds,
            "ASKS": set(get_args(PromptKind)) ^ set(ASKS)}


def test_every_action_kind_has_its_rule_check_and_its_handler() -> None:
    """The dispatch tables (issue 22 item 2), keyed by the schema's action kind as in Two Fat
    Dudes: every kind has its rule check (`VERIFY`, shared by `legal_actions` and the handlers)
    and its handler (a seat's in `HANDLERS`, the game's own in `TIMERS`); every kind but those
    answered beside any prompt names its prompts; every prompt says what it asks for."""
    assert all(not missing for missing in uncovered().values()), uncovered()


@pytest.mark.parametrize("table", ["VERIFY", "HANDLERS"])
def test_a_kind_without_its_check_or_handler_fails_the_cover_and_is_refused(
        table: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Take Thrust out of one table: the cover test names it, and the Start's Thrust is refused
    (state unchanged), not played unchecked or crashed on."""
    t = opened()
    assert {"type": "thrust"} in ENGINE.legal_actions(t.state, A)
    monkeypatch.delitem(VERIFY if table == "VERIFY" else HANDLERS, "thrust")
    assert "thrust" in uncovered()["VERIFY" if table == "VERIFY" else "HANDLERS or TIMERS"]
    if table == "VERIFY":
        assert {"type": "thrust"} not in ENGINE.legal_actions(t.state, A)
    before = repr(t.state)
    with pytest.raises(IllegalAction, match=r"Call Thrust now\."):
        t.act(A, {"type": "thrust"}, 2.0)
    assert repr(t.state) == before


def test_legal_actions_and_play_run_the_same_checks() -> None:
    """One rule check per kind, used twice: on sample states of most prompts, each seat's
    candidates and every kind (with fields bent) pass `VERIFY` exactly when an on-time `play` takes them,
    and a refusal says the same words; `legal_actions` is the candidates `VERIFY` passes."""
    bent = [{}, {"piece": "XX"}, {"target": 7}, {"yellow": None}, {"who": 9}, {"text": 5}, {"part": "x"},
            {"how": "x"}, {"to": "zz"}, {"keep": "x"}]
    tried = refused = 0
    states = {**samples(3), "game": new_table().state, "thrust": opened().state,
              "insults": opened(greens=(5, 5, 2)).state}
    for name, state in states.items():
        if ENGINE.outcome(state) is not None:
            continue
        now = state["step"]["opened_at"] / 1000  # on time: before any deadline
        for seat in range(3):
            assert ENGINE.legal_actions(state, seat) == [a for a in candidates(state, seat) if allowed(state, seat, a)]
            for action in [*candidates(state, seat), *({"type": kind} for kind in get_args(Kind))]:
                for extra in bent:
                    tried += 1
                    bad = {**action, **extra}
                    try:
                        VERIFY[bad["type"]](state, seat, bad)
                    except IllegalAction as exc:
                        refused += 1
                        with pytest.raises(IllegalAction) as played:
                            ENGINE.apply(state, seat, bad, now)
                        assert (played.value.message, played.value.rule) == (exc.message, exc.rule), (name, bad)
                    else:
                        ENGINE.apply(state, seat, bad, now)
    assert tried > 500 and 0 < refused < tried
