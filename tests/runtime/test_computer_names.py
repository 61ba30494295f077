"""The rules of computer seats, written once in runtime/computers.py and used by the edge: a
typed name cleaned or refused, a name found again with or without its mark, who is a computer."""

from __future__ import annotations

import pytest

from runtime.computers import (
    MARK,
    NAME_LENGTH,
    answers_to,
    clean_name,
    computer_name,
    is_computer,
    shown_name,
)
from runtime.errors import Refusal
from storage import SeatRecord

ADA = SeatRecord(1, -1, "🤖 Ada", computer=True)
OLD = SeatRecord(2, -2, "Knuth")  # an older record: no mark, no flag, a synthetic id
PERSON = SeatRecord(0, 7, "Ada")


def test_a_typed_name_is_cleaned_or_refused() -> None:
    assert clean_name(None) is None and clean_name("   ") is None
    assert clean_name("  <@123>  Grace   Hopper **") == "123 Grace Hopper"
    assert clean_name("🤖 Bo") == "Bo"
    with pytest.raises(Refusal):
        clean_name("*** ---")
    with pytest.raises(Refusal):
        clean_name("x" * (NAME_LENGTH + 1))


def test_a_cleaned_name_is_seated_unique_with_the_mark() -> None:
    assert computer_name(clean_name("Ada"), [PERSON, ADA]) == MARK + "Ada 2"


def test_who_is_a_computer_and_how_it_is_shown() -> None:
    assert is_computer(ADA) and is_computer(OLD) and not is_computer(PERSON)
    assert shown_name(ADA) == "🤖 Ada" and shown_name(OLD) == "🤖 Knuth"


def test_a_computer_is_found_by_its_name_or_seat() -> None:
    assert answers_to(ADA, "ada") and answers_to(ADA, "🤖  Ada") and answers_to(ADA, "1")
    assert answers_to(OLD, "knuth") and not answers_to(ADA, "Knuth")
    assert not answers_to(PERSON, "Ada")  # a person is never removed as a computer
