"""Form values: integer fields take plain whole numbers only; anything else is a refusal,
never a crash."""

from __future__ import annotations

import pytest

from cogs.table.controls import read_field
from cogs.table.ui import Field
from runtime.errors import Refusal

AMOUNT = Field("amount", "Amount", integer=True)


@pytest.mark.parametrize(("raw", "value"), [("0", 0), (" 42 ", 42), ("-3", -3), ("+7", 7),
                                            ("999999999", 999_999_999)])
def test_whole_numbers_are_read(raw: str, value: int) -> None:
    assert read_field(AMOUNT, raw) == value


@pytest.mark.parametrize("raw", ["", "abc", "2.5", "--3", "-", "³", "٣", "１２", "1 000", "1234567890", "0x10"])
def test_anything_else_is_refused_with_the_field_name(raw: str) -> None:
    with pytest.raises(Refusal, match="Amount: please enter a whole number"):
        read_field(AMOUNT, raw)


def test_text_fields_are_trimmed_not_judged() -> None:
    assert read_field(Field("word", "Word"), "  hello ") == "hello"
