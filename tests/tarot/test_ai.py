"""The Conference / League computer player (games/tarot/ai.py): it sees only its seat's view
(a hidden card changed leaves its view and its choice alone), it always plays legally over
seeded games in every mode, it plays like a card player (wins cheaply, dumps low, feeds its
partner, saves honours, escapes with the Fool), and a computer pair beats a random pair
(a fixed-seed floor against regressions)."""

from __future__ import annotations

import collections
import json
import random
from typing import Any

import pytest

from games.computer import Asked, decision_rng
from games.tarot import hand as hands
from games.tarot.ai import POLICY, choose_call, choose_discard
from games.tarot.cards import DECK
from games.tarot.engine import TarotEngine
from tests.computers import Decision, assert_beats_random, versus_random
from tests.secrecy import RNG_SECRETS, alternatives, get, put

ENGINE = TarotEngine()
NOW = 2_000.0


def cards(text: str) -> list[str]:
    return text.split()


def ask(state: dict[str, Any], seat: int, rng_seed: int = 1) -> dict[str, Any]:
    keys = tuple(w.key for w in ENGINE.to_act(state) if w.seat == seat)
    return POLICY.choose(ENGINE.view(state, seat), Asked(seat, keys, NOW), random.Random(rng_seed))


# ----- (1) it sees only its view ----------------------------------------------------------------
def decision_states(games: int = 3) -> list[Decision]:
    """States where a computer seat is awaited (discards, plays at every point of a trick,
    in classic, League and Gallowglass), from the first hand of seeded games of the shared
    computer-vs-random playout (tests/computers.py): every discard and a fifth of the rest."""
    variants: list[dict[str, Any]] = [{}, {"mode": "league", "gallowglass": True}, {"allegiances": True}]
    found: list[Decision] = []
    for seed in range(games):
        found += versus_random(
            ENGINE, POLICY, seed, 4, {0, 1}, variants[seed % len(variants)], salt=0, keep=400,
            sample=lambda _state, wait, chooser: chooser.random() < 0.2 or wait.key.startswith("discard"),
            until=lambda state: state["hand_no"] > 0).samples
    return found


def test_the_choice_depends_on_the_view_alone_and_no_hidden_card_changes_it() -> None:
    checked: collections.Counter[str] = collections.Counter()
    for sample in decision_states():
        state, version, seat = sample.state, sample.version, sample.seat
        keys = tuple(w.key for w in ENGINE.to_act(state) if w.seat == seat)
        view = ENGINE.view(state, seat)
        asked = Asked(seat, keys, NOW)
        action = POLICY.choose(json.loads(json.dumps(view)), asked, decision_rng(5, version, seat))
        declared = [*RNG_SECRETS, *ENGINE.secrets(state)]
        found: dict[str, list[Any]] = {}
        for secret in declared:
            value = get(state, secret.path)
            if value is not None and not isinstance(value, dict | list):
                found.setdefault(secret.pool, []).append(value)
        others = [s for s in declared if s.owner != seat and get(state, s.path) is not None]
        for secret in random.Random(version).sample(others, min(12, len(others))):
            for value in alternatives(ENGINE, state, secret, found)[:2]:
                changed = json.loads(json.dumps(state))
                put(changed, secret.path, value)
                other = ENGINE.view(changed, seat)
                assert other == view, secret.path
                assert POLICY.choose(other, asked, decision_rng(5, version, seat)) == action, secret.path
                checked[secret.pool] += 1
    assert {"card", "rng"} <= set(checked), checked


def test_a_seat_sees_the_table_only_while_it_must_play() -> None:
    state = ENGINE.new_game(4, 3, {})
    dealer = state["hand"]["dealer"]
    state, _ = ENGINE.apply(state, dealer, {"type": "discard", "timeout": True}, NOW)
    mover = ENGINE.view(state, None)["turn"]
    assert "table" in ENGINE.view(state, mover)
    assert all("table" not in ENGINE.view(state, s) for s in range(4) if s != mover)


# ----- (2) always legal -----------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"mode": "league"}, {"gallowglass": True},
                                     {"allegiances": True, "allegiance_trumps_score": True}])
def test_every_choice_is_legal_over_seeded_games(options: dict[str, Any]) -> None:
    """Computers in every seat; a few timed-out waits call AFK votes the computers answer."""
    for seed in range(2):
        run = versus_random(ENGINE, POLICY, seed, 4, {0, 1, 2, 3}, options, salt=0, afk=0.04, limit=2_000)
        assert ENGINE.outcome(run.final) is not None


