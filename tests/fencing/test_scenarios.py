"""The acceptance scenarios of the spec (§6), one test each. Seats A, B, C; A is the Start;
cw; interstate. Deck tops and dice are injected."""

from __future__ import annotations

from games.fencing import ENGINE
from games.fencing.moves import is_offroad, routes_by_destination
from tests.fencing.support import A, B, C, Table, opened, play_trick


def thrust(table: Table, cards, dice=(), now: float = 10.0) -> None:
    table.cards(*cards)
    table.rig(die=list(dice))
    table.act(A, {"type": "thrust"}, now)


def test_01_high_card() -> None:
    t = opened()
    thrust(t, ([9], [4], [13]), [4])
    assert t.state["trick"]["level"] == 0 and t.state["trick"]["winner"] == C
    t.act(t.step["holder"], {"type": "done"}, 11.0)
    assert t.score(C) == 4 and t.score(A) == 0 and t.score(B) == 0  # no golf scoring
    assert t.state["control"] == C


def test_02_warrior_wins() -> None:
    t = opened()  # A yellow, B purple
    thrust(t, ([7, 10], [7, 3], [2, 12]), [5, 6])
    assert t.state["trick"]["winner"] == A and t.state["trick"]["how"] == "war_win"
    t.act(B, {"type": "done"}, 11.0)
    assert t.score(A) == 11 + 2 and t.score(B) == -2 and t.score(C) == 0


def test_03_parry_by_sum() -> None:
    t = opened()
    thrust(t, ([7, 2], [7, 5], [2, 9]), [2, 3, 4])
    assert t.state["trick"]["winner"] == C and t.state["trick"]["how"] == "parry"
    t.act(B, {"type": "done"}, 11.0)
    assert t.score(C) == 9


def test_04_parry_by_ace() -> None:
    t = opened()
    thrust(t, ([7, 12], [7, 13], [2, 1]), [1, 1, 1])
    assert t.state["trick"]["winner"] == C and t.state["trick"]["how"] == "parry"


def test_05_double_trump() -> None:
    t = opened()
    thrust(t, ([7, 4, 9], [7, 11, 2], [2, 4, 6]), [3, 3])
    trick = t.state["trick"]
    assert trick["level"] == 2 and trick["steps"][1]["result"] == "trump"
    assert trick["warriors"] == [A, C] and trick["parrier"] == B
    assert trick["winner"] == A
    t.act(B, {"type": "done"}, 11.0)
    assert t.score(A) == 12 + 2  # 6 x 2, and A holds yellow


def test_06_hats() -> None:
    t = opened()
    thrust(t, ([5, 8], [5, 5], [5, 3]), [2], now=100.0)
    assert t.step["kind"] == "hat" and t.step["bare"] == [A, B, C]
    t.act(B, {"type": "don"}, 101.2)
    t.act(A, {"type": "don"}, 102.0)
    t.act(None, {"type": "expire", "timeout": True}, 111.0)
    race = t.of("hat_race")[0]
    assert race["payers"] == [C] and race["missed"] == [C]
    assert [p["hat_on"] for p in t.state["seats"]] == [True, True, False]
    assert t.state["penalties"][C] and not t.state["penalties"][A]
    assert t.state["trick"]["winner"] == A  # the redraw 8/5/3


def test_06b_hats_a_second_triple() -> None:
    t = opened()
    thrust(t, ([5, 6], [5, 6], [5, 6]), [], now=100.0)
    t.act(B, {"type": "don"}, 101.2)
    t.act(A, {"type": "don"}, 102.0)
    t.act(None, {"type": "expire", "timeout": True}, 111.0)
    # the redraw 6/6/6: A and B (hatted) pay at once; C, the only bare head, races alone
    paid_at_once = [d["seat"] for d in t.of("penalty") if d["reason"] == "9"]
    assert paid_at_once == [C, A, B]
    assert t.step["kind"] == "hat" and t.step["bare"] == [C]
    t.act(C, {"type": "don"}, 112.0)
    assert t.of("hat_race")[0]["payers"] == [C]


