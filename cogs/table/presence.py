"""Who is at a game's table: a player who acted in it lately is watching it, and the table
message already tells them it is their turn, so their ping can wait (cogs/table/pings.py).
Kept in memory: after a restart everyone counts as away, and is pinged at once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from storage import Deadline

#: Seconds since a player's last action in a game during which they count as at its table.
AT_THE_TABLE = 300.0
#: A player at the table is pinged after at most this share of the time their prompt gives...
SHARE = 1 / 3
#: ...and at once when that would be less than this many seconds.
SHORTEST = 3.0

#: A wait as a ping names it: (seat, key, prompt); only a seat's waits are pinged (`Pings.live`).
Asked = tuple[int | None, str, str]


def asked_of(deadline: Deadline) -> Asked:
    return deadline["seat"], deadline["key"], deadline["prompt"]


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


class Graces:
    """Pings waiting out their grace, per game: loop timers, not tasks (in a brisk game one waits
    per step and nearly every one is answered before it is due). A game's are dropped when it
    ends, everyone's at shutdown."""

    def __init__(self) -> None:
        self._later: dict[int, list[asyncio.TimerHandle]] = {}

    def wait(self, game_id: int, delay: float, due: Callable[..., None], *args: Any) -> None:
        """`due(*args)` after `delay` seconds, unless the game's waits are dropped first."""
        handle = asyncio.get_running_loop().call_later(delay, self._fire, game_id, due, args)
        self._later.setdefault(game_id, []).append(handle)

    def _fire(self, game_id: int, due: Callable[..., None], args: tuple[Any, ...]) -> None:
        now = asyncio.get_running_loop().time()
        waiting = self._later.get(game_id)
        if waiting is not None:
            waiting[:] = [h for h in waiting if h.when() > now]  # this one has fired
            if not waiting:
                del self._later[game_id]
        due(*args)

    def drop(self, game_id: int | None = None) -> None:
        """Drop a game's waits (None: every game's)."""
        dropped = list(self._later.values()) if game_id is None else [self._later.get(game_id, [])]
        for waiting in dropped:
            for handle in waiting:
                handle.cancel()
        if game_id is None:
            self._later.clear()
        else:
            self._later.pop(game_id, None)

    def next_due(self) -> float | None:
        """When the next wait is due, on the loop's clock (None: none waits)."""
        return min((h.when() for waiting in self._later.values() for h in waiting), default=None)

    def of(self, game_id: int) -> int:
        return len(self._later.get(game_id, []))
