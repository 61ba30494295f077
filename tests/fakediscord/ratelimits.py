"""Discord's per-route rate limits, enforced where a test asks for them.

Discord gives each route a bucket per major parameter (channel, guild, webhook): `limit`
requests per `per` seconds. Every answer on a limited route carries the X-RateLimit headers
discord.py reads to wait *before* a bucket runs dry; a request beyond the limit is answered
429 with `retry_after` (and the `Via` header Discord's edge adds: without it discord.py takes
the 429 for a Cloudflare ban and raises).

    server.rate_limit("PATCH /channels/{channel_id}/messages/{message_id}", limit=5, per=5.0)
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import deque
from dataclasses import dataclass, field

MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "interaction_id")


@dataclass
class Rule:
    limit: int
    per: float
    bucket: str  # the hash Discord names the bucket by

    @classmethod
    def of(cls, route: str, limit: int, per: float) -> Rule:
        return cls(limit, per, hashlib.sha1(route.encode()).hexdigest()[:16])


@dataclass
class Verdict:
    """What the fake answers on a limited route: the headers, and a 429 body when over."""

    headers: dict[str, str]
    retry_after: float | None = None

    def body(self) -> bytes:
        assert self.retry_after is not None
        return json.dumps({"message": "You are being rate limited.", "retry_after": self.retry_after,
                           "global": False}).encode()


@dataclass
class RateLimits:
    rules: dict[str, Rule] = field(default_factory=dict)
    _windows: dict[tuple[str, str], deque[float]] = field(default_factory=dict)

    def add(self, route: str, limit: int, per: float) -> None:
        """`route` is a template as the call log shows it, e.g. "POST /channels/{channel_id}/messages"."""
        self.rules[route] = Rule.of(route, limit, per)

    def check(self, route: str, params: dict[str, str], now: float | None = None) -> Verdict | None:
        """Count one request; None when the route is not limited."""
        rule = self.rules.get(route)
        if rule is None:
            return None
        now = time.monotonic() if now is None else now
        major = next((params[p] for p in MAJOR_PARAMETERS if p in params), "")
        window = self._windows.setdefault((route, major), deque())
        while window and now - window[0] >= rule.per:
            window.popleft()
        reset_after = rule.per - (now - window[0]) if window else rule.per
        if len(window) >= rule.limit:
            headers = self._headers(rule, 0, reset_after)
            headers.update({"Retry-After": str(max(1, round(reset_after))), "X-RateLimit-Scope": "user"})
            return Verdict(headers, retry_after=round(reset_after, 3))
        window.append(now)
        reset_after = rule.per - (now - window[0])
        return Verdict(self._headers(rule, rule.limit - len(window), reset_after))

    @staticmethod
    def _headers(rule: Rule, remaining: int, reset_after: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": rule.bucket,
            "Via": "1.1 google",
        }
