"""The nineteen acceptance scenarios of the hallway spec (§6), one test each.

Red (seat 0) is the start player unless a test says otherwise; rolls are pinned with `rig`.
"""

from __future__ import annotations

import pytest

from cogs.hallway.ui import HallwayUI
from cogs.table.ui import Button, Seat, TableInfo
from games.core import IllegalAction
from games.hallway import ENGINE
from tests.hallway.support import (
    BLUE,
    RED,
    act,
    build,
    negotiating,
    offer,
    rig,
    roll,
    roundtrip,
    texts,
)

INFO = TableInfo(game_id=1, seats=[Seat(0, 100, "Alice"), Seat(1, 101, "Bob")])


def test_01_setup_rolloff_reroll_on_tie() -> None:
    state = rig(ENGINE.new_game(2, 1), 2, 2, 4, 1)  # both dice roll when both pressed, Red's first
    assert {w.seat for w in ENGINE.to_act(state)} == {RED, BLUE}
    state, _ = act(state, RED, {"type": "roll"})
    state, events = act(state, BLUE, {"type": "roll"})
    assert [e.type for e in events] == ["rolled", "rolloff", "rolloff_tie"]
    assert events[1].data["rolls"] == [2, 2] and "roll again" in texts(events)
    assert state["phase"] == "rolloff" and state["start"] is None
    state, _ = act(state, RED, {"type": "roll"})
    state, events = act(state, BLUE, {"type": "roll"})
    assert state["start"] == RED and state["edge"] == BLUE and state["turn"] == RED
    assert state["pos"] == [0, 20] and state["score"] == [0, 0] and state["encounters"] == 0
    assert state["rolloff"]["past"] == [[2, 2], [4, 1]]
    assert events[-1].type == "start" and events[-1].data == {"start": RED, "edge": BLUE}
    assert "🎲 Roll-off: 🔴 alice 🎲4, 🔵 bob 🎲1." in texts(events)
    assert "🔴 alice starts ★ and bob holds the Edge." in texts(events)


def test_02_scoring_own_colour_adds_other_subtracts() -> None:
    state = build()
    expected = [(RED, 2, [2, 20], [5, 0]), (BLUE, 3, [2, 17], [5, -2]),
                (RED, 4, [6, 17], [2, -2]), (BLUE, 4, [6, 13], [2, 6])]
    for seat, value, pos, score in expected:
        assert state["turn"] == seat
        state, _ = roll(state, seat, value)
        assert state["pos"] == pos and state["score"] == score
    assert state["round"] == 3


def test_03_green_ten_scores_for_anyone() -> None:
    state, events = roll(build(pos=(7, 14), score=(12, 0)), RED, 3)
    assert state["pos"][RED] == 10 and state["score"][RED] == 22
    assert "G10" in texts(events)
    blue, _ = roll(build(pos=(3, 13), turn=BLUE), BLUE, 3)
    assert blue["score"][BLUE] == 10


def test_04_overshoot_stops_beside_and_opens_negotiation() -> None:
    state, events = roll(build(pos=(7, 11), score=(12, 0)), RED, 4)
    assert state["pos"] == [10, 11] and state["score"][RED] == 22
    assert state["encounters"] == 1 and state["phase"] == "negotiate"
    assert {w.seat for w in ENGINE.to_act(state)} == {RED, BLUE}
    assert "Encounter 1 of 4" in texts(events)


def test_05_adjacent_roll_is_an_encounter_and_rescores() -> None:
    state, _ = roll(build(pos=(9, 10), score=(4, 0), encounters=1), RED, 1)
    assert state["pos"] == [9, 10] and state["score"][RED] == 13
    assert state["encounters"] == 2 and state["phase"] == "negotiate"


