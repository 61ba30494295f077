"""The Table Fencing computer player (games/fencing/ai.py): it sees only its seat's view (a
hidden card, catch delay or sleeper spin changed leaves its view and its choice alone), it
answers every prompt legally and in time over seeded games, it presses races after a human
reaction time, plays for themes and for the yellow ball, and it beats two random legal
players (a fixed-seed floor against regressions)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from games.computer import Asked, decision_rng
from games.fencing import ENGINE, penalties
from games.fencing.ai import POLICY, REACTION, SNAP_AT, handout_yellow, pay
from games.fencing.ai_plan import Board
from games.fencing.region import COLOUR
from tests.computers import Versus, assert_beats_random, sometimes, versus_random
from tests.fencing.support import A, B, C, Table, opened
from tests.secrecy import RNG_SECRETS, alternatives, get, put


def asked(state: dict[str, Any], seat: int, now: float) -> Asked:
    return Asked(seat, tuple(w.key for w in ENGINE.to_act(state) if w.seat == seat), now)


def decide(table: Table, seat: int, now: float, rng_seed: int = 1) -> tuple[dict[str, Any], float]:
    """The computer's (action, delay) for `seat` now, from its view alone."""
    view = ENGINE.view(table.state, seat)
    ask = asked(table.state, seat, now)
    return (POLICY.choose(view, ask, random.Random(rng_seed)),
            POLICY.delay(view, ask, random.Random(rng_seed)))


def act(table: Table, seat: int, now: float, rng_seed: int = 1) -> dict[str, Any]:
    action, delay = decide(table, seat, now, rng_seed)
    table.act(seat, action, now + delay)
    return action


# ----- seeded games ----------------------------------------------------------------------------
def game(seed: int, computers: set[int], options: dict[str, Any] | None = None,
         keep: int = 0, own_timer: float = 0.03) -> Versus:
    """One seeded game of the shared computer-vs-random playout (tests/computers.py): the
    computers act `delay` after the last step; the game's own timers fire first `own_timer`
    of the time; up to `keep` decision states are kept (three in ten). The computer never
    types, so it never miscues."""
    run = versus_random(ENGINE, POLICY, seed, 3, computers, options, salt=0x5F, own_timer=own_timer,
                        keep=keep, sample=sometimes(0.3))
    assert not [action for _, action in run.choices if "typed" in action]
    return run


# ----- (1) it sees only its view -----------------------------------------------------------------
def test_the_choice_depends_on_the_view_alone_and_no_hidden_item_changes_it() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(3):
        for sample in game(seed, {seed % 3}, keep=40).samples:
            state, seat, version, now = sample.state, sample.seat, sample.version, sample.now
            view = ENGINE.view(state, seat)
            ask = asked(state, seat, now)
            action = POLICY.choose(view, ask, decision_rng(seed, version, seat))
            delay = POLICY.delay(view, ask, decision_rng(seed, version, seat))
            declared = [*RNG_SECRETS, *ENGINE.secrets(state)]
            found: dict[str, list[Any]] = {}
            for secret in declared:
                value = get(state, secret.path)
                if value is not None and not isinstance(value, dict | list):
                    found.setdefault(secret.pool, []).append(value)
            for secret in random.Random(version).sample(declared, min(6, len(declared))):
                for value in alternatives(ENGINE, state, secret, found)[:2]:
                    changed = json.loads(json.dumps(state))
                    put(changed, secret.path, value)
                    other = ENGINE.view(changed, seat)
                    assert other == view, f"{secret.path} shows in seat {seat}'s view"
                    assert POLICY.choose(other, ask, decision_rng(seed, version, seat)) == action
                    assert POLICY.delay(other, ask, decision_rng(seed, version, seat)) == delay
            kinds[state["step"]["kind"]] += 1
    assert {"move", "attack", "thrust", "golf"} <= set(kinds), kinds


def test_a_hidden_deck_reordered_leaves_every_decision_alone() -> None:
    """The whole future of the decks (what a cheat would most like to see) swapped."""
    for sample in game(7, {1}, keep=30).samples:
        state, seat, version, now = sample.state, sample.seat, sample.version, sample.now
        view = ENGINE.view(state, seat)
        changed = json.loads(json.dumps(state))
        for deck in changed["decks"]:
            deck.reverse()
        assert ENGINE.view(changed, seat) == view
        ask = asked(state, seat, now)
        assert (POLICY.choose(ENGINE.view(changed, seat), ask, decision_rng(7, version, seat))
                == POLICY.choose(view, ask, decision_rng(7, version, seat)))


