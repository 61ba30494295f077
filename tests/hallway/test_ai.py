"""The Two Fat Dudes computer player (games/hallway/ai.py): it decides from its seat's view
alone (the dice to come and the roll-off's pending press change nothing), every answer it
gives is legal over many seeded games, it uses the Edge and haggles by expected points, and
it beats a random legal player (a fixed-seed floor against regressions)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from games.computer import Asked, decision_rng
from games.core import State
from games.hallway import ENGINE
from games.hallway.ai import POLICY, edge_value, swap_value
from games.hallway.state import OFFER_LIMIT
from tests.computers import Versus, assert_beats_random, versus_random
from tests.hallway.support import BLUE, RED, act, build, negotiating
from tests.secrecy import RNG_SECRETS, alternatives, get, put


def asked(state: State, seat: int, now: float = 0.0) -> Asked:
    return Asked(seat, tuple(w.key for w in ENGINE.to_act(state) if w.seat == seat), now)


def choose(state: State, seat: int, rng_seed: int = 1) -> dict[str, Any]:
    return POLICY.choose(ENGINE.view(state, seat), asked(state, seat), random.Random(rng_seed))


def game(seed: int, computers: set[int], keep: int = 0) -> Versus:
    """One seeded game of the shared computer-vs-random playout (tests/computers.py): the
    computers act 2 s after the last step; up to `keep` decision states are kept, every one
    outside the turn phase and a fifth of the rolls."""
    return versus_random(ENGINE, POLICY, seed, 2, computers, salt=0x3C, pace=2.0, keep=keep,
                         sample=lambda state, _wait, chooser: state["phase"] != "turn" or chooser.random() < 0.2)


# ----- (1) it sees only its view -----------------------------------------------------------------
def test_the_choice_depends_on_the_view_alone_and_no_hidden_item_changes_it() -> None:
    phases: Counter[str] = Counter()
    for seed in range(10):
        for sample in game(seed, {seed % 2}, keep=30).samples:
            state, seat, version = sample.state, sample.seat, sample.version
            view = ENGINE.view(state, seat)
            action = POLICY.choose(view, asked(state, seat), decision_rng(seed, version, seat))
            declared = [*RNG_SECRETS, *ENGINE.secrets(state)]
            found: dict[str, list[Any]] = {}
            for secret in declared:
                value = get(state, secret.path)
                if value is not None and not isinstance(value, dict | list):
                    found.setdefault(secret.pool, []).append(value)
            for secret in declared:
                if secret.owner == seat:
                    continue
                for value in alternatives(ENGINE, state, secret, found)[:2]:
                    changed = json.loads(json.dumps(state))
                    put(changed, secret.path, value)
                    other = ENGINE.view(changed, seat)
                    assert other == view, f"{secret.path} shows in seat {seat}'s view"
                    assert POLICY.choose(other, asked(changed, seat), decision_rng(seed, version, seat)) == action
            phases[state["phase"]] += 1
    assert {"rolloff", "turn", "negotiate", "edge"} <= set(phases), phases


def test_the_dice_to_come_change_no_decision() -> None:
    """The whole future of the die (the RNG) swapped: same view, same choice."""
    for sample in game(11, {0}, keep=40).samples:
        state, seat, version = sample.state, sample.seat, sample.version
        changed = json.loads(json.dumps(state))
        changed["rng"] = {"seed": changed["rng"]["seed"] + 12345, "n": changed["rng"]["n"] + 7}
        assert ENGINE.view(changed, seat) == ENGINE.view(state, seat)
        assert choose(changed, seat, version) == choose(state, seat, version)


# ----- (2) always legal ------------------------------------------------------------------------------
def test_every_choice_is_legal_with_computers_in_both_seats() -> None:
    reasons: Counter[str] = Counter()
    for seed in range(40):
        run = game(300 + seed, {RED, BLUE})
        reasons[ENGINE.outcome(run.final).reason] += 1
        assert "afk" not in {e.type for e in run.events}
    assert sum(reasons.values()) == 40


def test_every_choice_is_legal_against_a_random_player() -> None:
    seen: Counter[str] = Counter()
    for seed in range(60):
        run = game(500 + seed, {seed % 2})
        assert ENGINE.outcome(run.final) is not None
        seen.update(e.type for e in run.events)
    # every prompt a computer must answer came up: roll-off, turns, offers, replies, the Edge
    assert {"rolloff", "offer", "deal", "decline", "nodeal", "edge", "passed"} <= set(seen), seen


# ----- (3) sensible play ---------------------------------------------------------------------------
def test_it_rolls_when_rolling_is_all_there_is() -> None:
    assert choose(build(), RED) == {"type": "roll"}
    assert choose(ENGINE.new_game(2, 3, {}), BLUE) == {"type": "roll"}


def test_at_a_ten_point_encounter_the_edge_sends_the_other_dude_back() -> None:
    for pos in ((9, 10), (14, 15), (4, 5)):
        state = build(pos=pos, encounters=3, edge=RED, phase="edge")
        assert choose(state, RED) == {"type": "edge", "back": "you"}
        blue_holds = build(pos=pos, encounters=3, edge=BLUE, turn=BLUE, phase="edge")
        assert choose(blue_holds, BLUE) == {"type": "edge", "back": "you"}


def test_early_for_five_points_it_goes_back_itself_to_rewalk_its_good_half() -> None:
    """Red has walked its whole home half (+35 over nine spaces): walking it again is worth
    more than the 5-point fee, and Blue stays stuck in Red's half."""
    state = build(pos=(9, 10), encounters=1, edge=RED, phase="edge")
    assert choose(state, RED) == {"type": "edge", "back": "me"}
    later = build(pos=(9, 10), encounters=3, edge=RED, phase="edge")  # the fee is 10 now
    assert choose(later, RED) == {"type": "edge", "back": "you"}


