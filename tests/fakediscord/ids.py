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


def snowflake_str() -> str:
    return str(snowflake())


def now_iso() -> str:
    """The current time in Discord's ISO-8601 format."""
    return datetime.now(UTC).isoformat()


def token(nbytes: int = 24) -> str:
    """An opaque interaction or session token."""
    return secrets.token_urlsafe(nbytes)
