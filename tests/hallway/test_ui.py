"""The hallway's screen: right controls per phase, legal actions, names and words (the picture
is tests/hallway/test_render.py)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from cogs.hallway.ui import HallwayUI
from cogs.table.ui import Button, FormButton, Screen, Seat, TableInfo
from games.core import IllegalAction
from games.hallway import ENGINE
from tests.hallway.support import BLUE, RED, build, negotiating, offer, roll
from tests.playout import random_playout

UI = HallwayUI()
INFO = TableInfo(game_id=1, seats=[Seat(0, 100, "Alice"), Seat(1, 101, "Bob")])
PNG = b"\x89PNG\r\n\x1a\n"


def sample_states() -> list[dict[str, Any]]:
    states = []
    for seed in range(8):
        run = random_playout(ENGINE, 2, seed)
        states += [*run.states[:: max(1, len(run.states) // 15)], run.final]
    return states


SAMPLES = sample_states()


def screen_of(state: dict[str, Any]) -> Screen:
    return UI.table(ENGINE.view(state, None), INFO)


def text_of(screen: Screen) -> str:
    return json.dumps([asdict(screen.card), [asdict(c) for c in screen.controls]], ensure_ascii=False)


def labels(screen: Screen) -> list[str]:
    return [c.label for c in screen.controls if not (isinstance(c, Button) and c.disabled)]


def test_rules_fit_discord() -> None:
    assert 1000 < len(UI.rules) <= 4000


def test_screens_respect_discord_limits() -> None:
    for state in SAMPLES:
        screen = screen_of(state)
        card = screen.card
        assert len(card.title) <= 256 and len(card.description) <= 4096 and len(card.fields) <= 25
        assert all(len(name) <= 256 and len(value) <= 1024 for name, value, _ in card.fields)
        assert len(screen.controls) <= 5
        for control in screen.controls:
            assert len(json.dumps(control.action, separators=(",", ":"))) <= 75
            assert len(control.label) <= 80
            if isinstance(control, FormButton):
                assert len(control.title) <= 45 and all(len(f.label) <= 45 for f in control.fields)


def test_every_enabled_control_is_legal_for_an_awaited_dude() -> None:
    checked = 0
    for state in SAMPLES:
        seats = {w.seat for w in ENGINE.to_act(state)}
        for control in screen_of(state).controls:
            if isinstance(control, Button) and control.disabled:
                continue
            action = dict(control.action)
            if isinstance(control, FormButton):
                action["amount"] = 7
            ok = []
            for seat in seats:
                try:
                    ENGINE.apply(state, seat, action, 1.0)
                    ok.append(seat)
                except IllegalAction:
                    pass
            assert ok, f"{control.label} is legal for nobody"
            checked += 1
    assert checked > 100


def test_rolling_shows_only_the_roll_button_and_whose_turn() -> None:
    screen = screen_of(build(pos=(4, 13), score=(9, -2)))
    assert labels(screen) == ["Roll"]
    assert "Alice's turn to roll" in screen.card.description


def test_table_shows_track_scores_star_edge_boxes_and_penalties() -> None:
    screen = screen_of(build(pos=(4, 13), score=(9, -2), encounters=2, edge=BLUE))
    assert "**🔴R6**" in screen.card.description and "**🔵B8**" in screen.card.description
    assert screen.card.description.startswith("[R]·R3·R5·B2")
    fields = {name: value for name, value, _ in screen.card.fields}
    assert "🔴 Red — Alice ★" in fields and "🔵 Blue — Bob" in fields
    assert "**9** points" in fields["🔴 Red — Alice ★"] and "−80" in fields["🔴 Red — Alice ★"]
    assert "−65" in fields["🔵 Blue — Bob"]
    assert fields["🗡️ The Edge"] == "🔵 Bob"
    assert fields["💥 Encounters"].startswith("☑☑☐☐☐") and "10" in fields["💥 Encounters"]


def test_an_encounter_offers_both_forms_and_no_deal() -> None:
    screen = screen_of(negotiating(pos=(9, 10), encounters=1))
    assert labels(screen) == ["Offer: I pay you…", "Offer: you pay me…", "No deal"]
    forms = [c for c in screen.controls if isinstance(c, FormButton)]
    assert [f.action for f in forms] == [{"type": "offer", "payer": "me"}, {"type": "offer", "payer": "you"}]
    assert all(f.fields[0].integer and f.fields[0].name == "amount" for f in forms)


def test_an_offer_shows_accept_decline_counter() -> None:
    state = offer(negotiating(pos=(9, 10), encounters=1), RED, "me", 6)
    screen = screen_of(state)
    assert labels(screen) == ["Accept", "Decline", "Counter: I pay you…", "Counter: you pay me…"]
    assert "“I pay you 6”" in screen.card.description and "Bob may Accept" in screen.card.description


def test_after_ten_offers_the_counters_are_disabled() -> None:
    state = negotiating(pos=(9, 10), encounters=1)
    for n in range(10):
        state = offer(state, n % 2, "you", 1)
    screen = screen_of(state)
    assert labels(screen) == ["Accept", "Decline"]
    assert any(isinstance(c, Button) and c.disabled and "Counter" in c.label for c in screen.controls)
    assert not any(isinstance(c, FormButton) for c in screen.controls)


def test_the_edge_holder_gets_two_choices_with_the_fee() -> None:
    screen = screen_of(build(pos=(9, 10), phase="edge", encounters=3, edge=RED))
    assert labels(screen) == ["I go back (−10)", "Send Bob back (−10)"]
    assert "Alice has the Edge" in screen.card.description


def test_the_final_screen_names_the_honorary_skinny_dude() -> None:
    state, _ = roll(build(pos=(17, 2), score=(25, 20), passed=True, turn=BLUE), BLUE, 2)
    screen = screen_of(state)
    assert screen.controls == []
    assert "🔵 Bob is the **Honorary Skinny Dude**" in screen.card.description
    assert "Alice 10 · Bob 20" in screen.card.description
    assert ("Round", "1 · game over", True) in list(screen.card.fields)


def test_event_lines_use_player_names() -> None:
    _, events = roll(build(pos=(7, 11), score=(12, 0)), RED, 4)
    assert [e.type for e in events] == ["land", "encounter"]
    assert events[0].data == {"seat": RED, "pos": 10, "how": "bump", "roll": 4, "delta": [10, 0],
                              "kind": "land", "score": 22}
    line = UI.event_line(events[0].to_json(), INFO)
    assert line == "🔴 Alice rolled 🎲4 and bumped into Bob on 10 (G10): +10 → 22."


def test_the_encounter_boxes_give_the_fee_of_the_encounter_on_the_table() -> None:
    def boxes(state: dict[str, Any]) -> str:
        return {name: value for name, value, _ in screen_of(state).card.fields}["💥 Encounters"]

    assert boxes(negotiating(pos=(9, 10), encounters=2)) == "☑☑☐☐☐ — encounter 2: going back costs 5"
    assert boxes(build(pos=(9, 10), phase="edge", encounters=3)) == "☑☑☑☐☐ — encounter 3: going back costs 10"
    assert boxes(build(pos=(4, 13), encounters=2)) == "☑☑☐☐☐ — next one: going back costs 10"
    assert boxes(build(pos=(4, 13), encounters=4)) == "☑☑☑☑☐ — next meeting: they slip past"
    assert boxes(build(pos=(11, 9), encounters=2, passed=True)) == "☑☑☐☐☐ — passed by a deal at encounter 2"
    assert boxes(build(pos=(11, 9), encounters=5, passed=True)) == "☑☑☑☑☑ — passed at the fifth meeting"


def test_the_amount_form_lets_too_long_amounts_reach_the_check() -> None:
    """Discord's client cuts typing at max_length: 3 would turn “1000” into “100” silently."""
    [form, _] = [c for c in screen_of(negotiating(pos=(9, 10), encounters=1)).controls if isinstance(c, FormButton)]
    [amount] = form.fields
    assert amount.integer and 4 <= amount.max_length <= 9
