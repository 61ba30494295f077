"""Conference / League: the acceptance scenarios of the spec (§6), rule by rule."""

from __future__ import annotations

from typing import Any

import pytest

from games.core import IllegalAction
from games.tarot import hand as hands
from games.tarot.cards import DECK, points, trump
from games.tarot.deal import deal, default_discard, league_pack, verify_discard
from games.tarot.engine import TarotEngine, conference_on
from games.tarot.scoring import Rules, card_value, settle, swing
from games.tarot.tricks import legal_cards, winner

ENGINE = TarotEngine()


def game(dealer: int = 0, deck: list[str] | None = None, **options: Any) -> dict[str, Any]:
    """A game whose hand 1 is dealt by `dealer` from `deck` (canonical order by default)."""
    state = ENGINE.new_game(4, 1, options)
    state["first_dealer"] = dealer
    league = state["options"]["mode"] == "league"
    hands.start_hand(state, deck=deck if deck is not None else (league_pack()[0] if league else list(DECK)))
    return state


def act(state: dict[str, Any], seat: int | None, action: dict[str, Any]) -> dict[str, Any]:
    new, _events = ENGINE.apply(state, seat, action, 0.0)  # type: ignore[arg-type]
    return new


def cards(text: str) -> list[str]:
    return text.split()


def test_1_the_deck_has_78_cards_and_149_points() -> None:
    assert len(DECK) == len(set(DECK)) == 78
    assert sum(points(c) for c in DECK) == 130
    assert 130 + 19 == 149


def test_2_canonical_deal_dealer_0() -> None:
    dealt = deal(list(DECK), 0)
    assert sorted(map(len, dealt)) == [19, 19, 19, 21] and len(dealt[0]) == 21
    assert dealt[0] == cards("T12 T13 T14 T15 CU-10 CU-V CU-C CU-Q CU-K SW-2 SW-3 SW-4 SW-5 SW-6 "
                             "BA-8 BA-9 BA-10 BA-V BA-C BA-Q BA-K")
    assert dealt[1] == cards("FOOL T01 T02 T03 T16 T17 T18 T19 T20 CO-A CO-2 CO-3 CO-4 CO-5 "
                             "SW-7 SW-8 SW-9 SW-10 SW-V")
    assert sorted(c for h in dealt for c in h) == sorted(DECK)


def test_3_discard_legality() -> None:
    state = game()
    dealer_hand = state["hand"]["hands"][0]
    with pytest.raises(IllegalAction, match="King") as king:
        verify_discard(dealer_hand, ["CU-K", "SW-2"], allegiances=False)
    assert king.value.rule == "R4"
    with pytest.raises(IllegalAction, match="trump"):
        verify_discard(dealer_hand, ["T12", "SW-2"], allegiances=False)
    for wrong in ({"cards": ["SW-2"]}, {"cards": ["SW-2", "SW-2"]}, {"cards": "SW-2"}, {"cards": ["CO-A", "SW-2"]}):
        with pytest.raises(IllegalAction):
            act(state, 0, {"type": "discard", **wrong})
    with pytest.raises(IllegalAction, match="dealer"):
        act(state, 1, {"type": "discard", "cards": ["SW-7", "SW-8"]})
    after = act(state, 0, {"type": "discard", "cards": ["CU-10", "SW-2"]})
    assert after["hand"]["discard"] == ["CU-10", "SW-2"] and len(after["hand"]["hands"][0]) == 19
    assert ENGINE.view(after, None)["tricks_won"] == [0, 0]
    breakdown = settle(after["hand"], Rules())
    assert breakdown["card_points"][0] == 2 and breakdown["tricks"] == [0, 0]  # two captured cards


FORCED = cards("CU-K CO-K SW-K BA-K T01 T21 FOOL T02 T03 T04 T05 T06 T07 T08 T09 T10 T11 T12 T13 T14 CU-5")


def test_4_forced_trump_discard() -> None:
    verify_discard(FORCED, ["CU-5", "T02"], allegiances=False)
    for wrong in (["T02", "T03"], ["CU-5", "CO-K"]):
        with pytest.raises(IllegalAction):
            verify_discard(FORCED, wrong, allegiances=False)
    assert sorted(default_discard(FORCED, allegiances=False)) == ["CU-5", "T02"]


