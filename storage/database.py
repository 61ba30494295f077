"""The Storage service: games, seats, the action log, results and ratings in SQLite.

One aiosqlite connection serves the whole bot, and aiosqlite runs everything in order on
its one thread. A transaction made of several awaits could interleave with another
coroutine's statements, so every write transaction is one function run on that thread
(`_write`): atomic, and one thread hop instead of four per action (the action loop's
latency is mostly those hops). Reads of committed rows are plain awaits.

Durability: WAL with synchronous=NORMAL. A committed transaction survives the bot
process being killed at any moment (it is in the WAL, in the OS); only a power cut may
lose the last few commits, which is the usual trade for a chat bot.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from storage.migrations import LATEST, MIGRATIONS
from storage.records import (
    ActionRecord,
    GameRecord,
    PairRecord,
    RatingRecord,
    ResultRecord,
    SeatRecord,
    Status,
)

_GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, kind, host_id, options, status, version, seed, state,"
    " deadlines, log, table_message_id, table_message_at, created_at, updated_at, last_at, nonce,"
    " table_version, lobby_message_id, log_total, ping_message_id"
)


#: The `seat` of an action the game itself took (a seat-less wait's deadline).
GAME_SEAT = -1


class StaleVersion(Exception):
    """The game changed since the caller loaded it (another action won the race)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Storage:
    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self._db = connection
        self.path = path

    # ----- lifecycle --------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (creating if needed) and migrate the database at `path`."""
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        storage = cls(connection, path)
        try:
            await storage._configure()
            await storage.migrate()
        except BaseException:
            await connection.close()
            raise
        return storage

    async def _configure(self) -> None:
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0])

    async def migrate(self) -> int:
        """Apply every migration newer than the file's user_version; return the new version."""
        # Runs once at open, before anything else uses the connection.
        current = await self.schema_version()
        if current > LATEST:
            raise RuntimeError(
                f"database schema {current} is newer than this code ({LATEST}); upgrade Rumpus"
            )
        for number in range(current + 1, LATEST + 1):
            script = MIGRATIONS[number - 1]
            # executescript commits on its own; the version bump rides in the same script.
            await self._db.executescript(
                f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        return LATEST

    async def _write(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run `work` in one IMMEDIATE transaction on the database thread; roll back on error."""

        def transaction() -> Any:
            conn: sqlite3.Connection = self._db._conn  # aiosqlite's own sqlite3 connection
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = work(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

        return await self._db._execute(transaction)

    async def _transaction(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Run statements in one transaction; return each statement's rowcount."""
        return await self._write(lambda conn: [conn.execute(sql, params).rowcount for sql, params in statements])

    # ----- games ------------------------------------------------------------------------
    async def create_game(
        self, *, guild_id: int, channel_id: int, kind: str, host_id: int, host_name: str,
        options: dict[str, Any], seed: int, now: float, nonce: str = "", host_team: int | None = None,
    ) -> int:
        def work(conn: sqlite3.Connection) -> int:
            cursor = conn.execute(
                "INSERT INTO games (guild_id, channel_id, kind, host_id, options, seed, nonce,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, kind, host_id, _dumps(options), seed, nonce, now, now),
            )
            game_id = int(cursor.lastrowid or 0)
            conn.execute("INSERT INTO seats (game_id, seat, user_id, name, team) VALUES (?, 0, ?, ?, ?)",
                         (game_id, host_id, host_name, host_team))
            return game_id

        return int(await self._write(work))

    async def game(self, game_id: int) -> GameRecord | None:
        async with self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        record = _game_from_row(row)
        record.seats = await self.seats(game_id)
        return record

    async def live_game_in(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game whose table is this channel or thread, if any."""
        async with self._db.execute(
            "SELECT id FROM games WHERE status IN ('lobby', 'active')"
            " AND (thread_id = ? OR (channel_id = ? AND thread_id IS NULL))"
            " ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        ) as cursor:
            row = await cursor.fetchone()
        return await self.game(row[0]) if row else None

    async def latest_finished_game(self, guild_id: int) -> GameRecord | None:
        """The server's most recently finished game (with a result), if any: `/game record`."""
        async with self._db.execute(
            "SELECT id FROM games WHERE guild_id = ? AND status = 'finished'"
            " ORDER BY updated_at DESC, id DESC LIMIT 1",
            (guild_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return await self.game(row[0]) if row else None

    async def last_champion(self, guild_id: int, kind: str) -> int | None:
        """The user who alone won the server's most recently finished game of `kind`, if any."""
        async with self._db.execute(
            "SELECT r.user_id FROM results r WHERE r.rank = 0 AND r.game_id = ("
            " SELECT id FROM games WHERE guild_id = ? AND kind = ? AND status = 'finished'"
            " ORDER BY updated_at DESC, id DESC LIMIT 1)",
            (guild_id, kind),
        ) as cursor:
            rows = await cursor.fetchall()
        return int(rows[0][0]) if len(rows) == 1 else None

    async def live_games_of(self, user_id: int) -> list[GameRecord]:
        async with self._db.execute(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE s.user_id = ? AND g.status IN ('lobby', 'active') ORDER BY g.id",
            (user_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [g for g in [await self.game(r[0]) for r in rows] if g is not None]

    async def active_games(self) -> list[GameRecord]:
        """Every running game, for restoring timers at start-up (seats not loaded)."""
        async with self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active'"
        ) as cursor:
            rows = await cursor.fetchall()
        return [_game_from_row(r) for r in rows]

    async def seats(self, game_id: int) -> list[SeatRecord]:
        async with self._db.execute(
            "SELECT seat, user_id, name, dm_ok, dm_channel_id, dm_message_id, dm_message_at, seen_log, team"
            " FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            SeatRecord(r[0], r[1], r[2], bool(r[3]), r[4], r[5], r[6], r[7], r[8]) for r in rows
        ]

    async def add_seat(self, game_id: int, user_id: int, name: str, team: int | None = None) -> int:
        """Seat a user in a lobby at the next free seat (on `team`, in a team lobby); return
        the seat number."""

        def work(conn: sqlite3.Connection) -> int:
            seat = int(conn.execute("SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE game_id = ?",
                                    (game_id,)).fetchone()[0])
            conn.execute("INSERT INTO seats (game_id, seat, user_id, name, team) VALUES (?, ?, ?, ?, ?)",
                         (game_id, seat, user_id, name, team))
            return seat

        return int(await self._write(work))

    async def set_seat_team(self, game_id: int, user_id: int, team: int) -> None:
        """Move a lobby seat to another team (its place in the join order stays)."""
        await self._transaction([
            ("UPDATE seats SET team = ? WHERE game_id = ? AND user_id = ?", (team, game_id, user_id)),
        ])

    async def reseat(self, game_id: int, order: Sequence[int]) -> None:
        """Renumber a lobby's seats: `order[i]` is the user who takes seat i. Each row moves
        whole, so what is stored per seat (DM channel, DM check, name) follows its player."""

        def work(conn: sqlite3.Connection) -> None:
            # Two steps so the primary key never collides mid-update.
            for seat, user_id in enumerate(order):
                conn.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND user_id = ?",
                             (-seat - 1, game_id, user_id))
            conn.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", (game_id,))

        await self._write(work)

    async def set_team_thread(self, game_id: int, team: int, thread_id: int) -> None:
        await self._transaction([
            ("INSERT OR REPLACE INTO team_threads (game_id, team, thread_id) VALUES (?, ?, ?)",
             (game_id, team, thread_id)),
        ])

    async def team_threads(self, game_id: int) -> dict[int, int]:
        """Each team's private thread of a game: team index → thread id."""
        async with self._db.execute(
            "SELECT team, thread_id FROM team_threads WHERE game_id = ? ORDER BY team", (game_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return {r[0]: r[1] for r in rows}

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        """Unseat a user from a lobby and close the gap so seats stay 0..n-1."""

        def work(conn: sqlite3.Connection) -> None:
            row = conn.execute("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?",
                               (game_id, user_id)).fetchone()
            if row is None:
                return
            conn.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            # Two steps so the primary key never collides mid-update.
            conn.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat > ?", (game_id, row[0]))
            conn.execute("UPDATE seats SET seat = -seat - 2 WHERE game_id = ? AND seat < 0", (game_id,))

        await self._write(work)

    async def set_seat_delivery(
        self, game_id: int, seat: int, *, dm_ok: bool,
        dm_channel_id: int | None = None, dm_message_id: int | None = None,
        dm_message_at: float | None = None,
    ) -> None:
        """Remember whether DMs reach this seat, and its current private message."""
        await self._transaction([(
            "UPDATE seats SET dm_ok = ?, dm_channel_id = COALESCE(?, dm_channel_id),"
            " dm_message_id = COALESCE(?, dm_message_id),"
            " dm_message_at = COALESCE(?, dm_message_at) WHERE game_id = ? AND seat = ?",
            (int(dm_ok), dm_channel_id, dm_message_id, dm_message_at, game_id, seat),
        )])

    async def start_game(
        self, game_id: int, *, state: dict[str, Any], deadlines: list[dict[str, Any]],
        log: list[str], thread_id: int | None, now: float, options: dict[str, Any] | None = None,
    ) -> int:
        """Lobby → active, with the first state (version 1); `options`, if given, replace the
        lobby's (the start adds what only the start knows: the team sizes)."""
        counts = await self._transaction([(
            "UPDATE games SET status = 'active', state = ?, deadlines = ?, log = ?, version = 1,"
            " thread_id = COALESCE(?, thread_id), options = COALESCE(?, options), updated_at = ?, last_at = ?"
            " WHERE id = ? AND status = 'lobby'",
            (_dumps(state), _dumps(deadlines), _dumps(log), thread_id,
             _dumps(options) if options is not None else None, now, now, game_id),
        )])
        if counts[0] != 1:
            raise StaleVersion(f"game {game_id} is no longer a lobby")
        return 1

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        await self._transaction([
            ("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id)),
        ])

    async def set_deadlines(self, deadlines_by_game: Mapping[int, list[dict[str, Any]]]) -> None:
        """Move running games' timers (restart grace) in one transaction; states and versions stay."""
        if deadlines_by_game:
            await self._transaction([
                ("UPDATE games SET deadlines = ? WHERE id = ? AND status = 'active'", (_dumps(d), game_id))
                for game_id, d in deadlines_by_game.items()
            ])  # a list: one transaction

    async def commit_action(
        self, game_id: int, *, expected_version: int, seat: int | None, action: dict[str, Any],
        at: float, state: dict[str, Any], deadlines: list[dict[str, Any]], log: list[str],
        finished: bool, now: float,
        results: Sequence[ResultRecord] = (), ratings: Sequence[RatingRecord] = (),
        abandoned: bool = False, log_added: int = 0,
    ) -> int:
        """New state + action log row + version bump, in one transaction.

        A final action carries the game's results and new ratings in the same
        transaction, so a finished game is never left without its result.

        Returns the new version; raises StaleVersion (and changes nothing) when the game
        is not at `expected_version` any more.
        """
        new_version = expected_version + 1
        status = (Status.CANCELLED if abandoned else Status.FINISHED) if finished else Status.ACTIVE
        def work(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE games SET state = ?, deadlines = ?, log = ?, status = ?, version = ?,"
                " updated_at = ?, last_at = ?, log_total = log_total + ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (_dumps(state), _dumps(deadlines), _dumps(log), status.value, new_version,
                 now, at, log_added, game_id, expected_version),
            )
            if cursor.rowcount != 1:
                raise StaleVersion(f"game {game_id} is not at version {expected_version}")
            conn.execute("INSERT INTO actions (game_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                         (game_id, new_version, GAME_SEAT if seat is None else seat, _dumps(action), at))
            for sql, params in _result_statements(results, ratings):
                conn.execute(sql, params)

        await self._write(work)
        return new_version

    async def set_status(self, game_id: int, status: Status, now: float) -> None:
        await self._transaction([
            ("UPDATE games SET status = ?, deadlines = '[]', updated_at = ? WHERE id = ?",
             (status.value, now, game_id)),
        ])

    async def set_table_versions(self, shown: Mapping[int, int]) -> None:
        """Record which state version each table message shows (batched by the edge)."""
        if shown:
            await self._transaction([
                ("UPDATE games SET table_version = MAX(table_version, ?) WHERE id = ?", (version, game_id))
                for game_id, version in shown.items()
            ])

    async def tables_behind(self) -> dict[int, int]:
        """Running games whose table message shows an older state than the stored one (a
        crash came between a commit and its picture): game id → the version the table shows."""
        async with self._db.execute(
            "SELECT id, table_version FROM games WHERE status = 'active' AND table_version < version"
            " ORDER BY id"
        ) as cursor:
            rows = await cursor.fetchall()
        return {r[0]: r[1] for r in rows}

    async def notify_preferences(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Where each player wants "your turn" pings: 'auto', 'thread', 'dm' or 'off'."""
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        async with self._db.execute(f"SELECT user_id, notify FROM players WHERE user_id IN ({marks})",
                                    ids) as cursor:
            rows = await cursor.fetchall()
        return {r[0]: r[1] for r in rows}

    async def set_notify(self, user_id: int, notify: str) -> None:
        await self._transaction([
            ("INSERT INTO players (user_id, notify) VALUES (?, ?)"
             " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify", (user_id, notify)),
        ])

    async def set_ping(self, game_id: int, message_id: int | None, seen: Mapping[int, int]) -> None:
        """The thread's newest ping (None: unchanged), and how much of the log the pinged seats
        have now seen."""
        await self._transaction([
            ("UPDATE games SET ping_message_id = COALESCE(?, ping_message_id) WHERE id = ?", (message_id, game_id)),
            *[("UPDATE seats SET seen_log = ? WHERE game_id = ? AND seat = ?", (total, game_id, seat))
              for seat, total in seen.items()],
        ])

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._transaction([
            ("UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id)),
        ])

    async def last_game_in(self, channel_id: int) -> GameRecord | None:
        """The newest game, live or not, whose table is this channel or thread (`/game status`
        right after the end shows its result)."""
        async with self._db.execute(
            "SELECT id FROM games WHERE status != 'lobby' AND state IS NOT NULL"
            " AND (thread_id = ? OR (channel_id = ? AND thread_id IS NULL)) ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        ) as cursor:
            row = await cursor.fetchone()
        return await self.game(row[0]) if row else None

    async def set_table_message(self, game_id: int, message_id: int, at: float) -> None:
        await self._transaction([
            ("UPDATE games SET table_message_id = ?, table_message_at = ? WHERE id = ?",
             (message_id, at, game_id)),
        ])

    async def actions(self, game_id: int) -> list[ActionRecord]:
        async with self._db.execute(
            "SELECT seq, seat, action, at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [ActionRecord(r[0], None if r[1] == GAME_SEAT else r[1], json.loads(r[2]), r[3]) for r in rows]

    # ----- results and ratings ----------------------------------------------------------
    async def ratings(self, guild_id: int, kind: str, user_ids: Iterable[int]) -> dict[int, RatingRecord]:
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        async with self._db.execute(
            "SELECT guild_id, kind, user_id, mu, sigma, games, wins FROM ratings"
            f" WHERE guild_id = ? AND kind = ? AND user_id IN ({marks})",
            (guild_id, kind, *ids),
        ) as cursor:
            rows = await cursor.fetchall()
        return {r[2]: RatingRecord(*r) for r in rows}

    async def record_result(
        self, results: Sequence[ResultRecord], ratings: Sequence[RatingRecord]
    ) -> None:
        """Store a finished game's results and the players' new ratings together."""
        await self._transaction(_result_statements(results, ratings))

    async def leaderboard(self, guild_id: int, kind: str | None, limit: int = 10) -> list[RatingRecord]:
        """Top players by ordinal (mu - 3 sigma), of one game or of every game."""
        if kind is not None:
            sql = ("SELECT guild_id, kind, user_id, mu, sigma, games, wins FROM ratings"
                   " WHERE guild_id = ? AND kind = ? ORDER BY mu - 3 * sigma DESC, wins DESC LIMIT ?")
            params: tuple[Any, ...] = (guild_id, kind, limit)
        else:
            sql = ("SELECT guild_id, kind, user_id, mu, sigma, games, wins FROM ratings"
                   " WHERE guild_id = ? ORDER BY kind, mu - 3 * sigma DESC, wins DESC")
            params = (guild_id,)
        async with self._db.execute(sql, params) as cursor:
            rows = await cursor.fetchall()
        records = [RatingRecord(*r) for r in rows]
        if kind is None:
            per_kind: dict[str, list[RatingRecord]] = {}
            for record in records:
                per_kind.setdefault(record.kind, []).append(record)
            records = [r for group in per_kind.values() for r in group[:limit]]
        return records

    async def best_pairs(self, guild_id: int, kind: str, limit: int = 5) -> list[PairRecord]:
        """Players who played on one team in this server's finished games of `kind`, ranked by
        wins together, then games together. A win is a first place not shared by everyone."""
        async with self._db.execute(
            "SELECT a.user_id, b.user_id, COUNT(*) AS games,"
            " SUM(CASE WHEN a.rank = 0 AND EXISTS (SELECT 1 FROM results o"
            "   WHERE o.game_id = a.game_id AND o.rank > 0) THEN 1 ELSE 0 END) AS wins"
            " FROM results a JOIN results b ON b.game_id = a.game_id AND b.team = a.team"
            "   AND a.user_id < b.user_id"
            " JOIN games g ON g.id = a.game_id"
            " WHERE g.guild_id = ? AND g.kind = ? AND g.status = 'finished' AND a.team IS NOT NULL"
            " GROUP BY a.user_id, b.user_id ORDER BY wins DESC, games DESC, a.user_id, b.user_id LIMIT ?",
            (guild_id, kind, limit),
        ) as cursor:
            rows = await cursor.fetchall()
        return [PairRecord(r[0], r[1], r[2], r[3]) for r in rows]

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRecord]:
        async with self._db.execute(
            "SELECT guild_id, kind, user_id, mu, sigma, games, wins FROM ratings"
            " WHERE guild_id = ? AND user_id = ? ORDER BY kind",
            (guild_id, user_id),
        ) as cursor:
            rows = await cursor.fetchall()
        return [RatingRecord(*r) for r in rows]

    async def recent_results(self, guild_id: int, user_id: int, limit: int = 5) -> list[ResultRecord]:
        async with self._db.execute(
            "SELECT r.game_id, r.user_id, r.seat, r.rank, r.score, r.team, g.kind, g.updated_at"
            " FROM results r JOIN games g ON g.id = r.game_id"
            " WHERE g.guild_id = ? AND r.user_id = ? ORDER BY g.updated_at DESC, g.id DESC LIMIT ?",
            (guild_id, user_id, limit),
        ) as cursor:
            rows = await cursor.fetchall()
        return [ResultRecord(*r) for r in rows]


def _game_from_row(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], thread_id=row[3], kind=row[4],
        host_id=row[5], options=json.loads(row[6]), status=Status(row[7]), version=row[8],
        seed=row[9], state=json.loads(row[10]) if row[10] is not None else None,
        deadlines=json.loads(row[11]), log=json.loads(row[12]), table_message_id=row[13],
        table_message_at=row[14], created_at=row[15], updated_at=row[16], last_at=row[17],
        nonce=row[18], table_version=row[19], lobby_message_id=row[20], log_total=row[21],
        ping_message_id=row[22],
    )


def _result_statements(
    results: Sequence[ResultRecord], ratings: Sequence[RatingRecord]
) -> list[tuple[str, Sequence[Any]]]:
    statements: list[tuple[str, Sequence[Any]]] = [
        ("INSERT OR REPLACE INTO results (game_id, user_id, seat, rank, score, team)"
         " VALUES (?, ?, ?, ?, ?, ?)",
         (r.game_id, r.user_id, r.seat, r.rank, r.score, r.team))
        for r in results
    ]
    statements += [
        ("INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games, wins)"
         " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET"
         " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
         " wins = excluded.wins",
         (g.guild_id, g.kind, g.user_id, g.mu, g.sigma, g.games, g.wins))
        for g in ratings
    ]
    return statements
