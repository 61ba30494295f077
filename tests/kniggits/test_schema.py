"""Kniggits' declared action kinds (games/kniggits/schema_actions.py) against what the engine
handles: a kind the engine would refuse everywhere, or a handler for an undeclared kind, fails."""

from __future__ import annotations

from typing import get_args

from games.kniggits import handlers, schema


def test_every_action_kind_is_handled_and_every_handler_declared() -> None:
    """HANDLERS is keyed by the kind (where each may be sent is `handlers.WHEN`)."""
    assert set(handlers.HANDLERS) == set(get_args(schema.Kind))


def test_each_kind_has_the_payload_of_its_own_type() -> None:
    assert set(schema.ACTIONS) == set(get_args(schema.Kind))
    for kind, payload in schema.ACTIONS.items():
        assert get_args(payload.__annotations__["type"]) == (kind,), kind
