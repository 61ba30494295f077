"""The contract every game's interface keeps (the UI side of DESIGN.md, "Tests" 1).

One test, run for every registered GameUI, over seeded random playouts at every player count:

- every sampled state's table message and each seat's private message, as the runtime renders
  them (`present.render_table` / `render_private`, with a realistic "Now" field, log and link),
  fit Discord's limits — checked by the fake Discord's own validator, so embeds, rows, custom
  ids, select options, labels and component emoji are judged exactly as the e2e tests judge
  them — and so do the modals behind form buttons; the game's own screen also fits without
  the runtime having to clip it (a clipped select loses choices, a clipped card loses fields);
- every control offered is legal: a seat's private controls for that seat; the table's, which
  any seat may press, for at least one awaited seat (form buttons with a plausible number);
- every public event gets a line with names (no "Seat 2", no "{placeholder}");
- the final outcome, and a forfeit, get a reason; the /rules text fits its embed.

Pictures are really drawn for one sampled state in DRAW_EVERY (a stand-in elsewhere, same
message shape). Per-game tests keep what is particular to a game (its wording, its layout).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from cogs.table import codec
from cogs.table.controls import build_modal
from cogs.table.present import Rendered, render_private, render_table, table_info
from cogs.table.registry import UIS, load_builtin_uis
from cogs.table.ui import Button, Card, Control, FormButton, GameUI, Screen, Select
from games.core import Action, Engine, Event, IllegalAction, State
from games.registry import get_engine, load_builtin
from runtime.deadlines import schedule
from storage import GameRecord, SeatRecord, Status
from tests.fakediscord.errors import ApiError
from tests.fakediscord.validation import check_message, check_modal
from tests.playout import random_playout

load_builtin()
load_builtin_uis()
KINDS = sorted(UIS)

#: Seeds per player count: more for games with few player counts (at least two each).
SEED_BUDGET = 8
#: States sampled from each playout (the final state is always added).
SAMPLES = 8
GAME_ID = 987_654  # ids and versions of a busy bot: custom_ids are as long as they get
NOW = 1_700_000_000.0
NAMES = ("Ana", "Bartholomew", "Cleo", "Dmitri", "Eun-ji", "Fatoumata", "Gus", "Hélène", "Ivo", "Jo")
JUMP_URL = "https://discord.com/channels/1100000000000000001/1100000000000000002/1100000000000000003"
#: What a player might type into a number field; a form passes when any of them is legal.
PLAUSIBLE = (1, 0, 2, 3, 5, 10, 4, 6, 7, 8, 9, 20, 50, 100)
#: The runtime adds up to three fields of its own ("Now", "Recent", "Just now").
GAME_FIELDS = 22
#: Table controls (by action type) a game's rules keep on the table even when no awaited seat
#: may use them, because offering them only then would tell everyone who holds the card: Fighting
#: Words' Tip window opens for every other player, holders or not (docs/words.md, "Windows wait
#: for everyone"). Such a press may be refused, never crash.
BLIND_TABLE_CONTROLS: dict[str, set[str]] = {"words": {"tip"}}


@dataclass
class Played:
    engine: Engine
    players: int
    seed: int
    states: list[State]
    events: list[list[Event]]  # events[i]: what the step from states[i] to states[i + 1] emitted


@functools.cache
def playouts(kind: str) -> tuple[Played, ...]:
    engine = get_engine(kind)
    out = []
    counts = range(engine.min_players, engine.max_players + 1)
    for players in counts:
        for seed in range(11, 11 + max(2, SEED_BUDGET // len(counts))):
            run = random_playout(engine, players, seed)
            events = [engine.apply(state, seat, action, now)[1]
                      for state, (seat, action, now) in zip(run.states, run.log, strict=False)]
            out.append(Played(engine, players, seed, run.states, events))
    return tuple(out)


def sampled(run: Played) -> list[int]:
    last = len(run.states) - 1
    return sorted({*range(0, last, max(1, last // SAMPLES)), last})


def record(kind: str, run: Played, index: int, log: list[str] | None = None) -> GameRecord:
    """The game as the runtime would hold it at `index`: the deadlines of its waits, its log."""
    state = run.states[index]
    over = run.engine.outcome(state) is not None
    seats = [SeatRecord(s, 110_000_000_000_000_000 + s, name_of(s)) for s in range(run.players)]
    game = GameRecord(
        id=GAME_ID, guild_id=1, channel_id=2, thread_id=3, kind=kind, host_id=seats[0].user_id, options={},
        status=Status.FINISHED if over else Status.ACTIVE, version=1000 + index, seed=run.seed, state=state,
        deadlines=[], log=["The game begins.", *(log or [])][-20:], table_message_id=4, table_message_at=NOW,
        created_at=NOW, updated_at=NOW, seats=seats,
    )
    game.deadlines = schedule([], run.engine.to_act(state), NOW, version=game.version)
    return game


def name_of(seat: int) -> str:
    return NAMES[seat] if seat < len(NAMES) else f"Guest{seat + 1}"


#: Every how many sampled states the pictures are really drawn (drawing each hand of every
#: sampled state costs seconds); the others get a stand-in of the same message shape.
DRAW_EVERY = 4
STAND_IN = b"\x89PNG\r\n\x1a\n"


@functools.cache
def undrawn(ui: GameUI) -> GameUI:
    """The same interface with a stand-in picture: same embed, attachment and components."""
    base = type(ui)

    def stub(screen: Screen | None) -> Screen | None:
        if screen is not None and screen.image is not None:
            screen = dataclasses.replace(screen, image=lambda: STAND_IN)
        return screen

    members: dict[str, Any] = {"name": f"{ui.name}~undrawn",  # its own entries in the picture cache
                               "table": lambda self, view, info: stub(base.table(self, view, info))}
    if base.private is not GameUI.private:  # a private screen adds the "My hand" button
        members["private"] = lambda self, view, seat, info: stub(base.private(self, view, seat, info))
    clone = object.__new__(type(f"Undrawn{base.__name__}", (base,), members))
    clone.__dict__.update(ui.__dict__)
    return clone


# ----- limits ---------------------------------------------------------------------------------


def card_problems(card: Card) -> Iterator[str]:
    """What `present` would have to clip or drop from the game's own card."""
    if len(card.title) > 256:
        yield f"card title over 256 ({len(card.title)})"
    if len(card.description) > 4096:
        yield f"card description over 4096 ({len(card.description)})"
    if len(card.fields) > GAME_FIELDS:
        yield f"{len(card.fields)} card fields: only {GAME_FIELDS} are kept (the runtime adds its own)"
    for name, value, _ in card.fields:
        if len(name) > 256 or len(value) > 1024:
            yield f"card field {name[:30]!r} over 256/1024 ({len(name)}/{len(value)})"
    if len(card.footer) > 2048:
        yield f"card footer over 2048 ({len(card.footer)})"


