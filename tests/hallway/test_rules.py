"""Rules and decisions beyond the spec's scenarios: refusals, timers, AFK, rule 16 edges."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.hallway import ENGINE
from games.hallway.board import SPACES, encounter_fee, left_penalty, points
from tests.hallway.helpers import BLUE, RED, act, build, negotiating, offer, rig, roll, roundtrip


def test_the_board_mirrors_itself_and_nets_plus_35_per_home_half() -> None:
    for pos in range(1, 20):
        colour, number = SPACES[pos]
        mirror_colour, mirror_number = SPACES[20 - pos]
        assert number == mirror_number
        assert {colour, mirror_colour} in ({"R", "B"}, {"G"})
    assert sum(points(RED, p) for p in range(1, 10)) == 35
    assert sum(points(BLUE, p) for p in range(11, 20)) == 35
    assert left_penalty(RED, 1) == 95 and left_penalty(BLUE, 1) == 5


def test_pressing_out_of_turn_says_whose_turn_it_is() -> None:
    with pytest.raises(IllegalAction, match=r"It's Red's turn to roll\."):
        act(build(), BLUE, {"type": "roll"})
    with pytest.raises(IllegalAction, match="Blue holds the Edge"):
        act(build(phase="edge", encounters=1, edge=BLUE), RED, {"type": "edge", "back": "you"})


@pytest.mark.parametrize("junk", [{}, {"type": "nonsense"}, {"type": "offer"}, {"type": "edge"},
                                  {"type": "offer", "payer": "me"}, {"type": 5}, None, "roll"])
def test_garbage_is_refused_with_a_sentence(junk: object) -> None:
    for state in (build(), negotiating(pos=(9, 10), encounters=1), build(phase="edge", encounters=1)):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, RED, junk, 0.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("amount", [-1, 1000, "5", 2.5, True, None])
def test_a_bad_amount_is_refused_and_costs_nothing(amount: object) -> None:
    state = negotiating(pos=(9, 10), score=(7, 7), encounters=1)
    with pytest.raises(IllegalAction, match="0 to 999"):
        act(state, RED, {"type": "offer", "payer": "me", "amount": amount})
    assert state["score"] == [7, 7]


def test_offers_cannot_be_withdrawn_or_answered_by_their_maker() -> None:
    state = offer(negotiating(pos=(9, 10), encounters=1), RED, "you", 4)
    for action in ({"type": "offer", "payer": "me", "amount": 1}, {"type": "accept"}, {"type": "nodeal"}):
        with pytest.raises(IllegalAction):
            act(state, RED, action)
    assert [w.seat for w in ENGINE.to_act(state)] == [BLUE]


def test_an_offer_is_still_possible_after_the_other_said_no_deal() -> None:
    state, _ = act(negotiating(pos=(9, 10), encounters=1), RED, {"type": "nodeal"})
    with pytest.raises(IllegalAction, match="already said no deal"):
        act(state, RED, {"type": "nodeal"})
    assert [w.seat for w in ENGINE.to_act(state)] == [BLUE]
    state = offer(state, BLUE, "me", 0)
    state, _ = act(state, RED, {"type": "accept"})
    assert state["passed"] and state["pos"] == [10, 9]


def test_the_opening_timer_is_one_45_second_clock_kept_across_a_no_deal() -> None:
    state = negotiating(pos=(9, 10), encounters=1)
    before = {(w.seat, w.key, w.timeout) for w in ENGINE.to_act(state)}
    assert before == {(RED, "open-1", 45.0), (BLUE, "open-1", 45.0)}
    state, _ = act(state, RED, {"type": "nodeal"})
    assert {(w.seat, w.key) for w in ENGINE.to_act(state)} == {(BLUE, "open-1")}


def test_no_offer_in_time_counts_against_every_silent_dude() -> None:
    state = negotiating(pos=(9, 10), encounters=1)
    (wait, _) = ENGINE.to_act(state)
    both, _ = act(state, wait.seat, wait.default)
    assert both["phase"] == "edge" and both["timeouts"] == [1, 1]
    state, _ = act(state, RED, {"type": "nodeal"})
    (wait,) = ENGINE.to_act(state)
    one, _ = act(state, wait.seat, wait.default)
    assert one["timeouts"] == [0, 1]


def test_every_prompt_gets_a_fresh_timer() -> None:
    state = build(pos=(2, 18))
    keys = [ENGINE.to_act(state)[0].key]
    for seat in (RED, BLUE, RED):
        state, _ = roll(state, seat, 1)
        keys.append(ENGINE.to_act(state)[0].key)
    assert len(set(keys)) == 4
    state = offer(negotiating(pos=(9, 10), encounters=2), RED, "me", 1)
    first = ENGINE.to_act(state)[0].key
    state = offer(state, BLUE, "me", 1)
    assert ENGINE.to_act(state)[0].key != first


def test_a_real_action_resets_the_timeout_count() -> None:
    state = build(pos=(2, 18), timeouts=[0, 4])
    state, _ = roll(state, RED, 1)
    state, _ = roll(state, BLUE, 1)
    assert state["timeouts"] == [0, 0]


def test_a_fifth_timeout_that_ends_the_game_keeps_the_real_result() -> None:
    state = build(pos=(15, 2), score=(0, 50), passed=True, turn=BLUE, timeouts=[0, 4])
    state, _ = act(rig(state, 3), BLUE, {"type": "roll", "timeout": True})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason != "forfeit" and outcome.ranks == (1, 0)


@pytest.mark.parametrize(("encounter", "fee"), [(1, 5), (2, 5), (3, 10), (4, 10)])
def test_the_edge_fee_grows_at_encounter_three(encounter: int, fee: int) -> None:
    assert encounter_fee(encounter) == fee
    state = build(pos=(9, 10), score=(0, 0), phase="edge", encounters=encounter, edge=RED)
    state, _ = act(state, RED, {"type": "edge", "back": "me"})
    assert state["score"] == [-fee, 0] and state["pos"] == [0, 10]


def test_a_start_player_swapped_out_on_the_second_players_turn_ends_the_round() -> None:
    state = offer(negotiating(mover=BLUE, pos=(19, 20), score=(0, 0), encounters=1), BLUE, "you", 0)
    state, _ = act(state, RED, {"type": "accept"})
    assert state["exited"] == [RED]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.scores == (0, -1 + 3 - 5 * 19)  # ask, land on B3, stuck 19 steps


def test_a_second_player_swapped_out_on_the_start_players_turn_ends_at_once() -> None:
    state = offer(negotiating(mover=RED, pos=(0, 1), encounters=2), RED, "me", 0)
    state, _ = act(state, BLUE, {"type": "accept"})
    assert state["exited"] == [BLUE] and state["phase"] == "over"
    assert ENGINE.outcome(state) is not None


def test_squeezing_past_a_dude_on_your_exit_takes_you_out() -> None:
    state, _ = roll(build(pos=(0, 1), encounters=4, turn=BLUE), BLUE, 3)
    assert state["exited"] == [BLUE] and state["passed"] and ENGINE.outcome(state) is not None


def test_the_public_view_shows_everything_but_the_dice_machine() -> None:
    state = roundtrip(build(pos=(4, 13), score=(9, -2)))
    view = ENGINE.view(state, None)
    assert "rng" not in view and view == ENGINE.view(state, RED)
    assert view["penalty"] == [80, 65] and view["pos"] == [4, 13] and view["score"] == [9, -2]


def test_leaving_is_a_loss_whatever_the_scores() -> None:
    ended, events = ENGINE.forfeit(build(score=(99, 0)), RED, 0.0)
    outcome = ENGINE.outcome(ended)
    assert outcome is not None and outcome.ranks == (1, 0)
    assert "Red left" in events[0].text