# ----- (2) always legal, always in time ------------------------------------------------------------
def test_every_choice_is_legal_and_in_time_with_computers_in_every_seat() -> None:
    option_mixes = [{}, {"difficulty": "state", "duel_mode": "dice"}, {"difficulty": "backroads", "offroad": "off"},
                    {"direction": "ccw", "champion": 1}, {"timers": "async", "difficulty": "state"}]
    for seed, options in enumerate(option_mixes):
        run = game(100 + seed, {0, 1, 2}, options, own_timer=0.0)
        assert ENGINE.outcome(run.final).reason == "bumpers"
        assert not [e for e in run.events if e.type in ("missed", "too_late", "miscue", "refused")]


def test_every_choice_is_legal_against_random_players() -> None:
    seen: Counter[str] = Counter()
    for seed in range(8):
        options = {"difficulty": ("interstate", "state", "backroads")[seed % 3],
                   "duel_mode": "dice" if seed % 4 == 3 else "sleeper"}
        run = game(200 + seed, {seed % 3}, options)
        seen.update(e.type for e in run.events)
        assert ENGINE.outcome(run.final) is not None
        assert not [e for e in run.events if e.type in ("miscue", "refused") and e.data["seat"] == seed % 3]
    # the prompts a computer must answer all came up: races, golf, duels, the anthem
    assert {"hat", "catch", "quick_switch", "duel_snap", "anthem", "handout", "theme"} <= set(seen), seen


# ----- (3) sensible play ---------------------------------------------------------------------------
def test_races_are_pressed_after_a_human_reaction_time_and_in_time() -> None:
    t = opened()
    t.cards([5, 8], [5, 5], [5, 3])  # a triple: everyone bare-headed races to don
    t.act(A, {"type": "thrust"}, 10.0)
    assert t.step["kind"] == "hat"
    delays = []
    for n in range(20):
        action, delay = decide(t, B, 10.0, n)
        assert action == {"type": "don"}
        delays.append(delay)
    assert all(REACTION[0] <= d <= REACTION[1] for d in delays) and len(set(delays)) > 10
    act(t, B, 10.0)
    assert "too_late" not in t.kinds()


def test_a_catch_is_pressed_once_the_ball_arrives_and_before_the_window_shuts() -> None:
    t = opened(greens=(5, 6, 4))  # B yellow, A purple: A's golf window
    t.cards([7, 10], [7, 3], [2, 12])
    t.rig(die=[2, 3], wild=[3, 4])
    t.act(A, {"type": "thrust"}, 10.0)
    assert t.step["kind"] == "golf" and t.step["holder"] == A
    assert act(t, A, 10.0) == {"type": "quickswitch"}
    t.act(None, {"type": "catch_open", "timeout": True}, t.step["opens_at"] / 1000)
    now = t.step["opens_at"] / 1000
    action, delay = decide(t, B, now)
    assert action == {"type": "catch"} and REACTION[0] <= delay <= REACTION[1]
    t.act(B, action, now + delay)
    assert t.of("catch")[0]["seat"] == B  # purple caught; now B throws yellow back
    t.act(None, {"type": "catch_open", "timeout": True}, t.step["opens_at"] / 1000)
    act(t, A, t.step["opens_at"] / 1000)
    assert t.state["yellow"] == A and t.state["purple"] == B


def test_a_snap_lands_just_under_the_shortest_possible_spin() -> None:
    t = opened(greens=(5, 5, 2))  # A and B duel for yellow
    assert t.step["kind"] == "duel"
    for seat in (A, B):
        action = act(t, seat, 5.0)
        assert action["type"] == "insult" and len(action["text"]) <= 200
    assert act(t, C, 40.0) == {"type": "count"}
    t0 = t.step["t0"] / 1000
    for n in range(20):
        action, delay = decide(t, A, t0, n)
        assert action == {"type": "snap"} and SNAP_AT[0] <= delay <= SNAP_AT[1] < 3.0
    action, delay = decide(t, A, t0 + 1.0)
    assert SNAP_AT[0] - 1.0 <= delay <= SNAP_AT[1] - 1.0  # counted from the Count, not the ask


def theme_board() -> Table:
    """State roads; WB on NEW near BK on COL; A (the computer) holds yellow."""
    t = opened(difficulty="state")
    t.state["pieces"]["WB"] = "NEW"
    return t


def win_trick(t: Table, winner: int, now: float) -> None:
    cards = [[2], [3], [4]]
    cards[winner] = [13]
    t.cards(*cards)
    t.rig(die=[1])
    t.act(t.state["start"], {"type": "thrust"}, now)
    while t.step["kind"] not in ("move", "anthem", "end"):
        if t.step["kind"] == "golf":
            t.act(t.step["holder"], {"type": "done"}, now)
        elif t.step["kind"] == "catch":
            t.act(None, {"type": "catch_open", "timeout": True}, now)
            t.act(t.step["receiver"], {"type": "catch"}, now)
        t.pay_all(now)


