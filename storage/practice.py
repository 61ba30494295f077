"""What practice tables store (migration 7): which games are played to learn (`/<game> learn`),
and whether a player has sat at a game of a kind before (the first one mentions `learn`).

Written as transaction bodies on the one `Storage`, like every other query (storage.sql).
"""

from __future__ import annotations

from storage.database import Storage
from storage.sql import Tx, count, one


async def mark_practice(storage: Storage, game_id: int) -> None:
    """Mark a lobby as a practice table before it starts: unrated, no results, hints."""
    await storage._write(_mark(game_id))


def _mark(game_id: int) -> Tx[None]:
    yield count("UPDATE games SET practice = 1 WHERE id = ?", game_id)


async def has_played(storage: Storage, user_id: int, kind: str, *, besides: int) -> bool:
    """Whether the user took a seat at another game of `kind` before (a lobby, a practice
    table or a game): they were told of `learn` then."""
    row = await storage._query(one(
        "SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND g.kind = ?"
        " AND g.id <> ? LIMIT 1", user_id, kind, besides))
    return row is not None