def control_problems(control: Control) -> Iterator[str]:
    """What Discord would refuse, or `present` would silently clip, in one control."""
    if isinstance(control, Button | FormButton) and len(control.label) > 80:
        yield f"button label over 80: {control.label[:40]!r}…"
    if isinstance(control, Select):
        if not 1 <= len(control.choices) <= 25:
            yield f"select {control.placeholder!r} has {len(control.choices)} choices (1-25)"
        if len(control.placeholder) > 150:
            yield f"select placeholder over 150: {control.placeholder[:40]!r}…"
        for choice in control.choices:
            if len(choice.label) > 100 or len(choice.description or "") > 100:
                yield f"select option over 100: {choice.label[:40]!r}…"
            try:
                codec.select_value(choice.action)
            except codec.CodecError as exc:
                yield str(exc)
        if control.pick > 1:
            yield from multi_pick_problems(control)
    if isinstance(control, FormButton):
        if len(control.title) > 45:
            yield f"form title over 45: {control.title!r}"
        if not 1 <= len(control.fields) <= 5:
            yield f"form {control.title!r} has {len(control.fields)} fields (1-5)"
        for field in control.fields:
            if len(field.label) > 45:
                yield f"form field label over 45: {field.label!r}"
            if len(field.placeholder) > 100:
                yield f"form field placeholder over 100: {field.placeholder[:40]!r}…"


def multi_pick_problems(control: Select) -> Iterator[str]:
    """A multi-pick must gather one-item lists under a plain key, from choices that otherwise
    send the same action, and offer at least as many choices as it asks for."""
    if control.gather is None or not codec.GATHER_KEY.fullmatch(control.gather):
        yield f"multi-pick select {control.placeholder!r} gathers under {control.gather!r}"
        return
    if len(control.choices) < control.pick:
        yield f"multi-pick select {control.placeholder!r}: {len(control.choices)} choices for {control.pick} picks"
    key = control.gather
    rests = [{k: v for k, v in c.action.items() if k != key} for c in control.choices]
    if any(not isinstance(c.action.get(key), list) or len(c.action[key]) != 1 for c in control.choices):
        yield f"multi-pick select {control.placeholder!r}: a choice without a one-item list under {key!r}"
    elif any(rest != rests[0] for rest in rests):
        yield f"multi-pick select {control.placeholder!r}: choices send different actions"


