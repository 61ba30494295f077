"""Reading the pressed message from Discord's JSON (`cogs.table.pressed`): the pressed
component found wherever it sits, junk in the JSON refused rather than raised on."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from cogs.table import codec
from cogs.table.intake import carried_by_message, picked_together
from cogs.table.pressed import holds, menu_of, pressed

BUTTON = {"type": 2, "custom_id": "rp:a:1:2:x", "label": "Roll", "style": 1}
CUP, SWORD, COIN = (codec.select_value({"type": "discard", "cards": [card]}) for card in ("CU-2", "SW-3", "CO-4"))
MENU = {"type": 3, "custom_id": "rp:s:1:2:0:cards", "min_values": 2, "max_values": 3,
        "options": [{"label": "Cup", "value": CUP}, {"label": "Sword", "value": SWORD}, {"label": "Coin", "value": COIN}]}
ROWS: list[Any] = [{"type": 1, "components": [BUTTON]}, {"type": 1, "components": [MENU]}]


def press(custom_id: str, kind: int, rows: Any = ROWS, **data: Any) -> Any:
    return SimpleNamespace(data={"custom_id": custom_id, "component_type": kind, **data},
                           _message_data={"id": "42", "flags": 64, "components": rows})


def test_the_pressed_message_is_read_from_its_json() -> None:
    assert pressed(press("x", 2)) == (42, True, ROWS)
    unflagged = SimpleNamespace(_message_data={"id": "7", "flags": "junk", "components": "junk"})
    assert pressed(unflagged) == (7, False, [])  # type: ignore[arg-type]
    assert pressed(SimpleNamespace(_message_data=None, message=None)) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(("custom_id", "kind", "found"), [
    (BUTTON["custom_id"], 2, True), (MENU["custom_id"], 3, True),
    (BUTTON["custom_id"], 3, False),  # on the message, but as another type
    ("rp:a:1:2:forged", 2, False), (None, None, False),
])
def test_a_press_counts_only_when_its_component_is_on_the_message(custom_id: Any, kind: Any, found: bool) -> None:
    assert holds(ROWS, custom_id, kind) is found
    assert carried_by_message(press(custom_id, kind)) is found


@pytest.mark.parametrize("rows", [[None, 3, "row"], [{"type": 1, "components": "junk"}], [{"type": 1}], []])
def test_junk_rows_hold_nothing(rows: Any) -> None:
    assert not holds(rows, BUTTON["custom_id"], 2)
    assert menu_of(rows, MENU["custom_id"]) is None


def test_a_multi_pick_is_read_against_the_menu_on_the_message() -> None:
    picked = picked_together(press(MENU["custom_id"], 3), "cards", [SWORD, CUP])
    assert picked == {"type": "discard", "cards": ["CU-2", "SW-3"]}  # in the menu's order
    assert picked_together(press(MENU["custom_id"], 3), "cards", [SWORD]) is None  # fewer than its minimum
    assert picked_together(press("rp:s:1:2:0:other", 3), "cards", [SWORD, CUP]) is None  # no such menu
