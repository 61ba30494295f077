"""Engine behaviour beyond the scenarios: refusals cite rules, typed miscues, resume of
reflex waits, timers, the hidden timing kept out of views, outcomes, the samples."""

from __future__ import annotations

import json

import pytest

from games.core import IllegalAction
from games.fencing import ENGINE
from games.fencing.samples import samples
from tests.fencing.support import A, B, C, opened
from tests.secrecy import leaks


def test_an_untyped_illegal_press_raises_with_a_rule() -> None:
    t = opened()
    with pytest.raises(IllegalAction) as caught:
        t.act(B, {"type": "thrust"}, 5.0)
    assert caught.value.rule == "5" and caught.value.seats == {"start": A}


def test_a_typed_illegal_command_is_a_refused_miscue_not_an_error() -> None:
    t = opened()
    t.act(B, {"type": "hose", "target": C, "typed": True}, 5.0)
    refused = t.of("refused")[0]
    assert refused["seat"] == B and refused["rule"] and t.state["penalties"][B]
    assert t.state["seats"][B]["miscues"] == 1 and t.step["kind"] == "thrust"


def test_timeouts_are_never_miscues() -> None:
    t = opened()
    t.timeout(seat=A)  # Thrust runs out
    assert t.state["seats"][A]["miscues"] == 0 and t.state["seats"][A]["afk_misses"] == 1


def test_a_forged_timeout_from_a_player_cannot_fire_the_games_timers() -> None:
    t = opened()
    with pytest.raises(IllegalAction):
        t.act(B, {"type": "expire", "timeout": True}, 5.0)


def test_resume_redraws_a_catch_and_restarts_a_hat_race_keeping_presses() -> None:
    s = samples(3)
    catch = s["catch"]
    catch["step"]["open"] = False
    after, _ = ENGINE.apply(catch, None, {"type": "resume"}, 2_000_000_000.0)
    step = after["step"]
    assert step["opened_at"] == 2_000_000_000_000 and step["opens_at"] > step["opened_at"]
    assert step["deadline"] == step["opens_at"] + 5000
    hat = samples(3)["hat"]
    presses = dict(hat["step"]["presses"])
    after, _ = ENGINE.apply(hat, None, {"type": "resume"}, 2_000_000_000.0)
    assert after["step"]["presses"] == presses and after["step"]["deadline"] == 2_000_000_010_000


def test_resume_sends_a_duel_back_to_its_count() -> None:
    duel = samples(3)["duel"]
    assert duel["step"]["stage"] == "snap"
    after, _ = ENGINE.apply(duel, None, {"type": "resume"}, 2_000_000_000.0)
    assert after["step"]["stage"] == "count" and after["step"]["S"] is None
    assert after["step"]["snaps"] == [None, None]


def test_hidden_timing_stays_out_of_every_view() -> None:
    for name, state in samples(5).items():
        assert leaks(ENGINE, state) == [], name
    duel = samples(5)["duel"]
    assert "S" not in json.dumps(ENGINE.view(duel, None)["prompt"]["duel"])
    assert ENGINE.view(samples(5)["duel"], None)["prompt"]["duel"]["snapped"].count(True) == 1


def test_async_timers_are_120_times_longer() -> None:
    live, slow = opened(), opened(timers="async")
    assert (slow.step["deadline"] - slow.step["opened_at"]) == 120 * (live.step["deadline"] - live.step["opened_at"])


def test_after_three_misses_decisions_last_five_seconds() -> None:
    t = opened()
    t.state["seats"][A]["afk_misses"] = 3
    from games.fencing import flow
    flow.open_thrust(t.state, 0)
    assert t.step["deadline"] == 5000
    t.act(A, {"type": "thrust"}, 1.0)
    assert t.state["seats"][A]["afk_misses"] == 0


def test_the_move_menu_lists_stay_first_with_cheapest_costs() -> None:
    state = samples(7)["move"]
    view = ENGINE.view(state, None)
    menu = view["moves"]
    assert menu["destinations"][0]["to"] is None and menu["origin"] == "DEL"
    assert view["pieces"]["BK"]["offroad"] is True
    # from an off-road town every line is free
    assert all(d["penalty"] == 0 for d in menu["destinations"])
    legal = ENGINE.legal_actions(state, state["control"])
    assert legal[0] == {"type": "stay"} and len(legal) == 1 + sum(len(d["routes"]) for d in menu["destinations"])


def test_samples_are_views_as_json() -> None:
    for state in samples(11).values():
        for seat in (None, 0, 1, 2):
            view = ENGINE.view(state, seat)
            assert json.loads(json.dumps(view)) == view


