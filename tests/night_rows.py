"""A stored result row as the night's scoreboard reads it (runtime/night.py `SeatResult`),
shared by the scoring and the picture tests."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Seat:
    game_id: int
    kind: str
    user_id: int
    seat: int
    rank: int
    team: int | None
    name: str
    computer: bool = False
