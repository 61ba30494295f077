from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
from hypothesis import HealthCheck, settings

from cogs.table.registry import load_ui
from games.registry import load_builtin, load_game

# CI plays the same examples on every run (a landing must not hang on a lucky draw); the
# thorough profile explores fresh ones each time
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: The test-only games, found as the real ones are: each module exports ENGINE, its `_ui`
#: module UI (games.registry.load_game, cogs.table.registry.load_ui).
TEST_GAMES = ("tokens", "shapes", "race", "pairs", "sticks")
for game in TEST_GAMES:
    load_game(f"tests.engines.{game}")
    load_ui(f"tests.engines.{game}_ui")
load_builtin()


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh, migrated, empty PostgreSQL database on the session's test server (tests/pg.py),
    dropped after the test; skips the test where no PostgreSQL server binaries exist."""
    from tests import pg

    try:
        url = await pg.fresh_postgres_url()
    except pg.NoPostgres as missing:
        pytest.skip(f"PostgreSQL not available: {missing}")
    yield url
    await pg.drop_postgres_database(url)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the test PostgreSQL server, if this run started one."""
    import sys

    pg = sys.modules.get("tests.pg")
    if pg is not None:
        pg.stop_server()