def test_07_penalty_default() -> None:
    t = opened()
    t.state["seats"][B]["chocolate"] = 2
    events: list = []
    from games.fencing import penalties
    penalties.add(t.state, B, "11", 50_000, events)
    t.timeout(seat=B)
    assert t.choc(B) == 1 and t.score(B) == 0
    t.state["seats"][B]["chocolate"] = 0
    events = []
    penalties.add(t.state, B, "11", 60_000, events)
    assert [e.type for e in events] == ["penalty", "slide"]
    assert t.score(B) == -1 and not t.state["penalties"][B]


def finish_bumper(t: Table, winner: int, now: float) -> None:
    from games.fencing import flow
    events: list = []
    flow.bumper_won(t.state, winner, "build", round(now * 1000), events)
    t.pay_all(now)
    assert t.step["kind"] == "anthem"
    t.act(None, {"type": "expire", "timeout": True}, now + 50)
    for s in range(3):
        t.act(s, {"type": "stamp"}, now + 51)


def test_08_carry_over() -> None:
    t = opened()
    for seat, n in zip((A, B, C), (3, 1, 0), strict=True):
        t.state["seats"][seat]["chocolate"] = n
    finish_bumper(t, A, 100.0)
    assert t.step["kind"] == "stamp" and t.step["which"] == "open"
    t.rig(green=[6, 5, 4])
    for s in range(3):
        t.act(s, {"type": "stamp"}, 200.0)
    assert [t.choc(s) for s in (A, B, C)] == [3, 3, 2]
    assert [d["count"] for d in t.of("surplus", t.log)] == [2]


def to_catch(t: Table, winner: int, now: float) -> None:
    """A controls and B has the mitt; `winner` wins the next trick at `now`."""
    t.state["control"], t.state["mitt"] = A, B
    values = {A: [2], B: [3], C: [4]}
    values[winner] = [13]
    thrust(t, (values[A], values[B], values[C]), [1], now=now)
    t.rig(delay=[1300])
    t.act(t.step["holder"], {"type": "done"}, now)


def test_09_catch_missed() -> None:
    t = opened()
    to_catch(t, B, 0.0)
    assert t.step["kind"] == "catch" and t.step["receiver"] == B and t.step["thrower"] == A
    t.timeout()  # the catch opens
    t.timeout()  # and B misses
    assert t.of("drop")[0]["seat"] == B and t.state["penalties"][B]
    assert t.state["control"] == B and t.state["mitt"] == A


def test_09_no_catch_when_c_wins() -> None:
    t = opened()
    to_catch(t, C, 0.0)
    assert t.step["kind"] == "move"
    assert t.state["control"] == C and t.state["mitt"] == A


def test_09_catch_timing() -> None:
    for press, caught in ((6.300, True), (6.301, False)):
        t = opened()
        to_catch(t, B, 0.0)
        assert t.step["opens_at"] == 1300 and t.step["deadline"] == 6300
        t.act(None, {"type": "catch_open", "timeout": True}, 1.3)
        t.act(B, {"type": "catch"}, press)
        assert t.kinds().count("catch" if caught else "drop") == 1
        assert ("too_late" in t.kinds()) is not caught
    t = opened()
    to_catch(t, B, 0.0)
    t.act(None, {"type": "catch_open", "timeout": True}, 1.3)
    t.act(None, {"type": "expire", "timeout": True}, 6.3)
    assert t.of("drop")[0]["seat"] == B