def test_it_calls_an_allegiance_it_may_call_and_votes_to_go_on() -> None:
    state = ENGINE.new_game(4, 1, {"allegiances": True})
    state["first_dealer"] = 0
    hands.start_hand(state, deck=list(DECK))
    hand = state["hand"]
    hand["phase"], hand["window"] = "window", {"ace": "SW-A", "seat": 3, "trick": 0, "passed": False}
    hand["hands"][2].append("BA-A")
    action = POLICY.choose(ENGINE.view(state, 2), Asked(2, (), NOW), random.Random(0))
    assert action in ENGINE.legal_actions(state, 2) and action["call"] != "pass"
    assert choose_call(["SW-K", "BA-Q", "CU-2"], "SW-A") == "ours"
    assert choose_call(["CU-K", "CO-Q", "SW-2"], "SW-A") == "yours"
    state = ENGINE.new_game(4, 1, {})
    state["vote"] = {"seat": 1, "votes": {}}
    keys = tuple(w.key for w in ENGINE.to_act(state) if w.seat == 0)
    assert POLICY.choose(ENGINE.view(state, 0), Asked(0, keys, NOW), random.Random(0)) == \
        {"type": "vote", "vote": "continue"}


def test_the_dealer_banks_points_makes_voids_and_names_no_mercenary_suit() -> None:
    held = "T05 T06 CU-K CU-Q CU-2 CO-C CO-3 CO-4 CO-5 SW-A SW-2 SW-3 SW-4 SW-5 BA-2 BA-3 BA-4 BA-5 BA-6 BA-7 BA-8"
    state = ENGINE.new_game(4, 1, {"gallowglass": True})
    state["first_dealer"] = 0
    hands.start_hand(state, deck=list(DECK))
    state["hand"]["hands"][0] = cards(held)  # only its own hand matters to the dealer's choice
    assert sorted(ask(state, 0)["cards"]) == ["CO-C", "CU-Q"]  # 7 points banked
    state, _ = ENGINE.apply(state, 0, ask(state, 0), NOW)
    assert ask(state, 0) == {"type": "nominate", "suit": "none"}
    forced = {"hand": cards("T02 T03 T04 CU-K CO-K SW-K BA-K CU-5"),
              "discard_options": cards("T02 T03 T04 CU-5"), "discard_trumps": 1}
    assert choose_discard(forced) == ["CU-5", "T02"]


# ----- (3) it plays like a card player ---------------------------------------------------------
def position(*, seat: int, mine: list[str], plays: list[tuple[int, str]], leader: int,
             past: list[tuple[int, list[tuple[int, str]], int]] = (), **options: Any) -> dict[str, Any]:
    """A classic hand (dealer 3) where `seat` holds `mine` and must play to a trick `leader`
    began with `plays`, after the complete tricks `past` ((leader, plays, winner)). The other
    hands get the remaining cards, as many as the play so far leaves them."""
    state = ENGINE.new_game(4, 1, options)
    state["first_dealer"] = 3
    hands.start_hand(state, deck=list(DECK))
    hand = state["hand"]
    used = set(mine) | {c for _s, c in plays} | {c for _l, ps, _w in past for _s, c in ps}
    rest = iter([c for c in DECK if c not in used])
    sizes = {s: len(mine) - (1 if any(p == s for p, _c in plays) else 0) for s in range(4)}
    if seat not in {p for p, _c in plays}:
        sizes[seat] = len(mine)
    hand["hands"] = [list(mine) if s == seat else [next(rest) for _ in range(sizes[s])] for s in range(4)]
    hand["discard"] = [next(rest), next(rest)]
    hand["phase"] = "play"
    hand["tricks"] = [{"leader": lead, "plays": [[s, c, False] for s, c in ps], "winner": won, "period": 0}
                      for lead, ps, won in past]
    if plays:
        hand["tricks"].append({"leader": leader, "plays": [[s, c, False] for s, c in plays],
                               "winner": None, "period": 0})
    hand["lead"] = leader
    assert ENGINE.view(state, None)["turn"] == seat
    return state


def chosen(state: dict[str, Any], seat: int = 0) -> str:
    action = ask(state, seat)
    assert action["type"] == "play"
    ENGINE.apply(state, seat, action, NOW)  # legal
    return str(action["card"])


def test_it_wins_a_trick_with_its_cheapest_winning_trump() -> None:
    """Last to play, void in Cups: the lowest trump that beats the opponent's T08."""
    state = position(seat=0, mine=cards("T03 T10 T17 T21 SW-2"), leader=1,
                     plays=[(1, "CU-2"), (2, "CU-K"), (3, "T08")])
    assert chosen(state) == "T10"


