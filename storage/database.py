"""The Storage service: games, seats, the action log, results and ratings, on SQLite (the
default: one file, nothing to install) or PostgreSQL (several bot processes at once).

Every method is written once: its queries form a transaction body (storage.sql) that the
backend drives — SQLite in one hop to its thread (storage.sqlite), PostgreSQL in one async
transaction on a pooled connection (storage.postgres). `open_storage(target)` picks the
backend: a `postgresql://` URL, else a SQLite path.

Exactly-once across processes rests on the database, never on a lock held across a Discord
call: a commit is a version compare-and-set (StaleVersion when another action won); rating
updates of one server and game are serialised by a lock that lives only as long as the
transaction (RatingUpdate); one live game per channel is a unique index (ChannelBusy).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import orjson

from storage.records import (
    ActionRecord,
    GameRecord,
    PairRecord,
    RatingRecord,
    RatingUpdate,
    ResultRecord,
    SeatRecord,
    Status,
    earliest_deadline,
)
from storage.sql import Query, Tx, UniqueViolation, count, lock, one, rows

T = TypeVar("T")

_GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, kind, host_id, options, status, version, seed, state,"
    " deadlines, log, table_message_id, table_message_at, created_at, updated_at, last_at, nonce,"
    " table_version, lobby_message_id, log_total, ping_message_id, practice"
)
_SEAT_COLUMNS = "seat, user_id, name, dm_ok, dm_channel_id, dm_message_id, dm_message_at, seen_log, team, computer"
_RATING_COLUMNS = "guild_id, kind, user_id, mu, sigma, games, wins"

#: The `seat` of an action the game itself took (a seat-less wait's deadline).
GAME_SEAT = -1

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")

#: A step's compare-and-set: the game moves to the new version only from the expected one.
_MOVE_GAME = (
    "UPDATE games SET state = ?, deadlines = ?, next_deadline = ?, log = ?, status = ?,"
    " version = ?, updated_at = ?, last_at = ?, log_total = log_total + ?"
    " WHERE id = ? AND version = ? AND status = 'active'"
)

#: The unique index behind ChannelBusy (migration 5).
_ONE_LIVE_PER_CHANNEL = "games_one_live_per_channel"


class StaleVersion(Exception):
    """The game changed since the caller loaded it (another action won the race)."""


class ChannelBusy(Exception):
    """The channel already has a live game without a thread (one lobby per channel)."""


class Backend(Protocol):
    shared: bool
    #: "sqlite" or "postgresql": the one method that differs (commit_action's common case).
    dialect: str

    async def run(self, body: Tx[T], *, write: bool) -> T: ...

    async def statement(self, query: Query) -> Any: ...

    async def close(self) -> None: ...

    async def schema_version(self) -> int: ...

    async def migrate(self) -> int: ...


def _dumps(value: Any) -> str:
    """Compact JSON text through orjson (several times faster than `json`; every action
    writes the state, deadlines, log and action); `json` for what orjson refuses (an
    integer past 64 bits, kept whole for the action log, which `json` reads back)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def _loads(text: str | bytes) -> Any:
    """A game row's JSON (state, deadlines, log, options: values the engines already copy
    through orjson, see games.core.copy_state). The action log is read with `json`, which
    keeps an integer past 64 bits whole where orjson would turn it into a float."""
    return orjson.loads(text)


def _marks(n: int) -> str:
    return ",".join("?" * n)