def discarded(**options: Any) -> dict[str, Any]:
    """Scenario 2 after the dealer discards CU-10 and SW-2: seat 1 (eldest) leads."""
    state = act(game(**options), 0, {"type": "discard", "cards": ["CU-10", "SW-2"]})
    if options.get("gallowglass"):
        state = act(state, 0, {"type": "nominate", "suit": "none"})
    return state


def legal(state: dict[str, Any], seat: int) -> set[str]:
    return {a["card"] for a in ENGINE.legal_actions(state, seat)}


def test_5_follow_suit_and_the_winner_leads() -> None:
    state = discarded()
    assert ENGINE.view(state, None)["turn"] == 1
    with pytest.raises(IllegalAction, match="turn") as early:
        act(state, 2, {"type": "play", "card": "SW-K"})
    assert early.value.seats == {"turn": 1}
    state = act(state, 1, {"type": "play", "card": "SW-7"})
    assert legal(state, 2) == {"SW-C", "SW-Q", "SW-K"}
    with pytest.raises(IllegalAction, match="follow suit"):
        act(state, 2, {"type": "play", "card": "T04"})
    state = act(state, 2, {"type": "play", "card": "SW-K"})
    assert legal(state, 3) == {"SW-A"}
    state = act(state, 3, {"type": "play", "card": "SW-A"})
    assert legal(state, 0) == {"SW-3", "SW-4", "SW-5", "SW-6"}
    state = act(state, 0, {"type": "play", "card": "SW-6"})
    view = ENGINE.view(state, None)
    assert view["last_trick"]["winner"] == 2 and view["turn"] == 2 and view["tricks_won"] == [0, 1]


def test_6_must_trump_without_overtrumping() -> None:
    plays = [[1, "CU-3", False], [2, "T10", False]]
    assert set(legal_cards(cards("T05 T19 BA-2"), plays, None)) == {"T05", "T19"}
    assert winner([*plays, [3, "T05", False], [0, "CU-K", False]]) == 2


def test_7_void_in_suit_and_trumps() -> None:
    plays = [[1, "CU-3", False]]
    assert set(legal_cards(cards("BA-K CO-2"), plays, None)) == {"BA-K", "CO-2"}
    assert winner([*plays, [2, "BA-K", False], [3, "CU-2", False], [0, "CO-2", False]]) == 1


def test_8_fool_led_and_kept_by_its_team() -> None:
    state = discarded()
    state = act(state, 1, {"type": "play", "card": "FOOL"})
    assert len(legal(state, 2)) == 19  # the next card sets the suit: anything goes
    state = act(state, 2, {"type": "play", "card": "CO-6"})
    assert legal(state, 3) == {"CO-V", "CO-C", "CO-Q", "CO-K"}
    state = act(state, 3, {"type": "play", "card": "CO-K"})
    assert legal(state, 0) == {"T12", "T13", "T14", "T15"}
    state = act(state, 0, {"type": "play", "card": "T13"})
    assert state["hand"]["tricks"][0]["winner"] == 0
    breakdown = settle(state["hand"], Rules())
    assert breakdown["payment"] is None  # the partner won: nothing is paid
    assert breakdown["card_points"][0] == 2 + 5 + 1 + 1 + 5  # discards, FOOL, T13, CO-6, CO-K


def fool_hand(a_captures: list[str], *, dealer: int = 0, periods: Any = None) -> dict[str, Any]:
    """Team B (seat 2) wins the trick to which A's seat 1 played the Fool; A captured
    `a_captures` in a trick of its own (or nothing)."""
    tricks = [{"leader": 2, "plays": [[2, "BA-9", False], [3, "BA-4", False], [0, "BA-5", False],
                                       [1, "FOOL", False]], "winner": 2, "period": 0}]
    if a_captures:
        tricks.append({"leader": 0, "plays": [[0, c, False] for c in a_captures], "winner": 0, "period": 0})
    return {"dealer": dealer, "discard": [], "g_suit": None, "tricks": tricks,
            "fool": {"owner": 1, "trick": 0}, "periods": periods or [None]}


