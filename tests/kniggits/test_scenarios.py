"""The acceptance scenarios of the Kniggits spec (§6) that are more than geometry: 1, 3, 4,
9-18, the combat parts of 19, 20, and 13's flight and 14's draw and limit."""

from __future__ import annotations

from games.kniggits import board
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


def started(players: int = 2, **options):
    state = ENGINE.new_game(players, 3, {"preset": "open", **options})
    for army in state["armies"]:
        state, _ = play(state, army[0], type="accept")
    return state


# ----- 1. Purchase ----------------------------------------------------------------------
def test_1_purchase_costs_runaways_and_the_budget() -> None:
    state = started()
    army = [{"M": 2, "A": 2, "D": 2}, {"M": 1, "A": 1, "D": 1}, {"M": 3, "A": 3, "D": 0}]
    state, _ = play(state, 0, type="army", kniggits=army)
    assert ENGINE.view(state, 0)["me"]["build_cost"] == 30
    too_dear = refused(state, 0, type="army", kniggits=[{"M": 10, "A": 20, "D": 16}])  # 5+46 = 51
    assert too_dear.rule == "K2"
    state, _ = play(state, 0, type="lock")
    state, events = play(state, 1, type="army", lines="Lance 2 2 2")
    state, events = play(state, 1, type="lock")
    revealed = events_of(events, "reveal_armies")[0]["A"]
    assert [(p["id"], p["valid"]) for p in revealed] == [("A1", True), ("A2", True), ("A3", False)]
    assert revealed[2]["reason"] == "missing_token"


def test_1_two_swords_valid_only_with_the_option() -> None:
    for option, valid in ((True, True), (False, False)):
        state = started(two_swords=option)
        state, _ = play(state, 0, type="army", lines="TS 2 5 0\nLance 2 2 2")
        state, _ = play(state, 0, type="lock")
        state, _ = play(state, 1, type="army", lines="Lance 2 2 2")
        state, events = play(state, 1, type="lock")
        ts = events_of(events, "reveal_armies")[0]["A"][0]
        assert ts["valid"] is valid and ts["two_swords"] is valid


def test_1_an_army_whose_every_kniggit_runs_away_loses_at_the_reveal() -> None:
    state = started()
    state, _ = play(state, 0, type="army", lines="Coward 3 3 0")
    state, _ = play(state, 0, type="lock")
    state, _ = play(state, 1, type="army", lines="Lance 2 2 2")
    state, _ = play(state, 1, type="lock")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "no_army" and outcome.ranks == (1, 0)


def test_1_both_armies_without_a_valid_kniggit_draw() -> None:
    state = started()
    for seat in (0, 1):
        state, _ = play(state, seat, type="lock", timeout=True)  # no list: no kniggits
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "no_army" and outcome.ranks == (0, 0)


# ----- 3. Deploy and first turn -----------------------------------------------------------
def deploying():
    state = started()
    for seat in (0, 1):
        state, _ = play(state, seat, type="army", lines="Lance 2 2 2\nAxe 2 2 2")
        state, _ = play(state, seat, type="lock")
    assert state["phase"] == "deploy"
    return state


def test_3_deployment_zones_and_shared_cells() -> None:
    state = deploying()
    state, _ = play(state, 0, type="deploy", lines="A1 10,6")
    assert refused(state, 0, type="deploy", lines="A1 10,7").rule == "K2"
    assert refused(state, 0, type="deploy", lines="A2 10,6").rule == "K2"  # a shared cell
    state, _ = play(state, 1, type="deploy", lines="B1 10,31")
    assert refused(state, 1, type="deploy", lines="B1 10,30").rule == "K2"


def test_3_b_sees_nothing_of_a_deployment_until_both_lock() -> None:
    state = deploying()
    before = ENGINE.view(state, 1)
    state, _ = play(state, 0, type="deploy", lines="A1 10,6\nA2 12,2")
    after = ENGINE.view(state, 1)
    assert before == after
    state, _ = play(state, 0, type="lock")
    public = ENGINE.view(state, None)
    assert public["kniggits"] == [] and public["deploy"]["chosen"] == [0] and "0" in public["deploy"]["commitments"]
    state, events = play(state, 1, type="lock", timeout=True)
    placed = events_of(events, "deployed")[0]["kniggits"]
    assert placed["A1"] == [10, 6] and placed["A2"] == [12, 2]
    assert placed["B1"][1] == 36  # the timeout default: the home row first
    assert ENGINE.view(state, None)["deploy"]["nonces"]["0"]


