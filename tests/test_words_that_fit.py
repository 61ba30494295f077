"""Words that fit, in every game (issue 20 item 6): over the UI contract's seeded playouts, every
event line, table and private card, button label and result reads "1 card" (never "1 cards")
and writes a negative number with the minus sign "−" (never the hyphen "-")."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from cogs.table.present import table_info
from cogs.table.registry import UIS
from cogs.table.ui import Button, Screen, Select
from tests.test_ui_contract import KINDS, playouts, record, sampled

#: A hyphen where a minus sign belongs: "-3", "(-3)", ": -3", "→ -3", not "2-4" or "B-2".
HYPHEN_MINUS = re.compile(r"(?:^|[\s(:,=→/])-\d")
UNITS = ("card", "game", "win", "point", "bumper", "player", "trick", "kniggit", "step", "turn", "letter",
         "second", "minute", "round", "token", "chocolate", "penalty", "move", "word", "seat", "army", "hand")
#: "1 cards", "−1 points": a count of one with a plural noun.
ONE_PLURAL = re.compile(r"(?<![\d.,])[−-]?\b1 (?:" + "|".join(UNITS) + r")(?:s|ies)\b")


def screen_texts(screen: Screen | None) -> Iterator[str]:
    if screen is None:
        return
    card = screen.card
    yield from (card.title, card.description, card.footer)
    for name, value, _ in card.fields:
        yield from (name, value)
    for control in screen.controls:
        if isinstance(control, Button):
            yield control.label
        elif isinstance(control, Select):
            yield from (getattr(o, "label", "") for o in getattr(control, "options", ()))


def problems_in(text: str, where: str) -> Iterator[str]:
    for line in (text or "").splitlines():
        if HYPHEN_MINUS.search(line.replace("`", "")):
            yield f"{where}: hyphen for a minus in {line!r}"
        if ONE_PLURAL.search(line):
            yield f"{where}: a plural after 1 in {line!r}"


@pytest.mark.parametrize("kind", KINDS)
def test_player_facing_text_uses_the_minus_sign_and_plurals(kind: str) -> None:
    ui = UIS[kind]
    found: set[str] = set()
    for run in playouts(kind):
        engine = run.engine
        info = table_info(record(kind, run, 0))
        for step in run.events:
            for event in step:
                line = ui.event_line(event.to_json(), info) or ""
                found.update(problems_in(line, f"event {event.type}"))
        outcome = engine.outcome(run.states[-1])
        assert outcome is not None
        found.update(problems_in(ui.result_reason(outcome.to_json(), info), "result"))
        for score in outcome.scores or ():
            found.update(problems_in(ui.result_score(score), "result score"))
        for index in sampled(run):
            state = run.states[index]
            game = record(kind, run, index)
            info = table_info(game)
            for text in screen_texts(ui.table(engine.view(state, None), info)):
                found.update(problems_in(text, "table"))
            for seat in range(run.players):
                for text in screen_texts(ui.private(engine.view(state, seat), seat, info)):
                    found.update(problems_in(text, "private"))
    assert not found, "\n".join(sorted(found)[:30])


def test_the_checks_catch_a_hyphen_and_a_bad_plural() -> None:
    assert list(problems_in("score -3", "x")) and list(problems_in("(−1 points)", "x"))
    assert list(problems_in("Your hand — 1 cards", "x"))
    assert not list(problems_in("2-4 players · −3 · 11 cards · 21 points · B-2", "x"))