def test_9_the_fool_pays_the_cheapest_card_or_is_surrendered() -> None:
    paid = settle(fool_hand(["CU-2", "CU-K"], dealer=2), Rules())
    assert paid["payment"]["card"] == "CU-2" and paid["payment"]["to"] == 1
    allied = settle(fool_hand(["SW-K", "CU-2"], dealer=2, periods=[["round", "long"]]), Rules(allegiances=True))
    assert allied["payment"]["card"] == "CU-2"  # SW-K costs A nothing but gives B five
    nothing = settle(fool_hand([], dealer=2), Rules())
    assert nothing["payment"]["card"] == "FOOL" and nothing["card_points"][0] == 0
    assert nothing["card_points"][1] == 1 + 1 + 1 + 5  # BA-9, BA-4, BA-5 and the Fool


def test_10_settlement_and_a_drawn_game() -> None:
    assert swing([80, 69], 0, Rules()) == [11, -11]
    assert swing([80, 69], 1, Rules()) == [11, -11]
    state = game()
    state.update(over=True, points=[0, 0])
    outcome = ENGINE.result(state)
    assert outcome is not None and outcome.ranks == (0, 0, 0, 0) and outcome.reason == "draw"
    state["points"] = [11 - 11, 5 - 5]
    assert ENGINE.result(state).ranks == (0, 0, 0, 0)
    state["points"] = [6, -6]
    won = ENGINE.result(state)
    assert won.ranks == (0, 0, 1, 1) and won.teams == ((0, 1), (2, 3))


def test_11_league_deal_and_direction() -> None:
    state = game(mode="league")
    dealt = state["hand"]["hands"]
    assert len(dealt[0]) == 21 and trump(21) in dealt[0] and len(dealt[1]) == 19 and trump(20) in dealt[1]
    assert all(trump(20) not in dealt[s] and trump(21) not in dealt[s] for s in (2, 3))
    assert sorted(c for h in dealt for c in h) == sorted(DECK)
    assert play_order(state) == [0, 3, 2, 1]
    assert play_order(game(dealer=1, mode="league")) == [1, 2, 3, 0]


def play_order(state: dict[str, Any]) -> list[int]:
    dealer = state["hand"]["dealer"]
    state = act(state, dealer, {"type": "discard", "cards": default_discard(
        state["hand"]["hands"][dealer], allegiances=False)})
    order = []
    for _ in range(4):
        seat = ENGINE.view(state, None)["turn"]
        order.append(seat)
        state = act(state, seat, {"type": "play", "timeout": True})
    return order


def test_12_league_leads_after_the_catcher_wins() -> None:
    state = game(mode="league")
    hand = state["hand"]
    hand["phase"], hand["discard"] = "play", ["CU-2", "CU-3"]
    hand["tricks"] = [{"leader": 0, "plays": [], "winner": 1, "period": 0} for _ in range(3)]
    hand["hands"] = [cards("CU-9 T01"), cards("CU-K T02"), cards("CU-5 T03"), cards("CU-4 T04")]
    for seat, card in ((0, "CU-9"), (3, "CU-4"), (2, "CU-5"), (1, "CU-K")):  # trick 4
        state = act(state, seat, {"type": "play", "card": card})
    assert state["hand"]["tricks"][3]["winner"] == 1 and ENGINE.view(state, None)["turn"] == 0
    for seat, card in ((0, "T01"), (3, "T04")):
        state = act(state, seat, {"type": "play", "card": card})
    for seat, card in ((2, "T03"), (1, "T02")):
        state = act(state, seat, {"type": "play", "card": card})
    assert state["hand"]["tricks"][4]["winner"] == 3
    order = []
    state["hand"]["hands"] = [["BA-2"], ["BA-3"], ["BA-4"], ["BA-5"]]
    for _ in range(4):
        seat = ENGINE.view(state, None)["turn"]
        order.append(seat)
        state = act(state, seat, {"type": "play", "timeout": True})
    assert order == [3, 2, 1, 0]


