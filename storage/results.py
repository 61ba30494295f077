"""Results and ratings: each finished game's places, scores and teams, every server's ratings
per game, and what the leaderboard and `/game record` read back from them. A final step writes
its results and rating update inside the step's own commit (storage.actionlog).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from storage.base import _RATING_COLUMNS, StorageBase, _marks, _rating_from_row
from storage.records import PairRecord, RatingRecord, RatingUpdate, ResultRecord
from storage.sql import Query, Tx, count, lock, rows


class Results(StorageBase):
    """The results and ratings tables."""

    async def ratings(self, guild_id: int, kind: str, user_ids: Iterable[int]) -> dict[int, RatingRecord]:
        return await self._read(_ratings_body(guild_id, kind, list(user_ids)))

    async def record_result(
        self, results: Sequence[ResultRecord], ratings: Sequence[RatingRecord]
    ) -> None:
        """Store a finished game's results and the players' new ratings together."""
        await self._transaction(_result_statements(results, ratings))

    async def last_champion(self, guild_id: int, kind: str) -> int | None:
        """The user who alone won the server's most recently finished game of `kind`, if any (a
        computer is never champion: its user id is negative)."""
        found = await self._query(rows(
            "SELECT r.user_id FROM results r WHERE r.rank = 0 AND r.user_id > 0 AND r.game_id = ("
            " SELECT id FROM games WHERE guild_id = ? AND kind = ? AND status = 'finished'"
            " ORDER BY updated_at DESC, id DESC LIMIT 1)",
            guild_id, kind,
        ))
        return int(found[0][0]) if len(found) == 1 else None

    async def leaderboard(self, guild_id: int, kind: str | None, limit: int = 10) -> list[RatingRecord]:
        """Top players by ordinal (mu - 3 sigma), of one game or of every game."""
        if kind is not None:
            query = rows(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND kind = ?"
                         " ORDER BY mu - 3 * sigma DESC, wins DESC, user_id LIMIT ?", guild_id, kind, limit)
        else:
            query = rows(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ?"
                         " ORDER BY kind, mu - 3 * sigma DESC, wins DESC, user_id", guild_id)
        records = [_rating_from_row(r) for r in await self._query(query)]
        if kind is None:
            per_kind: dict[str, list[RatingRecord]] = {}
            for record in records:
                per_kind.setdefault(record.kind, []).append(record)
            records = [r for group in per_kind.values() for r in group[:limit]]
        return records

    async def best_pairs(self, guild_id: int, kind: str, limit: int = 5) -> list[PairRecord]:
        """Players who played on one team in this server's finished games of `kind`, ranked by
        wins together, then games together. A win is a first place not shared by everyone.
        Computers (negative user ids) are nobody's partner here."""
        found = await self._query(rows(
            "SELECT a.user_id, b.user_id, COUNT(*) AS games,"
            " SUM(CASE WHEN a.rank = 0 AND EXISTS (SELECT 1 FROM results o"
            "   WHERE o.game_id = a.game_id AND o.rank > 0) THEN 1 ELSE 0 END) AS wins"
            " FROM results a JOIN results b ON b.game_id = a.game_id AND b.team = a.team"
            "   AND a.user_id < b.user_id"
            " JOIN games g ON g.id = a.game_id"
            " WHERE g.guild_id = ? AND g.kind = ? AND g.status = 'finished' AND a.team IS NOT NULL"
            "   AND a.user_id > 0 AND b.user_id > 0"
            " GROUP BY a.user_id, b.user_id ORDER BY wins DESC, games DESC, a.user_id, b.user_id LIMIT ?",
            guild_id, kind, limit,
        ))
        return [PairRecord(r[0], r[1], int(r[2]), int(r[3])) for r in found]

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRecord]:
        found = await self._query(rows(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY kind",
            guild_id, user_id))
        return [_rating_from_row(r) for r in found]

    async def recent_results(self, guild_id: int, user_id: int, limit: int = 5) -> list[ResultRecord]:
        found = await self._query(rows(
            "SELECT r.game_id, r.user_id, r.seat, r.rank, r.score, r.team, g.kind, g.updated_at,"
            " r.versus_computer, (SELECT COUNT(DISTINCT COALESCE(o.team, -1 - o.seat)) FROM results o"
            " WHERE o.game_id = r.game_id) FROM results r JOIN games g ON g.id = r.game_id"
            " WHERE g.guild_id = ? AND r.user_id = ? ORDER BY g.updated_at DESC, g.id DESC LIMIT ?",
            guild_id, user_id, limit,
        ))
        return [ResultRecord(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], bool(r[8]), int(r[9]))
                for r in found]

    async def computer_record(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        """Per game kind, (games, wins) of the user's finished games in this server that had a
        computer seat. A win is a first place not shared by everyone (as ratings count it)."""
        found = await self._query(rows(
            "SELECT g.kind, COUNT(*),"
            " SUM(CASE WHEN r.rank = 0 AND EXISTS (SELECT 1 FROM results o"
            "   WHERE o.game_id = r.game_id AND o.rank > 0) THEN 1 ELSE 0 END)"
            " FROM results r JOIN games g ON g.id = r.game_id"
            " WHERE g.guild_id = ? AND r.user_id = ? AND r.versus_computer = 1 AND g.status = 'finished'"
            " GROUP BY g.kind ORDER BY g.kind",
            guild_id, user_id,
        ))
        return {r[0]: (int(r[1]), int(r[2])) for r in found}


def _ratings_body(guild_id: int, kind: str, ids: list[int]) -> Tx[dict[int, RatingRecord]]:
    if not ids:
        return {}
    found = yield rows(f"SELECT {_RATING_COLUMNS} FROM ratings"
                       f" WHERE guild_id = ? AND kind = ? AND user_id IN ({_marks(len(ids))})",
                       guild_id, kind, *ids)
    return {r[2]: _rating_from_row(r) for r in found}


def _rating_update_body(update: RatingUpdate) -> Tx[None]:
    """Read, compute and write one server's ratings of one game, holding the (guild, kind)
    lock until the transaction ends: a concurrent update waits and then reads ours."""
    yield lock("ratings", update.guild_id, update.kind)
    current = yield from _ratings_body(update.guild_id, update.kind, list(update.user_ids))
    update.before = dict(current)
    for statement in _result_statements((), update.compute(dict(current))):  # noqa: UP028
        yield statement


def _result_statements(results: Sequence[ResultRecord], ratings: Sequence[RatingRecord]) -> list[Query]:
    statements = [
        count("INSERT INTO results (game_id, user_id, seat, rank, score, team, versus_computer)"
              " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
              " user_id = excluded.user_id, rank = excluded.rank, score = excluded.score,"
              " team = excluded.team, versus_computer = excluded.versus_computer",
              r.game_id, r.user_id, r.seat, r.rank, r.score, r.team, int(r.versus_computer))
        for r in results
    ]
    statements += [
        count(f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
              " ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET"
              " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, wins = excluded.wins",
              g.guild_id, g.kind, g.user_id, g.mu, g.sigma, g.games, g.wins)
        for g in ratings
    ]
    return statements
