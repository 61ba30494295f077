"""Rules and decisions beyond the spec's scenarios: refusals, timers, AFK, rule 16 edges."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalAction
from games.hallway import ENGINE
from games.hallway.board import SPACES, encounter_fee, label, left_penalty, points
from tests.hallway.support import (
    BLUE,
    RED,
    act,
    build,
    negotiating,
    offer,
    refusal,
    refused,
    rig,
    roll,
    roundtrip,
    texts,
)


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
    exc = refusal(build(), BLUE, {"type": "roll"})
    assert (exc.message, exc.seats, exc.rule) == ("It's {turn}'s turn to roll.", {"turn": RED}, "4")
    assert refused(build(), BLUE, {"type": "roll"}) == "It's alice's turn to roll."
    edge = build(phase="edge", encounters=1, edge=BLUE)
    assert refused(edge, RED, {"type": "edge", "back": "you"}) == "bob holds the Edge and chooses who goes back."


def test_refusals_name_players_by_placeholder_and_cite_their_rule() -> None:
    pending = {"maker": BLUE, "payer": BLUE, "amount": 3}
    state = negotiating(pos=(9, 10), encounters=1, offers=1, pending=pending)
    exc = refusal(state, BLUE, {"type": "roll"})
    assert exc.seats == {"taker": RED, "maker": BLUE} and exc.rule == "11"
    assert exc.render(lambda seat: "ab"[seat]) == "Not now: a must answer b's offer."
    assert refused(state, BLUE, {"type": "accept"}) == "That's your own offer: waiting for alice to answer."
    assert refusal(state, RED, {"type": "nodeal"}).rule == "9"
    assert refusal(state, RED, {"type": "offer", "payer": "me", "amount": -1}).rule == "10"


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
    assert refused(state, RED, {"type": "nodeal"}) == "You already said no deal: waiting for bob to offer or agree."
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
    assert outcome.reason == "forfeit" and outcome.detail == {"seat": RED}
    assert [(e.type, e.data) for e in events] == [("forfeit", {"seat": RED, "winner": BLUE})]
    assert texts(events) == "🔴 alice left the hallway: bob wins."


# ----- the audit against the spec (issue #4): one test per rule the scenarios leave open -----
#: The spec's table (§2): position → (space, Red scores, Blue scores, Red penalty, Blue penalty).
SPEC_TABLE = {
    1: ("R3", 3, -3, 95, 5), 2: ("R5", 5, -5, 90, 10), 3: ("B2", -2, 2, 85, 15), 4: ("R6", 6, -6, 80, 20),
    5: ("R4", 4, -4, 75, 25), 6: ("B3", -3, 3, 70, 30), 7: ("R8", 8, -8, 65, 35), 8: ("R5", 5, -5, 60, 40),
    9: ("R9", 9, -9, 55, 45), 10: ("G10", 10, 10, 50, 50), 11: ("B9", -9, 9, 45, 55), 12: ("B5", -5, 5, 40, 60),
    13: ("B8", -8, 8, 35, 65), 14: ("R3", 3, -3, 30, 70), 15: ("B4", -4, 4, 25, 75), 16: ("B6", -6, 6, 20, 80),
    17: ("R2", 2, -2, 15, 85), 18: ("B5", -5, 5, 10, 90), 19: ("B3", -3, 3, 5, 95),
}


def test_the_board_is_the_spec_table_space_by_space() -> None:
    for pos, (space, red, blue, red_left, blue_left) in SPEC_TABLE.items():
        assert label(pos) == space
        assert (points(RED, pos), points(BLUE, pos)) == (red, blue)
        assert (left_penalty(RED, pos), left_penalty(BLUE, pos)) == (red_left, blue_left)
    assert label(0) == "[R]" and label(20) == "[B]"
    assert [points(s, p) for s in (RED, BLUE) for p in (0, 20)] == [0, 0, 0, 0]


def test_blue_may_win_the_rolloff_and_then_rounds_end_after_red() -> None:
    state = rig(ENGINE.new_game(2, 1), 1, 3)  # Blue presses first (either may); Red's die rolls first
    state, _ = act(state, BLUE, {"type": "roll"})
    assert [w.seat for w in ENGINE.to_act(state)] == [RED]
    state, events = act(state, RED, {"type": "roll"})
    assert (state["start"], state["edge"], state["turn"], state["round"]) == (BLUE, RED, BLUE, 1)
    assert "🔵 bob starts ★ and alice holds the Edge." in texts(events)
    state, _ = roll(state, BLUE, 2)
    assert state["round"] == 1 and state["turn"] == RED
    state, _ = roll(state, RED, 2)
    assert state["round"] == 2 and state["turn"] == BLUE and state["pos"] == [2, 18]


def test_a_dude_stuck_on_their_start_semicircle_rescores_nothing() -> None:
    state, events = roll(build(pos=(0, 1), score=(-4, 30), encounters=2, edge=BLUE), RED, 3)
    assert state["pos"] == [0, 1] and state["score"] == [-4, 30]
    assert state["encounters"] == 3 and state["phase"] == "negotiate"
    assert "🔴 alice rolled 🎲3 but bob is in the way: stays on their start semicircle: no points." in texts(events)


def test_an_encounter_on_the_second_players_turn_ends_the_round() -> None:
    state, _ = roll(build(pos=(8, 10), turn=BLUE, edge=BLUE), BLUE, 2)
    assert state["pos"] == [8, 9] and state["phase"] == "negotiate"
    state, _ = act(state, RED, {"type": "nodeal"})
    state, _ = act(state, BLUE, {"type": "nodeal"})
    state, _ = act(state, BLUE, {"type": "edge", "back": "you"})
    assert state["pos"] == [0, 9] and state["turn"] == RED and state["round"] == 2


def test_final_mode_squeezes_one_past_from_a_distance_too() -> None:
    state, _ = roll(build(pos=(8, 11), encounters=4), RED, 4)
    assert state["pos"] == [12, 11] and state["score"][RED] == -5 and state["passed"]
    assert state["encounters"] == 5 and state["turn"] == BLUE


@pytest.mark.parametrize(("state", "seats", "timeout", "default"), [
    (ENGINE.new_game(2, 3), [RED, BLUE], 45.0, {"type": "roll", "timeout": True}),
    (build(), [RED], 45.0, {"type": "roll", "timeout": True}),
    (negotiating(pos=(9, 10), encounters=1), [RED, BLUE], 45.0, {"type": "nodeal", "timeout": True}),
    (negotiating(pos=(9, 10), encounters=1, offers=1, pending={"maker": BLUE, "payer": BLUE, "amount": 3}),
     [RED], 60.0, {"type": "decline", "timeout": True}),
    (build(pos=(9, 10), phase="edge", encounters=1, edge=BLUE), [BLUE], 60.0,
     {"type": "edge", "back": "you", "timeout": True}),
], ids=["rolloff", "turn", "opening", "answer", "edge"])
def test_every_wait_has_the_spec_timeout_and_default(state: dict, seats: list[int], timeout: float,
                                                     default: dict) -> None:
    waits = ENGINE.to_act(state)
    assert [w.seat for w in waits] == seats
    assert all(w.timeout == timeout and w.default == default for w in waits)
    for wait in waits:  # every default is a legal action for its seat
        act(state, wait.seat, wait.default)


def test_saying_no_deal_does_not_stop_you_offering_later() -> None:
    state, _ = act(negotiating(pos=(9, 10), encounters=1), RED, {"type": "nodeal"})
    state = offer(state, RED, "you", 2)
    assert state["score"][RED] == -1 and state["nego"]["pending"]["maker"] == RED
    state, _ = act(state, BLUE, {"type": "decline"})
    assert state["phase"] == "edge"


def test_a_counter_may_flip_who_pays_and_only_the_last_offer_counts() -> None:
    state = offer(negotiating(pos=(9, 10), score=(10, 10), encounters=1), RED, "you", 8)
    state = offer(state, BLUE, "you", 3)  # Blue: “you pay me 3” — now Red would pay
    state = offer(state, RED, "me", 1)
    state, events = act(state, BLUE, {"type": "accept"})
    deal = next(e for e in events if e.type == "deal")
    assert deal.data["delta"] == [-1, 1]
    assert state["score"] == [10 - 2 - 1 + 10, 10 - 1 + 1 - 9]


def test_the_leaderboard_figures_follow_deals_and_edge_choices() -> None:
    state = offer(negotiating(pos=(9, 10), encounters=1), RED, "you", 4)
    state = offer(state, BLUE, "me", 6)
    state, _ = act(state, RED, {"type": "accept"})
    red, blue = state["stats"]
    assert (red["deals"], red["paid"], red["received"], red["offers"]) == (1, 0, 6, 1)
    assert (blue["deals"], blue["paid"], blue["received"], blue["offers"]) == (1, 6, 0, 1)
    edge = build(pos=(9, 10), phase="edge", encounters=2, edge=RED)
    edge, _ = act(edge, RED, {"type": "edge", "back": "me"})
    assert edge["stats"][RED]["edge"] == ["me"] and edge["stats"][BLUE]["edge"] == []


@settings(max_examples=60)
@given(amount=st.integers(-10_000, 10_000), payer=st.sampled_from(["me", "you"]), seat=st.sampled_from([RED, BLUE]))
def test_any_whole_amount_0_to_999_is_an_offer_and_any_other_costs_nothing(amount: int, payer: str,
                                                                             seat: int) -> None:
    state = negotiating(pos=(9, 10), score=(3, 3), encounters=1)
    action = {"type": "offer", "payer": payer, "amount": amount}
    if 0 <= amount <= 999:
        after, _ = act(state, seat, action)
        assert after["nego"]["pending"]["amount"] == amount and after["score"][seat] == 2
    else:
        with pytest.raises(IllegalAction, match="whole number from 0 to 999"):
            act(state, seat, action)
        assert state["score"] == [3, 3] and state["nego"]["offers"] == 0
