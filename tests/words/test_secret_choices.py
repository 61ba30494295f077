"""Rock-paper-scissors (several Tips) and the Coin / Wordblitz tie-break sit on the
secret-choice block (`games.choices`): picks stay hidden until all are in, the table shows
who has chosen, a second press is refused, and a timeout completes the round."""

from __future__ import annotations

import json

from cogs.table.ui import Seat, TableInfo
from cogs.words.ui import WordsUI
from games.words import ENGINE
from games.words.cards import TIP
from games.words.ending import finish
from games.words.tips import BEATS
from tests.secrecy import leaks
from tests.words.support import A, B, C, Pool, act, build, refused, roundtrip

UI = WordsUI()
INFO = TableInfo(game_id=1, seats=[Seat(i, 100 + i, f"Player{i + 1}") for i in range(6)])


def rps_for_start() -> dict:
    """A claims START; B and C both use Tip: rock-paper-scissors between B and C."""
    state = build(wip="STAR", hands={A: ["T"], B: [TIP], C: [TIP]})
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 4})
    state, _ = act(state, A, {"type": "claim"})
    state, _ = act(state, B, {"type": "tip"})  # B takes START at once…
    state, _ = act(state, C, {"type": "tip"})  # …and C's Tip on the same word contests it
    assert state["rps"] is not None and state["phase"]["name"] == "main"  # beside B's turn
    return state


def table_text(state: dict) -> str:
    return UI.table(ENGINE.view(state, None), INFO).card.description


def test_rps_picks_stay_hidden_and_the_table_shows_who_has_chosen() -> None:
    state = rps_for_start()
    assert ENGINE.choices(state) == [state["rps"]["box"]]
    assert "Player2 … choosing" in table_text(state) and "Player3 … choosing" in table_text(state)
    state, events = act(state, B, {"type": "rps", "shape": "rock"})
    assert [(e.type, e.to) for e in events] == [("picked", (B,))]  # nothing for the table
    assert "Player2 ✔ chosen" in table_text(state) and "Player3 … choosing" in table_text(state)
    public = json.dumps(ENGINE.view(state, None))
    assert "rock" not in public and "rock" not in json.dumps(ENGINE.view(state, C))
    assert ENGINE.view(state, B)["my_pick"] == "rock" and ENGINE.view(state, C)["my_pick"] is None
    assert leaks(ENGINE, state) == []


def test_a_second_rps_press_is_refused_with_the_blocks_sentence() -> None:
    state, _ = act(rps_for_start(), B, {"type": "rps", "shape": "rock"})
    assert refused(state, B, {"type": "rps", "shape": "paper"}) == "You already chose."
    assert refused(state, A, {"type": "rps", "shape": "paper"}) == "You are not part of this choice."
    assert [w.seat for w in ENGINE.to_act(state)] == [B, C]  # B's turn, C's pick


def test_an_rps_timeout_completes_the_round_once() -> None:
    state = rps_for_start()
    waits = [w for w in ENGINE.to_act(state) if w.key.startswith("rps")]
    assert [w.seat for w in waits] == [B, C] and all(w.independent for w in waits)
    fallback = state["rps"]["fallback"][C]
    winning = next(s for s, beaten in BEATS.items() if beaten == fallback)
    state, _ = act(state, B, {"type": "rps", "shape": winning})
    (wait,) = [w for w in ENGINE.to_act(state) if w.key.startswith("rps")]
    assert wait.default == {"type": "rps", "shape": fallback, "timeout": True}
    state, events = act(state, C, wait.default)
    assert [e.type for e in events if e.to is None] == ["rps_reveal", "tip_kept"]  # B keeps it
    reveal = next(e for e in events if e.type == "rps_reveal")
    assert reveal.data["picks"] == [[B, winning], [C, fallback]]
    assert state["score"] == [0, 1, 0] and ENGINE.choices(state) == []
    assert state["stats"][B]["tips"] == 1 and state["stats"][C]["tips"] == 0
    assert ENGINE.view(state, None)["phase"]["name"] == "main"
    line = UI.event_line(reveal.to_json(), INFO)
    assert line is not None and f"Player2 {winning}" in line.replace("🪨 ", "").replace("📄 ", "").replace("✂️ ", "")


def test_a_drawn_rps_round_is_replayed_with_a_new_box() -> None:
    state = rps_for_start()
    key = state["rps"]["box"]["key"]
    state, _ = act(state, B, {"type": "rps", "shape": "rock"})
    state, events = act(state, C, {"type": "rps", "shape": "rock"})
    assert state["rps"] is not None and state["rps"]["box"]["key"] != key
    assert [e.type for e in events] == ["picked", "rps_reveal", "rps"]
    assert UI.event_line(events[-1].to_json(), INFO) == \
        "Rock, paper, scissors again between Player2 and Player3 (round 2)."