def test_06_deal_and_swap() -> None:
    state = negotiating(pos=(9, 10), score=(20, 15), encounters=1, edge=BLUE)
    state = offer(state, RED, "me", 6)
    assert state["score"] == [19, 15]
    state = offer(state, BLUE, "you", 9)
    assert state["score"] == [19, 14]
    state, events = act(state, RED, {"type": "accept"})
    assert state["pos"] == [10, 9] and state["score"] == [20, 14]
    assert state["passed"] is True and state["edge"] == BLUE
    assert state["phase"] == "turn" and state["turn"] == BLUE
    assert [e.data["delta"] for e in events if e.type in ("deal", "land")] == [[-9, 9], [10, 0], [0, -9]]


def test_07_no_deal_edge_sends_the_opponent_back() -> None:
    state = negotiating(pos=(9, 10), score=(10, 10), encounters=2, edge=RED)
    state, _ = act(state, RED, {"type": "nodeal"})
    assert state["phase"] == "negotiate"
    state, _ = act(state, BLUE, {"type": "nodeal"})
    assert state["phase"] == "edge"
    state, _ = act(state, RED, {"type": "edge", "back": "you"})
    assert state["pos"] == [9, 20] and state["score"] == [10, 5] and state["edge"] == BLUE
    assert state["turn"] == BLUE and state["phase"] == "turn"


def test_08_edge_holder_goes_back_themselves() -> None:
    pending = {"maker": RED, "payer": RED, "amount": 2}
    state = negotiating(pos=(9, 10), score=(10, 10), encounters=3, edge=BLUE, offers=1, pending=pending)
    state, _ = act(state, BLUE, {"type": "decline"})
    state, _ = act(state, BLUE, {"type": "edge", "back": "me"})
    assert state["pos"] == [9, 20] and state["score"] == [10, 0] and state["edge"] == RED


def test_09_final_mode_landing_on_the_opponent_is_not_an_encounter() -> None:
    state, _ = roll(build(pos=(8, 11), encounters=4), RED, 3)
    assert state["pos"] == [10, 11] and state["score"][RED] == 10
    assert state["encounters"] == 4 and state["passed"] is False
    assert state["phase"] == "turn" and state["turn"] == BLUE


def test_10_final_mode_squeezes_one_space_past() -> None:
    passed, events = roll(build(pos=(9, 10), encounters=4), RED, 3)
    assert passed["pos"] == [11, 10] and passed["score"][RED] == -9
    assert passed["passed"] is True and passed["encounters"] == 5
    assert "race is on" in texts(events)
    stuck, _ = roll(build(pos=(9, 10), encounters=4), RED, 1)
    assert stuck["pos"] == [9, 10] and stuck["score"][RED] == 9 and stuck["passed"] is False


def test_11_start_player_exits_first_second_gets_one_more_turn() -> None:
    state, events = roll(build(pos=(18, 4), score=(30, 12), passed=True), RED, 3)
    assert state["exited"] == [RED] and state["score"][RED] == 30
    assert state["phase"] == "turn" and state["turn"] == BLUE and ENGINE.outcome(state) is None
    assert "one last turn" in texts(events)
    state, _ = roll(state, BLUE, 2)
    assert state["pos"][BLUE] == 2 and state["score"][BLUE] == 7
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks == (0, 1) and outcome.scores == (30, -3)


def test_12_second_player_exits_first_game_ends_at_once() -> None:
    state, _ = roll(build(pos=(17, 2), score=(25, 20), passed=True, turn=BLUE), BLUE, 2)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 0) and outcome.scores == (10, 20)
    assert ENGINE.to_act(state) == []


def test_13_tie_the_dude_who_exited_wins() -> None:
    state, _ = roll(build(pos=(18, 4), score=(15, 30), passed=True), RED, 2)
    state, _ = roll(state, BLUE, 2)  # Blue to 2 (R5): 25, minus 10 for two steps left
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.scores == (15, 15) and outcome.ranks == (0, 1)


def test_14_tie_both_exited_is_a_shared_victory() -> None:
    state, _ = roll(build(pos=(19, 1), score=(15, 15), passed=True), RED, 2)
    state, _ = roll(state, BLUE, 3)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.scores == (15, 15) and outcome.ranks == (0, 0)
    assert outcome.reason == "shared" and outcome.detail["exited"] == [True, True]


