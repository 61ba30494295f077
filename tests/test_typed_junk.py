"""Junk typed into any form or slash command of any game is answered clearly: a refusal (a
short sentence) or a legal step, never a crash, and a refusal leaves the state as it was.

Hypothesis fills every form a seat is offered and every typed command (`/<game> <shortcut>`
and `/<game> do`) at states from every phase of seeded random games, with what players and
attackers type: unicode digits ("²", "٣", "１２"), numbers of thousands of digits, nothing,
6,000 characters (Discord's limit for a command), lines that almost read. The text goes the
way the bot takes it: a modal through `read_field` into the form's action, a command's
options as Discord checked them (`misfit`: declared types, ranges, choices) through the
shortcut's `build`, `/do` through `offered_action`; then the action loop's judgement
(`judged(engine.apply)`, typed actions marked as the runtime marks them)."""

from __future__ import annotations

import json
import os
import re
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.table.codec import pack
from cogs.table.controls import controls_for, find_form, offered_action, read_field
from cogs.table.options import DISCORD_INT, from_param, given_options
from cogs.table.registry import load_builtin_uis, ui_for
from cogs.table.ui import FormButton, Param, Shortcut
from games.core import IllegalAction
from games.registry import get_engine
from runtime.errors import Refusal
from runtime.service import RUNTIME_FIELDS, judged
from storage import GameRecord, SeatRecord, Status
from tests.playout import random_playout

GAMES = [("words", 3, {}), ("hallway", 2, {}), ("tarot", 4, {}), ("fencing", 3, {}),
         ("kniggits", 2, {"archers": True}), ("kniggits", 3, {})]
#: Discord's limit for the text of one command (and what a 4,000-character form field is under).
COMMAND_LIMIT = 6_000
#: A refusal is a short sentence: it never repeats a whole line of junk back.
REFUSAL_LIMIT = 300
#: Seconds one judgement may take (a slow machine shared with other work).
SLOW = 2.0
NOW = 5_000.0
#: Examples per game: the same ones on every run; HYPOTHESIS_PROFILE=thorough explores fresh ones.
EXAMPLES = 5_000 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 600

UNICODE_DIGITS = ["²", "³", "¹", "⁵", "٣", "۴", "१", "১", "１２", "٣٤", "½", "Ⅻ", "𝟘", "߁", "𑁧"]
ODD_NUMBERS = ["0x10", "1_000", "-0", "+5", "1e3", "1.5", "−3", "٫", "00012", "99999999999999999999", "-1", "0"]
HUGE = st.integers(4_000, 5_500).map(lambda n: "9" * n)
NUMBERISH = st.one_of(st.sampled_from(UNICODE_DIGITS + ODD_NUMBERS), HUGE, st.integers(-50, 80).map(str))


