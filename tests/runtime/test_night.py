"""The night's scoreboard (runtime/night.py): places per game with teams counted once, 3 points
for 1st and 1 for 2nd, partners and tied players each scoring their shared place, computers
taking places but never listed, and the table's order, shared places and winners."""

from __future__ import annotations

from runtime.night import PLACE_POINTS, night_table, places, points_for
from tests.night_rows import Seat


def game(game_id: int, kind: str, *ranked: tuple[int, int] | tuple[int, int, int | None],
         computers: tuple[int, ...] = ()) -> list[Seat]:
    """Seats of one game: (user, rank[, team]) in seat order; `computers` lists computer users."""
    out = []
    for seat, entry in enumerate(ranked):
        user, rank = entry[0], entry[1]
        team = entry[2] if len(entry) == 3 else None
        out.append(Seat(game_id, kind, user, seat, rank, team, f"u{user}", user in computers))
    return out


def test_first_scores_three_second_one_and_the_rest_nothing() -> None:
    assert PLACE_POINTS == (3, 1)
    assert [points_for(p) for p in (1, 2, 3, 4)] == [3, 1, 0, 0]
    table = night_table(game(1, "words", (1, 2), (2, 0), (3, 1)))
    assert [(s.user_id, s.points, s.wins, s.games) for s in table.standings] == [(2, 3, 1, 1), (3, 1, 0, 1),
                                                                                  (1, 0, 0, 1)]
    assert [g.winners for g in table.games] == [["u2"]]


def test_partners_each_score_their_teams_place_and_a_team_counts_as_one_place() -> None:
    # two teams of two: the losing team is 2nd (not 3rd), so each loser scores 1
    seats = game(1, "tarot", (1, 0, 0), (2, 0, 0), (3, 1, 1), (4, 1, 1))
    assert places(seats) == {0: 1, 1: 1, 2: 2, 3: 2}
    table = night_table(seats)
    assert {s.user_id: s.points for s in table.standings} == {1: 3, 2: 3, 3: 1, 4: 1}
    assert table.games[0].winners == ["u1", "u2"] and [s.user_id for s in table.winners] == [1, 2]


def test_a_team_ranked_with_gaps_is_still_the_next_place() -> None:
    # an engine may rank the second team 2 (competition ranking over seats): it is 2nd all the same
    seats = game(1, "kniggits", (1, 0, 0), (2, 2, 1), (3, 2, 1))
    assert places(seats) == {0: 1, 1: 2, 2: 2}


def test_players_tied_share_the_place_each_scoring_it_and_the_next_place_is_skipped() -> None:
    seats = game(1, "hallway", (1, 0), (2, 0), (3, 2))
    assert places(seats) == {0: 1, 1: 1, 2: 3}
    table = night_table(seats)
    assert {s.user_id: s.points for s in table.standings} == {1: 3, 2: 3, 3: 0}
    # a draw of everyone: everyone shares 1st
    assert {s.user_id: s.points for s in night_table(game(2, "hallway", (1, 0), (2, 0))).standings} == {1: 3, 2: 3}
    # a tie for 2nd: both score 2nd's point
    assert places(game(3, "words", (1, 0), (2, 1), (3, 1))) == {0: 1, 1: 2, 2: 2}


def test_computers_take_places_but_are_not_on_the_table() -> None:
    seats = game(1, "words", (-1, 0), (1, 1), (-2, 2), computers=(-1, -2))
    table = night_table(seats)
    assert [(s.user_id, s.points) for s in table.standings] == [(1, 1)]
    assert table.games[0].winners == ["u-1"] and table.games[0].winner_ids == []
    assert table.winners[0].user_id == 1  # the only person, though a computer won the game


def test_a_night_over_several_games_adds_up_and_ties_on_points_go_to_wins_then_share() -> None:
    seats = [*game(1, "hallway", (1, 0), (2, 1)),             # 1: 3, 2: 1
             *game(2, "words", (2, 0), (1, 1), (3, 2)),       # 2: 3, 1: 1, 3: 0
             *game(3, "tarot", (3, 0, 0), (-1, 0, 0), (1, 1, 1), (2, 1, 1), computers=(-1,))]  # 3: 3, 1: 1, 2: 1
    table = night_table(seats)
    assert [(s.user_id, s.points, s.wins, s.games, s.place) for s in table.standings] == [
        (1, 5, 1, 3, 0), (2, 5, 1, 3, 0), (3, 3, 1, 2, 2)]
    assert [s.user_id for s in table.winners] == [1, 2]  # equal points and wins: they share the night
    assert [(g.game_id, g.kind) for g in table.games] == [(1, "hallway"), (2, "words"), (3, "tarot")]
    assert table.games[2].winners == ["u3", "u-1"] and table.games[2].winner_ids == [3]

    # one more win breaks the tie on points
    more = night_table([*seats, *game(4, "fencing", (1, 0), (2, 1), (3, 2)), *game(5, "words", (2, 0), (1, 2),
                                                                                     (3, 1))])
    assert [(s.user_id, s.points, s.wins) for s in more.standings] == [(2, 9, 2), (1, 8, 2), (3, 4, 1)]
    assert [s.user_id for s in more.winners] == [2]


def test_equal_points_with_more_wins_ranks_higher() -> None:
    # alice wins once (3); bob is 2nd three times (3): alice is ahead on wins
    seats = [*game(1, "words", (1, 0), (2, 1), (3, 2)), *game(2, "words", (3, 0), (2, 1), (1, 2)),
             *game(3, "words", (3, 0), (2, 1), (1, 2))]
    table = night_table(seats)
    assert [(s.user_id, s.points, s.wins, s.place) for s in table.standings] == [
        (3, 6, 2, 0), (1, 3, 1, 1), (2, 3, 0, 2)]


def test_an_empty_night_has_no_winner() -> None:
    table = night_table([])
    assert table.games == [] and table.standings == [] and table.winners == []
