"""The engine gives facts, the table gives words: every event of random games gets a line
with the players' names, and every refusal names players by placeholder and cites its rule."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cogs.hallway.events import EVENT_WORDS
from games.core import Event, IllegalAction
from games.hallway import ENGINE, schema
from tests.hallway.support import BLUE, NAMED, RED, UI, act, build, rig, roll, texts
from tests.playout import random_playout

RULES_TEXT = Path(__file__).resolve().parents[2] / "games" / "hallway" / "rules.md"
#: What stands in for a player in a sentence meant for people: names only.
NOT_A_NAME = re.compile(r"\bRed\b|\bBlue\b|Seat |\{|\}|\bNone\b")
COLOUR = re.compile(r"\bRed\b|\bBlue\b")
#: Every event the engine emits: the schema's catalogue; a new one must be worded in the UI.
EVENT_TYPES = set(schema.EVENTS)
SEEDS = range(60)


def rule_numbers() -> set[str]:
    """The numbered rules of §3 ("Rules as enforced") of the spec."""
    if not RULES_TEXT.exists():
        pytest.skip(f"the rules text is not at {RULES_TEXT}")
    text = RULES_TEXT.read_text(encoding="utf-8")
    section = text.split("## 3.", 1)[1].split("## 4.", 1)[0]
    return set(re.findall(r"^(\d+)\. ", section, re.M))


def played_events() -> list[Event]:
    """The events of random games (timeouts included), an AFK forfeit and a /game leave."""
    events: list[Event] = []
    for seed in SEEDS:
        run = random_playout(ENGINE, 2, seed)
        state = ENGINE.new_game(2, seed)
        for seat, action, now in run.log:
            state, made = ENGINE.apply(state, seat, action, now)
            events += made
    idle = build(pos=(2, 18), turn=BLUE, timeouts=[0, 4])
    events += act(rig(idle, 1), BLUE, {"type": "roll", "timeout": True})[1]
    events += ENGINE.forfeit(build(), RED, 0.0)[1]
    return events


EVENTS = played_events()


def test_every_event_type_is_emitted_and_worded_with_names() -> None:
    seen = {e.type for e in EVENTS}
    assert seen == EVENT_TYPES
    worded: dict[str, int] = {}
    for event in EVENTS:
        line = UI.event_line(event.to_json(), NAMED)
        assert line, f"no line for {event}"
        assert not NOT_A_NAME.search(line), line
        assert event.to is None  # everything is public in the hallway
        assert not COLOUR.search(json.dumps(event.data)), event  # facts, not sentences
        worded[event.type] = worded.get(event.type, 0) + 1
    assert set(worded) == EVENT_TYPES


def test_the_ui_covers_the_catalogue() -> None:
    """Every event of the schema's catalogue has its words (each kind's rule: test_verify.py)."""
    assert set(EVENT_WORDS) == set(schema.EVENTS)


def test_timer_defaults_are_logged_as_such() -> None:
    timed = [e for e in EVENTS if e.data.get("timeout")]
    assert {e.type for e in timed} >= {"rolled", "land", "nodeal", "decline", "edge"}
    for event in timed:
        line = UI.event_line(event.to_json(), NAMED) or ""
        assert line.startswith(("⏰ time ran out — ", "⏱️ No offer in time")), line
    idle = build(pos=(2, 18))
    _, events = act(rig(idle, 3), RED, {"type": "roll", "timeout": True})
    assert texts(events) == "⏰ time ran out — 🔴 alice rolled 🎲3 and waddled to 5 (R4): +4 → 4."


def test_the_result_is_worded_with_names_for_every_ending() -> None:
    def reason(state: dict[str, Any]) -> str:
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        return UI.result_reason(outcome.to_json(), NAMED)

    won, _ = roll(build(pos=(18, 4), score=(30, 12), passed=True), RED, 3)
    won, _ = roll(won, BLUE, 2)
    assert reason(won) == "🔴 alice is the Honorary Skinny Dude (alice 30, bob −3)."
    tie, _ = roll(build(pos=(18, 4), score=(15, 30), passed=True), RED, 2)
    tie, _ = roll(tie, BLUE, 2)
    assert reason(tie) == "🔴 alice got out of the hallway and wins the tie (alice 15, bob 15)."
    shared, _ = roll(build(pos=(19, 1), score=(15, 15), passed=True), RED, 2)
    shared, _ = roll(shared, BLUE, 3)
    assert reason(shared) == "Shared victory at alice 15, bob 15: two Honorary Skinny Dudes!"
    left, _ = ENGINE.forfeit(build(), BLUE, 0.0)
    assert reason(left) == "🔵 bob left the hallway: alice wins."
    idle, _ = act(rig(build(pos=(2, 18), turn=BLUE, timeouts=[0, 4]), 1), BLUE, {"type": "roll", "timeout": True})
    assert reason(idle) == "💤 🔵 bob let 5 turns pass in a row and forfeits: alice wins."


def every_press() -> list[dict[str, Any]]:
    """Every kind of press, well-formed or not, that a dude can send."""
    offers = [{"type": "offer", "payer": payer, "amount": amount}
              for payer in ("me", "you", "nobody") for amount in (0, 7, -1, 1000, "5")]
    return [{"type": "roll"}, {"type": "accept"}, {"type": "decline"}, {"type": "nodeal"},
            {"type": "edge", "back": "me"}, {"type": "edge", "back": "you"}, {"type": "edge"},
            {"type": "offer"}, *offers]


def test_every_refusal_cites_a_rule_of_the_spec_and_names_by_placeholder() -> None:
    rules = rule_numbers()
    assert rules == {str(n) for n in range(1, 19)}
    cited: set[str] = set()
    refusals = 0
    for seed in range(12):
        run = random_playout(ENGINE, 2, seed)
        for state in run.states[:-1:max(1, len(run.states) // 25)]:  # the end is the core's to refuse
            for seat in (0, 1, 2):
                for action in every_press():
                    try:
                        ENGINE.apply(state, seat, action, 0.0)
                    except IllegalAction as exc:
                        refusals += 1
                        assert exc.rule in rules, (exc.message, exc.rule)
                        cited.add(exc.rule)
                        assert set(re.findall(r"\{(\w+)\}", exc.message)) == set(exc.seats), exc.message
                        sentence = exc.render(NAMED.name_of)
                        assert not NOT_A_NAME.search(sentence), sentence
    assert refusals > 1000 and cited >= {"1", "2", "4", "8", "9", "10", "11", "12"}