def test_10_golf_distribution() -> None:
    t = opened(greens=(5, 5, 2), duel_mode="dice")
    # the duel ran on dice: the rigged greens ran out, so the RNG rolled it
    duel = t.of("duel_start", t.log)[0]
    assert duel["seats"] == [A, B] and duel["purpose"] == "golf_top"
    won = t.of("duel_won", t.log)[0]
    assert t.state["yellow"] == won["seat"] and t.state["purple"] == won["loser"]
    t = opened(greens=(6, 3, 3), duel_mode="dice")
    assert t.state["yellow"] == A
    assert t.of("duel_start", t.log)[0]["seats"] == [B, C] and t.state["purple"] in (B, C)
    t = opened(greens=(4, 4, 4, 6, 5, 4))
    assert len(t.of("golf_roll", t.log)) == 2 and (t.state["yellow"], t.state["purple"]) == (A, B)


def hose_table(rolls: list[int]) -> Table:
    t = opened()
    t.state["purple"], t.state["yellow"] = A, B
    thrust(t, ([9], [4], [13]), [4])
    assert t.step["kind"] == "golf" and t.step["holder"] == A
    t.rig(green=rolls)
    t.act(A, {"type": "hose", "target": B}, 11.0)
    return t


def test_11_hose() -> None:
    t = hose_table([5, 2])
    assert t.step["kind"] == "handout" and t.step["holder"] == B
    t.act(B, {"type": "handout", "yellow": C}, 12.0)
    assert (t.state["yellow"], t.state["purple"]) == (C, A)
    t = hose_table([2, 5])
    assert t.state["purple"] == A and t.state["penalties"][A]


def test_12_quick_switch_and_box() -> None:
    t = opened()
    t.state["purple"], t.state["yellow"], t.state["trick_no"] = A, C, 6
    thrust(t, ([7, 10], [7, 3], [2, 12]), [1, 1])  # a trump trick 7, A wins
    t.rig(wild=[3, 4], delay=[1000, 1000])
    t.act(A, {"type": "quickswitch"}, 11.0)
    t.timeout()
    t.act(C, {"type": "catch"}, 13.0)
    assert t.state["purple"] == C
    t.timeout()
    t.timeout()  # A drops yellow
    assert t.state["yellow"] is None and t.state["yellow_box"] == 9
    assert t.step["kind"] == "golf" and t.step["holder"] == C
    refused = ENGINE.legal_actions(t.state, C)
    assert {"type": "quickswitch"} not in refused
    t.act(C, {"type": "quickswitch", "typed": True}, 20.0)
    assert t.of("refused")[0]["rule"] == "11"
    t.pay_all(20.0)
    t.act(C, {"type": "done"}, 21.0)
    t.pay_all(21.0)
    assert not [b for b in t.of("build", t.log) if b["why"] == "yellow"]
    for trick, now in ((8, 30.0), (9, 40.0)):
        if t.step["kind"] == "move":
            t.act(t.state["control"], {"type": "stay"}, now)
            t.act(t.state["control"], {"type": "attack", "piece": "BK"}, now)
        play_trick(t, ([7, 10], [7, 3], [2, 12]), [1, 1], now)
        assert t.state["trick_no"] == trick or t.state["last_trick"]["no"] == trick
    assert not [b for b in t.of("build", t.log) if b["why"] == "yellow"]
    unbox = t.of("unbox", t.log)
    assert len(unbox) == 1 and t.state["yellow"] == unbox[0]["seat"] == t.state["control"]


def test_13_roads() -> None:
    t = opened()
    routes = routes_by_destination(t.state, "BK")
    road = {town: r[0]["km"] for town, r in routes.items() if not r[0]["offroad"]}
    assert road == {"HEB": 43, "WCH": 60, "MGI": 67, "SPR": 69}
    assert "DAY" not in routes
    events: list = []
    from games.fencing import flow, moves
    t.state["control"] = A
    flow.set_step(t.state, "move", 0, "move", A, piece="BK")
    t.act(A, {"type": "move", "piece": "BK", "to": "DEL", "offroad": True}, 1.0)
    assert t.state["penalties"][A] and t.state["penalties"][A][0]["reason"] == "18"
    assert is_offroad(t.state, "DEL")
    t.pay_all(1.0)
    for town in ("MAR", "MGI"):
        flow.set_step(t.state, "move", 0, "move", A, piece="BK")
        t.act(A, {"type": "move", "piece": "BK", "to": town, "offroad": True}, 2.0)
        assert not t.state["penalties"][A]
    assert not is_offroad(t.state, "MGI")
    t.state["pieces"]["BK"] = "CAM"
    cam = moves.routes_by_destination(t.state, "BK")
    assert cam["MTA"][-1] == {"via": [], "route": ["MTA"], "km": 69, "offroad": True, "penalty": 1, "default": True}
    assert "HEB" not in cam
    assert events == []


