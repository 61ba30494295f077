"""What a finished game leaves behind: its results (every seat's place, score and team) and how
the server's ratings move. Computed by the action loop's final commit (runtime.loop) and
written in that commit's transaction, so a finished game is never without its result.
"""

from __future__ import annotations

from games.core import Action, Outcome
from games.record import FORFEIT, HANDOFF
from runtime import computers
from runtime.ratings import rate
from storage import GameRecord, RatingRecord, RatingUpdate, ResultRecord, Storage


async def rates(storage: Storage, game: GameRecord, outcome: Outcome, action: Action) -> bool:
    """A game that ends by forfeit before every seat has acted once is recorded, not rated:
    a lobby that fell apart at once says nothing about anyone's skill."""
    if action.get("type") != FORFEIT and outcome.reason != "forfeit":
        return True
    acted = {r.seat for r in await storage.actions(game.id)
             if r.action.get("type") not in (FORFEIT, HANDOFF)}
    return acted >= set(range(len(game.seats)))


def results_of(game: GameRecord, outcome: Outcome) -> list[ResultRecord]:
    """Every seat's result: its place, score and team (whether a computer sat at the table)."""
    team_index = {
        seat: index for index, team in enumerate(outcome.teams or ()) for seat in team
    }
    versus_computer = any(s.computer for s in game.seats)
    return [
        ResultRecord(
            game.id, s.user_id, s.seat, outcome.ranks[s.seat],
            outcome.scores[s.seat] if outcome.scores is not None else None,
            team_index.get(s.seat), versus_computer=versus_computer,
        )
        for s in game.seats
    ]


def rating_update(game: GameRecord, outcome: Outcome, rerated: list[RatingRecord]) -> RatingUpdate | None:
    """How the ratings move, computed from the ratings the commit reads (`rerated` receives
    the new ones). Only humans are rated, among themselves: a computer has no rating, and a
    lone human among computers moves nothing."""
    if any(s.computer for s in game.seats):
        humans = computers.humans_only(outcome, game.seats)
        if humans is None:
            return None
        outcome, users = humans
    else:
        users = [s.user_id for s in game.seats]

    def compute(current: dict[int, RatingRecord]) -> list[RatingRecord]:
        rerated[:] = rate(guild_id=game.guild_id, kind=game.kind, outcome=outcome, users=users,
                          current=current)
        return rerated

    return RatingUpdate(game.guild_id, game.kind, users, compute)

