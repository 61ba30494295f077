"""Seats and players: who sits where in a game (a lobby renumbers its seats as players come and
go; a computer may take a leaver's seat), how each player's private view reaches them, each
team's private thread, and where a player wants "your turn" pings.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence

from storage.base import _SEAT_COLUMNS, Backend, StorageBase, _marks, _seat_from_row
from storage.records import SeatRecord
from storage.sql import Tx, count, one, rows

#: Seconds a ping preference read from a shared database is trusted: another process may have
#: taken the player's `/notify` since. One process alone on its database writes every change
#: itself, so it trusts what it knows for good.
NOTIFY_TRUSTED = 60.0
#: Players whose ping preference is kept; forgotten all at once past this (read again).
NOTIFY_KEPT = 100_000


class Seats(StorageBase):
    """The seats of games, and what is stored per player."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        #: user id -> (their ping preference, None if never set; when it was read, monotonic).
        #: Every ping asks for it: a database round trip per press, now one per player.
        self._notify_known: dict[int, tuple[str | None, float]] = {}

    def _seats_body(self, game_id: int) -> Tx[list[SeatRecord]]:
        found = yield rows(f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        return [_seat_from_row(r) for r in found]

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

    async def notify_preferences(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Where each player wants "your turn" pings: 'auto', 'thread', 'dm' or 'off' (a player
        who never chose is left out). Read once per player, then known (`NOTIFY_TRUSTED`)."""
        now = time.monotonic()
        trusted = NOTIFY_TRUSTED if self.shared else math.inf
        known: dict[int, str | None] = {}
        missing: list[int] = []
        for user_id in dict.fromkeys(user_ids):
            kept = self._notify_known.get(user_id)
            if kept is not None and now - kept[1] < trusted:
                known[user_id] = kept[0]
            else:
                missing.append(user_id)
        if missing:
            found = await self._query(rows(
                f"SELECT user_id, notify FROM players WHERE user_id IN ({_marks(len(missing))})", *missing))
            read: dict[int, str] = {r[0]: r[1] for r in found}
            if len(self._notify_known) > NOTIFY_KEPT:
                self._notify_known.clear()
            for user_id in missing:
                known[user_id] = read.get(user_id)
                self._notify_known[user_id] = (known[user_id], now)
        return {user_id: where for user_id, where in known.items() if where is not None}

    async def set_notify(self, user_id: int, notify: str) -> None:
        await self._transaction([
            count("INSERT INTO players (user_id, notify) VALUES (?, ?)"
                  " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify", user_id, notify),
        ])
        self._notify_known[user_id] = (notify, time.monotonic())

    async def set_ping(self, game_id: int, message_id: int | None, seen: Mapping[int, int]) -> None:
        """The thread's newest ping (None: unchanged), and how much of the log the pinged seats
        have now seen. Sent after every ping, so one statement (one round trip on PostgreSQL,
        no BEGIN/COMMIT): every seat in one UPDATE, the ping message only when there is one
        (a DM ping has none), with it in a data-modifying WITH on PostgreSQL."""
        ping = (None if message_id is None
                else count("UPDATE games SET ping_message_id = ? WHERE id = ?", message_id, game_id))
        seats = None
        if seen:
            cases = " ".join("WHEN ? THEN CAST(? AS BIGINT)" for _ in seen)
            seats = count(f"UPDATE seats SET seen_log = CASE seat {cases} END"
                          f" WHERE game_id = ? AND seat IN ({_marks(len(seen))})",
                          *[v for pair in seen.items() for v in pair], game_id, *seen)
        if ping is not None and seats is not None:
            if self.backend.dialect != "postgresql":
                await self._transaction([ping, seats])
                return
            ping = count(f"WITH ping AS ({ping.sql} RETURNING id) {seats.sql}", *ping.params, *seats.params)
            seats = None
        query = ping or seats
        if query is not None:
            await self.backend.statement(query)
