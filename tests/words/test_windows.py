"""Windows that wait for nobody (engine version 3, docs/words.md): the turn passes at once
after a play; a change stays open to a challenge until the word changes again (at least
5 s); the Tip window stays open until the word changes again (at least 8 s); nobody ever
has to answer a window for play to go on."""

from __future__ import annotations

import random

import pytest

from cogs.table.ui import Button, Seat, TableInfo
from cogs.words.ui import WordsUI
from games.core import IllegalAction
from games.words import ENGINE
from games.words.cards import TIP, TRASH_TALK, face
from games.words.state import spell
from games.words.tips import TIP_MINIMUM
from games.words.windows import CHALLENGE_MINIMUM
from tests.words.support import (
    A,
    B,
    C,
    act,
    awaited,
    begin,
    build,
    check_cards_and_scores,
    check_hand_limits,
    refused,
)

UI = WordsUI()
INFO = TableInfo(game_id=1, seats=[Seat(i, 100 + i, f"Player{i + 1}") for i in range(6)])
#: Moves that answer a window rather than take one's own turn.
WINDOW_MOVES = {"challenge", "tip", "rps", "stand", "no_tip"}


# ----- nobody has to press anything ---------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_a_game_where_only_the_player_in_turn_acts_reaches_the_end(seed: int) -> None:
    """Three players; at every step the game waits for the player in turn only (or for itself,
    or — once the game is over — for the tied players' own choice), and only that player acts,
    with a move of their own turn. The game ends."""
    chooser = random.Random(seed)
    state = ENGINE.new_game(3, seed)
    now = 1_000.0
    steps = 0
    while ENGINE.outcome(state) is None:
        steps += 1
        assert steps < 3_000, "the game did not end"
        phase = state["phase"]
        seats = {w.seat for w in ENGINE.to_act(state)}
        if phase["name"] in ("main", "claim"):
            assert seats == {phase["seat"]}, f"waiting for {seats} on {phase['seat']}'s turn"
        elif phase["name"] == "closing":
            assert seats == {None}  # the game itself waits for the end of the Tip window
        else:
            assert phase["name"] == "tiebreak" and seats <= set(phase["tied"])
        wait = ENGINE.to_act(state)[0]
        if wait.seat is None:
            action = wait.default
        else:
            own = [a for a in ENGINE.legal_actions(state, wait.seat) if a["type"] not in WINDOW_MOVES]
            action = chooser.choice(own)
        assert action is not None
        now += chooser.choice((0.5, 2.0, 6.0))
        state, _ = ENGINE.apply(state, wait.seat, action, now)
    assert ENGINE.outcome(state).ranks  # type: ignore[union-attr]


def test_the_next_players_controls_come_at_once_after_every_change() -> None:
    for move, hands, wip in (({"type": "play", "card": "Q", "at": 0}, ["Q"], "ST"),
                             ({"type": "backspace", "index": 0}, ["backspace"], "ST"),
                             ({"type": "editor", "from": 0, "to": 1}, ["editor"], "ST")):
        state = build(wip=wip, hands={A: hands})
        state, _ = act(state, A, move)
        assert state["phase"] == {**state["phase"], "name": "main", "seat": B, "step": "act"}
        assert awaited(state) == [B] and ENGINE.legal_actions(state, B)
        assert {"type": "challenge", "change": state["changes"][-1]["n"]} in ENGINE.legal_actions(state, C)


# ----- a challenge after the next player's change -------------------------------------

def bluff_then_next_change(next_at: float = 1.0) -> dict:
    """A plays T on STR at t=0 (STRT: no word contains it); B plays E at the front at
    `next_at` (ESTRT)."""
    state = build(wip="STR", hands={A: ["T"], B: ["E"]})
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 3}, now=0.0)
    state, _ = act(state, B, {"type": "play", "card": "E", "at": 0}, now=next_at)
    assert spell(state["wip"]) == "ESTRT" and state["phase"]["seat"] == C
    return state