def message_problems(rendered: Rendered | None) -> Iterator[str]:
    if rendered is None:
        return
    payload = {"embeds": [rendered.embed.to_dict()],
               "components": rendered.view.to_components() if rendered.view is not None else []}
    try:
        check_message(payload, creating=True, attachments=int(rendered.file is not None))
    except ApiError as exc:
        yield f"Discord would refuse the message: {json.dumps(exc.errors, ensure_ascii=False)[:400]}"
    if len(rendered.embed) > 6000:
        yield f"embed over 6000 characters ({len(rendered.embed)})"


def modal_problems(screen: Screen, game: GameRecord) -> Iterator[str]:
    for control in screen.controls:
        if isinstance(control, FormButton):
            try:
                modal = build_modal(control, codec.modal_id(game.id, game.version, control.action))
                check_modal(modal.to_dict())
            except (ApiError, codec.CodecError, ValueError) as exc:
                yield f"the form {control.label!r} would be refused: {getattr(exc, 'errors', exc)}"


CRASH = "the engine crashed:"


# ----- legality ---------------------------------------------------------------------------------


def presses(control: Control) -> list[tuple[str, list[Action]]]:
    """Each thing a player can press on a control, with the actions it may send (a form: one per
    plausible value; it is fine when any of them is legal). Forms with text fields are skipped."""
    if isinstance(control, Button):
        return [] if control.disabled else [(control.label, [control.action])]
    if isinstance(control, Select) and control.pick > 1:  # the first and the last picks together
        firsts, lasts = list(control.choices[:control.pick]), list(control.choices[-control.pick:])
        return [(f"{control.placeholder} (×{control.pick})", [control.joined(firsts), control.joined(lasts)])]
    if isinstance(control, Select):
        return [(f"{control.placeholder}: {c.label}", [c.action]) for c in control.choices]
    if any(not f.integer for f in control.fields):
        return []
    return [(control.label, [{**control.action, **{f.name: n for f in control.fields}} for n in PLAUSIBLE])]


def legal_for(engine: Engine, state: State, seat: int, actions: list[Action]) -> str | None:
    """None when one of `actions` is legal for `seat`, else why not (the engine's refusal)."""
    why = "no action"
    for action in actions:
        try:
            engine.apply(state, seat, action, NOW)
            return None
        except IllegalAction as exc:
            why = exc.message
        except Exception as exc:  # an engine crash on an offered control is a bug too
            return f"{CRASH} {type(exc).__name__}: {exc}"
    return why


# ----- the contract -----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
async def test_the_interface_keeps_the_ui_contract(kind: str) -> None:
    problems, checked = await contract_problems(kind, UIS[kind])
    assert checked["messages"] and checked["presses"] and checked["events"], checked
    assert not problems, f"{kind}: {sum(problems.values())} problems:\n" + "\n".join(
        f"{n}× {p}" for p, n in problems.most_common(25))


