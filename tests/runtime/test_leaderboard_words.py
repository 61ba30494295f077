"""`/leaderboard` and `/stats` in words players read (issue 20 item 6): equal ratings share a
place, plurals, one minus sign, and "3rd of 3 (game #3)" instead of a bare "#3"."""

from __future__ import annotations

from cogs.leaderboard import board_lines, last_line, pair_lines, versus_line
from storage import PairRecord, RatingRecord, Storage
from tests.runtime.conftest import ALICE, BOB, CAROL
from tests.runtime.test_leaderboard import GUILD, finished


def rating(user: int, ordinal: float, games: int = 3, wins: int = 1) -> RatingRecord:
    return RatingRecord(GUILD, "tarot", user, ordinal + 3 * 2.0, 2.0, games, wins)


def test_equal_ratings_share_a_place_on_the_leaderboard() -> None:
    lines = board_lines([rating(ALICE, 2.41), rating(BOB, 2.36), rating(CAROL, 1.0), rating(4, -0.5, 1, 0)])
    assert [line.split()[0] for line in lines["tarot"]] == ["🥇", "🥇", "🥉", "`4.`"]
    assert "**2.4**" in lines["tarot"][0] and "**2.4**" in lines["tarot"][1]
    assert lines["tarot"][3].endswith("**−0.5** · 1 game · 0 wins")
    assert lines["tarot"][0].endswith("· 3 games · 1 win")


def test_computers_are_never_listed_and_do_not_take_a_place() -> None:
    lines = board_lines([rating(-1, 9.0), rating(ALICE, 2.0), rating(BOB, 1.0)])
    assert [line.split()[0] for line in lines["tarot"]] == ["🥇", "🥈"]


def test_equal_pairs_share_a_place() -> None:
    pairs = [PairRecord(ALICE, BOB, 3, 2), PairRecord(CAROL, 4, 3, 2), PairRecord(5, 6, 1, 1)]
    assert [line.split()[0] for line in pair_lines(pairs)] == ["🥇", "🥇", "🥉"]
    assert pair_lines(pairs)[2].endswith("1 win in 1 game")


def test_plurals_in_the_versus_line() -> None:
    assert versus_line(1, 1) == "🤖 vs computers: 1 game, 1 win"
    assert versus_line(2, 0) == "🤖 vs computers: 2 games, 0 wins"


async def test_stats_name_the_place_of_how_many_and_the_game(storage: Storage) -> None:
    first = await finished(storage, GUILD, "hallway", {ALICE: 0, BOB: 1}, now=1)
    second = await finished(storage, GUILD, "fencing", {BOB: 0, CAROL: 1, ALICE: 2}, now=2)
    recent = await storage.recent_results(GUILD, ALICE)
    text = last_line(recent)
    assert text == f"Last: 3rd of 3 (game #{second}) · 1st of 2 (game #{first})"
    assert "#3 " not in text and not text.startswith("Last: #")
    assert last_line([]) == "Last: —"
