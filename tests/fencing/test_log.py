"""The log's words against the schema's event catalogue: every event the engine may emit is
worded (a forfeit by the table's own line), each by a function reading that event's payload type,
so mypy checks the keys each line reads (issue 22); each action kind's check and handler: test_verify.py."""

from __future__ import annotations

from typing import get_type_hints

from cogs.fencing.events import EVENT_WORDS
from games.fencing.schema import EVENTS


def test_the_words_cover_the_catalogue_exactly() -> None:
    assert set(EVENT_WORDS) == set(EVENTS) - {"forfeit"}


def test_each_line_reads_its_own_events_payload_type() -> None:
    wrong = {kind: get_type_hints(words).get("d") for kind, words in EVENT_WORDS.items()
             if get_type_hints(words).get("d") is not EVENTS[kind]}
    assert wrong == {}
