"""Plain records returned by storage; JSON columns are already decoded."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NotRequired, TypedDict


class Status(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def live(self) -> bool:
        return self in (Status.LOBBY, Status.ACTIVE)


class Deadline(TypedDict):
    """One running wait of a game, stored with its state (a JSON list): runtime.deadlines makes
    and reads them and says what each field means."""

    #: The seat awaited; None: the game itself.
    seat: int | None
    key: str
    prompt: str
    #: When it runs out (None: never), and the action then applied for the seat.
    at: float | None
    default: dict[str, Any] | None
    #: The state version at which the wait began.
    since: int | None
    independent: bool
    #: Whether the table shows when it ends (rows written before it existed lack it: shown).
    countdown: NotRequired[bool]
    #: The presses the seat already made during the wait (runtime.deadlines.press_key).
    spent: NotRequired[list[str]]
    optional: NotRequired[bool]
    #: A computer plays the seat: `at` is when it has thought it over.
    computer: NotRequired[bool]


def earliest_deadline(deadlines: list[Deadline]) -> float | None:
    """The first "at" among a game's deadlines (stored as games.next_deadline), None if none."""
    times = [at for d in deadlines if (at := d.get("at")) is not None]
    return float(min(times)) if times else None


def seed_commitment(seed: int, nonce: str) -> str:
    return hashlib.sha256(f"{seed}:{nonce}".encode()).hexdigest()


@dataclass
class SeatRecord:
    seat: int
    user_id: int
    name: str
    dm_ok: bool = True
    dm_channel_id: int | None = None
    dm_message_id: int | None = None
    dm_message_at: float | None = None
    #: How many of the game's log lines this seat had seen at its last ping.
    seen_log: int = 0
    #: The team joined in a partnership lobby (an index into the engine's lobby_teams).
    team: int | None = None
    #: A computer plays this seat (its user_id is a synthetic negative number).
    computer: bool = False


@dataclass
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    kind: str
    host_id: int
    options: dict[str, Any]
    status: Status
    version: int
    seed: int
    state: dict[str, Any] | None
    deadlines: list[Deadline]
    log: list[str]
    table_message_id: int | None
    table_message_at: float | None
    created_at: float
    updated_at: float
    seats: list[SeatRecord] = field(default_factory=list)
    #: When the last committed step was pressed (or the game started): no later press is
    #: judged earlier than this.
    last_at: float | None = None
    #: The salt of the seed's commitment (`commitment`), revealed with the seed at the end.
    nonce: str = ""
    #: The state version the table message shows, as last recorded.
    table_version: int = 0
    #: The lobby message in the parent channel (it mirrors the result at the end).
    lobby_message_id: int | None = None
    #: Public log lines written since the start (the log keeps only the last few).
    log_total: int = 0
    #: The last "your turn" ping posted in the game's thread (deleted when the next one comes).
    ping_message_id: int | None = None
    #: A practice table (`/<game> learn`, migration 7): unrated, no results, hints offered.
    practice: bool = False

    @property
    def commitment(self) -> str:
        """SHA-256 of "seed:nonce", shown from the start; the seed and nonce are revealed at the end."""
        return seed_commitment(self.seed, self.nonce)

    @property
    def home_channel_id(self) -> int:
        """Where the table lives: the game's thread, or the channel when no thread."""
        return self.thread_id or self.channel_id

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> int:
        return self.seats[seat].user_id


@dataclass
class ActionRecord:
    seq: int
    seat: int | None  # None: the game itself (a seat-less wait ran out)
    action: dict[str, Any]
    at: float


@dataclass
class ResultRecord:
    game_id: int
    user_id: int
    seat: int
    rank: int
    score: float | None
    team: int | None
    kind: str = ""
    finished_at: float = 0.0
    #: The game had a computer seat (shown apart in /stats; ratings count humans only).
    versus_computer: bool = False
    #: How many places the game had (teams count once): "3rd of 3" in /stats; 0 when unknown.
    places: int = 0


@dataclass
class PairRecord:
    """Two players who played on one team: how often, and how often they won together."""

    user_a: int
    user_b: int
    games: int
    wins: int


@dataclass
class RatingRecord:
    guild_id: int
    kind: str
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate leaderboards sort by (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


@dataclass
class RatingUpdate:
    """Ratings to update inside a game's final commit, serialised per (guild, kind) in the
    database so two games ending at once both count.

    The storage reads the current ratings of `user_ids` (missing users are absent), stores them
    in `before`, and writes what `compute(current)` returns. `compute` runs inside the
    transaction (on SQLite, on the database thread): keep it pure and quick.
    """

    guild_id: int
    kind: str
    user_ids: list[int]
    compute: Callable[[dict[int, RatingRecord]], list[RatingRecord]]
    before: dict[int, RatingRecord] = field(default_factory=dict)
