"""discord.py's rate-limit buckets are swept for expired ones at most once a minute, not on
every new bucket once there are 256 (a scan of all of them per new channel at scale)."""

from __future__ import annotations

import asyncio

from discord.http import HTTPClient, Ratelimit

from cogs.table.rate_buckets import SWEEP_EVERY, sweep_buckets_lazily


async def test_new_buckets_sweep_the_old_ones_at_most_once_a_minute(monkeypatch: object) -> None:
    http = HTTPClient(asyncio.get_running_loop())
    now = [1_000.0]
    sweep_buckets_lazily(http, clock=lambda: now[0])
    scanned = [0]
    original = Ratelimit.is_inactive

    def counted(self: Ratelimit) -> bool:
        scanned[0] += 1
        return original(self)

    Ratelimit.is_inactive = counted  # type: ignore[method-assign]
    try:
        for channel in range(600):  # a new bucket per channel, as new DMs and threads make
            http.get_ratelimit(f"PATCH /channels/{{channel_id}}/messages/{{message_id}}:{channel}")
        assert scanned[0] == 256  # one sweep (at the 256th bucket), not one per bucket past it
        now[0] += SWEEP_EVERY
        http.get_ratelimit("POST /channels/{channel_id}/messages:1")
        assert scanned[0] == 256 + 601  # a minute later the next new bucket sweeps again
    finally:
        Ratelimit.is_inactive = original  # type: ignore[method-assign]
    assert len(http._buckets) == 601  # nothing idle for five minutes: every bucket is kept


def test_the_bot_sweeps_lazily() -> None:
    import bot
    from runtime.settings import Settings

    client = bot.build_bot(Settings(token="t"))
    assert client.http._try_clear_expired_ratelimits.__name__ == "now_and_then"
