"""Races are judged by each press's `now` (the moment it was pressed), never by the order
the actions were applied in (spec §4, "Time and deadlines")."""

from __future__ import annotations

from tests.fencing.support import A, B, C, Table, opened


def triple(now: float = 100.0) -> Table:
    t = opened()
    t.cards([5, 9], [5, 2], [5, 3])
    t.rig(die=[1])
    t.act(A, {"type": "thrust"}, now)
    assert t.step["kind"] == "hat"
    return t


def test_the_last_press_pays_even_when_applied_first() -> None:
    t = triple()
    t.act(B, {"type": "don"}, 102.0)   # pressed last, applied first
    t.act(C, {"type": "don"}, 101.0)
    t.act(A, {"type": "don"}, 101.5)
    assert t.of("hat_race")[0]["payers"] == [B]
    assert t.of("hat_race")[0]["presses"] == {"0": 1500, "1": 2000, "2": 1000}


def test_presses_tied_to_the_millisecond_all_pay() -> None:
    t = triple()
    t.act(C, {"type": "don"}, 101.0004)
    t.act(A, {"type": "don"}, 100.5)
    t.act(B, {"type": "don"}, 101.0)
    assert t.of("hat_race")[0]["payers"] == [B, C]


def test_a_press_after_the_deadline_is_too_late_and_counts_as_none() -> None:
    t = triple()
    t.act(A, {"type": "don"}, 101.0)
    t.act(B, {"type": "don"}, 110.0)    # exactly at the deadline: in time
    t.act(C, {"type": "don"}, 110.001)  # too late: the race resolves as at its deadline
    race = t.of("hat_race")[0]
    assert "too_late" in t.kinds() and race["payers"] == [C] and race["missed"] == [C]
    assert t.state["seats"][C]["hat_on"] is False


def test_snaps_are_judged_by_their_own_times_whatever_the_order() -> None:
    t = opened(greens=(5, 5, 2))
    t.act(A, {"type": "insult", "text": ""}, 2.0)
    t.act(B, {"type": "insult", "text": ""}, 2.0)
    t.rig(S=[7000])
    t.act(C, {"type": "count"}, 10.0)
    t.act(A, {"type": "snap"}, 16.0)   # applied first, pressed later: 6.0 s
    t.act(B, {"type": "snap"}, 15.0)   # 5.0 s
    assert t.of("duel_snaps")[0]["times"] == [6000, 5000]
    assert t.of("duel_won")[0]["seat"] == A


def test_catch_on_the_deadline_millisecond() -> None:
    t = opened()
    t.state["control"], t.state["mitt"] = A, B
    t.cards([2], [13], [4])
    t.rig(die=[1], delay=[2500])
    t.act(A, {"type": "thrust"}, 0.0)
    t.act(t.step["holder"], {"type": "done"}, 0.0)
    assert t.step["deadline"] == 7500
    t.act(None, {"type": "catch_open", "timeout": True}, 2.5)
    t.act(B, {"type": "catch"}, 7.5)
    assert t.of("catch")[0]["seat"] == B and not t.state["penalties"][B]