class Storage:
    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    # ----- lifecycle --------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Storage:
        """Open (creating if needed) and migrate the SQLite database at `path` — or, given a
        `postgresql://` URL, the PostgreSQL database there (as `open_storage`)."""
        from storage.sqlite import SqliteBackend

        if isinstance(path, str) and path.startswith(_POSTGRES_SCHEMES):
            return await cls.open_postgres(path)
        return cls(await SqliteBackend.open(path))

    @classmethod
    async def open_postgres(cls, url: str) -> Storage:
        """Connect to (and migrate) the PostgreSQL database at `url`."""
        from storage.postgres import PostgresBackend

        return cls(await PostgresBackend.open(url))

    @property
    def shared(self) -> bool:
        """True when several processes may use this database at once (PostgreSQL)."""
        return self.backend.shared

    @property
    def path(self) -> str:
        """Where the database is: the SQLite file, or the PostgreSQL URL."""
        return str(getattr(self.backend, "path", None) or getattr(self.backend, "url", ""))

    @property
    def _db(self) -> Any:
        """The SQLite backend's aiosqlite connection (tests read PRAGMAs through it)."""
        return self.backend.connection  # type: ignore[attr-defined]

    async def close(self) -> None:
        await self.backend.close()

    async def schema_version(self) -> int:
        return await self.backend.schema_version()

    async def migrate(self) -> int:
        return await self.backend.migrate()

    async def _write(self, body: Tx[T]) -> T:
        return await self.backend.run(body, write=True)

    async def _read(self, body: Tx[T]) -> T:
        return await self.backend.run(body, write=False)

    async def _transaction(self, statements: Sequence[Query]) -> list[int]:
        """Run statements in one transaction; return each statement's row count."""

        def body() -> Tx[list[int]]:
            counts = []
            for statement in statements:
                counts.append((yield statement))
            return counts

        return await self._write(body())

    async def _query(self, query: Query) -> Any:
        def body() -> Tx[Any]:
            return (yield query)

        return await self._read(body())

    # ----- games ------------------------------------------------------------------------
    async def create_game(
        self, *, guild_id: int, channel_id: int, kind: str, host_id: int, host_name: str,
        options: dict[str, Any], seed: int, now: float, nonce: str = "", host_team: int | None = None,
    ) -> int:
        """A new lobby with its host in seat 0; ChannelBusy when the channel already has a live
        game without a thread (another process may have opened it a moment ago)."""

        def body() -> Tx[int]:
            row = yield one(
                "INSERT INTO games (guild_id, channel_id, kind, host_id, options, seed, nonce,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                guild_id, channel_id, kind, host_id, _dumps(options), seed, nonce, now, now,
            )
            game_id = int(row[0])
            yield count("INSERT INTO seats (game_id, seat, user_id, name, team) VALUES (?, 0, ?, ?, ?)",
                        game_id, host_id, host_name, host_team)
            return game_id

        try:
            return await self._write(body())
        except UniqueViolation as error:
            if _ONE_LIVE_PER_CHANNEL in str(error) or "games.channel_id" in str(error):
                raise ChannelBusy(f"channel {channel_id} already has a live game") from error
            raise

    def _game_body(self, game_id: int) -> Tx[GameRecord | None]:
        row = yield one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", game_id)
        if row is None:
            return None
        record = _game_from_row(row)
        record.seats = yield from self._seats_body(game_id)
        return record

    def _seats_body(self, game_id: int) -> Tx[list[SeatRecord]]:
        found = yield rows(f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        return [_seat_from_row(r) for r in found]

    def _games_by_id_body(self, query: Query) -> Tx[list[GameRecord]]:
        found = yield query
        games = []
        for r in found:
            game = yield from self._game_body(r[0])
            if game is not None:
                games.append(game)
        return games

    def _first_game_body(self, query: Query) -> Tx[GameRecord | None]:
        row = yield query
        if row is None:
            return None
        return (yield from self._game_body(row[0]))

    async def game(self, game_id: int) -> GameRecord | None:
        return await self._read(self._game_body(game_id))

    async def game_version(self, game_id: int) -> int | None:
        """The stored version of a game (one cheap query: is my cached state still current?)."""
        row = await self._query(one("SELECT version FROM games WHERE id = ?", game_id))
        return int(row[0]) if row is not None else None

    async def live_game_in(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game whose table is this channel or thread, if any."""
        return await self._read(self._first_game_body(one(
            "SELECT id FROM games WHERE status IN ('lobby', 'active')"
            " AND (thread_id = ? OR (channel_id = ? AND thread_id IS NULL))"
            " ORDER BY id DESC LIMIT 1",
            channel_id, channel_id,
        )))

    async def latest_finished_game(self, guild_id: int) -> GameRecord | None:
        """The server's most recently finished game (with a result), if any: `/game record`."""
        return await self._read(self._first_game_body(one(
            "SELECT id FROM games WHERE guild_id = ? AND status = 'finished'"
            " ORDER BY updated_at DESC, id DESC LIMIT 1",
            guild_id,
        )))

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

    async def live_games_of(self, user_id: int) -> list[GameRecord]:
        return await self._read(self._games_by_id_body(rows(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE s.user_id = ? AND g.status IN ('lobby', 'active') ORDER BY g.id",
            user_id,
        )))

    async def active_games(self) -> list[GameRecord]:
        """Every running game, for restoring timers at start-up (seats not loaded)."""
        found = await self._query(rows(f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active'"))
        return [_game_from_row(r) for r in found]

    async def due_games(self, until: float) -> list[tuple[int, float]]:
        """Running games whose earliest deadline is at or before `until`: (game id, when),
        soonest first (an index scan on (status, next_deadline))."""
        found = await self._query(rows(
            "SELECT id, next_deadline FROM games WHERE status = 'active' AND next_deadline <= ?"
            " ORDER BY next_deadline, id",
            until,
        ))
        return [(int(r[0]), float(r[1])) for r in found]

    async def seats(self, game_id: int) -> list[SeatRecord]:
        return await self._read(self._seats_body(game_id))

    async def add_seat(self, game_id: int, user_id: int, name: str, team: int | None = None, *,
                       computer: bool = False) -> int:
        """Seat a user (or a computer) in a lobby at the next free seat (on `team`, in a team
        lobby); return the seat number."""

        def body() -> Tx[int]:
            row = yield one("SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE game_id = ?", game_id)
            seat = int(row[0])
            # a computer gets no private messages: dm_ok off, so delivery never looks it up
            yield count("INSERT INTO seats (game_id, seat, user_id, name, team, computer, dm_ok)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)", game_id, seat, user_id, name, team, int(computer),
                        int(not computer))
            return seat

        return await self._write(body())

    async def set_seat_player(self, game_id: int, seat: int, *, user_id: int, name: str,
                              computer: bool) -> None:
        """Hand a seat to another player — a computer stand-in for a leaver, or back — in a lobby
        or a running game. What was stored about the old player's private messages is forgotten
        (it was theirs); a computer gets none (dm_ok off)."""
        await self._transaction([count(
            "UPDATE seats SET user_id = ?, name = ?, computer = ?, dm_ok = ?, dm_channel_id = NULL,"
            " dm_message_id = NULL, dm_message_at = NULL WHERE game_id = ? AND seat = ?",
            user_id, name, int(computer), int(not computer), game_id, seat,
        )])

    async def set_host(self, game_id: int, user_id: int) -> None:
        """Another player hosts the game (the host left; the next human takes over)."""
        await self._transaction([count("UPDATE games SET host_id = ? WHERE id = ?", user_id, game_id)])

    async def set_seat_team(self, game_id: int, user_id: int, team: int) -> None:
        """Move a lobby seat to another team (its place in the join order stays)."""
        await self._transaction([
            count("UPDATE seats SET team = ? WHERE game_id = ? AND user_id = ?", team, game_id, user_id),
        ])

    async def reseat(self, game_id: int, order: Sequence[int]) -> None:
        """Renumber a lobby's seats: `order[i]` is the user who takes seat i. Each row moves
        whole, so what is stored per seat (DM channel, DM check, name) follows its player."""
        # Two steps so the primary key never collides mid-update.
        await self._transaction([
            *[count("UPDATE seats SET seat = ? WHERE game_id = ? AND user_id = ?", -seat - 1, game_id, user_id)
              for seat, user_id in enumerate(order)],
            count("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", game_id),
        ])

    async def set_team_thread(self, game_id: int, team: int, thread_id: int) -> None:
        await self._transaction([
            count("INSERT INTO team_threads (game_id, team, thread_id) VALUES (?, ?, ?)"
                  " ON CONFLICT (game_id, team) DO UPDATE SET thread_id = excluded.thread_id",
                  game_id, team, thread_id),
        ])

    async def team_threads(self, game_id: int) -> dict[int, int]:
        """Each team's private thread of a game: team index → thread id."""
        found = await self._query(rows(
            "SELECT team, thread_id FROM team_threads WHERE game_id = ? ORDER BY team", game_id))
        return {r[0]: r[1] for r in found}

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        """Unseat a user (or a computer) from a lobby and close the gap so seats stay 0..n-1."""

        def body() -> Tx[None]:
            row = yield one("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", game_id, user_id)
            if row is None:
                return
            yield count("DELETE FROM seats WHERE game_id = ? AND user_id = ?", game_id, user_id)
            # Two steps so the primary key never collides mid-update.
            yield count("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat > ?", game_id, row[0])
            yield count("UPDATE seats SET seat = -seat - 2 WHERE game_id = ? AND seat < 0", game_id)

        await self._write(body())

    async def set_seat_delivery(
        self, game_id: int, user_id: int, *, dm_ok: bool,
        dm_channel_id: int | None = None, dm_message_id: int | None = None,
        dm_message_at: float | None = None,
    ) -> bool:
        """Remember whether DMs reach this player, and their current private message. Keyed by
        the user, not the seat number: a lobby renumbers seats when someone leaves, so a number
        worked out before an await may be someone else's by the time it is stored. False when
        the user no longer sits in the game (they left meanwhile): nothing is stored."""
        changed = await self._transaction([count(
            "UPDATE seats SET dm_ok = ?, dm_channel_id = COALESCE(?, dm_channel_id),"
            " dm_message_id = COALESCE(?, dm_message_id),"
            " dm_message_at = COALESCE(?, dm_message_at) WHERE game_id = ? AND user_id = ?",
            int(dm_ok), dm_channel_id, dm_message_id, dm_message_at, game_id, user_id,
        )])
        return bool(changed and changed[0])

    async def start_game(
        self, game_id: int, *, state: dict[str, Any], deadlines: list[dict[str, Any]],
        log: list[str], thread_id: int | None, now: float, options: dict[str, Any] | None = None,
    ) -> int:
        """Lobby → active, with the first state (version 1); `options`, if given, replace the
        lobby's (the start adds what only the start knows: the team sizes)."""
        counts = await self._transaction([count(
            "UPDATE games SET status = 'active', state = ?, deadlines = ?, next_deadline = ?, log = ?,"
            " version = 1, thread_id = COALESCE(?, thread_id), options = COALESCE(?, options),"
            " updated_at = ?, last_at = ? WHERE id = ? AND status = 'lobby'",
            _dumps(state), _dumps(deadlines), earliest_deadline(deadlines), _dumps(log), thread_id,
            _dumps(options) if options is not None else None, now, now, game_id,
        )])
        if counts[0] != 1:
            raise StaleVersion(f"game {game_id} is no longer a lobby")
        return 1

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        await self._transaction([
            count("UPDATE games SET thread_id = ? WHERE id = ?", thread_id, game_id),
        ])

    async def set_deadlines(self, deadlines_by_game: Mapping[int, list[dict[str, Any]]]) -> None:
        """Move running games' timers (restart grace) in one transaction; states and versions stay."""
        if deadlines_by_game:
            await self._transaction([
                count("UPDATE games SET deadlines = ?, next_deadline = ? WHERE id = ? AND status = 'active'",
                      _dumps(d), earliest_deadline(d), game_id)
                for game_id, d in deadlines_by_game.items()
            ])

    async def commit_action(
        self, game_id: int, *, expected_version: int, seat: int | None, action: dict[str, Any],
        at: float, state: dict[str, Any], deadlines: list[dict[str, Any]], log: list[str],
        finished: bool, now: float,
        results: Sequence[ResultRecord] = (), ratings: Sequence[RatingRecord] = (),
        abandoned: bool = False, log_added: int = 0, rating: RatingUpdate | None = None,
    ) -> int:
        """New state + action log row + version bump, in one transaction.

        A final action carries the game's results and new ratings in the same transaction, so
        a finished game is never left without its result. `ratings` are written as given;
        `rating` is computed here from the ratings current inside this transaction, serialised
        per (guild, kind), so two games of one server ending at once both count.

        Returns the new version; raises StaleVersion (and changes nothing) when the game is
        not at `expected_version` any more.
        """
        new_version = expected_version + 1
        status = (Status.CANCELLED if abandoned else Status.FINISHED) if finished else Status.ACTIVE
        moved = (_dumps(state), _dumps(deadlines), None if finished else earliest_deadline(deadlines),
                 _dumps(log), status.value, new_version, now, at, log_added, game_id, expected_version)
        logged = (new_version, GAME_SEAT if seat is None else seat, _dumps(action), at)
        if self.backend.dialect == "postgresql" and not results and not ratings and rating is None:
            # The common step on PostgreSQL: the compare-and-set and the log row in one
            # statement (a data-modifying WITH, atomic by itself), one round trip instead of
            # four (BEGIN, UPDATE, INSERT, COMMIT). SQLite has no such WITH, and needs none:
            # its whole transaction is one hop to its thread.
            inserted = await self.backend.statement(count(
                f"WITH moved AS ({_MOVE_GAME} RETURNING id) INSERT INTO actions (game_id, seq, seat, action, at)"
                " SELECT id, ?::bigint, ?::bigint, ?::text, ?::double precision FROM moved",
                *moved, *logged))
            if inserted != 1:
                raise StaleVersion(f"game {game_id} is not at version {expected_version}")
            return new_version

        def body() -> Tx[None]:
            changed = yield count(_MOVE_GAME, *moved)
            if changed != 1:
                raise StaleVersion(f"game {game_id} is not at version {expected_version}")
            yield count("INSERT INTO actions (game_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                        game_id, *logged)
            for statement in _result_statements(results, ratings):  # noqa: UP028 (results are sent back)
                yield statement
            if rating is not None:
                yield from _rating_update_body(rating)

        await self._write(body())
        return new_version

    async def set_status(self, game_id: int, status: Status, now: float) -> None:
        await self._transaction([
            count("UPDATE games SET status = ?, deadlines = '[]', next_deadline = NULL, updated_at = ?"
                  " WHERE id = ?", status.value, now, game_id),
        ])

    async def set_table_versions(self, shown: Mapping[int, int]) -> None:
        """Record which state version each table message shows (batched by the edge); a
        version never goes back."""
        if shown:
            await self._transaction([
                count("UPDATE games SET table_version = ? WHERE id = ? AND table_version < ?",
                      version, game_id, version)
                for game_id, version in shown.items()
            ])

    async def tables_behind(self) -> dict[int, int]:
        """Running games whose table message shows an older state than the stored one (a
        crash came between a commit and its picture): game id → the version the table shows."""
        found = await self._query(rows(
            "SELECT id, table_version FROM games WHERE status = 'active' AND table_version < version"
            " ORDER BY id"))
        return {r[0]: r[1] for r in found}

    async def notify_preferences(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Where each player wants "your turn" pings: 'auto', 'thread', 'dm' or 'off'."""
        ids = list(user_ids)
        if not ids:
            return {}
        found = await self._query(rows(
            f"SELECT user_id, notify FROM players WHERE user_id IN ({_marks(len(ids))})", *ids))
        return {r[0]: r[1] for r in found}

    async def set_notify(self, user_id: int, notify: str) -> None:
        await self._transaction([
            count("INSERT INTO players (user_id, notify) VALUES (?, ?)"
                  " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify", user_id, notify),
        ])

    async def set_ping(self, game_id: int, message_id: int | None, seen: Mapping[int, int]) -> None:
        """The thread's newest ping (None: unchanged), and how much of the log the pinged seats
        have now seen."""
        await self._transaction([
            count("UPDATE games SET ping_message_id = COALESCE(?, ping_message_id) WHERE id = ?",
                  message_id, game_id),
            *[count("UPDATE seats SET seen_log = ? WHERE game_id = ? AND seat = ?", total, game_id, seat)
              for seat, total in seen.items()],
        ])

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._transaction([
            count("UPDATE games SET lobby_message_id = ? WHERE id = ?", message_id, game_id),
        ])

    async def last_game_in(self, channel_id: int) -> GameRecord | None:
        """The newest game, live or not, whose table is this channel or thread (`/game status`
        right after the end shows its result)."""
        return await self._read(self._first_game_body(one(
            "SELECT id FROM games WHERE status != 'lobby' AND state IS NOT NULL"
            " AND (thread_id = ? OR (channel_id = ? AND thread_id IS NULL)) ORDER BY id DESC LIMIT 1",
            channel_id, channel_id,
        )))

    async def set_table_message(self, game_id: int, message_id: int, at: float) -> None:
        await self._transaction([
            count("UPDATE games SET table_message_id = ?, table_message_at = ? WHERE id = ?",
                  message_id, at, game_id),
        ])

    async def actions(self, game_id: int) -> list[ActionRecord]:
        found = await self._query(rows(
            "SELECT seq, seat, action, at FROM actions WHERE game_id = ? ORDER BY seq", game_id))
        return [ActionRecord(r[0], None if r[1] == GAME_SEAT else r[1], json.loads(r[2]), r[3]) for r in found]

    # ----- processes (several bot processes on one shared database) ----------------------
    async def heartbeat(self, process_id: str, shards: list[int], now: float) -> None:
        """This process is alive and owns `shards` (its first beat records when it started)."""
        await self._transaction([count(
            "INSERT INTO processes (id, shards, started_at, seen_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET shards = excluded.shards, seen_at = excluded.seen_at",
            process_id, _dumps(list(shards)), now, now,
        )])

    async def live_peers(self, process_id: str, now: float, within: float = 30.0) -> list[str]:
        """The other processes whose last heartbeat is at most `within` seconds old."""
        found = await self._query(rows(
            "SELECT id FROM processes WHERE id != ? AND seen_at >= ? ORDER BY id", process_id, now - within))
        return [r[0] for r in found]

    async def retire(self, process_id: str) -> None:
        """A process leaving cleanly: no longer counted as live."""
        await self._transaction([count("DELETE FROM processes WHERE id = ?", process_id)])

    async def claim_identify(self, bucket: int, now: float, spacing: float = 5.0) -> float:
        """Reserve the next identify slot of a max_concurrency bucket, across processes: the
        time the caller may identify at (now, or `spacing` after the last slot claimed). One
        statement, so two processes never get the same slot."""
        row = await self._write(_claim_body(bucket, now, spacing))
        return float(row[0]) - spacing

    # ----- results and ratings ----------------------------------------------------------
    async def ratings(self, guild_id: int, kind: str, user_ids: Iterable[int]) -> dict[int, RatingRecord]:
        return await self._read(_ratings_body(guild_id, kind, list(user_ids)))

    async def record_result(
        self, results: Sequence[ResultRecord], ratings: Sequence[RatingRecord]
    ) -> None:
        """Store a finished game's results and the players' new ratings together."""
        await self._transaction(_result_statements(results, ratings))

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


def _game_from_row(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], thread_id=row[3], kind=row[4],
        host_id=row[5], options=_loads(row[6]), status=Status(row[7]), version=row[8],
        seed=row[9], state=_loads(row[10]) if row[10] is not None else None,
        deadlines=_loads(row[11]), log=_loads(row[12]), table_message_id=row[13],
        table_message_at=row[14], created_at=row[15], updated_at=row[16], last_at=row[17],
        nonce=row[18], table_version=row[19], lobby_message_id=row[20], log_total=row[21],
        ping_message_id=row[22], practice=bool(row[23]),
    )


def _seat_from_row(r: Sequence[Any]) -> SeatRecord:
    return SeatRecord(r[0], r[1], r[2], bool(r[3]), r[4], r[5], r[6], r[7], r[8], bool(r[9]))


def _rating_from_row(r: Sequence[Any]) -> RatingRecord:
    return RatingRecord(r[0], r[1], r[2], r[3], r[4], r[5], r[6])


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


def _claim_body(bucket: int, now: float, spacing: float) -> Tx[Any]:
    return (yield one(
        "INSERT INTO identify_slots (bucket, next_at) VALUES (?, ?) ON CONFLICT (bucket) DO UPDATE SET"
        " next_at = CASE WHEN identify_slots.next_at > ? THEN identify_slots.next_at ELSE ? END + ?"
        " RETURNING next_at",
        bucket, now + spacing, now, now, spacing,
    ))


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


async def open_storage(target: str | os.PathLike[str]) -> Storage:
    """`postgresql://…` (or `postgres://…`) → the PostgreSQL backend; anything else is a SQLite
    file path (created if needed). Either way migrated to the latest schema."""
    return await Storage.open(os.fspath(target))
