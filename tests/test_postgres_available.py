"""The PostgreSQL tests run on a fresh machine with nothing installed by hand: where the
`pgserver` wheel installs (Linux x86-64), its server is found and starts, so those tests are
never skipped silently for want of a server."""

from __future__ import annotations

import platform
import sys

import pytest

from tests import pg

wheel_platform = sys.platform == "linux" and platform.machine() == "x86_64"


@pytest.mark.skipif(not wheel_platform, reason="the pgserver wheel is built for Linux x86-64")
def test_a_postgresql_server_is_found_on_this_machine() -> None:
    assert pg.find_bin_dir() is not None


@pytest.mark.skipif(not wheel_platform, reason="the pgserver wheel is built for Linux x86-64")
def test_the_wheels_server_starts_and_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    import asyncpg

    bin_dir = pg.wheel_bin_dir()
    assert bin_dir is not None and (bin_dir / "pg_ctl").exists()
    monkeypatch.setattr(pg, "find_bin_dir", lambda: bin_dir)
    server = pg.PostgresServer.start()
    try:
        async def ask() -> str:
            connection = await asyncpg.connect(server.url())
            try:
                return str(await connection.fetchval("SELECT 'up' || 1"))
            finally:
                await connection.close()

        assert asyncio.run(ask()) == "up1"
    finally:
        server.stop()
