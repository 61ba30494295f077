"""Ratings: openskill's Plackett-Luce model, per guild and game, partners rated as a team."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from games.core import Outcome
from storage.records import RatingRecord

MODEL = PlackettLuce()


def team_of_each_seat(outcome: Outcome) -> list[tuple[int, ...]]:
    """Teams as the outcome gives them, or every seat on its own."""
    return list(outcome.teams) if outcome.teams else [(seat,) for seat in range(len(outcome.ranks))]


def is_win(outcome: Outcome, seat: int) -> bool:
    """First place counts as a win unless every seat shares it (a draw for all)."""
    return outcome.ranks[seat] == 0 and len(set(outcome.ranks)) > 1


def rate(
    *, guild_id: int, kind: str, outcome: Outcome, users: Sequence[int],
    current: Mapping[int, RatingRecord],
) -> list[RatingRecord]:
    """New rating records for every seated user after this outcome, but the `unrated` seats
    (partners of a leaver): they still weigh in their team's strength, unchanged."""
    teams = team_of_each_seat(outcome)
    before = {
        user: current.get(user) or RatingRecord(guild_id, kind, user, MODEL.mu, MODEL.sigma, 0, 0)
        for user in users
    }
    model_teams = [
        [MODEL.rating(mu=before[users[s]].mu, sigma=before[users[s]].sigma) for s in team]
        for team in teams
    ]
    team_ranks: list[float] = [min(outcome.ranks[s] for s in team) for team in teams]
    rated = MODEL.rate(model_teams, ranks=team_ranks)
    out: list[RatingRecord] = []
    for team, new_team in zip(teams, rated, strict=True):
        for seat, new in zip(team, new_team, strict=True):
            if seat in outcome.unrated:
                continue
            old = before[users[seat]]
            out.append(RatingRecord(
                guild_id, kind, users[seat], new.mu, new.sigma,
                old.games + 1, old.wins + int(is_win(outcome, seat)),
            ))
    return out