def test_a_challenge_within_the_minimum_undoes_the_earlier_change_under_the_later_one() -> None:
    state = bluff_then_next_change()
    first, second = state["changes"]
    assert (first["word"], first["last"], second["word"], second["last"]) == ("STRT", False, "ESTRT", True)
    state, events = act(state, C, {"type": "challenge", "change": first["n"]}, now=CHALLENGE_MINIMUM - 1)
    assert events[0].data == {"seat": C, "actor": A, "upheld": True, "word": "STRT", "restored": "ESTR"}
    assert spell(state["wip"]) == "ESTR"  # A's T is out; B's E, built on it, stays
    assert state["forced_skip"] == [1, 0, 0] and state["phase"]["seat"] == C  # C's turn goes on
    assert [c["n"] for c in state["changes"]] == [second["n"]]  # B's change is still the last one


def test_a_challenge_after_the_minimum_is_refused_and_the_last_change_stays_open() -> None:
    state = bluff_then_next_change()
    first, _second = state["changes"]
    late = CHALLENGE_MINIMUM + 0.5
    assert refused(state, C, {"type": "challenge", "change": first["n"]}, now=late) == (
        "Too late: the word has changed since, and the 5 seconds after that change are over.")
    # the last change stays open as long as the word does not change, however long that is
    state, events = act(state, C, {"type": "challenge"}, now=1_000.0)
    assert events[0].data["actor"] == B and events[0].data["upheld"] is True  # ESTRT: no word has it
    assert spell(state["wip"]) == "STRT" and state["forced_skip"] == [0, 1, 0]


def test_a_plain_challenge_means_the_last_change() -> None:
    state = bluff_then_next_change()
    state, events = act(state, C, {"type": "challenge"}, now=2.0)
    assert events[0].data["actor"] == B


def test_a_late_challenge_is_refused_when_the_change_can_no_longer_be_undone() -> None:
    state = build(wip="STR", hands={A: ["T"], B: ["backspace"]})
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 3}, now=0.0)
    state, _ = act(state, B, {"type": "backspace", "index": 3}, now=1.0)  # B takes the T out itself
    first = state["changes"][0]
    assert refused(state, C, {"type": "challenge", "change": first["n"]}, now=2.0) == (
        "Too late to undo Player1's change: the word has changed around it since. "
        "You can still challenge the last change.")
    assert ENGINE.view(state, None)["changes"][0]["undoable"] is False


def test_a_backspace_and_an_editor_are_undone_into_the_gap_they_left() -> None:
    state = build(wip="QUIT", hands={A: ["backspace"], B: ["S"]})
    state, _ = act(state, A, {"type": "backspace", "index": 1}, now=0.0)  # QIT
    state, _ = act(state, B, {"type": "play", "card": "S", "at": 3}, now=1.0)  # QITS
    state, events = act(state, C, {"type": "challenge", "change": state["changes"][0]["n"]}, now=2.0)
    assert events[0].data["upheld"] is True and spell(state["wip"]) == "QUITS"
    assert [face(c) for c in state["discard"]] == ["backspace"]
    state = build(wip="QIUT", hands={A: ["editor"], B: ["S"]})
    state, _ = act(state, A, {"type": "editor", "from": 2, "to": 0}, now=0.0)  # UQIT
    state, _ = act(state, B, {"type": "play", "card": "S", "at": 4}, now=1.0)  # UQITS
    state, events = act(state, C, {"type": "challenge", "change": state["changes"][0]["n"]}, now=2.0)
    assert events[0].data["upheld"] is True and spell(state["wip"]) == "QIUTS"


