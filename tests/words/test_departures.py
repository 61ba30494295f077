"""Issue 10, item 5 for Fighting Words: departed players are never waited on.

- A player holding Tip who leaves while the Tip window after That'll Work is open: the game is
  not left waiting for them, mid-game or at the very end (where the game itself closes the
  window).
- A 2-player game tied at the end: a player who leaves during the Coin / Wordblitz choice, or
  during the Wordblitz, ends the game with the other as the winner.
"""

from __future__ import annotations

from games.words import ENGINE
from games.words.cards import THATLL_WORK
from games.words.ending import finish
from tests.words.support import A, B, C, act, begin, build, roundtrip
from tests.words.test_secret_choices import won


def awaited_seats(state: dict) -> set[int | None]:
    return {w.seat for w in ENGINE.to_act(state)}


def test_a_tip_holder_who_leaves_during_the_tip_window_after_thatll_work_is_not_waited_for() -> None:
    state = build(wip="STR", hands={A: ["E"], B: ["tip"], C: ["tip"]}, draw=["L", "L", "L", THATLL_WORK], turn=C)
    state, _ = begin(state, A)  # A draws That'll Work: STR is A's, the Tip window opens
    assert state["tip"] is not None and state["tip"]["word"] == "STR"
    state, _ = ENGINE.forfeit(roundtrip(state), B, 1.0)
    assert B not in awaited_seats(state) and ENGINE.outcome(state) is None
    assert awaited_seats(state) == {A}  # A's turn goes on at once
    state, _ = act(state, A, {"type": "skip", "card": "E"})
    assert awaited_seats(state) == {C}  # B is skipped over
    state, _ = act(state, C, {"type": "tip"})  # the window is still open to the one who stayed
    assert state["score"][C] == 1 and state["score"][A] == 0


def test_a_tip_holder_who_leaves_while_the_end_waits_for_the_tip_window_does_not_hold_it_up() -> None:
    state = build(wip="STR", hands={A: ["E"], B: ["tip"]}, draw=[THATLL_WORK], turn=C)
    state, _ = begin(state, A)  # the last card: That'll Work
    state, _ = act(state, A, {"type": "skip", "card": "E"})
    assert state["phase"]["name"] == "closing" and awaited_seats(state) == {None}
    state, _ = ENGINE.forfeit(roundtrip(state), B, 2.0)
    waits = ENGINE.to_act(state)
    assert all(w.seat is None for w in waits)
    for wait in waits:  # only the game itself, and its default is accepted
        state, _ = ENGINE.apply(state, None, wait.default, 2.0 + wait.timeout)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks[B] == 2


def two_player_tie() -> dict:
    state = build(2)
    won(state, A, 5)
    won(state, B, 5)
    finish(state, "last_card", [])
    state = roundtrip(state)
    assert state["phase"]["name"] == "tiebreak" and awaited_seats(state) == {A, B}
    return state


def test_a_two_player_tie_ends_when_one_leaves_the_choice() -> None:
    state, _ = act(two_player_tie(), A, {"type": "wordblitz"})
    state, _ = ENGINE.forfeit(state, B, 5.0)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks == (0, 1) and ENGINE.to_act(state) == []


def test_a_two_player_wordblitz_ends_when_one_leaves_it() -> None:
    state, _ = act(two_player_tie(), A, {"type": "wordblitz"})
    state, _ = act(state, B, {"type": "wordblitz"})
    assert state["blitz"]
    state, _ = ENGINE.forfeit(state, A, 5.0)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 0) and ENGINE.to_act(state) == []
    assert outcome.detail["winner"] == B
