"""Ratings after a result: winners gain, losers lose, a shared victory is a draw, partners
move together."""

from __future__ import annotations

from games.core import Outcome
from runtime.ratings import MODEL, is_win, rate
from storage.records import RatingRecord

ALICE, BOB, CAROL, DAN = 1, 2, 3, 4


def fresh(user: int, mu: float = MODEL.mu) -> RatingRecord:
    return RatingRecord(7, "hallway", user, mu, MODEL.sigma, 0, 0)


def by_user(records: list[RatingRecord]) -> dict[int, RatingRecord]:
    return {r.user_id: r for r in records}


def test_a_win_moves_the_winner_up_and_the_loser_down() -> None:
    after = by_user(rate(guild_id=7, kind="hallway", outcome=Outcome(ranks=(0, 1)), users=(ALICE, BOB),
                         current={}))
    assert after[ALICE].mu > MODEL.mu > after[BOB].mu
    assert (after[ALICE].wins, after[BOB].wins) == (1, 0)
    assert after[ALICE].games == after[BOB].games == 1


def test_a_shared_victory_is_a_draw_for_both() -> None:
    outcome = Outcome(ranks=(0, 0))
    assert not is_win(outcome, 0) and not is_win(outcome, 1)
    after = by_user(rate(guild_id=7, kind="hallway", outcome=outcome, users=(ALICE, BOB), current={}))
    assert after[ALICE].mu == after[BOB].mu
    assert abs(after[ALICE].mu - MODEL.mu) < 1e-9  # equals drawing: no one gains
    assert after[ALICE].wins == after[BOB].wins == 0
    assert after[ALICE].sigma < MODEL.sigma  # but the game still teaches the model something


def test_a_draw_pulls_unequal_ratings_together() -> None:
    current = {ALICE: fresh(ALICE, 30.0), BOB: fresh(BOB, 20.0)}
    after = by_user(rate(guild_id=7, kind="hallway", outcome=Outcome(ranks=(0, 0)), users=(ALICE, BOB),
                         current=current))
    assert after[ALICE].mu < 30.0 and after[BOB].mu > 20.0


def test_tied_first_places_among_three_are_wins_for_the_tied() -> None:
    outcome = Outcome(ranks=(0, 0, 2))
    assert is_win(outcome, 0) and is_win(outcome, 1) and not is_win(outcome, 2)


def test_partners_are_rated_as_one_team() -> None:
    outcome = Outcome(ranks=(0, 1, 0, 1), teams=((0, 2), (1, 3)))
    after = by_user(rate(guild_id=7, kind="league", outcome=outcome, users=(ALICE, BOB, CAROL, DAN),
                         current={}))
    assert after[ALICE].mu == after[CAROL].mu > MODEL.mu > after[BOB].mu == after[DAN].mu
    assert [after[u].wins for u in (ALICE, BOB, CAROL, DAN)] == [1, 0, 1, 0]
