"""The roll-off for the start player (setup rule 2) on the secret-choice block: both dudes
press Roll, the table shows only who has, and one resolution rolls both dice."""

from __future__ import annotations

from typing import Any

from games.core import Secret
from games.hallway import ENGINE
from tests.hallway.support import BLUE, NAMED, RED, UI, act, refusal, refused, rig, texts
from tests.secrecy import leaks


def fresh(*rolls: int) -> dict[str, Any]:
    return rig(ENGINE.new_game(2, 1), *rolls)


def description(state: dict[str, Any]) -> str:
    return UI.table(ENGINE.view(state, None), NAMED).card.description


def fields(state: dict[str, Any]) -> dict[str, str]:
    return {name: value for name, value, _ in UI.table(ENGINE.view(state, None), NAMED).card.fields}


def test_a_press_rolls_nothing_until_both_dudes_have_pressed() -> None:
    state = fresh(4, 1)
    assert [b["key"] for b in ENGINE.choices(state)] == ["rolloff-1"]
    state, events = act(state, RED, {"type": "roll"})
    assert [(e.type, e.data) for e in events] == [("rolled", {"seat": RED, "round": 1})]
    assert state["rng"]["n"] == 0 and state["rolloff"]["past"] == []  # no die has been rolled
    assert texts(events) == "🔴 alice ✔ rolled for the start."
    view = ENGINE.view(state, None)
    assert view["rolloff"]["chosen"] == [RED] and view == ENGINE.view(state, BLUE)
    assert "🔴 alice ✔ rolled" in description(state) and "bob ✔" not in description(state)
    assert [w.seat for w in ENGINE.to_act(state)] == [BLUE]
    assert ENGINE.secrets(state) == [Secret(RED, ("rolloff", "box", "picks", RED), "roll")]
    assert leaks(ENGINE, state) == []
    state, events = act(state, BLUE, {"type": "roll"})
    assert [e.type for e in events] == ["rolled", "rolloff", "start"]
    assert events[1].data == {"rolls": [4, 1], "round": 1} and state["rng"]["n"] == 2
    assert ENGINE.choices(state) == [] and ENGINE.secrets(state) == []
    assert fields(state)["Roll-off"] == "🔴 alice 🎲4, 🔵 bob 🎲1"


def test_a_second_press_is_refused_and_changes_nothing() -> None:
    state, _ = act(fresh(4, 1), BLUE, {"type": "roll"})
    exc = refusal(state, BLUE, {"type": "roll"})
    assert exc.rule == "2" and exc.message.startswith("You already rolled.")
    assert refused(state, BLUE, {"type": "roll"}) == "You already rolled. Waiting for alice to roll."
    assert ENGINE.legal_actions(state, BLUE) == [] and ENGINE.legal_actions(state, RED) == [{"type": "roll"}]


def test_the_timer_presses_roll_for_a_dude_and_the_round_resolves() -> None:
    state, _ = act(fresh(2, 3), RED, {"type": "roll"})
    (wait,) = ENGINE.to_act(state)
    assert (wait.seat, wait.key, wait.timeout, wait.independent) == (BLUE, "rolloff-1", 45.0, True)
    state, events = act(state, wait.seat, wait.default)
    assert events[0].data == {"seat": BLUE, "round": 1, "timeout": True}
    assert texts(events).startswith("⏰ time ran out — rolled for 🔵 bob.\n🎲 Roll-off: 🔴 alice 🎲2, 🔵 bob 🎲3.")
    assert state["start"] == BLUE and state["timeouts"] == [0, 1]


def test_both_timers_running_out_still_settle_the_start() -> None:
    state = fresh(1, 4)
    for wait in ENGINE.to_act(state):
        state, _ = act(state, wait.seat, wait.default)
    assert state["start"] == BLUE and state["timeouts"] == [1, 1] and state["phase"] == "turn"


def test_a_tie_opens_a_new_round_with_a_new_key() -> None:
    state = fresh(3, 3, 1, 2)
    state, _ = act(state, BLUE, {"type": "roll"})
    state, events = act(state, RED, {"type": "roll"})
    assert [(e.type, e.data) for e in events[1:]] == [("rolloff", {"rolls": [3, 3], "round": 1}),
                                                      ("rolloff_tie", {"roll": 3, "round": 2})]
    assert texts(events).endswith("Both rolled 3: roll again!")
    assert state["phase"] == "rolloff" and state["rolloff"]["round"] == 2
    assert [b["key"] for b in ENGINE.choices(state)] == ["rolloff-2"]
    assert {(w.seat, w.key) for w in ENGINE.to_act(state)} == {(RED, "rolloff-2"), (BLUE, "rolloff-2")}
    assert ENGINE.view(state, None)["rolloff"]["chosen"] == []
    assert "Roll-off tied: 🔴 alice 🎲3, 🔵 bob 🎲3. Roll again" in description(state)
    state, _ = act(state, RED, {"type": "roll"})  # pressing again is fine in the new round
    state, _ = act(state, BLUE, {"type": "roll"})
    assert state["rolloff"]["past"] == [[3, 3], [1, 2]] and state["start"] == BLUE