def test_14_miscue() -> None:
    t = opened()
    t.state["control"] = A
    t.state["attacked"] = "WB"
    from games.fencing import flow
    flow.set_step(t.state, "move", 0, "move", A, piece="WB")
    before = t.state["pieces"]["WB"]
    t.act(A, {"type": "move", "piece": "WB", "to": "CLE", "typed": True}, 1.0)
    assert t.of("refused")[0]["rule"] == "17" and t.state["pieces"]["WB"] == before
    assert len(t.state["penalties"][A]) == 1 and t.state["seats"][A]["butt_kicks"] == 0
    t.act(A, {"type": "move", "piece": "WB", "to": "CLE", "typed": True}, 2.0)
    assert len(t.state["penalties"][A]) == 2 and t.state["seats"][A]["butt_kicks"] == 1
    assert "butt_kick" in t.kinds()
    assert t.step["kind"] == "move"


def theme_table() -> Table:
    t = opened(difficulty="state")
    t.state["pieces"]["WB"] = "NEW"
    t.state["trick_no"] = 4
    return t


def test_15_theme() -> None:
    t = theme_table()
    play_trick(t, ([13], [2], [3]), [1], 10.0, move={"type": "move", "piece": "BK", "to": "HEB", "via": []},
               attack="WB")
    assert t.state["pieces"]["BK"] == "HEB" and t.state["trick_no"] == 5
    play_trick(t, ([13], [2], [3]), [1], 20.0,
               move={"type": "move", "piece": "WB", "to": "COL", "via": ["HEB"]})
    theme = t.of("theme", t.log)
    assert theme and theme[0]["seat"] == A and theme[0]["through"] == ["HEB"]
    assert t.of("bumper_won", t.log)[0] == {"seat": A, "how": "theme", "bumper": 1, "scores": [2, 0, 0]}


def test_15_no_theme_when_another_player_won_between() -> None:
    t = theme_table()
    play_trick(t, ([13], [2], [3]), [1], 10.0, move={"type": "move", "piece": "BK", "to": "HEB", "via": []},
               attack="WB")
    play_trick(t, ([2], [13], [3]), [1], 20.0,
               move={"type": "move", "piece": "WB", "to": "COL", "via": ["HEB"]})
    assert not t.of("theme", t.log) and t.state["pieces"]["WB"] == "COL"


def test_16_build_race() -> None:
    t = opened()
    t.state["seats"][A]["score"], t.state["seats"][B]["score"] = 47, 49
    t.state["yellow"], t.state["purple"] = B, C
    thrust(t, ([7, 10], [7, 3], [2, 12]), [2, 3])
    t.act(C, {"type": "done"}, 11.0)
    assert t.score(A) == 52 and t.score(B) == 49
    assert t.of("bumper_won")[0]["seat"] == A
    assert "move" not in t.kinds() and t.step["kind"] == "anthem"


def starts(direction: str) -> list[int]:
    t = opened(direction=direction)
    seen = [t.state["start"]]
    for winner, now in ((A, 100.0), (B, 200.0), (C, 300.0)):
        finish_bumper(t, winner, now)
        t.rig(green=[6, 5, 4])
        for s in range(3):
            t.act(s, {"type": "stamp"}, now + 60)
        seen.append(t.state["start"])
    assert t.state["bumper_no"] == 4 and t.state["choc_supply"] == 0
    assert [p["bumpers_won"] for p in t.state["seats"]] == [1, 1, 1]
    return seen


