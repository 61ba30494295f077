"""Who is at a game's table: a player who acted in it lately is watching it, and the table
message already tells them it is their turn, so their ping can wait (cogs/table/pings.py).
Kept in memory: after a restart everyone counts as away, and is pinged at once."""

from __future__ import annotations

from storage import Deadline

#: Seconds since a player's last action in a game during which they count as at its table.
AT_THE_TABLE = 300.0
#: A prompt that ends sooner than the grace and this many seconds is pinged at once.
SHORT_PROMPT = 30.0


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

    def watching(self, game_id: int, wait: Deadline, now: float, clock_now: float) -> bool:
        """Whether the seat `wait` asks is at the table (acted lately, loop time `now`) and the
        wait leaves it time to answer before a ping would be due (`clock_now`: the clock the
        wait's end is on): its ping can wait the grace."""
        seat = wait["seat"]
        if self.grace <= 0 or seat is None:
            return False
        if now - self._acted.get((game_id, seat), now - AT_THE_TABLE - 1) > AT_THE_TABLE:
            return False
        at = wait.get("at")
        return at is None or at - clock_now >= self.grace + SHORT_PROMPT
