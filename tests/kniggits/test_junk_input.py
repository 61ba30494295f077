"""Typed army and deployment lines that cannot be read are refused citing K2 with the line
that could not be read (never a crash: `isdigit` takes "²", `int` refuses it and numbers past
4,300 digits); the same turn of a kniggit applied twice is refused, not logged twice."""

from __future__ import annotations

import pytest

from games.kniggits import army
from games.kniggits.samples import ENGINE, act
from tests.kniggits.support import battle, events_of, k, kniggit, play, refused

HUGE = "9" * 5_000


def build_phase() -> dict:
    state = ENGINE.new_game(2, 7, {})
    for captain in (0, 1):
        state = act(state, captain, {"type": "accept"})
    assert state["phase"] == "build"
    return state


def deploy_phase() -> dict:
    state = build_phase()
    for seat in (0, 1):
        state = act(state, seat, {"type": "army", "lines": "Lance 2 2 2\nPage 1 1 1"})
        state = act(state, seat, {"type": "lock"})
    assert state["phase"] == "deploy"
    return state


@pytest.mark.parametrize(("lines", "shown"), [
    ("Lance ² 2 2", "`Lance ² 2 2`"),
    ("Lance 2 2 2\nPage ١ ١ ١", "`Page ١ ١ ١`"),
    ("Lance ２ 2 2", "`Lance ２ 2 2`"),
    (f"Lance {HUGE} 2 2", "`Lance " + "9" * (army.QUOTE_LIMIT - 7) + "…`"),
    ("Lance 2 2", "`Lance 2 2`"),
    ("Lance `2` 2 2", "`Lance '2' 2 2`"),
])
def test_k2_an_army_line_that_cannot_be_read_is_named_in_the_refusal(lines: str, shown: str) -> None:
    state = build_phase()
    exc = refused(state, 0, type="army", lines=lines)
    assert exc.rule == "K2"
    assert shown in exc.message and "Lance 2 2 2" in exc.message, exc.message
    assert len(exc.message) < 200


def test_k2_the_line_number_is_counted_from_the_first_line() -> None:
    exc = refused(build_phase(), 0, type="army", lines="Lance 2 2 2\n\nPage x 1 1")
    assert exc.message.startswith("I could not read line 3, `Page x 1 1`")


def test_k2_too_many_tokens_are_refused_with_the_limit() -> None:
    exc = refused(build_phase(), 0, type="army", lines="Lance 999999 2 2")
    assert exc.rule == "K2" and "0 to 200" in exc.message


def test_k2_an_army_of_thousands_of_lines_is_refused_at_once() -> None:
    exc = refused(build_phase(), 0, type="army", lines="\n".join(["Lance 1 1 1"] * 3_000))
    assert exc.rule == "K2" and "at most 200 lines" in exc.message


def test_k2_readable_lines_still_read() -> None:
    assert army.parse_lines("Lance 2 2 2\nBow 3/2/4 archer\n Axe 06,1,1 ") == [
        {"name": "Lance", "M": 2, "A": 2, "D": 2, "kind": "normal"},
        {"name": "Bow", "M": 3, "A": 2, "D": 4, "kind": "archer"},
        {"name": "Axe", "M": 6, "A": 1, "D": 1, "kind": "normal"}]


@pytest.mark.parametrize(("lines", "shown"), [
    ("A1 ²,3", "`A1 ²,3`"),
    ("A1 10,3\nA2 ３,3", "`A2 ３,3`"),
    (f"A1 {HUGE},3", "`A1 " + "9" * (army.QUOTE_LIMIT - 4) + "…`"),
    ("A1 10", "`A1 10`"),
])
def test_k2_a_deployment_line_that_cannot_be_read_is_named_in_the_refusal(lines: str, shown: str) -> None:
    state = deploy_phase()
    exc = refused(state, 0, type="deploy", lines=lines)
    assert exc.rule == "K2"
    assert shown in exc.message and "A1 10,3" in exc.message, exc.message


def test_k2_an_unknown_id_is_echoed_short() -> None:
    exc = refused(deploy_phase(), 0, type="deploy", lines=f"{'Z' * 3_000} 10,3")
    assert exc.rule == "K2" and "is not one of your kniggits" in exc.message and len(exc.message) < 120


def test_k7_a_typed_destination_takes_plain_digits_only() -> None:
    state = battle([kniggit("A1", (10, 10), (3, 2, 2)), kniggit("B1", (30, 30), (2, 2, 2))])
    for to in ("12,²", f"12,{HUGE}", "１２,9"):
        assert refused(state, 0, type="plan", id="A1", to=to).rule == "K7"
    exc = refused(state, 0, type="plan", id="A1", to="12,12", via=" ".join(["11,11"] * 500))
    assert exc.rule == "K7" and "at most 8 waypoints" in exc.message


# ----- K10: the same turn twice --------------------------------------------------------------
def turning_phase() -> dict:
    state = battle([kniggit("A1", (20, 21), (2, 2, 2), facing="B1"), kniggit("A2", (22, 20), (2, 2, 2), facing="B1"),
                    kniggit("B1", (20, 20), (2, 2, 2), facing="A2"), kniggit("B9", (30, 35), (1, 1, 1))])
    state, _ = play(state, 0, type="done")
    assert state["phase"] == "turning"
    return state


def test_k10_the_same_turn_applied_twice_is_refused_not_logged_twice() -> None:
    state, events = play(turning_phase(), 1, type="face", id="B1", target="A1")
    assert events_of(events, "faced") == [{"id": "B1", "target": "A1", "owner": 1, "target_owner": 0}]
    exc = refused(state, 1, type="face", id="B1", target="A1")
    assert exc.rule == "K10" and exc.message == "B1 already faces A1."
    assert state["turn"]["turned"] == ["B1"]


def test_k10_a_kniggit_may_still_be_turned_to_another_enemy_and_back() -> None:
    state, _ = play(turning_phase(), 1, type="face", id="B1", target="A1")
    state, _ = play(state, 1, type="face", id="B1", target="A2")
    state, _ = play(state, 1, type="face", id="B1", target="A1")
    assert k(state, "B1")["facing"] == "A1" and state["turn"]["turned"] == ["B1"]


def test_k10_confirming_the_facing_it_already_has_counts_once() -> None:
    state, events = play(turning_phase(), 1, type="face", id="B1", target="A2")  # its facing already
    assert len(events_of(events, "faced")) == 1 and state["turn"]["turned"] == ["B1"]
    assert refused(state, 1, type="face", id="B1", target="A2").rule == "K10"
