"""Who is at a game's table: a player who acted in it lately is watching it, and the table
message already tells them it is their turn, so their ping can wait (cogs/table/pings.py).
Kept in memory: after a restart everyone counts as away, and is pinged at once."""

from __future__ import annotations

from storage import Deadline

#: Seconds since a player's last action in a game during which they count as at its table.
AT_THE_TABLE = 300.0
#: A player at the table is pinged after at most this share of the time their prompt gives...
SHARE = 1 / 3
#: ...and at once when that would be less than this many seconds.
SHORTEST = 3.0


class Presence:
    def __init__(self, grace: float) -> None:
        #: Seconds a player at the table has to answer before their ping goes (0: at once).
        self.grace = grace
        #: (game id, seat) -> when (loop time) the seat last acted, while that is recent.
        self._acted: dict[tuple[int, int], float] = {}

    def acted(self, game_id: int, seat: int, now: float) -> None:
        if len(self._acted) > 50_000:
            self._acted = {k: t for k, t in self._acted.items() if now - t <= AT_THE_TABLE}
        self._acted[(game_id, seat)] = now

    def delay(self, game_id: int, wait: Deadline, now: float, clock_now: float) -> float:
        """Seconds the ping for `wait` waits (0: at once). A seat at the table (acted lately,
        loop time `now`) gets the grace to answer, or a third of the time the prompt gives when
        that is shorter (`clock_now`: the clock the prompt's end is on), so the ping still
        leaves two thirds of it; a seat away is pinged at once."""
        seat = wait["seat"]
        if self.grace <= 0 or seat is None:
            return 0.0
        if now - self._acted.get((game_id, seat), now - AT_THE_TABLE - 1) > AT_THE_TABLE:
            return 0.0
        at = wait.get("at")
        delay = self.grace if at is None else min(self.grace, (at - clock_now) * SHARE)
        return delay if delay >= min(SHORTEST, self.grace) else 0.0  # (a grace set shorter is taken as set)
