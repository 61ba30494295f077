"""Games: a lobby created, started and moved along, the lookups that find a game (by id, by
channel, by player), running games' timers and table messages, and a game's end without a
step (cancelled, stopped). A step's own commit is the action log's (storage.actionlog).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage.base import _GAME_COLUMNS, ChannelBusy, StaleVersion, _dumps, _game_from_row
from storage.records import Deadline, GameRecord, Status, earliest_deadline
from storage.seats import Seats
from storage.sql import Query, Tx, UniqueViolation, count, one, rows

#: The unique index behind ChannelBusy (migration 5).
_ONE_LIVE_PER_CHANNEL = "games_one_live_per_channel"


class Games(Seats):
    """The games table, each game read with its seats."""

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

    async def last_game_in(self, channel_id: int) -> GameRecord | None:
        """The newest game, live or not, whose table is this channel or thread (`/game status`
        right after the end shows its result)."""
        return await self._read(self._first_game_body(one(
            "SELECT id FROM games WHERE status != 'lobby' AND state IS NOT NULL"
            " AND (thread_id = ? OR (channel_id = ? AND thread_id IS NULL)) ORDER BY id DESC LIMIT 1",
            channel_id, channel_id,
        )))

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

    async def set_host(self, game_id: int, user_id: int) -> None:
        """Another player hosts the game (the host left; the next human takes over)."""
        await self._transaction([count("UPDATE games SET host_id = ? WHERE id = ?", user_id, game_id)])

    async def start_game(
        self, game_id: int, *, state: dict[str, Any], deadlines: list[Deadline],
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

    async def set_deadlines(self, deadlines_by_game: Mapping[int, list[Deadline]]) -> None:
        """Move running games' timers (restart grace) in one transaction; states and versions stay."""
        if deadlines_by_game:
            await self._transaction([
                count("UPDATE games SET deadlines = ?, next_deadline = ? WHERE id = ? AND status = 'active'",
                      _dumps(d), earliest_deadline(d), game_id)
                for game_id, d in deadlines_by_game.items()
            ])

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

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._transaction([
            count("UPDATE games SET lobby_message_id = ? WHERE id = ?", message_id, game_id),
        ])

    async def set_table_message(self, game_id: int, message_id: int, at: float) -> None:
        await self._transaction([
            count("UPDATE games SET table_message_id = ?, table_message_at = ? WHERE id = ?",
                  message_id, at, game_id),
        ])
