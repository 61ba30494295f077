"""How a finished game ended: ranks, scores, teams and why (part of the engine protocol,
re-exported by `games.core`). Records store it as JSON, so `to_json`/`from_json` keep the
shape of earlier games' records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    `ranks[seat]` is 0 for first place; equal ranks are a shared place (a draw).
    `teams` groups seats that win or lose together (partners); None means every seat alone.
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    teams: tuple[tuple[int, ...], ...] | None = None
    #: Why it ended, as a code the interface words ("forfeit", "last_card", "tiebreak"),
    #: with its facts in `detail` (seats, how a tie was broken).
    reason: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
    #: The game stopped without a result (everyone was away): nothing is recorded or rated.
    abandoned: bool = False
    #: Seats recorded with their rank but left out of the ratings (the partners of a player
    #: who forfeited: their loss says nothing about their skill).
    unrated: tuple[int, ...] = ()

    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 0]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ranks": list(self.ranks),
            "scores": list(self.scores) if self.scores is not None else None,
            "teams": [list(t) for t in self.teams] if self.teams is not None else None,
            "reason": self.reason,
            "detail": dict(self.detail),
            "abandoned": self.abandoned,
        }
        if self.unrated:  # only when set, so the records of earlier games read back unchanged
            out["unrated"] = list(self.unrated)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            ranks=tuple(data["ranks"]),
            scores=tuple(data["scores"]) if data.get("scores") is not None else None,
            teams=tuple(tuple(t) for t in data["teams"]) if data.get("teams") else None,
            reason=data.get("reason", ""),
            detail=dict(data.get("detail") or {}),
            abandoned=bool(data.get("abandoned")),
            unrated=tuple(data.get("unrated") or ()),
        )
