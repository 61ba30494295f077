"""The twenty acceptance scenarios of the Fighting Words spec (§6), one test each.

Players A, B, C sit in seats 0, 1, 2 and play in that order. Since engine version 3 the
windows wait for nobody (docs/words.md, "Windows that wait for nobody"): the turn passes
at once after a play, and a challenge or a Tip comes while the next player is on turn.
"""

from __future__ import annotations

from games.core import Rng
from games.words import ENGINE
from games.words.cards import (
    HOW_DO_YOU_SAY,
    IMMEDIATE,
    REVERSAL,
    STING,
    THATLL_WORK,
    TIP,
    TRASH_TALK,
    face,
    word_value,
)
from games.words.ending import finish, rank_key
from games.words.state import new_state, spell
from tests.secrecy import leaks
from tests.words.support import (
    A,
    B,
    C,
    Pool,
    act,
    all_cards,
    awaited,
    begin,
    build,
    refused,
    roundtrip,
)


def faces(cards: list[str]) -> str:
    return "".join(face(c) if len(face(c)) == 1 else "*" for c in cards)


def test_01_setup_replaces_opening_immediate_events() -> None:
    pool = Pool()
    reversal = pool.take(REVERSAL)
    deck = [c for c in pool.free if face(c) not in IMMEDIATE] + [
        c for c in pool.free if face(c) in IMMEDIATE] + [reversal]  # A's first card
    state = roundtrip(new_state(3, Rng.initial(4), {}, deck=deck))
    assert [len(h) for h in state["hands"]] == [7, 7, 7]
    assert reversal not in state["hands"][A]
    assert not any(face(c) in IMMEDIATE for h in state["hands"] for c in h)
    assert len(state["boxed"]) == 35 and len(state["draw"]) == 64
    assert sorted(all_cards(state)) == sorted(deck)


def test_02_insert_and_claim() -> None:
    state = build(wip="TAR", hands={A: ["S"]})
    state["stalemates"] = 1
    state, _ = act(state, A, {"type": "play", "card": "S", "at": 0})
    assert state["phase"]["name"] == "claim" and spell(state["wip"]) == "STAR"
    state, _ = act(state, A, {"type": "claim"})
    assert state["score"][A] == 1
    assert [spell(w) for w in state["stacks"][A]] == ["STAR"]
    assert state["wip"] == [] and state["stalemates"] == 0


def test_03_keep_building() -> None:
    state = build(wip="TAR", hands={A: ["S"], B: ["T"]})
    state, _ = act(state, A, {"type": "play", "card": "S", "at": 0})
    state, _ = act(state, A, {"type": "keep"})
    assert state["phase"] == {**state["phase"], "name": "main", "seat": B}
    state, _ = act(state, B, {"type": "play", "card": "T", "at": 4})
    assert state["phase"]["name"] == "claim" and state["phase"]["seat"] == B
    state, _ = act(state, B, {"type": "claim"})
    assert state["score"] == [0, 1, 0]
    assert [spell(w) for w in state["stacks"][B]] == ["START"]


def test_04_long_words() -> None:
    assert (word_value(8), word_value(7), word_value(6), word_value(4)) == (3, 2, 1, 1)
    state = build(wip="FAMISHE", hands={A: ["D"]})
    state, _ = act(state, A, {"type": "play", "card": "D", "at": 7})
    state, _ = act(state, A, {"type": "claim"})
    assert state["score"][A] == 3


def test_05_challenge_upheld() -> None:
    state = build(wip="STR", hands={B: ["T"]}, turn=B)
    state, _ = act(state, B, {"type": "play", "card": "T", "at": 3})
    assert state["phase"] == {**state["phase"], "name": "main", "seat": C}  # the turn passed at once
    assert awaited(state) == [C]  # nobody is waited for on the window
    played = state["wip"][3]
    state, events = act(state, C, {"type": "challenge"})
    assert spell(state["wip"]) == "STR"
    assert played in state["discard"]
    assert state["forced_skip"] == [0, 1, 0]
    assert state["phase"]["name"] == "main" and state["phase"]["seat"] == C  # C keeps its turn
    assert any(e.type == "challenge" and e.data["upheld"] for e in events)
    state, _ = act(state, C, {"type": "skip", "card": face(state["hands"][C][0])})
    assert state["phase"]["seat"] == A
    state, _ = act(state, A, {"type": "skip", "card": face(state["hands"][A][0])})
    assert state["phase"]["seat"] == C  # B's next turn was skipped


