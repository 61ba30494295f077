"""What a seat may press right now, and the forms behind form buttons.

Buttons, `/<game> do` and modal submissions all ask the same question — which controls do
this seat's screens (the table and its own hand) offer now? — so it is answered once, here,
from the same views the messages are drawn from.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.table import codec
from cogs.table.components import FormModal
from cogs.table.present import table_info
from cogs.table.registry import ui_for
from cogs.table.ui import Button, Control, Field, FormButton, Select
from games.registry import get_engine
from runtime.errors import Refusal
from storage import GameRecord

WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")


def controls_for(game: GameRecord, seat: int) -> list[tuple[str, Control, dict[str, Any]]]:
    """(label, control, action) for everything `seat` could press now, table and hand (a
    multi-pick select is left out: its action is only ever made of several picks)."""
    engine, ui = get_engine(game.kind), ui_for(game.kind)
    assert game.state is not None
    info = table_info(game)
    out: list[tuple[str, Control, dict[str, Any]]] = []
    screens = [ui.table(engine.view(game.state, None), info),
               ui.private(engine.view(game.state, seat), seat, info)]
    for screen in screens:
        for control in screen.controls if screen else []:
            if isinstance(control, Button) and not control.disabled:
                out.append((control.label, control, control.action))
            elif isinstance(control, FormButton):
                out.append((f"{control.label} (needs a value)", control, control.action))
            elif isinstance(control, Select) and control.pick > 1:
                continue  # several picks at once: the menu only (`do` sends one value)
            elif isinstance(control, Select):
                for choice in control.choices:
                    out.append((f"{control.placeholder}: {choice.label}", control, choice.action))
    return out


def find_form(game: GameRecord, seat: int, action: dict[str, Any]) -> FormButton | None:
    """The form button `seat` may open now that sends `action`, if any."""
    return next((c for _, c, a in controls_for(game, seat) if isinstance(c, FormButton) and a == action), None)


def offered_action(game: GameRecord, seat: int, packed: str, value: str | None) -> dict[str, Any]:
    """The action a typed `/<game> do` sends: exactly one the seat's controls offer now (for
    a form, its action with the first field filled from `value`). Anything else — a typed
    action no control shows, fields only the runtime sets — is refused here."""
    wanted = codec.action_of(packed)
    for _label, control, action in controls_for(game, seat) if wanted is not None else ():
        if action != wanted:
            continue
        if not isinstance(control, FormButton):
            return dict(action)
        if value is None or not control.fields:
            raise Refusal(f"“{control.label}” needs a value: add `value:` to the command.")
        first = control.fields[0]
        return {**action, first.name: read_field(first, value)}
    raise Refusal("That is not one of your options right now. Start typing in `action:` to see them.")


def read_field(field: Field, raw: str) -> str | int:
    """A form value as the engine receives it: integer fields must be plain whole numbers
    (ASCII digits, an optional sign, at most nine digits); their ranges are the engine's."""
    text = raw.strip()
    if len(text) > field.max_length:  # a modal enforces it; a typed `value:` must be held to it too
        raise Refusal(f"{field.label}: at most {field.max_length} characters, please.")
    if not field.integer:
        return text
    if not WHOLE_NUMBER.fullmatch(text):
        raise Refusal(f"{field.label}: please enter a whole number.")
    return int(text)


def build_modal(form: FormButton, custom_id: str) -> FormModal:
    modal = FormModal(title=form.title[:45], timeout=900, custom_id=custom_id)
    for field in list(form.fields)[:5]:
        modal.add_item(discord.ui.TextInput(
            label=field.label[:45], custom_id=field.name, placeholder=field.placeholder[:100] or None,
            max_length=field.max_length, required=field.required,
            style=discord.TextStyle.paragraph if field.paragraph else discord.TextStyle.short,
        ))
    return modal