def won(state: dict, seat: int, length: int) -> None:
    cards = [c for c in Pool().free if c in state["boxed"]][:length]
    for card in cards:
        state["boxed"].remove(card)
    state["stacks"][seat].append(cards)
    state["score"][seat] += 1


def tied_game() -> dict:
    state = build()
    won(state, A, 5)
    won(state, B, 5)
    finish(state, "last_card", [])
    state = roundtrip(state)
    assert state["phase"]["name"] == "tiebreak"
    return state


def test_tiebreak_picks_stay_hidden_and_a_second_press_is_refused() -> None:
    state = tied_game()
    assert ENGINE.choices(state) == [state["phase"]["box"]]
    state, events = act(state, A, {"type": "wordblitz"})
    assert [(e.type, e.to) for e in events] == [("picked", (A,))]
    assert "wordblitz" not in json.dumps(ENGINE.view(state, None)).lower().replace("tiebreak", "")
    assert ENGINE.view(state, A)["my_pick"] == "wordblitz" and ENGINE.view(state, B)["my_pick"] is None
    assert leaks(ENGINE, state) == []
    assert "Player1 ✔ chosen · Player2 … choosing" in table_text(state)
    assert refused(state, A, {"type": "coin"}) == "You already chose."
    assert refused(state, C, {"type": "coin"}) == "You are not part of this choice."


def test_a_tiebreak_timeout_defaults_to_coin_and_resolves_once() -> None:
    state, _ = act(tied_game(), A, {"type": "wordblitz"})
    (wait,) = ENGINE.to_act(state)
    assert (wait.seat, wait.default, wait.independent) == (B, {"type": "coin", "timeout": True}, True)
    state, events = act(state, B, wait.default)
    assert [e.type for e in events if e.to is None] == ["tiebreak_reveal", "tiebreak_won"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.detail["tiebreak"] == "coin"
    winner = outcome.detail["winner"]
    assert outcome.ranks[winner] == 0 and outcome.ranks[C] == 2
    reason = UI.result_reason(outcome.to_json(), INFO)
    assert reason == (f"The last card was drawn. Player1 and Player2 were tied on points, letters and "
                      f"word lengths; Player{winner + 1} won the coin toss.")


def test_all_wordblitz_starts_wordblitz() -> None:
    state, _ = act(tied_game(), A, {"type": "wordblitz"})
    state, events = act(state, B, {"type": "wordblitz"})
    assert state["blitz"] is not None and state["phase"]["name"] == "main"
    assert state["phase"]["seat"] in (A, B) and ENGINE.choices(state) == []
    lines = [UI.event_line(e.to_json(), INFO) for e in events]
    assert "Tie-break: Player1 chose Wordblitz, Player2 chose Wordblitz." in lines
    assert "Wordblitz between Player1 and Player2! The first to finish a 3-letter word wins." in lines


def test_a_tied_player_who_leaves_hands_the_tiebreak_to_the_other() -> None:
    state = tied_game()
    state, events = ENGINE.forfeit(state, B, 1.0)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.detail == {"winner": A, "tiebreak": "walkover", "tied": [A, B]}
    assert outcome.ranks == (0, 2, 1)
    lines = [UI.event_line(e.to_json(), INFO) for e in events]
    assert lines == ["Player2 left the game.", "Player1 wins the tie-break: the others left it."]
    assert UI.result_reason(outcome.to_json(), INFO) == \
        "The last card was drawn. Player1 and Player2 were tied; Player1 won the tie-break when the others left."


def test_a_wordblitz_rival_who_leaves_hands_the_other_a_walkover() -> None:
    state, _ = act(tied_game(), A, {"type": "wordblitz"})
    state, _ = act(state, B, {"type": "wordblitz"})
    assert state["blitz"]
    state, _ = ENGINE.forfeit(state, B, 50.0)
    outcome = ENGINE.outcome(state)
    assert outcome is not None, "a Wordblitz with one player left must end"
    assert outcome.detail["winner"] == A and outcome.detail["tiebreak"] == "walkover"
    assert outcome.ranks[A] == 0 and ENGINE.to_act(state) == []


def test_a_tied_player_who_leaves_during_the_choice_is_not_awaited() -> None:
    state = tied_game()
    state, _ = ENGINE.forfeit(state, B, 50.0)
    assert all(w.seat != B for w in ENGINE.to_act(state))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks[A] == 0


def test_a_game_where_everyone_is_away_is_abandoned_without_a_result() -> None:
    state = roundtrip(build())
    now = 0.0
    for _ in range(400):
        if ENGINE.outcome(state) is not None:
            break
        (wait,) = [w for w in ENGINE.to_act(state) if w.default is not None][:1]
        now += wait.timeout or 10.0
        state, _ = ENGINE.apply(roundtrip(state), wait.seat, wait.default, now)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.abandoned and outcome.reason == "abandoned"
    assert state["left"] == []  # nobody was dropped with a result first
    assert "abandoned" in UI.result_reason(outcome.to_json(), INFO)