def test_3_rock_paper_scissors_with_a_missed_throw() -> None:
    state = deploying()
    for seat in (0, 1):
        state, _ = play(state, seat, type="lock")
    assert state["phase"] == "rps"
    state, _ = play(state, 0, type="throw", shape="rock")
    state, events = play(state, 1, type="throw", shape="scissors")
    assert events_of(events, "rps")[0]["winner"] == "A"
    state, _ = play(state, 0, type="throw", shape="paper")
    state, events = play(state, 1, type="throw", shape="paper")
    assert events_of(events, "rps")[0]["winner"] is None  # a draw replays
    state, _ = play(state, 1, type="throw", shape="rock")
    state, events = play(state, 0, type="throw", timeout=True)  # A misses: that throw is lost
    assert events_of(events, "rps")[0]["winner"] == "B"
    state, _ = play(state, 0, type="throw", shape="rock")
    state, events = play(state, 1, type="throw", shape="paper")
    assert events_of(events, "rps_won")[0] == {"army": "B", "by_lot": False}
    view = ENGINE.view(state, None)
    assert view["rps"]["score"] == {"A": 1, "B": 2}
    assert view["turn"]["army"] == "B" and view["phase"] == "move"


def test_3_three_double_misses_let_the_rng_decide() -> None:
    state = deploying()
    for seat in (0, 1):
        state, _ = play(state, seat, type="lock")
    for _ in range(3):
        state, _ = play(state, 0, type="throw", timeout=True)
        state, events = play(state, 1, type="throw", timeout=True)
    won = events_of(events, "rps_won")[0]
    assert won["by_lot"] is True and state["phase"] == "move"


# ----- 4. Allowance ---------------------------------------------------------------------
def test_4_allowance() -> None:
    state = battle([kniggit("A1", (5, 5), (3, 1, 1)), kniggit("B1", (30, 30), (1, 1, 1))])
    assert board.allowance(state, k(state, "A1")) == 6
    k(state, "A1")["M"] = 0
    assert board.allowance(state, k(state, "A1")) == 2
    k(state, "A1")["M"] = 7
    assert board.allowance(state, k(state, "A1")) == 12
    horses = battle([kniggit("A1", (5, 5), (7, 1, 1)), kniggit("B1", (30, 30), (1, 1, 1))], horses=True)
    assert board.allowance(horses, k(horses, "A1")) == 14


# ----- 9. Turning default -----------------------------------------------------------------
def test_9_turning_default_faces_the_nearest_enemy_facing_it() -> None:
    state = battle([kniggit("A1", (20, 21), (2, 2, 2), facing="B1"), kniggit("A2", (22, 20), (2, 2, 2), facing="B1"),
                    kniggit("A3", (20, 25), (2, 2, 2)), kniggit("B1", (20, 20), (2, 2, 2), facing="A3")])
    state, _ = play(state, 0, type="done")
    assert state["phase"] == "turning"
    state, events = play(state, 1, type="done", timeout=True)
    assert k(state, "B1")["facing"] == "A1"
    assert events_of(events, "faced")[0] == {"id": "B1", "target": "A1", "default": True, "owner": 1, "target_owner": 0}


# ----- 10-12. Exchanges -----------------------------------------------------------------
def facing_pair(a=(2, 2, 2), b=(2, 2, 2), **options):
    return battle([kniggit("A1", (10, 10), a, facing="B1"), kniggit("B1", (10, 11), b, facing="A1"),
                   kniggit("A9", (30, 2), (1, 1, 1)), kniggit("B9", (30, 35), (1, 1, 1))], **options)


def test_10_mutual_exchange() -> None:
    state = to_fight(facing_pair())
    state, events = fight(state, "A1", "B1", {"A1": {"sword": "mid", "shield": "high"},
                                              "B1": {"sword": "high", "shield": "low"}})
    result = events_of(events, "exchange")[0]
    assert result["mode"] == "mutual"
    assert result["tokens"] == {"A1": [2, 2, 2], "B1": [2, 2, 1]}
    assert result["round"]["nonces"]["0"] and result["round"]["commitments"]["1"]


