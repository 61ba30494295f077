"""The log's words against the schema's event catalogue: every event the engine may emit is
worded (a forfeit by the table's own line); that each line reads its own event's payload type
is checked for every game by tests/test_event_words.py; each action kind's check and handler:
test_verify.py."""

from __future__ import annotations

from cogs.fencing.events import EVENT_WORDS
from games.fencing.schema import EVENTS


def test_the_words_cover_the_catalogue_exactly() -> None:
    assert set(EVENT_WORDS) == set(EVENTS) - {"forfeit"}