def test_an_earlier_change_that_was_fine_costs_the_challenger_a_turn_and_undoes_nothing() -> None:
    state = build(wip="ST", hands={A: ["R"], B: ["A"]})
    state, _ = act(state, A, {"type": "play", "card": "R", "at": 2}, now=0.0)  # STR
    state, _ = act(state, B, {"type": "play", "card": "A", "at": 3}, now=1.0)  # STRA
    state, events = act(state, C, {"type": "challenge", "change": state["changes"][0]["n"]}, now=2.0)
    assert events[0].data["upheld"] is False and spell(state["wip"]) == "STRA"
    assert state["forced_skip"] == [0, 0, 1]


def test_an_undone_change_counts_as_no_change_for_the_skip_streak() -> None:
    state = build(wip="QI", hands={A: ["X"]})
    state["skip_streak"] = [B, C]
    state, _ = act(state, A, {"type": "play", "card": "X", "at": 2})  # QIX
    assert state["skip_streak"] == []  # the change stands at once (rule 11)
    state, _ = act(state, B, {"type": "challenge"})
    assert spell(state["wip"]) == "QI" and state["skip_streak"] == [B, C]


def test_a_real_word_closes_every_challenge_before_it() -> None:
    state = build(wip="TAR", hands={A: ["S"], B: ["T"]})
    state, _ = act(state, A, {"type": "play", "card": "S", "at": 0})
    state, _ = act(state, A, {"type": "keep"})
    assert state["changes"] == []
    assert refused(state, C, {"type": "challenge"}) == "There is nothing to challenge right now."


def test_a_second_change_in_the_same_instant_keeps_at_most_three_open() -> None:
    state = build(wip="", hands={A: ["S"], B: ["T"], C: ["R"]})
    for seat, letter in ((A, "S"), (B, "T"), (C, "R")):
        state, _ = act(state, seat, {"type": "play", "card": letter, "at": len(state["wip"])})
    state, _ = act(state, A, {"type": "play", "card": face(state["hands"][A][0]), "at": 0})
    assert len(state["changes"]) <= 3 and state["changes"][-1]["last"]


# ----- the Tip window -------------------------------------------------------------------

def claimed_start(c_holds_tip: bool = True, b_holds_tip: bool = False) -> dict:
    """A claims START at t=0; B is on turn."""
    state = build(wip="STAR", hands={A: ["T"], B: [TIP] if b_holds_tip else [], C: [TIP] if c_holds_tip else []})
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 4}, now=0.0)
    state, _ = act(state, A, {"type": "claim"}, now=0.0)
    assert state["phase"]["seat"] == B and state["tip"]["word"] == "START"
    return state


def test_the_tip_window_stays_open_until_the_next_change() -> None:
    state = claimed_start()
    state, _ = act(state, B, {"type": "skip", "card": face(state["hands"][B][0])}, now=30.0)  # no change
    assert state["tip"] is not None and {"type": "tip"} in ENGINE.legal_actions(state, C)
    state, events = act(state, C, {"type": "tip"}, now=40.0)
    assert [e.type for e in events] == ["tip", "tip_steal"] and state["score"] == [0, 0, 1]


def test_the_tip_window_closes_with_the_next_change_after_its_minimum() -> None:
    state = claimed_start()
    state, _ = act(state, B, {"type": "play", "card": face(state["hands"][B][0]), "at": 0}, now=TIP_MINIMUM + 1)
    assert state["tip"] is None
    assert refused(state, C, {"type": "tip"}, now=TIP_MINIMUM + 2).startswith("Tip of My Tongue can only take")
    assert UI.table(ENGINE.view(state, None), INFO).controls[0].label == "Challenge"  # no Use Tip


def test_the_tip_window_outlives_a_fast_next_change_for_its_minimum() -> None:
    state = claimed_start()
    state, _ = act(state, B, {"type": "play", "card": face(state["hands"][B][0]), "at": 0}, now=1.0)
    assert state["tip"]["changed"] is True
    assert {"type": "tip"} not in ENGINE.legal_actions(state, C)  # time decides now: not listed
    assert refused(state, C, {"type": "tip"}, now=TIP_MINIMUM).startswith("Tip of My Tongue can only take")
    state, _ = act(state, C, {"type": "tip"}, now=TIP_MINIMUM - 1)
    assert state["score"] == [0, 0, 1]