def test_11_one_sided_attack_and_a_timed_out_shield() -> None:
    state = battle([kniggit("A1", (10, 10), (2, 2, 2)), kniggit("A2", (11, 12), (2, 2, 2)),
                    kniggit("B1", (10, 11), (2, 2, 2), facing="A2"), kniggit("B9", (30, 35), (1, 1, 1))])
    state = to_fight(state)
    assert k(state, "B1")["facing"] == "A2"  # K10 (1): a valid facing is kept
    attack = {"A1": {"sword": "low"}}
    state, _ = play(state, 0, type="attack", id="A1", target="B1")
    sides = {s["id"]: s for s in state["exchange"]["sides"]}
    assert sides["A1"]["shield"] is False and sides["B1"]["swords"] == 0
    state, _ = play(state, 0, type="gesture", **attack["A1"], lock=True)
    state, events = play(state, 1, type="lock", timeout=True)
    result = events_of(events, "exchange")[0]
    assert result["mode"] == "one_way" and result["fumbled"] == {"B1": ["shield"]}
    assert result["tokens"]["B1"] == [1, 2, 2]


def test_11_a_missing_shield_in_a_mutual_exchange_fumbles() -> None:
    state = to_fight(facing_pair())
    state, events = fight(state, "A1", "B1", {"A1": {"sword": "high", "timeout": True},
                                              "B1": {"sword": "mid", "shield": "low"}})
    result = events_of(events, "exchange")[0]
    assert result["fumbled"] == {"A1": ["shield"]}
    assert result["tokens"]["A1"] == [2, 2, 1] and result["tokens"]["B1"] == [2, 1, 2]


def test_12_incapacity() -> None:
    state = to_fight(facing_pair(b=(0, 1, 1)))
    state, events = fight(state, "A1", "B1", {"A1": {"sword": "low", "shield": "high"},
                                              "B1": {"sword": "low", "shield": "high"}})
    assert events_of(events, "exchange")[0]["tokens"]["B1"] == [0, 1, 1]  # M already 0
    no_shield = to_fight(facing_pair(b=(2, 2, 0)))
    no_shield, _ = play(no_shield, 0, type="attack", id="A1", target="B1")
    b_side = next(s for s in no_shield["exchange"]["sides"] if s["id"] == "B1")
    assert b_side["shield"] is False
    no_shield, events = fight(to_fight(facing_pair(b=(2, 2, 0))), "A1", "B1",
                              {"A1": {"sword": "high", "shield": "low"}, "B1": {"sword": "mid"}})
    assert events_of(events, "exchange")[0]["tokens"]["B1"] == [2, 1, 0]
    unarmed = to_fight(facing_pair(b=(2, 0, 2)))
    assert ENGINE.view(unarmed, 0)["me"]["attacks"][0]["mode"] == "one_way"


# ----- 13. Flee, run, win -----------------------------------------------------------------
def test_13_flee_run_and_win() -> None:
    state = battle([kniggit("A1", (10, 29), (2, 2, 2), facing="B1"), kniggit("B1", (10, 30), (1, 1, 0), facing="A1"),
                    kniggit("B2", (30, 30), (2, 2, 2))])
    state = to_fight(state)
    state, events = fight(state, "A1", "B1", {"A1": {"sword": "high", "shield": "high"},
                                              "B1": {"sword": "mid"}})  # D=0: no shield
    assert events_of(events, "fled") and k(state, "B1")["status"] == "fled"
    assert [k(state, "B1")["M"], k(state, "B1")["A"], k(state, "B1")["D"]] == [1, 0, 0]
    # B's turn starts with the run: 2 inches a turn toward y=36
    assert state["turn"]["army"] == 1 and k(state, "B1")["pos"] == [10, 32]
    assert ENGINE.view(state, None)["engaged"] == []  # a fled kniggit engages nobody
    # A1 walks past the fled B1 without being stopped (K14: no engagement)
    state = pass_turn(state)
    state, _ = play(state, 0, type="move", id="A1", to=[10, 31])
    assert k(state, "A1")["pos"] == [10, 31]  # right next to B1, not stopped
    state = pass_turn(state)
    assert k(state, "B1")["pos"] == [10, 34]
    state = pass_turn(pass_turn(state))
    assert k(state, "B1")["pos"] == [10, 36]
    assert k(state, "B1")["status"] == "gone"


