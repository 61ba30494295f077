"""discord.py's rate-limit buckets, swept now and then instead of on every new one.

discord.py keeps one rate-limit bucket per route and major parameter (each channel a message
is sent to or edited in: every game's thread and every player's DM). Once it holds 256, each
*new* bucket makes it scan all of them for expired ones (idle for five minutes): at 1,000 live
games that is tens of thousands of buckets scanned whenever a new game, thread or DM first
takes a message. A bucket can expire only after five idle minutes, so a sweep at most once a
minute frees the same buckets at a tiny fraction of the cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from discord.http import HTTPClient

#: Seconds between two sweeps of the buckets at most.
SWEEP_EVERY = 60.0
#: Buckets held from which discord.py's sweep scans them (fewer: it returns at once).
SWEPT_FROM = 256


def sweep_buckets_lazily(http: HTTPClient, every: float = SWEEP_EVERY,
                         clock: Callable[[], float] = time.monotonic) -> None:
    """Make `http` sweep its expired buckets at most once every `every` seconds."""
    sweep = http._try_clear_expired_ratelimits
    last = [-every]

    def now_and_then() -> None:
        now = clock()
        if len(http._buckets) >= SWEPT_FROM and now - last[0] >= every:
            last[0] = now
            sweep()

    http._try_clear_expired_ratelimits = now_and_then  # type: ignore[method-assign]
