"""Snowflakes and timestamps shaped like Discord's."""

from __future__ import annotations

import itertools
import secrets
import time
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1420070400000
_counter = itertools.count(1)


def snowflake() -> int:
    """A new, strictly increasing snowflake (millisecond timestamp + process-wide counter)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def snowflake_on_shard(shard_id: int, shard_count: int) -> int:
    """A new snowflake whose guild shard `(id >> 22) % shard_count` is `shard_id`: the timestamp
    moved back by under `shard_count` ms (the counter bits keep it unique)."""
    if not 0 <= shard_id < shard_count:
        raise ValueError(f"no shard {shard_id} of {shard_count}")
    base = snowflake()
    ms = base >> 22
    ms -= (ms - shard_id) % shard_count
    return (ms << 22) | (base & 0x3FFFFF)


def snowflake_str() -> str:
    return str(snowflake())


def now_iso() -> str:
    """The current time in Discord's ISO-8601 format."""
    return datetime.now(UTC).isoformat()


def token(nbytes: int = 24) -> str:
    """An opaque interaction or session token."""
    return secrets.token_urlsafe(nbytes)