def test_it_dumps_its_lowest_card_when_it_cannot_win() -> None:
    state = position(seat=0, mine=cards("CU-3 CU-V CU-C SW-K"), leader=1,
                     plays=[(1, "CU-2"), (2, "CU-K"), (3, "CU-5")])
    assert chosen(state) == "CU-3"
    state = position(seat=0, mine=cards("CO-K SW-2 BA-Q"), leader=1,  # void in Cups and trumps
                     plays=[(1, "CU-2"), (2, "CU-9"), (3, "T04")])
    assert chosen(state) == "SW-2"


FILL = cards("T02 T05 T07 T09 T11 SW-2 SW-3 SW-4 SW-5 BA-2 BA-3 BA-4 BA-5 BA-6")


def test_second_hand_plays_low_and_third_hand_plays_high() -> None:
    """Second, after an opponent's lead, when the opponent playing last showed a void in the
    suit (it will trump): low, not the Queen. Third, with only the partner still to play, the
    King takes the trick."""
    void = [(3, [(3, "CU-3"), (0, "CU-5"), (1, "CU-6"), (2, "T03")], 2)]  # seat 2 trumped Cups
    second = position(seat=0, mine=["CU-2", "CU-Q", *FILL], leader=3, plays=[(3, "CU-4")], past=void)
    assert chosen(second) == "CU-2"
    third = position(seat=0, mine=["CU-4", "CU-K", *FILL], leader=2, plays=[(2, "CU-3"), (3, "CU-8")])
    assert chosen(third) == "CU-K"


def test_it_feeds_points_to_a_trick_its_partner_holds() -> None:
    state = position(seat=0, mine=cards("CU-2 CU-Q SW-4"), leader=1,
                     plays=[(1, "CU-K"), (2, "CU-5"), (3, "CU-6")])
    assert chosen(state) == "CU-Q"
    juggler = position(seat=0, mine=cards("T01 T06 T19 SW-4"), leader=1,  # void in Cups, last: it is safe
                       plays=[(1, "CU-K"), (2, "CU-3"), (3, "CU-6")])
    assert chosen(juggler) == "T01"


def test_it_does_not_overtake_its_partner_needlessly() -> None:
    """The partner's T12 holds the trick: last to play, the lowest trump, not T13 or T20."""
    last = position(seat=0, mine=cards("T05 T13 T20 SW-4"), leader=1,
                    plays=[(1, "T12"), (2, "T07"), (3, "T09")])
    assert chosen(last) == "T05"
    follows = position(seat=0, mine=cards("CU-4 CU-V SW-4"), leader=1,  # the partner's King holds it
                       plays=[(1, "CU-K"), (2, "CU-2"), (3, "CU-3")])
    assert chosen(follows) == "CU-V"  # the Valet's 2 points go to the partner, who keeps the lead


def test_it_keeps_honours_out_of_tricks_the_opponents_take() -> None:
    state = position(seat=0, mine=cards("T01 T04 SW-4"), leader=1,
                     plays=[(1, "T02"), (2, "T15"), (3, "T03")])
    assert chosen(state) == "T04"


def test_it_escapes_a_lost_trick_with_the_fool() -> None:
    juggler = position(seat=0, mine=cards("FOOL T01 SW-4"), leader=1,
                       plays=[(1, "T02"), (2, "T15"), (3, "T03")])
    assert chosen(juggler) == "FOOL"
    queen = position(seat=0, mine=cards("FOOL CU-Q SW-4"), leader=1,
                     plays=[(1, "CU-2"), (2, "CU-K"), (3, "CU-5")])
    assert chosen(queen) == "FOOL"
    held = position(seat=0, mine=cards("FOOL CU-3 SW-4"), leader=1,  # partner holds it: no escape needed
                    plays=[(1, "CU-K"), (2, "CU-5"), (3, "CU-6")])
    assert chosen(held) == "CU-3"


def test_it_leads_a_sure_winner_rather_than_the_fool() -> None:
    state = position(seat=0, mine=cards("FOOL T21 CU-2 SW-4"), leader=0, plays=[])
    assert chosen(state) != "FOOL"


# ----- (4) it beats random play ------------------------------------------------------------------
def test_a_computer_pair_beats_a_random_pair() -> None:
    assert_beats_random(ENGINE, POLICY, games=24, first_seed=700, floor=0.7)