def test_13_a_fled_kniggit_runs_round_an_obstacle_and_stops_before_a_friend() -> None:
    layout = [kniggit("A1", (10, 12), (1, 0, 0), status="fled"), kniggit("A5", (30, 5), (2, 2, 2)),
              kniggit("B1", (30, 30), (2, 2, 2))]
    state = battle(layout, obstacles=[(10, 11)])
    assert k(state, "A1")["pos"] == [11, 11]
    blocked = battle([*layout, kniggit("A2", (11, 11), (2, 2, 2))], obstacles=[(10, 11)])
    assert k(blocked, "A1")["pos"] == [11, 12]


def test_13_the_last_enemy_fleeing_wins_at_once() -> None:
    state = battle([kniggit("A1", (10, 10), (2, 2, 2), facing="B1"), kniggit("B1", (10, 11), (1, 1, 0), facing="A1"),
                    kniggit("B2", (12, 30), (1, 0, 0), status="fled")])
    state, events = fight(to_fight(state), "A1", "B1", {"A1": {"sword": "high", "shield": "high"},
                                                        "B1": {"sword": "mid"}})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "annihilation" and outcome.ranks == (0, 1)
    assert events_of(events, "victory")[0]["winner"] == "A"


# ----- 14. Draw and limit ---------------------------------------------------------------
def test_14_both_last_kniggits_flee_in_one_exchange_draw() -> None:
    state = battle([kniggit("A1", (10, 10), (1, 1, 0), facing="B1"), kniggit("B1", (10, 11), (1, 1, 0), facing="A1")])
    state, _ = fight(to_fight(state), "A1", "B1", {"A1": {"sword": "low"}, "B1": {"sword": "low"}})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "annihilation" and outcome.ranks == (0, 0)


def test_14_the_turn_limit_goes_to_strength() -> None:
    state = battle([kniggit("A1", (10, 3), (2, 2, 2)), kniggit("B1", (10, 33), (1, 1, 1)),
                    kniggit("B2", (20, 33), (1, 1, 1))], rounds=30)
    state["turn"]["round"] = 30
    state, _ = play(state, 0, type="done")
    assert state["turn"]["army"] == 1 and state["over"] is None
    state, _events = play(state, 1, type="done")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "on_points" and outcome.ranks == (1, 0)
    assert outcome.detail["strength"] == {"A": 11, "B": 16} and outcome.detail["on_points"] is True


# ----- 15. Horses -----------------------------------------------------------------------
def test_15_horses() -> None:
    state = battle([kniggit("A1", (10, 10), (2, 2, 2)), kniggit("B1", (10, 11), (5, 2, 2), facing="A1"),
                    kniggit("B9", (30, 35), (1, 1, 1))], horses=True)
    horse = k(state, "B1")
    assert board.mounted(state, horse) and board.allowance(state, horse) == 10
    state = to_fight(state)
    state, _ = play(state, 0, type="attack", id="A1", target="B1")
    me = ENGINE.view(state, 0)["me"]["gesture"]
    assert me["sword_heights"] == ["mid", "low"]
    assert refused(state, 0, type="gesture", sword="high").rule == "V1"
    state, _ = play(state, 0, type="gesture", sword="low", shield="high", lock=True)
    state, events = play(state, 1, type="gesture", sword="high", shield="mid", lock=True)
    assert events_of(events, "dismounted") == [{"id": "B1", "owner": 1}]
    horse = k(state, "B1")
    assert horse["M"] == 4 and not board.mounted(state, horse) and board.allowance(state, horse) == 8
    horse["M"] = 9  # a later +5 M potion
    assert not board.mounted(state, horse) and board.allowance(state, horse) == 12


def test_15_without_horses_nobody_dismounts() -> None:
    """M 5 -> 4 with Horses off: no horse was ridden, so no event and no line says one was lost."""
    state = battle([kniggit("A1", (10, 10), (2, 2, 2)), kniggit("B1", (10, 11), (5, 2, 2), facing="A1"),
                    kniggit("B9", (30, 35), (1, 1, 1))])
    state = to_fight(state)
    state, _ = play(state, 0, type="attack", id="A1", target="B1")
    state, _ = play(state, 0, type="gesture", sword="low", shield="high", lock=True)
    state, events = play(state, 1, type="gesture", sword="high", shield="mid", lock=True)
    assert k(state, "B1")["M"] == 4 and events_of(events, "dismounted") == []
    assert events_of(events, "exchange")[0]["dismounted"] == []


