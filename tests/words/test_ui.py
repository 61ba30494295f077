"""The Fighting Words screens: no hand on the table, legal small controls, names (the pictures are
tests/words/test_render.py)."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Any

import pytest

from cogs.table.ui import Button, FormButton, Screen, Seat, Select, TableInfo
from cogs.words.ui import WordsUI
from games.core import IllegalAction
from games.words import ENGINE
from games.words.cards import face, is_letter
from games.words.state import spell
from tests.playout import random_playout
from tests.secrecy import get
from tests.words.support import A, act, build

UI = WordsUI()
INFO = TableInfo(game_id=1, seats=[Seat(i, 100 + i, f"Player{i + 1}") for i in range(6)])


def sample_states() -> list[dict]:
    states = []
    for players, seed in ((2, 1), (3, 2), (4, 3), (6, 4), (5, 11)):
        run = random_playout(ENGINE, players, seed)
        states += [*run.states[::max(1, len(run.states) // 25)], run.final]
    return states


SAMPLES = sample_states()


def text_of(screen: Screen) -> str:
    return json.dumps([asdict(screen.card), [asdict(c) for c in screen.controls]], ensure_ascii=False)


def actions_of(screen: Screen) -> list[dict[str, Any]]:
    """What the controls send (a form as if 0 were typed in each of its number fields)."""
    out = []
    for control in screen.controls:
        if isinstance(control, Select):
            out += [c.action for c in control.choices]
        elif isinstance(control, Button):
            out.append(control.action)
        elif isinstance(control, FormButton):
            out.append({**control.action, **{f.name: 0 for f in control.fields}})
    return out


def test_rules_fit_discord() -> None:
    assert 500 < len(UI.rules) <= 4000


def test_the_table_never_shows_a_hidden_card() -> None:
    for state in SAMPLES:
        shown = text_of(UI.table(ENGINE.view(state, None), INFO))
        secret = {get(state, s.path) for s in ENGINE.secrets(state) if s.pool == "card"}
        assert secret or ENGINE.outcome(state) is not None
        assert not [c for c in secret if re.search(rf"\b{re.escape(str(c))}\b", shown)]


def test_the_table_does_not_change_when_hands_change() -> None:
    """Swap every hand for other letters: the public screen must stay byte-identical."""
    for state in SAMPLES[::3]:
        other = json.loads(json.dumps(state))
        spare = [c for c in other["boxed"] if is_letter(c)]
        for hand in other["hands"]:
            for i, card in enumerate(hand):
                swap = next((s for s in spare if face(s) != face(card)), None)
                if swap is not None:
                    spare.remove(swap)
                    hand[i] = swap
        assert text_of(UI.table(ENGINE.view(state, None), INFO)) == \
            text_of(UI.table(ENGINE.view(other, None), INFO))


def test_screens_respect_discord_limits() -> None:
    for state in SAMPLES:
        screens = [UI.table(ENGINE.view(state, None), INFO)]
        screens += [UI.private(ENGINE.view(state, s), s, INFO) for s in range(state["players"])]
        for screen in filter(None, screens):
            assert len(screen.card.description) <= 4096 and len(screen.card.fields) <= 25
            assert all(len(v) <= 1024 for _, v, _ in screen.card.fields)
            assert len(screen.controls) <= 5
            for control in screen.controls:
                if isinstance(control, Select):
                    assert 1 <= len(control.choices) <= 25
            for action in actions_of(screen):
                assert len(json.dumps(action, separators=(",", ":"))) <= 75


def test_private_controls_of_the_seat_in_turn_are_all_legal() -> None:
    checked = 0
    for state in SAMPLES:
        phase = state["phase"]
        if phase["name"] not in ("main", "claim"):
            continue
        seat = phase["seat"]
        screen = UI.private(ENGINE.view(state, seat), seat, INFO)
        assert screen is not None
        for action in actions_of(screen):
            try:
                ENGINE.apply(state, seat, action, 1.0)
            except IllegalAction as exc:  # pragma: no cover - the assertion explains
                pytest.fail(f"{action}: {exc.message}")
            checked += 1
    assert checked > 50


def test_two_step_letter_play() -> None:
    state = build(wip="TAR", hands={A: ["S"]})
    screen = UI.private(ENGINE.view(state, A), A, INFO)
    pick = next(a for a in actions_of(screen) if a == {"type": "pick", "card": "S"})
    state, _ = act(state, A, pick)
    screen = UI.private(ENGINE.view(state, A), A, INFO)
    front = next(a for a in actions_of(screen) if a.get("type") == "play")
    assert front == {"type": "play", "card": "S", "at": 0}
    state, _ = act(state, A, front)
    assert state["phase"]["name"] == "claim"
    claim = UI.private(ENGINE.view(state, A), A, INFO)
    assert {"type": "claim"} in actions_of(claim)


def test_two_step_editor() -> None:
    state = build(wip="ASTR", hands={A: ["editor"]})
    screen = UI.private(ENGINE.view(state, A), A, INFO)
    state, _ = act(state, A, {"type": "pick", "card": "editor", "from": 0})
    screen = UI.private(ENGINE.view(state, A), A, INFO)
    assert {"type": "editor", "from": 0, "to": 2} in actions_of(screen)


def test_table_shows_word_positions_scores_and_whose_turn() -> None:
    state = build(wip="STAR")
    state["score"][1] = 2
    screen = UI.table(ENGINE.view(state, None), INFO)
    text = text_of(screen)
    assert "S  T  A  R" in screen.card.description and " 1  2  3  4" in screen.card.description
    assert "Player1's turn" in text and "2 pt" in text


def test_event_lines_use_names() -> None:
    state = build(wip="TAR", hands={A: ["S"]})
    _, events = act(state, A, {"type": "play", "card": "S", "at": 0})
    assert [UI.event_line(e.to_json(), INFO) for e in events] == ["Player1 played S → STAR."]


def test_table_lists_every_public_count_and_the_turn_passes_at_once() -> None:
    """Issue #5: word, whose turn, draw/discard/boxed piles, hand sizes, points, won words,
    lost turns, skips, throw-aways. After a play the ▶ moves on at once; the change stays on
    the table with its ⚔️ Challenge button, which nobody has to press."""
    state = build(wip="ST", hands={A: ["R"]}, discard=["K", "backspace"])
    state["forced_skip"][2] = 1
    state["skip_streak"] = [1]
    state["stalemates"] = 2
    state["stacks"][1] = [state["boxed"][:4]]
    state["score"][1] = 1
    state, _ = act(state, A, {"type": "play", "card": "R", "at": 2})
    view = ENGINE.view(state, None)
    screen = UI.table(view, INFO)
    text = text_of(screen)
    assert state["phase"] == {**state["phase"], "name": "main", "seat": 1}
    assert ("⚔️ Player1 played a letter → **STR**: anyone else may ⚔️ Challenge it until the word "
            "changes again.") in screen.card.description
    assert "Player2's turn" in screen.card.description
    number = state["changes"][-1]["n"]
    assert [(c.label, c.action) for c in screen.controls] == [("Challenge", {"type": "challenge", "change": number})]
    players = dict(screen.card.fields[i][:2] for i in range(len(screen.card.fields)))["Players"].splitlines()
    assert players[1].startswith("▶ **Player2**") and not players[0].startswith("▶")
    assert "1 pt" in players[1] and "".join(view["words"][1]) in players[1]
    assert "⏭️ loses 1 turn" in players[2] and "7 cards" in players[2]
    piles = dict((n, v) for n, v, _ in screen.card.fields)["Piles"]
    assert f"{view['draw_size']} to draw · 2 discarded · {view['boxed_size']} boxed" in piles
    assert "Letters: K" in piles and "Events: Backspace" in piles
    assert "2 of 3 thrown away in a row" in text


def test_the_challenge_line_names_backspace_and_editor() -> None:
    state = build(wip="QUIT", hands={A: ["backspace"]})
    state, _ = act(state, A, {"type": "backspace", "index": 1})
    assert "⚔️ Player1 used Backspace → **QIT**" in UI.table(ENGINE.view(state, None), INFO).card.description
    state = build(wip="ASTR", hands={A: ["editor"]})
    state, _ = act(state, A, {"type": "editor", "from": 0, "to": 2})
    assert "⚔️ Player1 used Editor → **STAR**" in UI.table(ENGINE.view(state, None), INFO).card.description


def test_no_challenge_button_while_its_own_player_is_in_turn() -> None:
    """Two players, the other one loses a turn: the player whose change it is plays again at
    once. The button would be refused to the only player the table waits for, so it is not
    shown; the other player can still type `/words challenge`."""
    state = build(players=2, wip="ST", hands={A: ["Q"]})
    state["forced_skip"][1] = 1
    state, _ = act(state, A, {"type": "play", "card": "Q", "at": 2})
    assert state["phase"]["seat"] == A
    screen = UI.table(ENGINE.view(state, None), INFO)
    assert screen.controls == [] and "anyone else may `/words challenge` it" in screen.card.description
    state, events = act(state, 1, {"type": "challenge"})
    assert events[0].data["upheld"] is True and spell(state["wip"]) == "ST"


def test_a_letter_on_an_empty_word_is_played_in_one_step() -> None:
    state = build(wip="", hands={A: ["S", "T"]})
    screen = UI.private(ENGINE.view(state, A), A, INFO)
    assert screen is not None
    [menu] = [c for c in screen.controls if isinstance(c, Select) and c.placeholder == "Play a letter…"]
    assert {"type": "play", "card": "S", "at": 0} in [c.action for c in menu.choices]
    assert not [c for c in screen.controls if isinstance(c, Select) and c.placeholder.startswith("Where")]
    assert "Pick a letter to start the word" in screen.card.description
    state, _events = act(state, A, {"type": "play", "card": "S", "at": 0})
    assert spell(state["wip"]) == "S" and state["phase"]["seat"] == 1
    # a letter picked earlier (the word then emptied by a challenge) does not ask where either
    state = build(wip="", hands={A: ["S"]})
    state["picks"][A] = "S"
    screen = UI.private(ENGINE.view(state, A), A, INFO)
    assert screen is not None and not [c for c in screen.controls if isinstance(c, Select)
                                       and c.placeholder.startswith("Where")]
    # a longer word still asks where the letter goes
    state = build(wip="T", hands={A: ["S"]})
    screen = UI.private(ENGINE.view(state, A), A, INFO)
    assert screen is not None and {"type": "pick", "card": "S"} in actions_of(screen)


def test_the_tip_button_is_on_the_table_while_the_window_is_open() -> None:
    state = build(wip="STAR", hands={A: ["T"]})
    state, _ = act(state, A, {"type": "play", "card": "T", "at": 4})
    state, _ = act(state, A, {"type": "claim"})
    screen = UI.table(ENGINE.view(state, None), INFO)
    assert [c.label for c in screen.controls] == ["Use Tip"]
    assert "💡 **START** was just completed: Tip of My Tongue may take it" in screen.card.description


def test_editor_target_menu_leaves_out_where_the_letter_already_is() -> None:
    state = build(wip="ASTR", hands={A: ["editor"]})
    state, _ = act(state, A, {"type": "pick", "card": "editor", "from": 1})
    screen = UI.private(ENGINE.view(state, A), A, INFO)
    assert screen is not None
    targets = [a["to"] for a in actions_of(screen) if a["type"] == "editor"]
    assert targets == [0, 2, 3]  # "to 1" would be refused: move the letter somewhere else
    for to in targets:
        ENGINE.apply(state, A, {"type": "editor", "from": 1, "to": to}, 1.0)


def test_an_empty_hand_can_still_skip() -> None:
    state = build(wip="ST")
    state["boxed"] += state["hands"][A]
    state["hands"][A] = []
    screen = UI.private(ENGINE.view(state, A), A, INFO)
    assert screen is not None
    assert all(not isinstance(c, Select) or c.choices for c in screen.controls)  # Discord needs 1+ options
    [skip] = [c for c in screen.controls if isinstance(c, Button)]
    state, _ = act(state, A, skip.action)
    assert state["phase"]["seat"] != A and A in state["skip_streak"]