def nearly(numbers: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Lines that almost read, in every game's shapes: an army line, a placement, a cell, a
    destination with waypoints, a town list, a card, a letter position."""
    word = st.sampled_from(["Lance", "A1", "B2", "A9", "HEB", "CU-10", "SW-2", "W-1", "E", "via", "archer", ""])
    return st.one_of(
        st.builds("{} {} {} {}".format, word, numbers, numbers, numbers),
        st.builds("{} {},{}".format, word, numbers, numbers),
        st.builds("{},{} via {},{}".format, numbers, numbers, numbers, numbers),
        st.builds(lambda parts: ";".join(parts), st.lists(st.builds("{} {},{}".format, word, numbers, numbers),
                                                          max_size=30)),
    )


JUNK = st.one_of(
    st.just(""), st.sampled_from([" ", "\n", "\n\n\n", ";", ",", "@everyone", "<@123>", "`", "{turn}", "\x00"]),
    NUMBERISH, nearly(NUMBERISH),
    st.text(max_size=40),
    st.builds(lambda c, n: c * n, st.sampled_from(["9", "²", "A1 1,1\n", "x", " ", "Lance 2 2 2\n", ",", ";"]),
              st.integers(1, COMMAND_LIMIT)).map(lambda s: s[:COMMAND_LIMIT]),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=20).map(lambda s: (s * 400)[:COMMAND_LIMIT]),
)


# ----- states from every phase -----------------------------------------------------------------
def record(kind: str, state: dict[str, Any], players: int) -> GameRecord:
    return GameRecord(
        id=7, guild_id=1, channel_id=2, thread_id=None, kind=kind, host_id=100, options={},
        status=Status.ACTIVE, version=9, seed=3, state=state, deadlines=[], log=[], table_message_id=None,
        table_message_at=None, created_at=0.0, updated_at=0.0,
        seats=[SeatRecord(s, 100 + s, f"p{s}") for s in range(players)],
    )


def prompt_kind(prompt: str) -> str:
    return re.sub(r"\b[A-Z]*\d+\b", "#", prompt)


def sample_states(kind: str, players: int, options: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
    """(state, awaited seat) for the first time each kind of prompt is asked in two seeded
    random games, and every 5th step besides: every phase, every form."""
    engine = get_engine(kind)
    out: list[tuple[dict[str, Any], int]] = []
    seen: set[tuple[int, str]] = set()
    for seed in (1, 2):
        for n, state in enumerate(random_playout(engine, players, seed, options).states):
            if engine.outcome(state) is not None:
                continue
            for wait in engine.to_act(state):
                if wait.seat is None:
                    continue
                first = (wait.seat, prompt_kind(wait.prompt)) not in seen
                seen.add((wait.seat, prompt_kind(wait.prompt)))
                if first or n % 5 == 0:
                    out.append((state, wait.seat))
    return out


load_builtin_uis()
SAMPLES = {(kind, players): sample_states(kind, players, options) for kind, players, options in GAMES}


# ----- the ways in, as the bot takes them --------------------------------------------------------
def option_value(param: Param, draw: Any) -> Any:
    """A value Discord lets through for `param` (`misfit` refuses any other)."""
    if param.choices:
        return draw(st.sampled_from(sorted(param.choices)))
    if param.integer:
        low = -DISCORD_INT if param.minimum is None else param.minimum
        high = DISCORD_INT if param.maximum is None else param.maximum
        return draw(st.one_of(st.integers(low, high), st.sampled_from([low, high])))
    return draw(JUNK)


def by_command(shortcut: Shortcut, draw: Any) -> dict[str, Any]:
    """`/<game> <shortcut>` as `run_shortcut` builds it (optional options sometimes left out)."""
    options: dict[str, Any] = {}
    for param in shortcut.params:
        if param.required or draw(st.booleans()):
            options[from_param(param).python_name] = option_value(param, draw)  # as discord.py passes it
    return {**shortcut.build(given_options(shortcut.params, options)), "typed": True}


def by_form(game: GameRecord, seat: int, form: FormButton, draw: Any) -> dict[str, Any]:
    """A modal submission as `Intake.on_modal` reads it: every field through `read_field`
    (the modal holds each field to its max length; a forged one may send more)."""
    found = find_form(game, seat, form.action)  # the form behind the modal's action, found again
    assert found is not None
    form = found
    values = {field.name: draw(JUNK) for field in form.fields}
    read = {field.name: read_field(field, values[field.name]) for field in form.fields}
    return {**form.action, **read}


def by_do(game: GameRecord, seat: int, form: FormButton, draw: Any) -> dict[str, Any]:
    """`/<game> do action:<the form> value:<junk>`."""
    return {**offered_action(game, seat, pack(form.action), draw(JUNK)), "typed": True}


def judge(game: GameRecord, seat: int, action: dict[str, Any]) -> str | None:
    """The action loop's judgement without the commit: None when the step is legal, else the
    refusal's sentence. Anything but a refusal fails the test."""
    engine = get_engine(game.kind)
    assert game.state is not None
    before = json.dumps(game.state, sort_keys=True)
    started = time.perf_counter()
    try:
        if RUNTIME_FIELDS & action.keys() - {"typed"}:
            raise Refusal("That is not something you can do.")
        state, _events = judged(game, lambda: engine.apply(game.state, seat, action, NOW))
    except Refusal as exc:
        return exc.message
    finally:
        assert time.perf_counter() - started < SLOW, f"{game.kind}: {str(action)[:200]} took too long"
        assert json.dumps(game.state, sort_keys=True) == before, "the state changed under a refusal"
    assert json.loads(json.dumps(state)) == state
    return None


@pytest.mark.parametrize(("kind", "players"), [(k, p) for k, p, _ in GAMES], ids=[f"{k}-{p}" for k, p, _ in GAMES])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_junk_in_every_form_and_command_is_answered_clearly(kind: str, players: int, data: st.DataObject) -> None:
    state, seat = data.draw(st.sampled_from(SAMPLES[(kind, players)]), label="state")
    if data.draw(st.integers(0, 4), label="someone else") == 0:  # a seat not awaited types too
        seat = data.draw(st.integers(0, players - 1), label="seat")
    game = record(kind, state, players)
    forms = [c for _, c, _ in controls_for(game, seat) if isinstance(c, FormButton)]
    ways = [("command", s) for s in ui_for(kind).shortcuts] + [(w, f) for f in forms for w in ("form", "do")]
    way, what = data.draw(st.sampled_from(ways), label="way")
    try:
        if way == "command":
            action = by_command(what, data.draw)
        elif way == "form":
            action = by_form(game, seat, what, data.draw)
        else:
            action = by_do(game, seat, what, data.draw)
    except Refusal as exc:  # the edge refused it before the engine (a form field, a `do` value)
        message = exc.message
    else:
        try:
            message = judge(game, seat, action)
        except IllegalAction as exc:  # pragma: no cover - judged() turns these into refusals
            raise AssertionError(f"unjudged refusal: {exc}") from exc
    if message is not None:
        assert message.strip() and len(message) <= REFUSAL_LIMIT, message[:500]


def test_every_game_has_forms_and_commands_to_fuzz() -> None:
    """The samples reach the forms: Kniggits' army and deployment, Hallway's offer, Fencing's
    insult; and every game has typed commands."""
    offered: dict[str, set[str]] = {}
    for kind, players, _ in GAMES:
        offered.setdefault(kind, set()).update(
            c.title for state, seat in SAMPLES[(kind, players)]
            for _, c, _ in controls_for(record(kind, state, players), seat) if isinstance(c, FormButton))
    assert len(offered["kniggits"]) >= 2 and offered["hallway"] and offered["fencing"], offered
    assert all(ui_for(kind).shortcuts for kind, _, _ in GAMES)