def test_06_challenge_rejected() -> None:
    state = build(wip="ST", hands={B: ["R"]}, turn=B)
    state, _ = act(state, B, {"type": "play", "card": "R", "at": 2})
    state, events = act(state, C, {"type": "challenge"})
    assert spell(state["wip"]) == "STR"
    assert state["forced_skip"] == [0, 0, 1]
    assert state["stats"][C]["challenges_lost"] == 1
    assert state["phase"]["seat"] == C  # C challenged during its own turn, which goes on…
    state, events = act(state, C, {"type": "play", "card": face(state["hands"][C][0]), "at": 0})
    state, _ = act(state, A, {"type": "skip", "card": face(state["hands"][A][0])})
    state, events = act(state, B, {"type": "skip", "card": face(state["hands"][B][0])})
    assert any(e.type == "forced_skip" and e.data["seat"] == C for e in events)  # …the next one is lost
    assert state["phase"]["seat"] == A


def test_07_stalemate() -> None:
    state = build(wip="QIT")
    for seat in (A, B, C):
        assert state["phase"]["seat"] == seat
        state, _ = act(state, seat, {"type": "skip", "card": face(state["hands"][seat][0])})
    assert state["wip"] == [] and state["stalemates"] == 1
    assert state["skip_streak"] == []
    assert state["phase"] == {**state["phase"], "name": "main", "seat": A, "step": "act"}
    assert state["drawn"] in state["hands"][A]  # A drew and plays normally


def skip(state: dict, seat: int) -> dict:
    assert state["phase"]["seat"] == seat, f"expected seat {seat}'s turn"
    state, _ = act(state, seat, {"type": "skip", "card": face(state["hands"][seat][0])})
    return state


def test_08_forced_skip_in_the_chain() -> None:
    state = build(wip="QIT")
    state["forced_skip"][B] = 1
    state = skip(state, A)  # B's turn is skipped by force
    state = skip(state, C)
    assert sorted(state["skip_streak"]) == [A, C] and spell(state["wip"]) == "QIT"
    state = skip(state, A)
    state = skip(state, B)
    assert state["wip"] == [] and state["stalemates"] == 1
    assert state["phase"]["seat"] == C


def test_09_three_throw_aways_end_the_game() -> None:
    state = build(wip="QIT")
    state["stalemates"] = 2
    for seat in (A, B, C):
        state = skip(state, seat)
    assert state["stalemates"] == 3
    assert state["over"] == "stalemates"
    assert ENGINE.to_act(state) == [] or state["phase"]["name"] == "tiebreak"
    # a claim between throw-aways resets the count
    state = build(wip="TAR", hands={A: ["S"]})
    state["stalemates"] = 2
    state, _ = act(state, A, {"type": "play", "card": "S", "at": 0})
    state, _ = act(state, A, {"type": "claim"})
    assert state["stalemates"] == 0


def test_10_backspace_undone() -> None:
    state = build(wip="QUIT", hands={B: ["backspace"]}, turn=B)
    state, _ = act(state, B, {"type": "backspace", "index": 1})
    assert spell(state["wip"]) == "QIT"
    state, _ = act(state, A, {"type": "challenge"})
    assert spell(state["wip"]) == "QUIT"
    assert [face(c) for c in state["discard"]] == ["backspace"]
    assert state["forced_skip"][B] == 1