def test_15_on_foot_may_strike_high_once_the_horse_is_gone() -> None:
    state = battle([kniggit("A1", (10, 10), (2, 2, 2), facing="B1"), kniggit("B1", (10, 11), (4, 2, 2), facing="A1"),
                    kniggit("B9", (30, 35), (1, 1, 1))], horses=True)
    k(state, "B1")["horse_lost"] = True
    state, _ = play(to_fight(state), 0, type="attack", id="A1", target="B1")
    assert ENGINE.view(state, 0)["me"]["gesture"]["sword_heights"] == ["high", "mid", "low"]


# ----- 16. Magic sword ------------------------------------------------------------------
def magic(ms=(2, 5, 2)):
    # A1 is engaged with B1 (facing it) and B2 (facing A2); A2 keeps the fight phase open
    state = battle([kniggit("A1", (10, 10), ms, facing="B1"), kniggit("A2", (12, 12), (2, 2, 2), facing="B2"),
                    kniggit("B1", (10, 11), (2, 2, 2), facing="A1"),
                    kniggit("B2", (11, 11), (2, 2, 2), facing="A2")], magic_swords=True)
    state, _ = play(state, 0, type="face", id="A1", target="B1")
    return to_fight(state)


def test_16_two_attacks_the_second_shield_only() -> None:
    state = magic()
    assert k(state, "B2")["facing"] == "A2"
    gestures = {"A1": {"sword": "low", "shield": "high"}, "B1": {"sword": "mid", "shield": "mid"}}
    state, events = fight(state, "A1", "B1", gestures)
    assert events_of(events, "exchange")[0]["mode"] == "mutual"
    state, events = fight(state, "A1", "B1", {"A1": {"sword": "low"}, "B1": {"shield": "mid"}})
    assert events_of(events, "exchange")[0]["mode"] == "one_way"
    assert refused(state, 0, type="attack", id="A1", target="B2").rule in ("V2", "K11")


def test_16_a_landed_high_takes_the_second_attack_away() -> None:
    state = magic()
    state, _ = fight(state, "A1", "B1", {"A1": {"sword": "low", "shield": "low"}, "B1": {"sword": "high", "shield": "mid"}})
    assert k(state, "A1")["A"] == 4
    assert refused(state, 0, type="attack", id="A1", target="B1").rule in ("V2", "K11")


def test_16_a_magic_sword_attacks_an_enemy_it_does_not_face() -> None:
    state = magic()
    options = {(o["attacker"], o["target"]) for o in ENGINE.view(state, 0)["me"]["attacks"]}
    assert ("A1", "B2") in options
    state, events = fight(state, "A1", "B2", {"A1": {"sword": "low"}, "B2": {"shield": "mid"}})
    assert events_of(events, "exchange")[0]["mode"] == "one_way"


# ----- 17. Double defence ---------------------------------------------------------------
def double(dd=(2, 2, 5)):
    return to_fight(battle([kniggit("A1", (10, 9), (2, 2, 2), facing="B1"), kniggit("A2", (10, 11), (2, 2, 2), facing="B1"),
                            kniggit("B1", (10, 10), dd, facing="A2")], double_defence=True))


def test_17_double_guard_blocks_two_heights_and_bars_striking_back() -> None:
    state = double()
    assert k(state, "B1")["facing"] == "A2"
    state, _ = play(state, 0, type="attack", id="A1", target="B1")
    assert ENGINE.view(state, 1)["me"]["gesture"]["double"] is True
    state, _ = play(state, 1, type="gesture", double=True, sword="high", shield="mid", lock=True)
    state, events = play(state, 0, type="gesture", sword="low", lock=True)
    assert events_of(events, "exchange")[0]["tokens"]["B1"] == [1, 2, 5]
    assert k(state, "B1")["guarded_double"]
    state, _ = play(state, 0, type="attack", id="A2", target="B1")
    assert state["exchange"]["mode"] == "one_way"  # B1 faces A2 but guarded double this turn


