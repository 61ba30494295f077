"""Discord's form limits as the fake enforces them (400 / 50035 with the offending field)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakediscord.errors import ApiError
from tests.fakediscord.validation import check_commands, check_message, check_modal


def button(i: int, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": f"B{i}", "custom_id": f"b{i}", **extra}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def text_input(i: int, label: str = "Label") -> dict[str, Any]:
    return row({"type": 4, "custom_id": f"t{i}", "label": label, "style": 1})


def error_of(call: Any) -> ApiError:
    with pytest.raises(ApiError) as info:
        call()
    return info.value


def test_a_valid_message_passes() -> None:
    check_message({"content": "hi", "embeds": [{"title": "t", "fields": [{"name": "a", "value": "b"}]}],
                   "components": [row(button(1), button(2))]}, creating=True)


@pytest.mark.parametrize(("payload", "field"), [
    ({"content": "x" * 2001}, "content"),
    ({"embeds": [{"title": "t"}] * 11}, "embeds"),
    ({"embeds": [{"title": "x" * 257}]}, "embeds"),
    ({"embeds": [{"description": "x" * 4097}]}, "embeds"),
    ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "embeds"),
    ({"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]}, "embeds"),
    ({"components": [row(button(i)) for i in range(6)]}, "components"),
    ({"components": [row(*(button(i) for i in range(6)))]}, "components"),
    ({"components": [row(button(1, custom_id="x" * 101))]}, "components"),
    ({"components": [row(button(1), button(2, custom_id="b1"))]}, "components"),
    ({"components": [row({"type": 3, "custom_id": "s", "options": [
        {"label": str(i), "value": str(i)} for i in range(26)]})]}, "components"),
    ({"components": [row({"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
                         button(1))]}, "components"),
    ({"components": [button(1)]}, "components"),
    ({"components": [row(button(1, emoji={"name": "🂠"}))]}, "components"),  # a playing card, not an emoji
    ({"components": [row(button(1, emoji={"name": "A"}))]}, "components"),
    ({"components": [row({"type": 3, "custom_id": "s", "options": [
        {"label": "a", "value": "a", "emoji": {"name": "🎲🎲"}}]})]}, "components"),
])
def test_limits_are_invalid_form_body(payload: dict[str, Any], field: str) -> None:
    exc = error_of(lambda: check_message(payload, creating=True))
    assert (exc.status, exc.code, exc.message) == (400, 50035, "Invalid Form Body")
    assert exc.errors is not None and field in exc.errors


def test_real_and_custom_emoji_pass() -> None:
    check_message({"components": [row(button(1, emoji={"name": "🃏"}), button(2, emoji={"name": "⬅️"}),
                                      button(3, emoji={"name": "party", "id": "123"}))]}, creating=True)


def test_empty_message_is_50006() -> None:
    exc = error_of(lambda: check_message({"content": ""}, creating=True))
    assert exc.code == 50006
    check_message({"content": ""}, creating=False)


def test_modal_limits() -> None:
    check_modal({"title": "T", "custom_id": "m", "components": [text_input(i) for i in range(5)]})
    for data in (
        {"title": "T", "custom_id": "m", "components": [text_input(i) for i in range(6)]},
        {"title": "x" * 46, "custom_id": "m", "components": [text_input(1)]},
        {"title": "T", "custom_id": "m", "components": [text_input(1, label="x" * 46)]},
        {"title": "T", "custom_id": "m", "components": [
            {"type": 18, "label": "x" * 46, "component": {"type": 4, "custom_id": "a", "style": 1}}]},
        {"title": "T", "custom_id": "m", "components": []},
    ):
        assert error_of(lambda data=data: check_modal(data)).code == 50035


def test_command_schema_rules() -> None:
    good = {"name": "tokens", "description": "Play", "options": [
        {"type": 1, "name": "new", "description": "New", "options": [
            {"type": 4, "name": "hand", "description": "Hand", "required": True},
            {"type": 5, "name": "teams", "description": "Teams"}]}]}
    check_commands([good])
    for bad in (
        {**good, "name": "Tokens"},
        {**good, "description": ""},
        {**good, "options": [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]},
        {**good, "options": [{"type": 3, "name": "a", "description": "d"},
                             {"type": 3, "name": "b", "description": "d", "required": True}]},
        {**good, "options": [{"type": 3, "name": "a", "description": "d",
                              "choices": [{"name": str(i), "value": str(i)} for i in range(26)]}]},
    ):
        assert error_of(lambda bad=bad: check_commands([bad])).code == 50035
    assert error_of(lambda: check_commands([good, good])).code == 50035
