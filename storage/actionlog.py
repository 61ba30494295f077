"""The action log: each step of a running game committed as one transaction — the new state,
the log row and the version's compare-and-set (StaleVersion when another action won), with a
final step's results and ratings — and the log read back for replays and audits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from storage.base import StaleVersion, StorageBase, _dumps
from storage.records import (
    ActionRecord,
    Deadline,
    RatingRecord,
    RatingUpdate,
    ResultRecord,
    Status,
    earliest_deadline,
)
from storage.results import _rating_update_body, _result_statements
from storage.sql import Tx, count, rows

#: The `seat` of an action the game itself took (a seat-less wait's deadline).
GAME_SEAT = -1

#: A step's compare-and-set: the game moves to the new version only from the expected one.
_MOVE_GAME = (
    "UPDATE games SET state = ?, deadlines = ?, next_deadline = ?, log = ?, status = ?,"
    " version = ?, updated_at = ?, last_at = ?, log_total = log_total + ?"
    " WHERE id = ? AND version = ? AND status = 'active'"
)


class ActionLog(StorageBase):
    """The actions table, and the step that moves a game and logs it."""

    async def commit_action(
        self, game_id: int, *, expected_version: int, seat: int | None, action: dict[str, Any],
        at: float, state: dict[str, Any], deadlines: list[Deadline], log: list[str],
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

    async def actions(self, game_id: int) -> list[ActionRecord]:
        found = await self._query(rows(
            "SELECT seq, seat, action, at FROM actions WHERE game_id = ? ORDER BY seq", game_id))
        return [ActionRecord(r[0], None if r[1] == GAME_SEAT else r[1], json.loads(r[2]), r[3]) for r in found]