def test_17_a_mid_swing_is_blocked_and_d4_has_no_toggle() -> None:
    state = double()
    state, events = fight(state, "A1", "B1", {"A1": {"sword": "mid"},
                                              "B1": {"double": True, "sword": "high", "shield": "mid"}})
    assert events_of(events, "exchange")[0]["hits"] == []
    weak = double((2, 2, 4))
    weak, _ = play(weak, 0, type="attack", id="A1", target="B1")
    assert ENGINE.view(weak, 1)["me"]["gesture"]["double"] is False
    assert refused(weak, 1, type="gesture", double=True).rule == "V3"


# ----- 18. Two swords -------------------------------------------------------------------
def two_swords():
    return to_fight(battle([kniggit("A1", (10, 10), (2, 5, 0), two_swords=True, facing="B1"),
                            kniggit("B1", (10, 11), (2, 2, 2), facing="A1"), kniggit("B9", (30, 35), (1, 1, 1))],
                           two_swords=True))


def test_18_two_swords_strike_twice_and_never_guard() -> None:
    _state, events = fight(two_swords(), "A1", "B1", {"A1": {"swords": ["high", "low"]},
                                                     "B1": {"sword": "mid", "shield": "low"}})
    result = events_of(events, "exchange")[0]
    assert result["tokens"] == {"A1": [2, 5, 0], "B1": [2, 1, 2]}


def test_18_a_repeated_height_removes_two_tokens() -> None:
    _state, events = fight(two_swords(), "A1", "B1", {"A1": {"swords": ["high", "high"]},
                                                     "B1": {"sword": "low", "shield": "mid"}})
    assert events_of(events, "exchange")[0]["tokens"]["B1"] == [2, 0, 2]


# ----- 19. Archers (the combat parts) -----------------------------------------------------
def archer(*others, obstacles=(), **options):
    return battle([kniggit("A1", (5, 5), (2, 2, 3), kind="archer"), *others], archers=True,
                  obstacles=list(obstacles), **options)


def shots(state):
    return {o["target"] for o in ENGINE.view(state, 0)["me"]["attacks"] if o["mode"] == "shot"}


def test_19_archer_range_and_line_of_sight() -> None:
    state = to_fight(archer(kniggit("B1", (5, 10), (2, 2, 2)), kniggit("B2", (9, 10), (2, 2, 2))))
    assert shots(state) == {"B1"}
    assert refused(state, 0, type="shoot", id="A1", target="B2").rule == "V5"
    walled = to_fight(archer(kniggit("B1", (5, 10), (2, 2, 2)), obstacles=[(5, 8)]))
    assert walled["phase"] != "fight" or shots(walled) == set()
    screened = to_fight(archer(kniggit("A2", (5, 7), (2, 2, 2)), kniggit("B1", (5, 10), (2, 2, 2))))
    assert screened["phase"] != "fight" or shots(screened) == set()


def test_19_no_shot_after_moving() -> None:
    state = archer(kniggit("B1", (5, 12), (2, 2, 2)))
    state, _ = play(state, 0, type="move", id="A1", to=[5, 6])
    state, _ = play(state, 0, type="done")
    assert state["phase"] != "fight"  # nothing left to attack with: the turn ended
    assert state["turn"]["army"] == 1


def test_19_a_shot_at_a_horseman_may_be_high_and_melee_on_an_archer_lands() -> None:
    state = to_fight(archer(kniggit("B1", (5, 10), (5, 2, 2)), horses=True))
    state, _ = play(state, 0, type="shoot", id="A1", target="B1")
    assert ENGINE.view(state, 0)["me"]["gesture"]["sword_heights"] == ["high", "mid", "low"]
    state, events = play(state, 0, type="gesture", sword="high", lock=True)
    state, events = play(state, 1, type="gesture", shield="low", lock=True)
    result = events_of(events, "exchange")[0]
    assert result["mode"] == "shot" and result["tokens"]["B1"] == [5, 1, 2]
    melee = to_fight(battle([kniggit("A1", (5, 5), (2, 2, 3), kind="archer"),
                             kniggit("B1", (5, 6), (2, 2, 2), facing="A1"), kniggit("A9", (30, 2), (1, 1, 1))],
                            archers=True, first="B"))
    melee, _ = play(melee, 1, type="attack", id="B1", target="A1")
    assert [s["id"] for s in melee["exchange"]["sides"]] == ["B1"]  # the archer has no shield
    melee, events = play(melee, 1, type="gesture", sword="mid", lock=True)
    assert events_of(events, "exchange")[0]["tokens"]["A1"] == [2, 2, 2]


