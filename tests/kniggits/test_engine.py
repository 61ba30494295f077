"""Kniggits rules one by one (K1-K17, V1-V7) beyond the spec's scenarios, the refusals'
rule labels, options, timers, views and secrets."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cogs.table.rules import rule_text
from games.core import IllegalAction
from games.kniggits import board, moves
from games.kniggits.samples import sample_states, through_prelude
from tests.kniggits.support import (
    ENGINE,
    battle,
    events_of,
    fight,
    k,
    kniggit,
    pass_turn,
    play,
    refused,
    to_fight,
)
from tests.secrecy import leaks

SOURCES = sorted(Path("games/kniggits").glob("*.py"))


# ----- rule labels ------------------------------------------------------------------------
def test_every_cited_rule_is_in_the_rules_text() -> None:
    cited = {m for path in SOURCES for m in re.findall(r'rule="([^"]+)"', path.read_text())}
    assert {"K1", "K7", "V1", "V7"} <= cited
    missing = [rule for rule in cited if rule_text("kniggits", rule) is None]
    assert missing == []


def test_every_rule_label_has_its_text() -> None:
    for label in [f"K{i}" for i in range(1, 18)] + [f"V{i}" for i in range(1, 8)]:
        text = rule_text("kniggits", label)
        assert text is not None and text.startswith(f"**{label}. "), label


# ----- options, sides, timers -----------------------------------------------------------
def test_the_budget_range_is_enforced() -> None:
    for budget in (19, 201):
        with pytest.raises(IllegalAction, match="20 to 200"):
            ENGINE.new_game(2, 1, {"budget": budget})
    assert ENGINE.new_game(2, 1, {"budget": 200})["options"]["budget"] == 200


def test_k1_armies_from_team_sizes_and_the_default_split() -> None:
    assert ENGINE.new_game(3, 1, {"team_sizes": [1, 2]})["armies"] == [[0], [1, 2]]
    assert ENGINE.new_game(3, 1)["armies"] == [[0, 1], [2]]
    assert ENGINE.teams(ENGINE.new_game(4, 1)) == ((0, 1), (2, 3))
    assert ENGINE.team_sizes == (1, 2) and ENGINE.lobby_teams == ("A", "B")


def test_k1_only_captains_accept_the_map_and_a_reroll_changes_it() -> None:
    state = ENGINE.new_game(4, 5, {"team_sizes": [2, 2]})
    assert refused(state, 1, type="accept").rule == "K1"
    rolled, _ = play(state, 2, type="reroll")
    assert rolled["map"] != state["map"] and rolled["rolls"] == 1
    assert rolled["rng"]["n"] > state["rng"]["n"]
    waits = ENGINE.to_act(rolled)
    assert {w.seat for w in waits} == {0, 2} and all(w.key == "map-1" for w in waits)


def test_k1_shares_split_the_budget_with_the_remainder_to_the_captain() -> None:
    state = ENGINE.new_game(4, 5, {"team_sizes": [2, 2], "budget": 51})
    for army in state["armies"]:
        state, _ = play(state, army[0], type="accept")
    assert ENGINE.view(state, 0)["me"]["share"] == 26 and ENGINE.view(state, 1)["me"]["share"] == 25
    assert refused(state, 1, type="army", lines="Big 5 5 11").rule == "K2"  # 26 > 25


def test_k2_teammates_see_each_others_drafts_and_the_enemy_does_not() -> None:
    state = ENGINE.new_game(4, 5, {"team_sizes": [2, 2]})
    for army in state["armies"]:
        state, _ = play(state, army[0], type="accept")
    enemy_before = ENGINE.view(state, 2)
    state, _ = play(state, 0, type="army", lines="Lance 2 2 2")
    assert ENGINE.view(state, 1)["me"]["team_drafts"]["0"][0]["M"] == 2
    assert ENGINE.view(state, 2) == enemy_before


def test_async_timers_multiply_every_limit() -> None:
    live = ENGINE.to_act(ENGINE.new_game(2, 1))[0].timeout
    slow = ENGINE.to_act(ENGINE.new_game(2, 1, {"timers": "async"}))[0].timeout
    assert live == 180 and slow == 180 * 120


# ----- K4, K6, K7, K8: moving ---------------------------------------------------------------
def field():
    return battle([kniggit("A1", (10, 10), (3, 2, 2)), kniggit("A2", (14, 10), (2, 2, 2)),
                   kniggit("B1", (10, 15), (2, 2, 2)), kniggit("B2", (20, 30), (2, 2, 2))])


def test_k6_one_move_per_kniggit_and_no_ending_on_an_occupied_cell() -> None:
    state = field()
    assert refused(state, 0, type="move", id="A1", to=[14, 10]).rule == "K6"
    state, _ = play(state, 0, type="move", id="A1", to=[10, 12])
    assert refused(state, 0, type="move", id="A1", to=[10, 11]).rule == "K6"


def test_k7_an_unreachable_cell_lists_the_nearest_reachable() -> None:
    exc = refused(field(), 0, type="move", id="A1", to=[10, 17])
    assert exc.rule == "K7" and "Nearest reachable" in exc.message


def test_k7_engagement_stop_and_facing_on_arrival() -> None:
    state, events = play(field(), 0, type="move", id="A1", to=[10, 14])
    moved = events_of(events, "moved")[0]
    assert moved["path"] == [[10, 10], [10, 11], [10, 12], [11, 13], [10, 14]]
    assert moved["cost"] == "4.83" and moved["engaged"] == ["B1"]
    assert k(state, "A1")["facing"] == "B1"


def test_k7_preview_confirm_cancel_and_undo_only_by_the_mover() -> None:
    state = battle([kniggit("A1", (10, 10), (3, 2, 2)), kniggit("A2", (14, 10), (2, 2, 2), owner=1),
                    kniggit("B1", (20, 30), (2, 2, 2), owner=2)], players=3, team_sizes=[2, 1])
    previewed, _ = play(state, 0, type="plan", id="A1", to=[10, 13])
    plan = ENGINE.view(previewed, 0)["me"]["plan"]
    assert plan["cost"] == "3" and plan["path"][-1] == [10, 13]
    assert ENGINE.view(previewed, None) == ENGINE.view(state, None)  # a preview is private
    cancelled, _ = play(previewed, 0, type="cancel")
    assert cancelled["plans"][0] is None
    moved, _ = play(previewed, 0, type="confirm")
    assert k(moved, "A1")["pos"] == [10, 13]
    assert refused(moved, 1, type="undo").rule == "K7"
    assert refused(moved, 1, type="move", id="A1", to=[10, 14]).rule == "K1"
    undone, _ = play(moved, 0, type="undo")
    assert k(undone, "A1")["pos"] == [10, 10] and not k(undone, "A1")["moved"]


def test_k8_pinned_but_may_turn() -> None:
    state = battle([kniggit("A1", (10, 10), (3, 2, 2)), kniggit("B1", (10, 11), (2, 2, 2)),
                    kniggit("B2", (10, 9), (2, 2, 2)), kniggit("B3", (11, 10), (2, 2, 2))], obstacles=[(9, 10)])
    mover = ENGINE.view(state, 0)["me"]["movers"][0]
    assert mover["pinned"] is True
    assert refused(state, 0, type="move", id="A1", to=[9, 9]).rule == "K8"
    state, _events = play(state, 0, type="face", id="A1", target="B2")
    assert k(state, "A1")["facing"] == "B2"


def test_k4_actions_out_of_phase_are_refused() -> None:
    state = field()
    assert refused(state, 0, type="attack", id="A1", target="B1").rule == "K4"
    assert refused(state, 1, type="move", id="B1", to=[10, 14]).rule == "K4"
    assert refused(state, 0, type="throw", shape="rock").rule == "K4"


def test_move_panel_destinations() -> None:
    state = field()
    me = ENGINE.view(state, 0)["me"]
    assert me["cursor"] == "A1" and [m["id"] for m in me["movers"]] == ["A1", "A2"]
    dests = me["destinations"]
    assert 1 < len(dests) <= 24
    assert dests[0] == {"tag": "hold", "cell": [10, 10], "cost": "0", "enemy": None, "item": None,
                        "path": [[10, 10]]}
    engage = next(d for d in dests if d["tag"] == "engage")
    assert engage["enemy"] == "B1" and engage["cell"] == [10, 13] and engage["cost"] == "3"
    assert {d["tag"] for d in dests} >= {"advance", "fall_back", "near"}
    assert len({tuple(d["cell"]) for d in dests}) == len(dests)
    for d in dests[1:]:  # the route the panel draws is the path a pick moves along (K7's tie-break)
        moved, _ = play(state, 0, type="move", id="A1", to=d["cell"])
        assert moved["last_move"]["path"] == d["path"] and moved["last_move"]["cost"] == d["cost"]
    state, _ = play(state, 0, type="select", id="A2")
    assert ENGINE.view(state, 0)["me"]["cursor"] == "A2"


# ----- K9, K11, K14: facing and attacking ------------------------------------------------------
def test_k9_two_enemies_ask_for_a_facing_and_the_timeout_picks_the_nearest() -> None:
    state = battle([kniggit("A1", (10, 10), (2, 2, 2)), kniggit("B1", (12, 10), (2, 2, 2)),
                    kniggit("B2", (10, 11), (2, 2, 2))])
    state, _ = play(state, 0, type="done")
    assert state["phase"] == "facing"
    facing = ENGINE.view(state, 0)["me"]["facings"][0]
    assert facing["enemies"] == ["B2", "B1"] and facing["default"] == "B2"
    state, _ = play(state, 0, type="done", timeout=True)
    assert k(state, "A1")["facing"] == "B2"


def test_k11_attack_only_the_faced_enemy_once() -> None:
    state = battle([kniggit("A1", (10, 10), (2, 2, 2), facing="B1"), kniggit("B1", (10, 11), (2, 2, 2)),
                    kniggit("B2", (11, 11), (2, 2, 2)), kniggit("A2", (12, 12), (2, 2, 2), facing="B2")])
    state, _ = play(state, 0, type="face", id="A1", target="B1")
    state = to_fight(state)
    assert refused(state, 0, type="attack", id="A1", target="B2").rule == "K11"
    state, _ = fight(state, "A1", "B1", {"A1": {"sword": "low", "shield": "low"}, "B1": {"shield": "low"}})
    assert refused(state, 0, type="attack", id="A1", target="B1").rule == "K11"


def test_k14_a_fled_kniggit_cannot_be_targeted() -> None:
    state = to_fight(battle([kniggit("A1", (5, 5), (2, 2, 3), kind="archer"),
                             kniggit("B1", (5, 9), (1, 0, 0), status="fled"), kniggit("B2", (7, 9), (2, 2, 2))],
                            archers=True))
    assert refused(state, 0, type="shoot", id="A1", target="B1").rule == "K14"


def test_v5_archers_never_melee() -> None:
    state = to_fight(battle([kniggit("A1", (10, 10), (2, 2, 2), kind="archer"), kniggit("B1", (10, 11), (2, 2, 2))],
                            archers=True))
    assert refused(state, 0, type="attack", id="A1", target="B1").rule == "V5"


def test_v7_a_sword_hand_carrier_cannot_attack() -> None:
    state = battle([kniggit("A1", (19, 33), (3, 2, 2)), kniggit("B1", (20, 35), (2, 2, 2)),
                    kniggit("B2", (30, 20), (2, 2, 2))], flags=True)
    state, _ = play(state, 0, type="move", id="A1", to=[19, 34])
    assert k(state, "A1")["hand"] == "sword"
    state = to_fight(state)
    assert state["phase"] != "fight" or refused(state, 0, type="attack", id="A1", target="B1").rule == "V7"


# ----- K17: concession and the forfeit claim ---------------------------------------------------
def test_k17_concede_loses_for_the_whole_army() -> None:
    state = ENGINE.new_game(4, 2, {"team_sizes": [2, 2]})
    state, _events = play(state, 3, type="concede")
    outcome = ENGINE.outcome(state)
    assert outcome.ranks == (0, 0, 1, 1) and outcome.reason == "concede" and outcome.teams == ((0, 1), (2, 3))


def test_forfeit_claim_after_three_idle_turns() -> None:
    state = field()
    assert refused(state, 1, type="claim_forfeit").rule == "K17"
    for _ in range(3):
        assert state["turn"]["army"] == 0
        state = _timeout_turn(state)  # A sits out its turn
        state = pass_turn(state)  # B acts
    assert state["idle"] == [3, 0]
    assert {"type": "claim_forfeit"} in ENGINE.legal_actions(state, 1) or ENGINE.view(state, 1)["me"]["can_claim"]
    assert ENGINE.view(state, None)["claimable"] == "A"
    state, _ = play(state, 1, type="claim_forfeit")
    outcome = ENGINE.outcome(state)
    assert outcome.reason == "forfeit_claim" and outcome.ranks == (1, 0)


def test_an_army_sitting_out_its_third_turn_is_reported_away_once() -> None:
    """The "afk" event (public) names each seat of the idle army when the claim opens — the
    bot then offers the host to hand the away seats to computers — and only then."""
    state, away = field(), []
    for turn in range(4):
        army = state["turn"]["army"]
        while state["over"] is None and state["turn"]["army"] == army:
            wait = ENGINE.to_act(state)[0]
            state, events = play(state, wait.seat, **wait.default)
            away += [(turn, e.data) for e in events if e.type == "afk"]
            assert all(e.to is None for e in events if e.type == "afk")
        state = pass_turn(state)
    assert away == [(2, {"seat": 0, "army": "A", "turns": 3})]


def _timeout_turn(state):
    army = state["turn"]["army"]
    while state["over"] is None and state["turn"]["army"] == army:
        wait = ENGINE.to_act(state)[0]
        state, _ = play(state, wait.seat, **wait.default)
    return state


# ----- views and secrets --------------------------------------------------------------
def test_sample_states_render_as_json_views_and_leak_nothing() -> None:
    for name, state in sample_states().items():
        for seat in [None, *range(state["players"])]:
            view = ENGINE.view(state, seat)
            assert json.loads(json.dumps(view)) == view, name
        assert leaks(ENGINE, state) == [], name


def test_an_open_exchange_shows_locks_and_commitments_only() -> None:
    state = to_fight(battle([kniggit("A1", (10, 10), (2, 2, 2), facing="B1"),
                             kniggit("B1", (10, 11), (2, 2, 2), facing="A1")]))
    state, _ = play(state, 0, type="attack", id="A1", target="B1")
    state, _ = play(state, 0, type="gesture", sword="high", shield="low")
    assert leaks(ENGINE, state) == []
    state, _ = play(state, 0, type="lock")
    public = ENGINE.view(state, None)["exchange"]
    assert public["round"]["chosen"] == [0] and set(public["round"]["commitments"]) == {"0"}
    assert "picks" not in public["round"]
    assert leaks(ENGINE, state) == []
    assert refused(state, 0, type="gesture", sword="low").message == "You already chose."


def test_deployment_secrets_in_a_one_player_army() -> None:
    state = through_prelude(2, 4)
    assert state["phase"] == "move"
    deploying = ENGINE.new_game(2, 4)
    for army in deploying["armies"]:
        deploying, _ = play(deploying, army[0], type="accept")
    for seat in (0, 1):
        deploying, _ = play(deploying, seat, type="army", lines="Lance 2 2 2")
        deploying, _ = play(deploying, seat, type="lock")
    deploying, _ = play(deploying, 0, type="deploy", preset="front")
    assert any(s.path[:2] == ("deploy", "drafts") for s in ENGINE.secrets(deploying))
    assert leaks(ENGINE, deploying) == []


def test_public_view_shape() -> None:
    state = field()
    view = ENGINE.view(state, None)
    assert view["phase"] == "move" and view["turn"]["army"] == "A" and view["turn"]["rounds"] == 30
    assert view["battlefield"]["zones"] == {"A": [1, 6], "B": [31, 36]}
    a1 = next(x for x in view["kniggits"] if x["id"] == "A1")
    assert {"id", "army", "owner", "kind", "two_swords", "pos", "facing", "heading", "M", "A", "D", "status",
            "mounted", "magic_sword", "moved"} <= set(a1)
    assert "me" not in view and "me" in ENGINE.view(state, 0)
    assert view["awaited"] == [0]
    assert moves.pinned(state, k(state, "A1")) is False
    assert board.strength(state, 0) == 23


# ----- overlays, owners in events, teammates, left-handedness ----------------------------------
def test_reach_overlay_is_the_selected_kniggits_reachable_cells() -> None:
    from games.kniggits import paths

    state = field()
    me = ENGINE.view(state, 0)["me"]
    a1 = k(state, "A1")
    expected = paths.reachable((10, 10), board.terrain_for(state, a1), board.allowance(state, a1))
    assert me["reach"] == [list(xy) for xy in sorted(expected)]
    assert [10, 13] in me["reach"] and [10, 10] not in me["reach"] and "sight" not in me
    assert "reach" not in ENGINE.view(state, None) and ENGINE.view(state, 1)["me"].get("reach") is None
    state, _ = play(state, 0, type="select", id="A2")
    assert [14, 10] not in ENGINE.view(state, 0)["me"]["reach"] and [14, 11] in ENGINE.view(state, 0)["me"]["reach"]


def test_sight_overlay_for_an_archer_that_may_shoot() -> None:
    state = battle([kniggit("A1", (5, 5), (2, 2, 3), kind="archer"), kniggit("A2", (6, 7), (2, 2, 2)),
                    kniggit("B1", (5, 10), (2, 2, 2)), kniggit("B2", (9, 10), (2, 2, 2)),
                    kniggit("B3", (7, 9), (2, 2, 2))], archers=True)
    me = ENGINE.view(state, 0)["me"]
    lines = {line["id"]: line for line in me["sight"]}
    assert lines["B1"] == {"id": "B1", "clear": True, "in_range": True}
    assert lines["B2"]["in_range"] is False  # 6.40 inches (scenario 19)
    assert lines["B3"] == {"id": "B3", "clear": False, "in_range": True}  # A2 stands on the line
    assert me["sights"] == {"A1": me["sight"]}
    state, _ = play(state, 0, type="move", id="A1", to=[5, 6])
    assert "A1" not in ENGINE.view(state, 0)["me"]["sights"]  # V5: it moved


def test_events_name_the_owner_of_every_kniggit() -> None:
    state = battle([kniggit("A1", (10, 10), (2, 2, 2), owner=1, facing="B1"),
                    kniggit("A2", (20, 10), (2, 2, 2), owner=0),
                    kniggit("B1", (10, 11), (1, 1, 0), owner=2), kniggit("B2", (30, 30), (2, 2, 2), owner=3)],
                   players=4, team_sizes=[2, 2])
    state, events = play(state, 0, type="move", id="A2", to=[20, 12])
    assert events_of(events, "moved")[0]["owner"] == 0
    state = to_fight(state)
    state, events = fight(state, "A1", "B1", {"A1": {"sword": "high"}, "B1": {"sword": "low"}})
    attack = events_of(events, "attack")[0]
    assert (attack["attacker_owner"], attack["target_owner"]) == (1, 2)
    assert events_of(events, "exchange")[0]["owners"] == {"A1": 1, "B1": 2}
    assert events_of(events, "fled")[0]["owner"] == 2


def test_teammates_move_independently() -> None:
    state = battle([kniggit("A1", (10, 10), (2, 2, 2), owner=0), kniggit("A2", (20, 10), (2, 2, 2), owner=1),
                    kniggit("B1", (10, 30), (2, 2, 2), owner=2), kniggit("B2", (30, 30), (2, 2, 2), owner=3)],
                   players=4, team_sizes=[2, 2])
    waits = ENGINE.to_act(state)
    assert {w.seat for w in waits} == {0, 1} and all(w.independent for w in waits)
    solo = field()
    assert not ENGINE.to_act(solo)[0].independent


def test_two_player_armies_declare_their_shared_drafts() -> None:
    state = ENGINE.new_game(4, 5, {"team_sizes": [2, 2]})
    for army in state["armies"]:
        state, _ = play(state, army[0], type="accept")
    state, _ = play(state, 0, type="army", lines="Lance 2 2 2")
    draft = next(s for s in ENGINE.secrets(state) if s.path == ("build", "drafts", 0))
    assert draft.owner == 0 and draft.shared == (1,)
    assert leaks(ENGINE, state) == []


def test_left_handedness_any_time_public_and_no_rule_effect() -> None:
    state = field()
    assert ENGINE.view(state, None)["left_handed"] == [False, False]
    before_idle = state["turn"]["acted"]
    state, events = play(state, 1, type="handed", left=True)  # not B's turn: still fine
    assert events_of(events, "handed") == [{"seat": 1, "left": True}]
    assert ENGINE.view(state, 0)["left_handed"] == [False, True]
    assert state["turn"]["acted"] == before_idle and state["phase"] == "move"
    state, _ = play(state, 0, type="handed", left=True)
    assert state["turn"]["acted"] is False  # changes nothing for the forfeit count
    state, _ = play(state, 1, type="handed", left=False)
    assert ENGINE.view(state, None)["left_handed"] == [True, False]
    assert refused(state, 0, type="handed", left="yes").rule == "K1"
    assert all(a["type"] != "handed" for seat in (0, 1) for a in ENGINE.legal_actions(state, seat))
    fresh = ENGINE.new_game(2, 3)
    fresh, _ = play(fresh, 1, type="handed", left=True)
    assert fresh["phase"] == "map" and fresh["left_handed"] == [False, True]
