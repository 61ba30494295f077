"""One rule check per action kind (issue 22 item 2): every kind of the schema has its check
(`VERIFY`, which `legal_actions` filters by and `play` runs first) and its rule (`HANDLERS`)."""

from __future__ import annotations

from typing import get_args

from games.hallway import schema
from games.hallway.engine import HANDLERS, VERIFY


def test_every_action_kind_has_its_check_and_its_rule() -> None:
    assert set(HANDLERS) == set(VERIFY) == set(get_args(schema.Kind))