def test_a_second_tip_wins_the_word_at_rock_paper_scissors() -> None:
    state = claimed_start(b_holds_tip=True)
    state, events = act(state, C, {"type": "tip"})
    assert state["stacks"][C] and state["stats"][C]["tips"] == 1
    state, events = act(state, B, {"type": "tip"})
    assert [e.type for e in events] == ["tip", "rps"] and state["rps"]["holder"] == C
    assert state["phase"] == {**state["phase"], "name": "main", "seat": B}  # B's turn goes on meanwhile
    state, _ = act(state, C, {"type": "rps", "shape": "rock"})
    state, events = act(state, B, {"type": "rps", "shape": "paper"})
    assert [e.type for e in events if e.to is None] == ["rps_reveal", "tip_steal"]
    assert state["score"] == [0, 1, 0] and state["stats"][B]["tips"] == 1 and state["stats"][C]["tips"] == 0
    assert state["rps"] is None and state["tip"]["holder"] == B


# ----- the very end ---------------------------------------------------------------------

def last_word(b_holds_tip: bool) -> dict:
    """A draws the last card and claims PLANET: the game is closing."""
    state = build(wip="PLANE", draw=["T"], turn=C, hands={B: [TIP] if b_holds_tip else []})
    state, _ = begin(state, A)
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 5}, now=50.0)
    state, _ = act(state, A, {"type": "claim"}, now=51.0)
    return state


def test_the_end_waits_for_the_tip_window_and_a_holder_can_use_it_from_their_hand() -> None:
    state = last_word(b_holds_tip=True)
    assert state["phase"]["name"] == "closing" and ENGINE.outcome(state) is None
    assert awaited(state) == [None]
    table = UI.table(ENGINE.view(state, None), INFO)
    assert table.controls == [] and "The game ends once the Tip of My Tongue window on **PLANET**" in table.card.description
    screen = UI.private(ENGINE.view(state, B), B, INFO)
    assert screen is not None and [c.action for c in screen.controls] == [{"type": "tip"}]
    assert UI.private(ENGINE.view(state, C), C, INFO).controls == []  # type: ignore[union-attr]
    assert refused(state, C, {"type": "skip", "card": "E"}).startswith("The last turn is over")
    state, events = act(state, B, {"type": "tip"}, now=55.0)
    assert state["score"] == [0, 1, 0] and ENGINE.outcome(state) is None  # the window is still open
    (wait,) = ENGINE.to_act(state)
    state, events = act(state, None, wait.default, now=59.0)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks[B] == 0 and events[-1].type == "game_over"


def test_nobody_but_the_game_closes_the_window() -> None:
    state = last_word(b_holds_tip=False)
    assert refused(state, B, {"type": "close"}) == "Only the game itself closes the Tip of My Tongue window."
    assert refused(state, B, {"type": "close", "timeout": True}) == \
        "Only the game itself closes the Tip of My Tongue window."


def test_trash_talk_goes_on_when_a_challenge_took_its_only_letter_back() -> None:
    state = build(wip="QUIT", hands={B: ["backspace"]}, draw=[TRASH_TALK], turn=B)
    state, _ = act(state, B, {"type": "backspace", "index": 1})  # QIT; U lies in the discard pile
    assert state["phase"] == {**state["phase"], "seat": C, "step": "trash", "fallback": "U"}
    state, _ = act(state, A, {"type": "challenge"})  # upheld: U goes back into the word
    assert spell(state["wip"]) == "QUIT" and not [c for c in state["discard"] if len(face(c)) == 1]
    screen = UI.private(ENGINE.view(state, C), C, INFO)
    assert screen is not None and [c.action for c in screen.controls] == [{"type": "trash"}]
    (wait,) = ENGINE.to_act(state)
    state, events = act(state, C, wait.default)
    assert [e.type for e in events] == ["fizzle"] and state["phase"]["step"] == "act"