# ----- 20. Potions and flags --------------------------------------------------------------
def test_20_potion_drunk_on_the_way_and_undone() -> None:
    state = battle([kniggit("A1", (12, 12), (3, 2, 2)), kniggit("B1", (30, 30), (2, 2, 2))],
                   potions=[{"pos": (12, 15), "kind": "A"}], magic_swords=True)
    moved, events = play(state, 0, type="move", id="A1", to=[12, 17])
    assert k(moved, "A1")["A"] == 7 and board.magic_sword(moved, k(moved, "A1"))
    assert moved["map"]["potions"] == [] and events_of(events, "potion")[0]["potion"] == "P1"
    undone, _ = play(moved, 0, type="undo")
    assert undone["map"]["potions"] == state["map"]["potions"]
    assert k(undone, "A1")["A"] == 2 and k(undone, "A1")["pos"] == [12, 12]


def test_20_two_swords_leave_a_defense_potion() -> None:
    state = battle([kniggit("A1", (12, 12), (3, 5, 0), two_swords=True), kniggit("B1", (30, 30), (2, 2, 2))],
                   potions=[{"pos": (12, 14), "kind": "D"}], two_swords=True)
    moved, _ = play(state, 0, type="move", id="A1", to=[12, 16])
    assert k(moved, "A1")["D"] == 0 and len(moved["map"]["potions"]) == 1


def test_20_capture_the_flag() -> None:
    state = battle([kniggit("A1", (19, 30), (6, 2, 2)), kniggit("A2", (19, 31), (3, 2, 2)),
                    kniggit("B1", (5, 30), (1, 1, 1)), kniggit("B2", (30, 20), (2, 2, 2))], flags=True)
    state, _ = play(state, 0, type="plan", id="A2", to=[19, 34])
    assert state["plans"][0]["flag"] == "B" and state["plans"][0]["hand"] == "sword"
    state, _ = play(state, 0, type="hand", hand="shield")
    state, events = play(state, 0, type="confirm")
    assert events_of(events, "flag_taken") == [{"id": "A2", "owner": 0, "flag": "B", "hand": "shield"}]
    carrier = k(state, "A2")
    assert not board.has_shield(carrier)
    # it is struck until it flees: the flag drops on its cell
    carrier.update({"M": 1, "A": 0, "D": 0})
    fled, dropped = [], None
    from games.kniggits.exchange import settle
    events = settle(state, carrier, 1, fled, [])
    dropped = events_of(events, "flag_dropped")[0]
    assert dropped == {"id": "A2", "owner": 0, "flag": "B", "pos": [19, 34]}
    flag = next(f for f in state["map"]["flags"] if f["army"] == 1)
    assert flag["pos"] == [19, 34] and flag["carrier"] is None
    # A1 later takes it (through the fled A2's cell would be a friend: it goes round) and runs home
    flag["pos"] = [19, 33]
    k(state, "A1")["pos"] = [19, 31]
    state, _ = play(state, 0, type="move", id="A1", to=[19, 33])
    assert k(state, "A1")["carrying"] == 1
    k(state, "A1")["pos"] = [19, 6]  # ... several turns later, inside its own zone
    state, events = play(state, 0, type="done")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "flag" and outcome.ranks == (0, 1)
    assert state["exchange"] is None and events_of(events, "victory")[0]["carrier"] == "A1"


def test_20_a_two_sword_carrier_strikes_with_one_sword() -> None:
    state = battle([kniggit("A1", (19, 33), (2, 5, 0), two_swords=True), kniggit("B1", (20, 35), (2, 2, 2)),
                    kniggit("B2", (30, 20), (2, 2, 2))], flags=True, two_swords=True)
    state, _ = play(state, 0, type="move", id="A1", to=[19, 34], hand="sword")
    assert k(state, "A1")["carrying"] == 1 and board.swords(k(state, "A1")) == 1
    state = to_fight(state)
    state, _ = play(state, 0, type="attack", id="A1", target="B1")
    assert state["exchange"]["sides"][0]["swords"] == 1