def test_13_an_allegiance_call_scores_back_to_the_start() -> None:
    state = discarded(allegiances=True)
    state = act(state, 1, {"type": "play", "card": "SW-7"})
    state = act(state, 2, {"type": "play", "card": "SW-K"})
    state = act(state, 3, {"type": "play", "card": "SW-A"})
    [wait] = ENGINE.waits(state)
    assert wait.seat is None and wait.timeout == 15
    assert ENGINE.view(state, None)["window"] == {"ace": "SW-A", "seat": 3}
    assert "can_call" in ENGINE.view(state, 2) and "can_call" not in ENGINE.view(state, 3)
    with pytest.raises(IllegalAction, match="window"):
        act(state, 0, {"type": "play", "card": "SW-6"})
    with pytest.raises(IllegalAction):
        act(state, 3, {"type": "call", "call": "ours"})
    state = act(state, 2, {"type": "call", "call": "ours"})
    assert state["hand"]["phase"] == "play" and state["hand"]["periods"] == [["round", "long"]]
    assert ENGINE.view(state, None)["calls"][0]["shown"] == "BA-A"
    state = act(state, 0, {"type": "play", "card": "SW-6"})
    breakdown = settle(state["hand"], Rules(allegiances=True))
    assert breakdown["card_points"] == [1, 8] and breakdown["tricks"] == [0, 1]
    assert card_value("SW-2", 0, ["round", "long"], False, Rules(allegiances=True)) == 0


def test_14_a_dead_pair_keeps_the_same_window_and_then_opens_none() -> None:
    state = discarded(allegiances=True)
    state = act(state, 1, {"type": "play", "card": "CO-A"})
    [wait] = ENGINE.waits(state)
    assert wait.seat is None and wait.timeout == 15  # no holder on team A: same length, no prompt
    assert all("can_call" not in ENGINE.view(state, s) for s in range(4))
    state = act(state, None, {"type": "close", "timeout": True})
    state = act(state, 2, {"type": "play", "card": "CO-6"})
    state = act(state, 3, {"type": "play", "card": "CO-K"})
    state = act(state, 0, {"type": "play", "card": "T12"})
    state = act(state, 0, {"type": "play", "card": "CU-V"})
    state = act(state, 1, {"type": "play", "card": "T16"})
    state = act(state, 2, {"type": "play", "card": "CU-A"})
    assert state["hand"]["phase"] == "play"  # CO-A is visibly gone: no window


def test_15_switching_allegiance_scores_each_pile_by_its_period() -> None:
    hand = {"dealer": 0, "discard": [], "g_suit": None, "fool": None,
            "periods": [["round", "long"], ["long", "round"]],
            "tricks": [{"leader": 0, "plays": [[0, c, False] for c in p], "winner": w, "period": per}
                       for p, w, per in ((["CU-K", "CO-Q", "SW-K", "T21"], 0, 0), (["BA-K", "CU-C"], 2, 0),
                                         (["SW-Q", "BA-V", "CU-3"], 0, 1), (["CO-K", "SW-2"], 2, 1))]}
    breakdown = settle(hand, Rules(allegiances=True))
    assert breakdown["card_points"] == [9 + 6, 5 + 5]
    totals = [9 + 6 + 10, 5 + 5 + 9]
    assert totals == [25, 19] and swing(totals, 0, Rules(allegiances=True)) == [6, -6]


def test_16_gallowglass_substitutes_and_voids_the_trick() -> None:
    plays = [[1, "CU-7", False]]
    assert set(legal_cards(cards("CU-K CU-V SW-7 SW-2"), plays, "SW")) == {"CU-K", "CU-V", "SW-7", "SW-2"}
    assert set(legal_cards(cards("CU-6 CU-Q SW-7"), plays, "SW")) == {"CU-6", "CU-Q"}
    trick = [*plays, [2, "SW-7", True], [3, "CU-5", False], [0, "CU-6", False]]
    assert winner(trick) == 2
    hand = {"dealer": 0, "discard": [], "g_suit": "SW", "fool": None, "periods": [None],
            "tricks": [{"leader": 1, "plays": trick, "winner": 2, "period": 0}]}
    assert settle(hand, Rules(g_suit="SW"))["totals"] == [0, 1]
    queen = [*plays, [2, "SW-7", True], [3, "CU-5", False], [0, "CU-Q", False]]
    assert winner(queen) == 0
    hand["tricks"] = [{"leader": 1, "plays": queen, "winner": 0, "period": 0}]
    assert settle(hand, Rules(g_suit="SW"))["totals"] == [1 + 1 + 4 + 1, 0]  # SW-7 worth nothing