async def contract_problems(kind: str, ui: GameUI) -> tuple[Counter[str], Counter[str]]:
    """(problems found, how many messages, presses and events were checked)."""
    problems: Counter[str] = Counter()
    checked: Counter[str] = Counter()
    if not 0 < len(ui.rules.strip()) <= 4000:
        problems[f"/rules text of {len(ui.rules)} characters (1-4000)"] += 1
    for run in playouts(kind):
        engine, where = run.engine, f"{run.players}p seed {run.seed}"
        info = table_info(record(kind, run, 0))
        lines: list[list[str]] = []  # lines[i]: the log lines of step i
        for step in run.events:
            lines.append([])
            for event in (e for e in step if e.to is None):
                checked["events"] += 1
                problems.update(line_problems(ui, event, info))
                if line := ui.event_line(event.to_json(), info):
                    lines[-1].append(line)
        outcome = engine.outcome(run.states[-1])
        assert outcome is not None
        if not ui.result_reason(outcome.to_json(), info).strip():
            problems[f"no result reason for {outcome.reason!r}"] += 1

        for n, index in enumerate(sampled(run)):
            state = run.states[index]
            drawn = ui if n % DRAW_EVERY == 0 else undrawn(ui)
            game = record(kind, run, index, [line for step in lines[max(0, index - 20):index] for line in step])
            info, live = table_info(game), game.status is Status.ACTIVE
            screens: list[tuple[int | None, Screen | None]] = [(None, ui.table(engine.view(state, None), info))]
            screens += [(s, ui.private(engine.view(state, s), s, info)) for s in range(run.players)]
            try:
                messages = await asyncio.gather(  # the pictures are drawn in threads
                    render_table(game, engine, drawn, NOW, with_image=False),
                    *(render_private(game, engine, drawn, s, jump_url=JUMP_URL) for s in range(run.players)))
            except Exception as exc:
                problems[f"rendering raised {type(exc).__name__}: {exc} ({where}, move {index})"] += 1
                messages = []
            for message in messages:
                problems.update(message_problems(message))
                checked["messages"] += message is not None
            awaited = {w.seat for w in engine.to_act(state) if w.seat is not None}
            for seat, screen in screens:
                if screen is None:
                    continue
                whose = "table" if seat is None else "private"
                problems.update(f"{whose}: {p}" for p in card_problems(screen.card))
                for control in screen.controls:
                    problems.update(f"{whose}: {p}" for p in control_problems(control))
                problems.update(f"{whose}: {p}" for p in modal_problems(screen, game))
                if not live:
                    continue
                for label, actions in control_list(screen):
                    checked["presses"] += 1
                    if seat is not None:
                        why = legal_for(engine, state, seat, actions)
                        if why is not None:
                            problems[f"{name_of(seat)}'s private {label!r} is refused ({where}): {why}"] += 1
                    elif refusals := [why for s in sorted(awaited) if (why := legal_for(engine, state, s, actions))]:
                        blind = actions[0].get("type") in BLIND_TABLE_CONTROLS.get(kind, ())
                        if len(refusals) == len(awaited) and not (blind and not any(CRASH in r for r in refusals)):
                            problems[f"table {label!r} is legal for no awaited seat {sorted(awaited)} ({where}): "
                                     f"{'; '.join(refusals)}"] += 1
                    elif not awaited:
                        problems[f"table {label!r} is shown while no seat is awaited ({where})"] += 1

    run = playouts(kind)[0]
    middle = run.states[len(run.states) // 2]
    left, events = run.engine.forfeit(middle, 0, NOW)
    info = table_info(record(kind, run, 0))
    for event in events:
        problems.update(line_problems(ui, event, info))
    outcome = run.engine.outcome(left)
    if outcome is None or not ui.result_reason(outcome.to_json(), info).strip():
        problems["no result reason after a forfeit"] += 1

    return problems, checked


def control_list(screen: Screen) -> Iterator[tuple[str, list[Action]]]:
    for control in screen.controls:
        yield from presses(control)


def line_problems(ui: GameUI, event: Event, info: Any) -> Iterator[str]:
    line = ui.event_line(event.to_json(), info)
    if not (line or "").strip():
        yield f"no line for the public event {event.type!r}"
    elif "Seat " in line or "{" in line or "}" in line:
        yield f"event {event.type!r} reads {line!r}: a seat number or placeholder, not a name"


async def test_the_contract_catches_a_broken_interface() -> None:
    """A planted bad emoji, an illegal table button, a seat number in a line, no reason."""
    from tests.engines.shapes_ui import ShapesUI

    class Broken(ShapesUI):
        def table(self, view: dict[str, Any], info: Any) -> Screen:
            screen = super().table(view, info)
            screen.controls += [Button("Back", {"type": "throw", "shape": "rock"}, emoji="🂠"),
                                Button("Lizard", {"type": "throw", "shape": "lizard"})]
            return screen

        def event_line(self, event: dict[str, Any], info: Any) -> str | None:
            return "Seat 1 chose." if event["type"] == "chose" else super().event_line(event, info)

        def result_reason(self, outcome: dict[str, Any], info: Any) -> str:
            return ""

    problems, _ = await contract_problems("shapes", Broken())
    found = "\n".join(problems)
    assert "BUTTON_COMPONENT_INVALID_EMOJI" in found
    assert "COMPONENT_CUSTOM_ID_DUPLICATED" in found  # two buttons sending one action
    assert "table 'Lizard' is legal for no awaited seat" in found
    assert "event 'chose' reads 'Seat 1 chose.'" in found
    assert "no result reason for 'rounds'" in found and "no result reason after a forfeit" in found
