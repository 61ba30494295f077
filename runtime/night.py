"""A night's scoreboard, counted from the games finished in a channel since `/night start`.

Pure: it reads the recorded results (`storage.gamenight.NightSeat`) and nothing else.

* Each game gives places, a team counting once ("2 players" or "2 teams" = 2 places). A seat's
  place is one more than the number of places strictly ahead of it, so equal ranks share a
  place and the next one is skipped (two tied for 1st, the next is 3rd).
* A place scores `PLACE_POINTS` (1st 3, 2nd 1, the rest 0). Everyone sharing a place scores
  it whole: partners each score their team's place, players tied for 1st each score 3.
* Computers take their places (a human behind a computer is 2nd) but are not on the table.
* The table is sorted by points, then 1st places; equal on both share a place. The night's winners are everyone in the first place (there may be several).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

#: Points by place (1-based); places past the end score nothing.
PLACE_POINTS = (3, 1)


class SeatResult(Protocol):
    """What a recorded result says of one seat (storage's NightSeat has these)."""

    @property
    def game_id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def user_id(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def rank(self) -> int: ...
    @property
    def team(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def computer(self) -> bool: ...


def points_for(place: int) -> int:
    """The points of a 1-based place."""
    return PLACE_POINTS[place - 1] if 1 <= place <= len(PLACE_POINTS) else 0


def places(seats: Sequence[SeatResult]) -> dict[int, int]:
    """seat → 1-based place in one game: teams count once, equal ranks share a place."""
    unit_rank: dict[tuple[str, int], int] = {}
    for s in seats:
        key = ("team", s.team) if s.team is not None else ("seat", s.seat)
        unit_rank[key] = min(s.rank, unit_rank.get(key, s.rank))
    ranks = list(unit_rank.values())
    out = {}
    for s in seats:
        key = ("team", s.team) if s.team is not None else ("seat", s.seat)
        out[s.seat] = 1 + sum(1 for r in ranks if r < unit_rank[key])
    return out


@dataclass
class NightGame:
    """One game of the night: its kind, and who took 1st place (names as seated)."""

    game_id: int
    kind: str
    winners: list[str]
    #: user ids of the humans in 1st place (computers are not on the table)
    winner_ids: list[int] = field(default_factory=list)


@dataclass
class Standing:
    user_id: int
    name: str
    points: int = 0
    wins: int = 0
    games: int = 0
    #: 0-based place on the night's table (equal standings share one)
    place: int = 0


@dataclass
class NightTable:
    games: list[NightGame]
    standings: list[Standing]

    @property
    def winners(self) -> list[Standing]:
        """Everyone in the night's first place (none before a game has finished)."""
        return [s for s in self.standings if s.place == 0 and s.games > 0]


def by_game(seats: Iterable[SeatResult]) -> list[list[SeatResult]]:
    """Seats grouped per game, in the order the games came."""
    grouped: dict[int, list[SeatResult]] = {}
    for s in seats:
        grouped.setdefault(s.game_id, []).append(s)
    return list(grouped.values())


def night_table(seats: Iterable[SeatResult]) -> NightTable:
    """The night so far: every game with its winners, and the humans' standings."""
    games: list[NightGame] = []
    table: dict[int, Standing] = {}
    for game in by_game(seats):
        placed = places(game)
        first = [s for s in game if placed[s.seat] == 1]
        games.append(NightGame(game[0].game_id, game[0].kind, [s.name for s in first],
                               [s.user_id for s in first if not s.computer]))
        for s in game:
            if s.computer:
                continue
            standing = table.setdefault(s.user_id, Standing(s.user_id, s.name))
            standing.name = s.name  # the newest name they played under
            standing.games += 1
            standing.points += points_for(placed[s.seat])
            standing.wins += placed[s.seat] == 1
    ordered = sorted(table.values(), key=lambda s: (-s.points, -s.wins, s.name.casefold(), s.user_id))
    for i, standing in enumerate(ordered):
        before = ordered[i - 1] if i else None
        same = before is not None and (before.points, before.wins) == (standing.points, standing.wins)
        standing.place = before.place if same and before is not None else i
    return NightTable(games, ordered)
