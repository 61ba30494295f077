"""What a game night stores (migration 6): rematches — a lobby opened whole from a finished
game, seats and all, in one transaction — and nights, a channel's series of games whose
scoreboard is read back from the games finished in the channel since the night started
(nothing is kept in memory, so a restart loses nothing).

Written as transaction bodies on the one `Storage`, like every other query (storage.sql).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage.database import ChannelBusy, Storage, _dumps
from storage.sql import Tx, UniqueViolation, count, one, rows

#: The unique index behind NightBusy (migration 6).
_ONE_NIGHT_PER_CHANNEL = "nights_one_open_per_channel"


class NightBusy(Exception):
    """The channel already has a night going (another process may have started it)."""


@dataclass(frozen=True)
class PlannedSeat:
    """A seat of a lobby opened whole: who sits there, on which lobby team, and whether a
    computer plays it (its user id is then a synthetic negative number)."""

    user_id: int
    name: str
    team: int | None = None
    computer: bool = False


@dataclass(frozen=True)
class NightRecord:
    id: int
    guild_id: int
    channel_id: int
    started_by: int
    started_at: float
    ended_at: float | None = None
    ended_by: int | None = None


@dataclass(frozen=True)
class NightSeat:
    """One seat of a game finished during a night, as its result was recorded."""

    game_id: int
    kind: str
    finished_at: float
    user_id: int
    seat: int
    rank: int
    team: int | None
    name: str
    computer: bool


_NIGHT_COLUMNS = "id, guild_id, channel_id, started_by, started_at, ended_at, ended_by"


def _night(row: Sequence[Any]) -> NightRecord:
    return NightRecord(int(row[0]), row[1], row[2], row[3], float(row[4]),
                       float(row[5]) if row[5] is not None else None, row[6])


class GameNights:
    """Rematches and nights, on the bot's storage (SQLite or PostgreSQL)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # ----- rematches --------------------------------------------------------------------
    async def open_rematch(
        self, *, of_game: int, guild_id: int, channel_id: int, kind: str, host_id: int,
        options: dict[str, Any], seed: int, nonce: str, now: float, seats: Sequence[PlannedSeat],
    ) -> int:
        """A lobby with every seat of `seats` taken, in that order, noted as the rematch of
        `of_game`; ChannelBusy when the channel already has a live game without a thread."""

        def body() -> Tx[int]:
            row = yield one(
                "INSERT INTO games (guild_id, channel_id, kind, host_id, options, seed, nonce,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                guild_id, channel_id, kind, host_id, _dumps(options), seed, nonce, now, now,
            )
            game_id = int(row[0])
            for number, seat in enumerate(seats):
                # a computer gets no private messages: dm_ok off, as `add_seat` stores it
                yield count("INSERT INTO seats (game_id, seat, user_id, name, team, computer, dm_ok)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?)", game_id, number, seat.user_id, seat.name,
                            seat.team, int(seat.computer), int(not seat.computer))
            yield count("INSERT INTO rematches (game_id, of_game) VALUES (?, ?)", game_id, of_game)
            return game_id

        try:
            return await self.storage._write(body())
        except UniqueViolation as error:
            if "games_one_live_per_channel" in str(error) or "games.channel_id" in str(error):
                raise ChannelBusy(f"channel {channel_id} already has a live game") from error
            raise

    async def rematch_of(self, game_id: int) -> int | None:
        """The finished game this one is the rematch of, if it is one."""
        row = await self.storage._query(one("SELECT of_game FROM rematches WHERE game_id = ?", game_id))
        return int(row[0]) if row is not None else None

    async def rematches_of(self, game_id: int) -> list[int]:
        """The games opened as rematches of `game_id` that were not cancelled, oldest first."""
        found = await self.storage._query(rows(
            "SELECT r.game_id FROM rematches r JOIN games g ON g.id = r.game_id"
            " WHERE r.of_game = ? AND g.status <> 'cancelled' ORDER BY r.game_id", game_id))
        return [int(r[0]) for r in found]

    # ----- nights -----------------------------------------------------------------------
    async def start_night(self, *, guild_id: int, channel_id: int, user_id: int, now: float) -> NightRecord:
        """A night begins in the channel; NightBusy when one is already going there."""

        def body() -> Tx[NightRecord]:
            row = yield one(
                f"INSERT INTO nights (guild_id, channel_id, started_by, started_at) VALUES (?, ?, ?, ?)"
                f" RETURNING {_NIGHT_COLUMNS}", guild_id, channel_id, user_id, now)
            return _night(row)

        try:
            return await self.storage._write(body())
        except UniqueViolation as error:
            if _ONE_NIGHT_PER_CHANNEL in str(error) or "nights.channel_id" in str(error):
                raise NightBusy(f"channel {channel_id} already has a night going") from error
            raise

    async def night_in(self, channel_id: int) -> NightRecord | None:
        """The channel's night going now, if any."""
        row = await self.storage._query(one(
            f"SELECT {_NIGHT_COLUMNS} FROM nights WHERE channel_id = ? AND ended_at IS NULL", channel_id))
        return _night(row) if row is not None else None

    async def end_night(self, night_id: int, user_id: int, now: float) -> NightRecord | None:
        """Close the night (once: None when it was already closed, by another press or process)."""

        def body() -> Tx[NightRecord | None]:
            row = yield one(
                f"UPDATE nights SET ended_at = ?, ended_by = ? WHERE id = ? AND ended_at IS NULL"
                f" RETURNING {_NIGHT_COLUMNS}", now, user_id, night_id)
            return _night(row) if row is not None else None

        return await self.storage._write(body())

    async def night_seats(self, night: NightRecord) -> list[NightSeat]:
        """Every seat of every game with a result that finished in the night's channel (a
        game's thread belongs to the channel it was opened in) while the night went on."""
        until = night.ended_at if night.ended_at is not None else float("inf")
        found = await self.storage._query(rows(
            "SELECT g.id, g.kind, g.updated_at, r.user_id, r.seat, r.rank, r.team, s.name, s.computer"
            " FROM games g JOIN results r ON r.game_id = g.id"
            " JOIN seats s ON s.game_id = g.id AND s.seat = r.seat"
            " WHERE g.channel_id = ? AND g.status = 'finished' AND g.updated_at >= ? AND g.updated_at <= ?"
            " ORDER BY g.updated_at, g.id, r.seat",
            night.channel_id, night.started_at, min(until, 1e300),
        ))
        return [NightSeat(int(r[0]), r[1], float(r[2]), r[3], int(r[4]), int(r[5]),
                          int(r[6]) if r[6] is not None else None, r[7], bool(r[8])) for r in found]