def test_17_bumpers() -> None:
    assert starts("cw") == [A, B, C, A]
    assert starts("ccw") == [A, C, B, A]


def duel_table(snaps: tuple[float, float]) -> Table:
    t = opened(greens=(5, 5, 2))
    assert t.step["kind"] == "duel" and t.step["seats"] == [A, B]
    t.act(A, {"type": "insult", "text": "Your yo-yo is a Yomega."}, 2.0)
    t.act(B, {"type": "insult", "text": ""}, 2.5)
    t.act(C, {"type": "applaud", "who": A}, 3.0)
    t.rig(S=[6000])
    t.act(C, {"type": "count"}, 10.0)
    t.act(B, {"type": "snap"}, 10.0 + snaps[1])
    t.act(A, {"type": "snap"}, 10.0 + snaps[0])
    return t


def test_18_duel() -> None:
    t = duel_table((5.2, 6.4))
    assert t.of("duel_won", t.log)[0]["seat"] == A and t.state["yellow"] == A and t.state["purple"] == B
    assert t.state["seats"][A]["applause"] == 1
    t = duel_table((6.1, 6.4))
    assert t.of("duel_snaps")[0]["ok"] == [False, False]
    assert t.of("duel_dice")


def test_19_afk() -> None:
    t = opened(start=C)
    for _ in range(5):
        assert t.step["kind"] == "thrust"
        t.timeout(seat=C)
        if ENGINE.outcome(t.state) is not None:
            break
        t.act(t.step["holder"], {"type": "done"}, 50.0)
        t.pay_all(50.0)
        while t.step["kind"] in ("catch", "hat"):
            t.timeout()
            t.pay_all(50.0)
        if t.step["kind"] == "move":
            t.act(t.state["control"], {"type": "stay"}, 50.0)
            t.act(t.state["control"], {"type": "attack", "piece": "BK"}, 50.0)
    outcome = ENGINE.outcome(t.state)
    assert outcome is not None and outcome.reason == "afk" and outcome.ranks[C] == 2
    assert sorted(outcome.ranks) in ([0, 1, 2], [0, 0, 2])


def test_20_deadlines() -> None:
    t = opened()
    t.state["seats"][A]["hat_on"] = t.state["seats"][A]["hat_keep"] = True
    thrust(t, ([4, 9], [4, 2], [4, 3]), [1], now=0.0)
    assert t.state["penalties"][A]  # A pays at once
    t.act(B, {"type": "don"}, 1.5)
    t.act(C, {"type": "don"}, 1.5)
    assert t.of("hat_race")[0]["payers"] == [B, C]
    # a stamp timeout: the bot stamps, no penalty, no miscue
    s = opened()
    s2 = Table(s.state)
    finish_bumper_until_stamps(s2)
    s2.timeout(seat=B)
    assert s2.state["seats"][B]["stamps"][-1]["close"] == "bot"
    assert not s2.state["penalties"][B] and s2.state["seats"][B]["miscues"] == 0
    # resume at 75 s moves the 60 s move deadline to 105 s
    m = opened()
    from games.fencing import flow
    m.state["control"] = A
    flow.set_step(m.state, "move", 0, "move", A, piece="BK")
    assert m.step["deadline"] == 60_000
    key = ENGINE.to_act(m.state)[0].key
    m.act(None, {"type": "resume"}, 75.0)
    wait = ENGINE.to_act(m.state)[0]
    assert m.step["deadline"] == 105_000 and wait.key != key and wait.timeout == 31.0


def finish_bumper_until_stamps(t: Table) -> None:
    from games.fencing import flow
    events: list = []
    flow.bumper_won(t.state, A, "build", 100_000, events)
    t.act(None, {"type": "expire", "timeout": True}, 150.0)
    assert t.step["kind"] == "stamp" and t.step["which"] == "close"