@pytest.mark.parametrize(("players", "seed"), [(p, s) for p in (2, 3, 4) for s in range(8)])
def test_challenges_and_tips_from_anyone_at_any_time_keep_the_game_sound(players: int, seed: int) -> None:
    """Random games where, beside the awaited players' moves, anyone challenges (the last
    change, or an earlier one by its number) or uses Tip at random moments: every refusal
    cites a rule, cards and points stay where they belong, the table's ⚔️ Challenge is always
    one the player in turn may press, and the game ends."""
    chooser = random.Random(seed)
    state = ENGINE.new_game(players, seed)
    now = 0.0
    for _ in range(5_000):
        if ENGINE.outcome(state) is not None:
            break
        now += chooser.choice((0.3, 1.0, 3.0, 7.0))
        if chooser.random() < 0.25:
            seat = chooser.randrange(players)
            tries = [{"type": "challenge"}, {"type": "tip"}]
            tries += [{"type": "challenge", "change": c["n"]} for c in state["changes"]]
            try:
                state, _ = ENGINE.apply(state, seat, chooser.choice(tries), now)
            except IllegalAction as exc:
                assert exc.rule and exc.message, exc
                continue
        else:
            wait = chooser.choice(ENGINE.to_act(state))
            actions = ENGINE.legal_actions(state, wait.seat) if wait.seat is not None else []
            action = chooser.choice(actions) if actions and chooser.random() < 0.95 else wait.default
            assert action is not None
            state, _ = ENGINE.apply(state, wait.seat, action, now)
        check_cards_and_scores(state)
        check_hand_limits(state)
        view = ENGINE.view(state, None)
        for control in UI.table(view, INFO).controls:
            if isinstance(control, Button) and control.action["type"] == "challenge":
                ENGINE.apply(state, state["phase"]["seat"], control.action, now + 0.1)  # legal for them
    assert ENGINE.outcome(state) is not None


def test_a_game_saved_by_version_2_mid_window_moves_on_under_the_new_rules() -> None:
    state = build(wip="STR")
    for key in ("changes", "closed", "tip", "rps", "clock"):
        del state[key]
    state["phase"] = {"name": "challenge", "n": 1, "seat": A, "kind": "letter", "undo": {"index": 2},
                      "waiting": [B, C]}
    assert ENGINE.view(state, None)["changes"] == [] and ENGINE.legal_actions(state, B) == []
    (wait,) = ENGINE.to_act(state)
    assert wait.seat is None and wait.timeout == 0.0
    state, _ = act(state, None, wait.default)
    assert state["phase"] == {**state["phase"], "name": "main", "seat": B} and spell(state["wip"]) == "STR"
    old = build(wip="STR")
    for key in ("changes", "closed", "tip", "rps", "clock"):
        del old[key]
    state, _ = act(old, A, {"type": "play", "card": face(old["hands"][A][0]), "at": 0})
    assert state["phase"]["seat"] in (A, B) and "clock" in state  # a plain turn just goes on


def test_a_tip_window_saved_by_version_2_goes_to_its_user() -> None:
    state = build(wip="", hands={C: []})
    state["stacks"][A] = [state["boxed"][:5]]
    state["score"][A] = 1
    for key in ("changes", "closed", "tip", "rps", "clock"):
        del state[key]
    state["phase"] = {"name": "tip", "n": 1, "seat": A, "word": "START", "waiting": [B], "users": [C], "then": "end"}
    (wait,) = ENGINE.to_act(state)
    state, events = act(state, None, wait.default)
    assert state["score"] == [0, 0, 1] and [e.type for e in events][:1] == ["tip_steal"]
    assert state["phase"] == {**state["phase"], "name": "main", "seat": B}
