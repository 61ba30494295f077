"""The Fighting Words computer player (games/words/ai.py): it decides from its seat's view
alone (other hands, the draw pile's order and the boxed cards changed leave its view and its
choice alone), it answers every prompt legally over many seeded games, it plays letters that
keep a word possible, challenges only fragments no word contains, takes words (claims, Tip),
handles the event cards, and beats a random legal player (a fixed-seed floor)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from games.computer import Asked, decision_rng
from games.core import State
from games.words import ENGINE
from games.words.ai import POLICY, insertions
from games.words.dictionary import lexicon
from games.words.ending import finish
from games.words.tips import SHAPES
from tests.computers import Versus, assert_beats_random, versus_random
from tests.secrecy import RNG_SECRETS, alternatives, get, put
from tests.words.support import A, B, C, act, build


def asked(state: State, seat: int, now: float = 1.0) -> Asked:
    return Asked(seat, tuple(w.key for w in ENGINE.to_act(state) if w.seat == seat), now)


def choose(state: State, seat: int, rng_seed: int = 1) -> dict[str, Any]:
    return POLICY.choose(ENGINE.view(state, seat), asked(state, seat), random.Random(rng_seed))


def game(seed: int, players: int, computers: set[int], keep: int = 0) -> Versus:
    """One seeded game of the shared computer-vs-random playout (tests/computers.py): the
    computers act 2 s after the last step; up to `keep` decision states are kept (a quarter)."""
    return versus_random(ENGINE, POLICY, seed, players, computers, salt=0x77, pace=2.0, keep=keep)


# ----- (1) it sees only its view -----------------------------------------------------------------
def test_the_choice_depends_on_the_view_alone_and_no_hidden_item_changes_it() -> None:
    steps: Counter[str] = Counter()
    for seed in range(4):
        for sample in game(seed, 2 + seed % 2, {0}, keep=20).samples:
            state, seat, version = sample.state, sample.seat, sample.version
            view = ENGINE.view(state, seat)
            action = POLICY.choose(view, asked(state, seat), decision_rng(seed, version, seat))
            declared = [*RNG_SECRETS, *ENGINE.secrets(state)]
            found: dict[str, list[Any]] = {}
            for secret in declared:
                value = get(state, secret.path)
                if value is not None and not isinstance(value, dict | list):
                    found.setdefault(secret.pool, []).append(value)
            others = [s for s in declared if s.owner != seat and get(state, s.path) is not None]
            for secret in random.Random(version).sample(others, min(8, len(others))):
                for value in alternatives(ENGINE, state, secret, found)[:2]:
                    changed = json.loads(json.dumps(state))
                    put(changed, secret.path, value)
                    other = ENGINE.view(changed, seat)
                    assert other == view, f"{secret.path} shows in seat {seat}'s view"
                    assert POLICY.choose(other, asked(changed, seat), decision_rng(seed, version, seat)) == action
            steps[state["phase"].get("step") or state["phase"]["name"]] += 1
    assert {"act", "claim"} <= set(steps), steps


def test_the_other_hands_and_the_pile_reordered_leave_every_decision_alone() -> None:
    """What a cheat would most like to see — the opponents' hands and the draw order — swapped
    around wholesale (each other hand traded for boxed cards, the pile reversed): the same
    view, the same choice."""
    compared = 0
    for seed in (9, 10):
        for sample in game(seed, 3, {1}, keep=25).samples:
            state, seat, version = sample.state, sample.seat, sample.version
            if state.get("blitz"):
                continue
            changed = json.loads(json.dumps(state))
            boxed = changed["boxed"]
            for other in (s for s in range(3) if s != seat):
                hand = changed["hands"][other]
                traded = boxed[: len(hand)]
                changed["hands"][other], changed["boxed"] = traded, hand + boxed[len(hand):]
                boxed = changed["boxed"]
            changed["draw"].reverse()
            assert ENGINE.view(changed, seat) == ENGINE.view(state, seat)
            rng = decision_rng(seed, version, seat)
            again = decision_rng(seed, version, seat)
            assert (POLICY.choose(ENGINE.view(changed, seat), asked(changed, seat), again)
                    == POLICY.choose(ENGINE.view(state, seat), asked(state, seat), rng))
            compared += 1
    assert compared >= 20


# ----- (2) always legal ------------------------------------------------------------------------------
def test_every_choice_is_legal_with_computers_in_every_seat() -> None:
    for seed, players in enumerate((2, 3, 4, 2, 3, 5)):
        assert ENGINE.outcome(game(100 + seed, players, set(range(players))).final) is not None


def test_every_choice_is_legal_against_random_players() -> None:
    seen: Counter[str] = Counter()
    for seed in range(16):
        players = 2 + seed % 3
        run = game(200 + seed, players, {seed % players})
        assert ENGINE.outcome(run.final) is not None
        seen.update(e.type for e in run.events)
    # the prompts a computer must answer came up: claims, challenges, events and their steps
    assert {"claim", "challenge", "ask", "trash_talk", "skip", "immediate"} <= set(seen), seen


# ----- (3) sensible play ---------------------------------------------------------------------------
def test_it_completes_a_word_when_it_can_and_claims_it() -> None:
    state = build(2, wip="FAMISHE", hands={A: ["D", "Q"]}, turn=A)
    assert choose(state, A) == {"type": "play", "card": "D", "at": 7}
    state, _ = act(state, A, {"type": "play", "card": "D", "at": 7})
    assert state["phase"]["name"] == "claim"
    assert choose(state, A) == {"type": "claim"}
    state, _ = act(state, A, {"type": "claim"})
    assert state["score"][A] == 3  # FAMISHED: 8 letters


def test_every_letter_it_plays_keeps_a_word_possible() -> None:
    lex = lexicon()
    for wip, hand in (("QU", "AEIXZJK"), ("STR", "AEOTQXB"), ("", "QXZJKVE"), ("PLAN", "ETSXQZA"), ("XYL", "OEJQZKV")):
        state = build(2, wip=wip, hands={A: list(hand)}, turn=A)
        action = choose(state, A)
        assert action["type"] == "play", (wip, action)
        made = wip[:action["at"]] + action["card"] + wip[action["at"]:]
        assert lex.fragment(made), (wip, made)


def test_it_challenges_a_fragment_no_word_contains_and_only_that() -> None:
    state = build(2, wip="STR", hands={A: ["T"], B: list("AEIOUSN")}, turn=A)
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 3})  # STRT: no word has it
    change = state["changes"][-1]["n"]
    assert choose(state, B) == {"type": "challenge", "change": change}
    state, events = act(state, B, {"type": "challenge", "change": change})
    assert [e.data["upheld"] for e in events if e.type == "challenge"] == [True]
    after = choose(state, B)  # then it plays on, its own turn unaffected
    assert after["type"] == "play"

    honest = build(2, wip="ST", hands={A: ["R"], B: list("AEIOUSN")}, turn=A)
    honest, _ = act(honest, A, {"type": "play", "card": "R", "at": 2})  # STR: STRAW, ASTRAL...
    assert choose(honest, B)["type"] != "challenge"


def test_it_takes_the_last_word_with_tip_of_my_tongue() -> None:
    state = build(2, wip="STA", hands={A: ["R"], B: ["tip", "E"]}, turn=A)
    state, _ = act(state, A, {"type": "play", "card": "R", "at": 3})
    state, _ = act(state, A, {"type": "claim"})
    assert state["phase"]["seat"] == B and state["tip"] is not None
    assert choose(state, B) == {"type": "tip"}
    state, _ = act(state, B, {"type": "tip"})
    assert state["score"] == [0, 1]


def test_with_nothing_honest_to_play_it_skips_its_least_useful_card() -> None:
    state = build(2, wip="XYL", hands={A: list("JQZVKWW")}, turn=A)
    assert choose(state, A) == {"type": "skip", "card": "W"}  # the spare copy of a rare letter


def test_a_word_nobody_can_finish_is_mended_with_backspace() -> None:
    state = build(2, wip="QX", hands={A: ["backspace", *"AEIOTS"]}, turn=A)  # an old bluff
    action = choose(state, A)
    assert action["type"] == "backspace"
    act(state, A, action)


def test_how_do_you_say_names_a_letter_that_finishes_a_word_and_steals_it_when_held() -> None:
    state = build(2, wip="STA", hands={A: list("QZXJKVW")}, turn=A)
    state["phase"] = {"name": "main", "n": 1, "seat": A, "step": "ask", "fallback": "E"}
    action = choose(state, A)
    assert action["type"] == "ask"
    assert any(lexicon().claimable(made) for _, made in insertions("STA", action["letter"]))
    state["phase"] = {"name": "main", "n": 1, "seat": A, "step": "steal", "letter": "R", "held": True}
    assert choose(state, A) == {"type": "steal"}
    state["phase"]["held"] = False
    assert choose(state, A) == {"type": "no_steal"}


def test_trash_talk_takes_the_discarded_letter_that_finishes_a_word() -> None:
    state = build(2, wip="BAR", hands={A: list("ZXJVWWM")}, discard=["Q", "K", "backspace"], turn=A)
    state["phase"] = {"name": "main", "n": 1, "seat": A, "step": "trash", "fallback": "Q"}
    assert choose(state, A) == {"type": "trash", "letter": "K"}  # BARK


def test_rock_paper_scissors_is_played_at_random_and_the_tie_break_is_wordblitz() -> None:
    state = build(3, wip="STA", hands={A: ["R"], B: ["tip"], C: ["tip"]}, turn=A)
    state, _ = act(state, A, {"type": "play", "card": "R", "at": 3})
    state, _ = act(state, A, {"type": "claim"})
    state, _ = act(state, B, {"type": "tip"})
    state, _ = act(state, C, {"type": "tip"})  # a second Tip on the same word: B and C play RPS
    assert state["rps"] is not None
    picks = {choose(state, C, n)["shape"] for n in range(20)}
    assert picks == set(SHAPES)
    assert choose(state, C, 1) == choose(state, C, 1)  # its randomness is the decision's rng
    state, _ = act(state, C, choose(state, C))

    tied = build(2, hands={A: ["E"]}, turn=A)
    events: list[Any] = []
    finish(tied, "last_card", events)
    assert tied["phase"]["name"] == "tiebreak"
    assert choose(tied, A) == {"type": "wordblitz"}
    act(tied, A, choose(tied, A))


# ----- (4) strength ------------------------------------------------------------------------------
def test_it_beats_a_random_player_most_of_the_time() -> None:
    assert_beats_random(ENGINE, POLICY, games=40, first_seed=7_000, floor=0.7)