def test_11_editor_moves_without_a_claim() -> None:
    state = build(wip="ASTR", hands={A: ["editor"], B: ["T"]})
    state, _ = act(state, A, {"type": "editor", "from": 0, "to": 2})
    assert spell(state["wip"]) == "STAR"
    assert state["phase"]["name"] == "main"  # no claim offer after Editor: the turn passed
    assert state["phase"]["seat"] == B and [c["word"] for c in state["changes"]] == ["STAR"]
    state, _ = act(state, B, {"type": "play", "card": "T", "at": 4})
    assert state["phase"]["name"] == "claim" and state["phase"]["seat"] == B
    assert state["changes"] == []  # a real word: nothing before it can be challenged


def test_12_tip_of_my_tongue() -> None:
    state = build(wip="STAR", hands={A: ["T"], C: [TIP]})
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 4})
    state, _ = act(state, A, {"type": "claim"})
    assert state["tip"]["word"] == "START" and state["phase"]["seat"] == B  # play goes on at once
    assert awaited(state) == [B]
    state, _ = act(state, C, {"type": "tip"})
    assert state["score"] == [0, 0, 1]
    assert [face(c) for c in state["discard"]] == [TIP]
    assert [spell(w) for w in state["stacks"][C]] == ["START"]
    # two Tips: rock-paper-scissors, the winner takes it, both Tips are spent
    state = build(wip="STAR", hands={A: ["T"], B: [TIP], C: [TIP]})
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 4})
    state, _ = act(state, A, {"type": "claim"})
    state, _ = act(state, B, {"type": "tip"})
    state, _ = act(state, C, {"type": "tip"})
    assert state["rps"] is not None and state["phase"] == {**state["phase"], "name": "main", "seat": B}
    assert sorted(s for s in awaited(state) if s is not None) == [B, B, C]  # B's turn, and the picks
    state, _ = act(state, B, {"type": "rps", "shape": "rock"})
    assert ENGINE.view(state, B)["my_pick"] == "rock" and ENGINE.view(state, C)["my_pick"] is None
    assert "rock" not in str(ENGINE.view(state, None)) and leaks(ENGINE, state) == []
    state, _ = act(state, C, {"type": "rps", "shape": "scissors"})
    assert state["score"] == [0, 1, 0] and state["rps"] is None
    assert sorted(face(c) for c in state["discard"]) == [TIP, TIP]


def test_13_thatll_work() -> None:
    state = build(wip="STR", draw=[THATLL_WORK], turn=C)
    state, _ = begin(state, A)
    assert state["score"][A] == 1 and state["wip"] == []
    assert state["tip"]["word"] == "STR"  # the Tip window opens, and the turn goes on at once
    assert state["phase"] == {**state["phase"], "name": "main", "seat": A, "step": "act"}
    state = build(wip="AAAEEEIII", draw=[THATLL_WORK], turn=C)
    state, _ = begin(state, A)
    assert state["score"][A] == 4
    state = build(wip="", draw=[THATLL_WORK], turn=C)
    state, _ = begin(state, A)
    assert state["score"][A] == 0 and state["phase"]["step"] == "act"


def test_14_spelling_bee_sting() -> None:
    state = build(wip="PLANE", draw=[STING], turn=C)
    state["stalemates"] = 2
    state["skip_streak"] = [B, C]
    state, _ = begin(state, A)
    assert state["wip"] == [] and state["stalemates"] == 2 and state["skip_streak"] == []
    assert faces(state["discard"]) == "*PLANE"
    assert state["phase"]["step"] == "act"


def test_15_how_do_you_say() -> None:
    state = build(hands={B: ["Z"]}, draw=["E", HOW_DO_YOU_SAY], turn=C)
    state, _ = begin(state, A)
    assert state["phase"]["step"] == "ask"
    state, _ = act(state, A, {"type": "ask", "letter": "Z"})
    assert ENGINE.view(state, None)["phase"]["step"] == "ask"  # the table can't tell
    assert ENGINE.view(state, A)["steal_held"] is True
    state, events = act(state, A, {"type": "steal"})
    assert "Z" in [face(c) for c in state["hands"][A]]
    assert "Z" not in [face(c) for c in state["hands"][B]]
    assert len(state["hands"][B]) == 7  # B drew a replacement
    assert state["draw"] == [] and state["last_card_drawn"]
    assert any(e.type == "steal" and e.data["letter"] == "Z" for e in events)
    # nobody holds a Z: the card does nothing (the asker is told, and goes on)
    state = build(draw=["E", HOW_DO_YOU_SAY], turn=C)
    state, _ = begin(state, A)
    state, _ = act(state, A, {"type": "ask", "letter": "Z"})
    assert ENGINE.view(state, A)["steal_held"] is False
    assert refused(state, A, {"type": "steal"}) == "Nobody holds Z: there is nothing to steal."
    state, _ = act(state, A, {"type": "no_steal"})
    assert state["phase"]["step"] == "act" and len(state["hands"][A]) == 7