def test_15_a_deal_can_swap_a_dude_onto_the_exit() -> None:
    state, _ = roll(build(pos=(17, 20), score=(10, 30), encounters=1), RED, 3)
    assert state["pos"] == [19, 20] and state["score"] == [7, 30] and state["encounters"] == 2
    state = offer(state, RED, "me", 20)
    assert state["score"][RED] == 6
    state, events = act(state, BLUE, {"type": "accept"})
    assert state["exited"] == [RED] and state["pos"] == [20, 19] and state["score"] == [-14, 53]
    assert "one last turn" in texts(events) and state["turn"] == BLUE
    state, _ = roll(state, BLUE, 4)
    outcome = ENGINE.outcome(state)
    assert state["score"][BLUE] == 57
    assert outcome is not None and outcome.scores == (-14, -18) and outcome.ranks == (0, 1)


def test_16_overshooting_the_exit_needs_no_exact_roll() -> None:
    state, events = roll(build(pos=(19, 5), passed=True), RED, 4)
    assert state["pos"][RED] == 20 and state["exited"] == [RED] and state["score"][RED] == 0
    assert "out of the hallway" in texts(events)


def test_17_negotiation_limits_ten_offers_then_timeouts() -> None:
    state = negotiating(pos=(9, 10), score=(0, 0), encounters=1, edge=BLUE)
    for n in range(10):
        maker = n % 2
        state = offer(state, maker, "me", n)
        assert state["score"][maker] == -(n // 2 + 1)
    assert state["score"] == [-5, -5]
    recipient = RED  # Blue made the 10th offer
    assert ENGINE.legal_actions(state, recipient) == [{"type": "accept"}, {"type": "decline"}]
    controls = HallwayUI().table(ENGINE.view(state, None), INFO).controls
    counters = [c for c in controls if "Counter" in c.label]
    assert counters and all(isinstance(c, Button) and c.disabled for c in counters)
    with pytest.raises(IllegalAction, match="10th offer"):
        offer(state, recipient, "you", 1)
    (wait,) = ENGINE.to_act(state)
    assert wait.seat == recipient and wait.default == {"type": "decline", "timeout": True}
    state, _ = act(state, wait.seat, wait.default)
    assert state["phase"] == "edge"
    (wait,) = ENGINE.to_act(state)
    assert wait.seat == BLUE and wait.default == {"type": "edge", "back": "you", "timeout": True}
    state, _ = act(state, wait.seat, wait.default)
    assert state["pos"] == [0, 10] and state["score"] == [-10, -5] and state["edge"] == RED


def test_18_an_offer_may_push_a_score_below_zero() -> None:
    state = offer(negotiating(pos=(9, 10), score=(0, 0), encounters=1), RED, "me", 5)
    assert state["score"][RED] == -1
    state, events = act(state, BLUE, {"type": "accept"})
    deal = next(e for e in events if e.type == "deal")
    assert deal.data["delta"] == [-5, 5] and deal.data["scores"] == [-6, 5]
    assert "🤝 Deal! 🔴 alice pays bob 5: alice −6, bob 5." in texts(events)
    assert state["score"][RED] == -6 + 10  # then Red squeezes onto the green 10
    assert state["score"][BLUE] == 5 - 9  # received 5, then landed on R9


def test_19_afk_five_timeouts_in_a_row_forfeit() -> None:
    state = build()
    for n in range(5):
        state, _ = roll(state, RED, 1)
        (wait,) = ENGINE.to_act(state)
        assert wait.seat == BLUE
        state, events = act(rig(state, 1), BLUE, wait.default)
        assert state["timeouts"][BLUE] == n + 1
    assert events[-1].type == "afk" and events[-1].data["seat"] == BLUE
    assert "💤 🔵 bob let 5 turns pass in a row and forfeits: alice wins." in texts(events)
    outcome = ENGINE.outcome(roundtrip(state))
    assert outcome is not None and outcome.ranks == (0, 1) and outcome.reason == "afk"
    assert ENGINE.to_act(state) == []