def test_forfeit_ranks_the_other_two_by_bumpers_then_score() -> None:
    t = opened()
    t.state["seats"][B]["score"] = 10
    ended, _ = ENGINE.forfeit(t.state, A, 5.0)
    outcome = ENGINE.outcome(ended)
    assert outcome.ranks == (2, 0, 1) and outcome.reason == "forfeit" and outcome.detail["champion"] == B
    t.state["seats"][B]["score"] = 0
    ended, _ = ENGINE.forfeit(t.state, A, 5.0)
    assert ENGINE.outcome(ended).ranks == (2, 0, 0)


def test_game_timeout_cancels_without_result() -> None:
    state = ENGINE.new_game(3, 1)
    wait = next(w for w in ENGINE.to_act(state) if w.seat is None)
    state, _ = ENGINE.apply(state, None, wait.default, 61.0)
    assert ENGINE.outcome(state).abandoned


def test_the_finished_sample_names_a_champion() -> None:
    over = samples(2)["over"]
    outcome = ENGINE.outcome(over)
    assert outcome.reason == "bumpers" and outcome.ranks[over["winner"]] == 0
    assert over["champion"] == over["winner"]


def test_a_command_out_of_its_prompt_cites_its_rule() -> None:
    t = opened()
    t.act(B, {"type": "hose", "target": C, "typed": True}, 5.0)
    assert t.of("refused")[0]["rule"] == "12"
    with pytest.raises(IllegalAction) as caught:
        t.act(A, {"type": "move", "piece": "BK", "to": "HEB"}, 6.0)
    assert caught.value.rule == "17"


def test_the_third_player_is_awaited_optionally_to_applaud_a_posted_insult() -> None:
    """Spec §4 duel step 1: applause is optional (no timeout, no default, independent) and the
    insults' own timer still ends the stage; the view names the third among the prompt's seats."""
    t = opened(greens=(5, 5, 2))
    assert t.step["kind"] == "duel" and t.step["seats"] == [A, B]
    seats = lambda: {w.seat for w in ENGINE.to_act(t.state)}  # noqa: E731
    assert C not in seats() and C not in ENGINE.view(t.state, None)["prompt"]["seats"]
    t.act(A, {"type": "insult", "text": "Your yo-yo is a Yomega."}, 2.0)
    wait = next(w for w in ENGINE.to_act(t.state) if w.seat == C)
    assert wait.independent and wait.default is None and wait.timeout is None
    assert ENGINE.view(t.state, None)["prompt"]["seats"] == [B, C]
    assert ENGINE.legal_actions(t.state, C) == [{"type": "applaud", "who": A}]
    t.act(C, {"type": "applaud", "who": A}, 3.0)
    assert C not in seats() and t.state["seats"][A]["applause"] == 1
    with pytest.raises(IllegalAction):
        ENGINE.apply(t.state, C, {"type": "applaud", "who": A}, 3.5)
    t.timeout()  # the seat-less insult timer ends the stage; B never insulted
    assert t.step["stage"] == "count"


def test_an_unapplauded_insult_does_not_hold_up_the_duel() -> None:
    t = opened(greens=(5, 5, 2))
    t.act(A, {"type": "insult", "text": "Dairy farmer!"}, 2.0)
    t.act(B, {"type": "insult", "text": ""}, 2.5)
    assert t.step["stage"] == "count" and ENGINE.to_act(t.state)[0].seat == C


def test_rule_24_a_second_miscue_across_a_bumper_boundary_kicks_the_butt() -> None:
    """`miscuers` counts since the last Thrust (spec §2); the bumper reset (rule 4) does not clear it."""
    from games.fencing import flow
    t = opened()
    t.cards([9], [4], [13])
    t.rig(die=[4])
    t.act(A, {"type": "thrust"}, 10.0)
    t.act(B, {"type": "thrust", "typed": True}, 11.0)
    assert t.state["seats"][B]["miscues"] == 1 and t.state["seats"][B]["butt_kicks"] == 0
    t.pay_all(12.0)
    flow.bumper_won(t.state, A, "build", 20_000, [])
    t.pay_all(20.0)
    t.act(None, {"type": "expire", "timeout": True}, 70.0)
    for s in range(3):
        t.act(s, {"type": "stamp"}, 71.0)
    t.rig(green=[6, 5, 4])
    for s in range(3):
        t.act(s, {"type": "stamp"}, 72.0)
    assert t.state["bumper_no"] == 2 and t.state["trick_no"] == 0
    t.act(B, {"type": "thrust", "typed": True}, 73.0)
    assert t.state["seats"][B]["miscues"] == 2
    assert t.state["seats"][B]["butt_kicks"] == 1 and "butt_kick" in t.kinds()
