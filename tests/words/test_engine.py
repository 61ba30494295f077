"""Rules beyond the acceptance scenarios: refusals, leavers, AFK, privacy, Wordblitz."""

from __future__ import annotations

import json

import pytest

from games.core import IllegalAction
from games.words import ENGINE, turns
from games.words.cards import TIP, face
from games.words.ending import finish, start_blitz
from games.words.state import spell
from tests.secrecy import leaks
from tests.words.support import A, B, C, act, awaited, build, refused, roundtrip

GARBAGE = [
    {}, {"type": 3}, {"type": "nonsense"}, {"type": "play"}, {"type": "play", "card": "S"},
    {"type": "play", "card": 5, "at": 0}, {"type": "play", "card": "S", "at": "0"},
    {"type": "play", "card": "S", "at": True}, {"type": "play", "card": "S", "at": 99},
    {"type": "play", "card": "backspace", "at": 0}, {"type": "backspace"},
    {"type": "backspace", "index": [1]}, {"type": "editor", "from": 0}, {"type": "skip"},
    {"type": "skip", "card": None}, {"type": "ask", "letter": "Z"}, {"type": "trash"},
    {"type": "steal"}, {"type": "rps", "shape": "lizard"}, {"type": "tip"}, {"type": "claim"},
    {"type": "pick", "card": {}}, {"type": "coin"}, None, "play",
]


@pytest.mark.parametrize("junk", GARBAGE, ids=[str(g) for g in GARBAGE])
def test_garbage_is_refused_with_a_sentence(junk: object) -> None:
    state = build(wip="TAR", hands={A: ["S", "backspace"]})
    message = refused(state, A, junk)
    assert message and message[0].isupper() and message.endswith((".", "?"))


def test_wrong_seat_is_told_it_is_not_their_turn() -> None:
    state = build(wip="TAR", hands={B: ["S"]})
    assert refused(state, B, {"type": "play", "card": "S", "at": 0}) == "It is not your turn: it is Player1's."
    assert refused(state, A, {"type": "play", "card": "Q", "at": 0}) == "You don't hold Q."


def test_a_challenge_refuses_the_player_and_a_second_challenger() -> None:
    state = build(wip="ST", hands={A: ["R"]})
    state, _ = act(state, A, {"type": "play", "card": "R", "at": 2})
    assert refused(state, A, {"type": "challenge"}) == "You can't challenge your own play."
    assert refused(state, B, {"type": "stand"}).startswith("Nobody needs to let a change stand")
    number = state["changes"][0]["n"]
    state, _ = act(state, B, {"type": "challenge", "change": number})
    assert refused(state, C, {"type": "challenge", "change": number}) == "Player2 already challenged that change."
    assert refused(state, C, {"type": "challenge"}) == "Player2 already challenged the last change."
    assert state["phase"]["seat"] == B and state["skip_streak"] == []


def test_non_holders_are_told_they_have_no_tip() -> None:
    state = build(wip="STAR", hands={A: ["T"]})
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 4})
    state, _ = act(state, A, {"type": "claim"})
    assert refused(state, B, {"type": "tip"}) == "You have no Tip of My Tongue card."
    assert refused(state, C, {"type": "tip"}) == "You have no Tip of My Tongue card."
    assert refused(state, A, {"type": "tip"}) == "You can't use Tip on your own word."
    assert refused(state, C, {"type": "no_tip"}).startswith("Nobody needs to answer")
    assert awaited(state) == [B]  # the window awaits nobody: the wait reveals no Tip holder


def test_the_tip_window_is_skipped_once_both_tips_are_face_up() -> None:
    state = build(wip="STAR", hands={A: ["T"]}, discard=[TIP, TIP])
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 4})
    state, _ = act(state, A, {"type": "claim"})
    assert state["phase"]["name"] == "main" and state["phase"]["seat"] == B and state["tip"] is None


def test_claim_times_out_to_claim() -> None:
    state = build(wip="TAR", hands={A: ["S"]})
    state, _ = act(state, A, {"type": "play", "card": "S", "at": 0})
    (wait,) = ENGINE.to_act(state)
    assert wait.default == {"type": "claim", "timeout": True} and wait.timeout == 20


def test_a_leaver_drops_out_and_the_game_goes_on() -> None:
    state = build(wip="QIT")
    state = roundtrip(state)
    state, _ = ENGINE.forfeit(state, A, 1.0)
    assert state["left"] == [A] and state["hands"][A] == []
    assert ENGINE.outcome(state) is None and state["phase"]["seat"] == B
    state, _ = act(state, B, {"type": "skip", "card": face(state["hands"][B][0])})
    state, _ = act(state, C, {"type": "skip", "card": face(state["hands"][C][0])})
    assert state["stalemates"] == 1  # only B and C count for the stalemate
    state, _ = ENGINE.forfeit(state, C, 2.0)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 0, 1)  # earliest leaver lowest