def test_it_accepts_an_offer_at_least_as_good_as_no_deal_and_refuses_a_worse_one() -> None:
    pos, enc = (9, 10), 1
    no_deal = -edge_value(*pos, enc, RED, RED, RED)[0]  # as Blue sees it
    swap = -swap_value(*pos, enc, RED, RED, RED)
    fair = (no_deal - swap) / 2  # what Blue must receive for the swap to equal no deal
    assert fair > 0
    enough = int(fair) + 1
    good = negotiating(pos=pos, encounters=enc, edge=RED, offers=1,
                       pending={"maker": RED, "payer": RED, "amount": enough})
    assert choose(good, BLUE) == {"type": "accept"}
    last = negotiating(pos=pos, encounters=enc, edge=RED, offers=OFFER_LIMIT,
                       pending={"maker": RED, "payer": RED, "amount": 1})
    assert choose(last, BLUE) == {"type": "decline"}  # no counters left
    cheap = negotiating(pos=pos, encounters=enc, edge=RED, offers=1,
                        pending={"maker": RED, "payer": RED, "amount": 1})
    counter = choose(cheap, BLUE)
    assert counter["type"] == "offer" and counter["payer"] == "you" and counter["amount"] >= enough


def test_its_asks_come_down_toward_the_fair_price_as_the_haggling_goes_on() -> None:
    pos, enc = (9, 10), 1
    asks = []
    for offers in (1, 3, 5, 7, 9):
        state = negotiating(pos=pos, encounters=enc, edge=RED, offers=offers,
                            pending={"maker": RED, "payer": RED, "amount": 0})
        action = choose(state, BLUE)
        assert action["type"] == "offer" and action["payer"] == "you"
        asks.append(action["amount"])
    assert asks == sorted(asks, reverse=True) and asks[0] > asks[-1]
    no_deal = -edge_value(*pos, enc, RED, RED, RED)[0]
    swap = -swap_value(*pos, enc, RED, RED, RED)
    assert asks[-1] >= (no_deal - swap) / 2  # never below fair


def test_with_little_at_stake_it_says_no_deal_instead_of_paying_for_an_offer() -> None:
    """Encounter 2 with Red at 13 and Blue at 14: the swap and the Edge come to about the same."""
    state = negotiating(pos=(13, 14), encounters=2, edge=RED)
    assert choose(state, RED) == {"type": "nodeal"}
    assert choose(state, BLUE) == {"type": "nodeal"}


def test_with_much_at_stake_it_opens_the_haggling_itself() -> None:
    state = negotiating(pos=(9, 10), encounters=1, edge=RED)
    for seat in (RED, BLUE):
        action = choose(state, seat)
        assert action["type"] == "offer"
        act(state, seat, action)  # legal


# ----- (4) strength ------------------------------------------------------------------------------
def test_it_beats_a_random_player_most_of_the_time() -> None:
    assert_beats_random(ENGINE, POLICY, games=60, first_seed=9_000, floor=0.65)