def test_16_gallowglass_through_the_engine_marks_the_card_as_led() -> None:
    state = game(gallowglass=True)
    state = act(state, 0, {"type": "discard", "cards": ["CU-10", "SW-2"]})
    assert [w.key for w in ENGINE.waits(state)] == ["nominate-0"]
    state = act(state, 0, {"type": "nominate", "suit": "SW"})
    hand = state["hand"]
    hand["hands"][1].append("CU-7")
    hand["hands"][2] = cards("CU-K CU-V SW-7 SW-2")
    state = act(state, 1, {"type": "play", "card": "CU-7"})
    assert ENGINE.view(state, 2)["as_led"] == ["SW-2", "SW-7"]
    state = act(state, 2, {"type": "play", "card": "SW-7"})
    assert state["hand"]["tricks"][0]["plays"][1] == [2, "SW-7", True]


def test_17_the_gallowglass_contract() -> None:
    assert swing([70, 55], 0, Rules(g_suit="SW")) == [-9, 9]
    assert swing([80, 45], 0, Rules(g_suit="SW")) == [11, -11]
    assert 149 - sum(points(c) for c in DECK if c.startswith("SW")) == 125


def test_18_the_timer_plays_the_cheapest_card_and_three_timeouts_call_a_vote() -> None:
    state = discarded()
    state["hand"]["hands"][1].append("CU-7")
    state = act(state, 1, {"type": "play", "card": "CU-7"})  # Cups led
    state["hand"]["hands"][2] = cards("CU-K CU-3 FOOL")
    after = act(state, 2, {"type": "play", "timeout": True})
    assert after["hand"]["tricks"][0]["plays"][1][1] == "CU-3"
    state = discarded()
    for _ in range(3):  # everyone else plays; seat 2 times out three times in a row
        state = drive_until(state, 2)
        state = act(state, 2, {"type": "play", "timeout": True})
    assert state["vote"] == {"seat": 2, "votes": {}} and state["afk"]["flagged"][2]
    assert {w.seat for w in ENGINE.waits(state)} == {0, 1, 3}
    with pytest.raises(IllegalAction, match="paused"):
        act(state, ENGINE.view(state, None)["turn"] or 0, {"type": "play", "timeout": True})
    state = act(state, 0, {"type": "vote", "vote": "abandon"})
    with pytest.raises(IllegalAction, match="already voted"):
        act(state, 0, {"type": "vote", "vote": "abandon"})
    state = act(state, 3, {"type": "vote", "vote": "abandon"})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "afk" and outcome.ranks == (0, 0, 1, 1)
    assert outcome.unrated == (3,)


def test_18_continue_shortens_the_flagged_players_timer_until_they_play() -> None:
    state = discarded()
    for _ in range(3):
        state = drive_until(state, 2)
        state = act(state, 2, {"type": "play", "timeout": True})
    state = act(state, 0, {"type": "vote", "vote": "continue"})
    state = act(state, 1, {"type": "vote", "vote": "continue"})
    assert state["vote"] is None
    state = drive_until(state, 2)
    assert ENGINE.waits(state)[0].timeout == 10
    card = sorted(legal(state, 2))[0]
    state = act(state, 2, {"type": "play", "card": card})
    state = drive_until(state, 2)
    assert ENGINE.waits(state)[0].timeout == 90 and not state["afk"]["flagged"][2]


def drive_until(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Everyone else plays their cheapest legal card until it is `seat`'s turn."""
    while ENGINE.view(state, None)["turn"] != seat:
        mover = ENGINE.view(state, None)["turn"]
        card = sorted(legal(state, mover))[0]
        state = act(state, mover, {"type": "play", "card": card})
    return state


def test_19_conference_defaults_by_mode() -> None:
    base = {"mode": "classic", "conference": "auto", "allegiances": False}
    assert conference_on(base)
    assert not conference_on({**base, "mode": "league"})
    assert not conference_on({**base, "allegiances": True})
    assert conference_on({**base, "mode": "league", "conference": "on"})
    assert not conference_on({**base, "conference": "off"})


def test_20_allegiances_ban_discarding_aces() -> None:
    state = game(allegiances=True)
    state["hand"]["hands"][0].append("CU-A")
    with pytest.raises(IllegalAction, match="Aces"):
        act(state, 0, {"type": "discard", "cards": ["CU-A", "SW-2"]})