def test_16_trash_talk() -> None:
    state = build(discard=["K", "E", "backspace"], draw=[TRASH_TALK], turn=C)
    state, _ = begin(state, A)
    assert state["phase"]["step"] == "trash"
    state, _ = act(state, A, {"type": "trash", "letter": "K"})
    assert "K" in [face(c) for c in state["hands"][A]]
    assert state["phase"]["step"] == "act"
    state = build(discard=["backspace"], draw=[TRASH_TALK], turn=C)
    state, _ = begin(state, A)
    assert state["phase"]["step"] == "act"


def test_17_reversal() -> None:
    state = build(wip="ST", draw=["E", REVERSAL], turn=C)
    state, _ = begin(state, A)
    assert len(state["hands"][A]) == 7 and A not in state["skip_streak"]
    assert [face(c) for c in state["discard"]] == [REVERSAL]
    assert state["phase"]["seat"] == B


def test_18_last_card() -> None:
    state = build(wip="PLANE", draw=["T"], turn=C)
    state, _ = begin(state, A)
    assert state["last_card_drawn"]
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 5}, now=100.0)
    state, _ = act(state, A, {"type": "claim"}, now=102.0)
    assert ENGINE.outcome(state) is None  # the Tip window is still open: the game itself waits
    (wait,) = ENGINE.to_act(state)
    assert (wait.seat, wait.timeout, wait.default) == (None, 8.0, {"type": "close", "timeout": True})
    state, _ = act(state, None, wait.default, now=110.0)  # its time runs out, nobody pressed
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks == (0, 1, 1)
    assert outcome.reason == "last_card" and outcome.detail == {"winner": A, "tiebreak": None}


def won(state: dict, seat: int, *lengths: int) -> None:
    pool = Pool()
    used = set(state["boxed"])
    for n in lengths:
        cards = [c for c in pool.free if c in used and len(face(c)) == 1][:n]
        for c in cards:
            state["boxed"].remove(c)
            used.discard(c)
        state["stacks"][seat].append(cards)
        state["score"][seat] += word_value(n)


def test_19_tie_break_keys() -> None:
    state = build(players=2)
    won(state, 0, 4, 4, 4, 4)
    won(state, 1, 7, 5, 5)
    assert state["score"] == [4, 4] and rank_key(state, 1) > rank_key(state, 0)
    finish(state, "test", [])
    assert ENGINE.outcome(roundtrip(state)).ranks == (1, 0)
    state = build(players=2)
    won(state, 0, 9, 6)
    won(state, 1, 8, 7)
    assert state["score"] == [5, 5] and rank_key(state, 0) > rank_key(state, 1)
    finish(state, "test", [])
    assert ENGINE.outcome(roundtrip(state)).ranks == (0, 1)


def test_20_full_tie() -> None:
    state = build()
    won(state, A, 5)
    won(state, B, 5)
    finish(state, "test", [])
    state = roundtrip(state)
    assert state["phase"]["name"] == "tiebreak" and state["phase"]["tied"] == [A, B]
    state, _ = act(state, A, {"type": "wordblitz"})
    waits = ENGINE.to_act(state)
    assert [(w.seat, w.default["type"]) for w in waits] == [(B, "coin")]
    state, _ = act(state, B, waits[0].default)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and state["blitz"] is None
    winner = state["tiebreak"]["winner"]
    assert outcome.ranks[winner] == 0 and outcome.ranks[1 - winner] == 1 and outcome.ranks[C] == 2
