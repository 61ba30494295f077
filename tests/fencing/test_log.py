"""The log's words against the schema's event catalogue: every event the engine may emit is
worded (a forfeit by the table's own line), each by a function reading that event's payload type,
so mypy checks the keys each line reads (issue 22)."""

from __future__ import annotations

from typing import get_args, get_type_hints

from cogs.fencing.events import EVENT_WORDS
from games.fencing.engine import HANDLERS_FREE, OUT_OF_STEP, FencingEngine
from games.fencing.schema import EVENTS, Kind, PromptKind


def test_the_words_cover_the_catalogue_exactly() -> None:
    assert set(EVENT_WORDS) == set(EVENTS) - {"forfeit"}


def test_each_line_reads_its_own_events_payload_type() -> None:
    wrong = {kind: get_type_hints(words).get("d") for kind, words in EVENT_WORDS.items()
             if get_type_hints(words).get("d") is not EVENTS[kind]}
    assert wrong == {}


def test_every_prompt_a_seat_answers_has_its_handler() -> None:
    """The dispatch table (issue 22 item 2), keyed by prompt: every prompt but those the game
    resolves alone has a handler, and the commands refused out of step are kinds of the schema."""
    assert set(FencingEngine.HANDLERS) == set(get_args(PromptKind)) - HANDLERS_FREE
    assert set(OUT_OF_STEP) <= set(get_args(Kind))