def test_a_leavers_change_can_still_be_challenged_and_a_leaver_cannot_challenge() -> None:
    state = build(wip="ST", hands={A: ["Q"], B: ["R"]})
    state, _ = act(state, A, {"type": "play", "card": "Q", "at": 2})  # STQ: a bluff
    state, _ = ENGINE.forfeit(state, A, 1.0)
    assert state["phase"]["name"] == "main" and state["phase"]["seat"] == B
    assert refused(state, A, {"type": "challenge"}) == "You are not playing in this game."
    state, events = act(state, C, {"type": "challenge"})
    assert spell(state["wip"]) == "ST" and events[0].data["upheld"] is True
    assert ENGINE.outcome(state) is None and state["phase"]["seat"] == B


def test_three_timeouts_make_a_player_afk_and_ten_drop_them() -> None:
    state = build(players=2)
    for n in range(1, 11):
        (wait,) = ENGINE.to_act(state)
        if wait.seat == B:
            state, _ = act(state, B, {"type": "skip", "card": face(state["hands"][B][0])})
            (wait,) = ENGINE.to_act(state)
        assert wait.seat == A
        assert wait.timeout == (10 if n > 3 else 90)
        state, _ = act(state, A, wait.default)
        if n < 10:
            assert state["afk"][A] == (n >= 3)
        state["draw"] += state["boxed"][:2]  # keep the pile from running out
        del state["boxed"][:2]
    outcome = ENGINE.outcome(state)
    assert state["left"] == [A] and outcome is not None and outcome.ranks == (1, 0)


def test_clicking_anything_clears_afk() -> None:
    state = build()
    state["afk"][A] = True
    state["timeouts"][A] = 5
    state, _ = act(state, A, {"type": "pick", "card": face(state["hands"][A][0])})
    assert state["afk"][A] is False and state["timeouts"][A] == 0


def test_picked_letter_is_private_and_cleared_after_the_turn() -> None:
    state = build(hands={A: ["Q"]})
    state, _ = act(state, A, {"type": "pick", "card": "Q"})
    assert ENGINE.view(state, A)["picked"] == "Q"
    assert "picked" not in ENGINE.view(state, None) and ENGINE.view(state, B)["picked"] is None
    state, _ = act(state, A, {"type": "play", "card": "Q", "at": 0})
    assert state["picks"] == [None, None, None]


def test_every_listed_action_is_legal_in_a_busy_state() -> None:
    state = build(wip="STAR", hands={A: ["backspace", "editor", "T", TIP]})
    actions = ENGINE.legal_actions(state, A)
    assert len(actions) > 30 and all(len(json.dumps(a)) < 60 for a in actions)
    for action in actions:
        ENGINE.apply(state, A, action, 1.0)
    assert ENGINE.legal_actions(state, B) == []


def test_public_and_other_views_show_no_hand_card() -> None:
    state = build(wip="STAR", hands={A: ["T"], B: [TIP]})
    assert leaks(ENGINE, state) == []
    public = json.dumps(ENGINE.view(state, None))
    for card in state["hands"][A] + state["hands"][B]:
        assert card not in public
    assert "rng" not in public and "boxed\": [" not in public


def test_wordblitz_first_three_letter_word_wins() -> None:
    state = build(players=2)
    state["stacks"] = [[], []]
    finish(state, "test", [])
    assert state["phase"]["name"] == "tiebreak"
    turns.follow(state, start_blitz(state, [A, B], []), [])
    state = roundtrip(state)
    blitz = state["blitz"]
    seat = blitz["turn"]
    assert len(blitz["hands"][seat]) == 8 and len(blitz["hands"][1 - seat]) == 7
    # give the player C, A, T and build CAT
    hand = blitz["hands"][seat]
    pool = [c for c in blitz["draw"] if face(c) in "CAT"]
    wanted = {f: next(c for c in pool if face(c) == f) for f in "CAT"}
    for c in wanted.values():
        blitz["draw"].remove(c)
    blitz["discard"] += hand[:3]
    hand[:3] = list(wanted.values())
    blitz["wip"] = [wanted["C"], wanted["A"]]
    hand.remove(wanted["C"])
    hand.remove(wanted["A"])
    blitz["discard"] += [blitz["draw"].pop(), blitz["draw"].pop()]
    state, _ = act(state, seat, {"type": "play", "card": "T", "at": 2})
    assert spell(state["blitz"]["wip"]) == "CAT"
    assert state["tiebreak"]["winner"] == seat and state["tiebreak"]["how"] == "wordblitz"
    assert ENGINE.outcome(state).ranks[seat] == 0


def test_wordblitz_fourth_letter_discards_the_word() -> None:
    state = build(players=2)
    finish(state, "test", [])
    turns.follow(state, start_blitz(state, [A, B], []), [])
    blitz = state["blitz"]
    seat = blitz["turn"]
    letters = [c for c in blitz["draw"] if face(c) in "QXZJ"][:3]
    for c in letters:
        blitz["draw"].remove(c)
    blitz["wip"] = letters
    card = blitz["hands"][seat][0]
    state, _ = act(roundtrip(state), seat, {"type": "play", "card": face(card), "at": 3})
    if state["tiebreak"] is None:
        assert state["blitz"]["wip"] == [] and state["blitz"]["turn"] != seat


def test_a_finished_game_refuses_everything() -> None:
    state = build(players=2)
    finish(state, "test", [])
    state, _ = act(state, A, {"type": "coin"})
    state, _ = act(state, B, {"type": "coin"})
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, A, {"type": "skip", "card": "E"}, 1.0)
