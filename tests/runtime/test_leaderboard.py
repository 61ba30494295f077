"""Leaderboards and stats from stored results: per guild, per game, ordered by ordinal."""

from __future__ import annotations

from runtime.ratings import MODEL
from storage import RatingRecord, ResultRecord, Status, Storage
from tests.runtime.conftest import ALICE, BOB, CAROL

GUILD, OTHER_GUILD = 1000, 9000


async def finished(storage: Storage, guild: int, kind: str, ranks: dict[int, int], now: float) -> int:
    """Store a finished game with these ranks and simple ratings (as the service would)."""
    users = list(ranks)
    game_id = await storage.create_game(guild_id=guild, channel_id=1, kind=kind, host_id=users[0],
                                        host_name="host", options={}, seed=0, now=now)
    await storage.set_status(game_id, Status.FINISHED, now)
    before = await storage.ratings(guild, kind, users)
    ratings = []
    for user, rank in ranks.items():
        old = before.get(user) or RatingRecord(guild, kind, user, MODEL.mu, MODEL.sigma, 0, 0)
        ratings.append(RatingRecord(guild, kind, user, old.mu + (2 if rank == 0 else -2), old.sigma * 0.9,
                                    old.games + 1, old.wins + (rank == 0)))
    results = [ResultRecord(game_id, user, seat, rank, None, None) for seat, (user, rank) in enumerate(ranks.items())]
    await storage.record_result(results, ratings)
    return game_id


async def test_the_leaderboard_orders_by_ordinal_and_counts_games_and_wins(storage: Storage) -> None:
    await finished(storage, GUILD, "hallway", {ALICE: 0, BOB: 1}, now=1)
    await finished(storage, GUILD, "hallway", {ALICE: 0, BOB: 1}, now=2)
    await finished(storage, GUILD, "hallway", {CAROL: 0, BOB: 1}, now=3)
    board = await storage.leaderboard(GUILD, "hallway")
    assert [r.user_id for r in board] == [ALICE, CAROL, BOB]
    assert [(r.games, r.wins) for r in board] == [(2, 2), (1, 1), (3, 0)]
    assert [r.ordinal for r in board] == sorted((r.ordinal for r in board), reverse=True)


async def test_each_guild_has_its_own_leaderboard(storage: Storage) -> None:
    await finished(storage, GUILD, "hallway", {ALICE: 0, BOB: 1}, now=1)
    await finished(storage, OTHER_GUILD, "hallway", {BOB: 0, CAROL: 1}, now=2)
    assert {r.user_id for r in await storage.leaderboard(GUILD, "hallway")} == {ALICE, BOB}
    assert {r.user_id for r in await storage.leaderboard(OTHER_GUILD, "hallway")} == {BOB, CAROL}
    [mine] = await storage.player_ratings(OTHER_GUILD, BOB)
    assert (mine.games, mine.wins) == (1, 1)


async def test_all_games_lists_the_top_ten_of_each_game(storage: Storage) -> None:
    for n in range(12):
        await finished(storage, GUILD, "words", {100 + n: 0, 200 + n: 1}, now=n)
    await finished(storage, GUILD, "hallway", {ALICE: 0, BOB: 1}, now=50)
    everything = await storage.leaderboard(GUILD, None)
    assert sum(r.kind == "words" for r in everything) == 10
    assert sum(r.kind == "hallway" for r in everything) == 2
    assert len(await storage.leaderboard(GUILD, "words")) == 10


async def test_stats_list_every_game_and_the_newest_results_first(storage: Storage) -> None:
    first = await finished(storage, GUILD, "hallway", {ALICE: 0, BOB: 1}, now=1)
    second = await finished(storage, GUILD, "words", {BOB: 0, ALICE: 1}, now=2)
    assert [r.kind for r in await storage.player_ratings(GUILD, ALICE)] == ["hallway", "words"]
    recent = await storage.recent_results(GUILD, ALICE)
    assert [(r.game_id, r.kind, r.rank) for r in recent] == [(second, "words", 1), (first, "hallway", 0)]
    assert await storage.recent_results(OTHER_GUILD, ALICE) == []