def test_the_controller_sets_up_a_theme_and_completes_it_when_it_wins_again() -> None:
    t = theme_board()
    win_trick(t, A, 10.0)
    first = act(t, A, 10.0)
    assert first["type"] == "move"
    t.pay_all(12.0)
    called = act(t, A, 13.0)["piece"]
    last = t.state["streak"]["last_move"]
    assert COLOUR[called] != COLOUR[last["piece"]]
    board = Board.of(ENGINE.view(t.state, A))
    assert board.theme_routes(called, set(last["route"])), "the called piece can cross the route"
    win_trick(t, A, 20.0)
    second = act(t, A, 20.0)
    assert second["piece"] == called
    assert t.of("theme", t.log) and t.of("bumper_won", t.log)[0] == {
        "seat": A, "how": "theme", "bumper": 1, "scores": t.of("bumper_won", t.log)[0]["scores"]}


def test_the_controller_takes_a_theme_that_is_on_rather_than_any_move() -> None:
    t = theme_board()
    win_trick(t, A, 10.0)
    t.act(A, {"type": "move", "piece": "BK", "to": "HEB", "via": []}, 10.0)
    t.act(A, {"type": "attack", "piece": "WB"}, 11.0)
    win_trick(t, A, 20.0)
    action = act(t, A, 20.0)
    assert "HEB" in [*action["via"], action["to"]] and t.of("theme", t.log)


def test_with_no_theme_in_reach_it_moves_toward_the_other_colour() -> None:
    t = opened()  # interstate: the start squares are far apart
    win_trick(t, B, 10.0)
    view = ENGINE.view(t.state, B)
    board = Board.of(view)
    piece = view["moves"]["piece"]
    far = min(board.region.straight_km(board.towns[piece], board.towns[p]) for p in board.partners(piece))
    action = act(t, B, 10.0)
    assert action["type"] == "move"
    moved = Board.of(ENGINE.view(t.state, B))
    near = min(moved.region.straight_km(moved.towns[piece], moved.towns[p]) for p in moved.partners(piece))
    assert near < far


def test_golf_swaps_purple_for_yellow_and_hoses_purple_away_in_a_trump() -> None:
    t = opened(greens=(5, 6, 4))  # B yellow, A purple
    t.cards([7, 10], [7, 3], [2, 12])  # a trump: purple will slide 2 at the tally
    t.rig(die=[2, 3])
    t.act(A, {"type": "thrust"}, 10.0)
    assert decide(t, A, 10.0)[0] == {"type": "quickswitch"}
    t.state["trick"]["qs_used"] = True
    t.state["seats"][C]["score"] = 9
    assert decide(t, A, 10.0)[0] == {"type": "hose", "target": C}  # not the yellow holder
    t.state["seats"][A]["chocolate"] = 0
    assert decide(t, A, 10.0)[0] == {"type": "done"}  # a lost hose would cost a point


def test_no_hose_when_the_trick_is_no_trump() -> None:
    t = opened(greens=(5, 6, 4))
    t.cards([9], [4], [13])
    t.rig(die=[4])
    t.act(A, {"type": "thrust"}, 10.0)
    t.state["trick"]["qs_used"] = True
    assert decide(t, A, 10.0)[0] == {"type": "done"}


def test_both_balls_go_out_with_purple_to_the_leader() -> None:
    view = ENGINE.view(opened().state, A)
    view["players"][B]["score"], view["players"][C]["score"] = 30, 12
    assert handout_yellow(view, A) == C
    view["players"][C]["bumpers_won"] = 1
    assert handout_yellow(view, A) == B


def test_penalties_are_paid_in_chocolate_while_any_is_left() -> None:
    t = opened()
    penalties.add(t.state, A, "18", 2000, [])
    assert decide(t, A, 2.0)[0] == {"type": "pay", "how": "chocolate"}
    view = ENGINE.view(t.state, A)
    view["players"][A]["chocolate"] = 0
    assert pay(view, A) == {"type": "pay", "how": "slide"}


def test_every_prompt_of_a_bumper_start_is_answered() -> None:
    t = Table(ENGINE.new_game(3, 3, {}))
    now = 1.0
    for _ in range(40):
        if t.step["kind"] == "thrust":
            break
        seat = next(w.seat for w in ENGINE.to_act(t.state) if w.seat is not None)
        action, delay = decide(t, seat, now)
        now += delay
        t.act(seat, action, now)
    assert t.step["kind"] == "thrust" and not t.of("missed", t.log)


# ----- (4) strength ----------------------------------------------------------------------------------
def test_it_beats_two_random_players_on_fixed_seeds() -> None:
    assert_beats_random(ENGINE, POLICY, games=40, first_seed=1, floor=0.6)
