"""Transactions written once for both databases: a body is a generator that yields queries
and is sent their results; a backend drives it (SQLite in one hop to its thread, PostgreSQL
in one async transaction).

    def body() -> Tx[int]:
        row = yield one("SELECT version FROM games WHERE id = ?", game_id)
        return row[0]

SQL uses `?` placeholders and the portable subset of both dialects (ON CONFLICT … DO UPDATE,
RETURNING, CASE instead of two-argument MAX, no INSERT OR REPLACE).
"""

from __future__ import annotations

import hashlib
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

T = TypeVar("T")

Want = Literal["count", "one", "all", "lock"]


@dataclass(frozen=True, slots=True)
class Query:
    sql: str
    params: tuple[Any, ...]
    #: What the body is sent back: "count" the rows changed, "one" a row or None, "all" a
    #: list of rows, "lock" nothing (the transaction now holds the lock `params[0]`).
    want: Want


#: A transaction body: yields queries, receives their results, returns the method's result.
Tx = Generator[Query, Any, T]


def count(sql: str, *params: Any) -> Query:
    return Query(sql, params, "count")


def one(sql: str, *params: Any) -> Query:
    return Query(sql, params, "one")


def rows(sql: str, *params: Any) -> Query:
    return Query(sql, params, "all")


def lock(*name: object) -> Query:
    """Serialise on `name` until the transaction ends: PostgreSQL takes an advisory
    transaction lock; SQLite's write transaction (BEGIN IMMEDIATE) already serialises all."""
    digest = hashlib.blake2b(repr(name).encode(), digest_size=8).digest()
    return Query("", (int.from_bytes(digest, "big", signed=True),), "lock")


class UniqueViolation(Exception):
    """A UNIQUE constraint or index refused a row; the message names the constraint."""
