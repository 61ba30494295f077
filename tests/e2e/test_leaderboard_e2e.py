"""`/leaderboard` and `/stats` after a whole game played through the fake Discord."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conftest import running_bot
from tests.e2e.test_table_e2e import open_table, play_to_the_end
from tests.fakediscord import FakeDiscord

DECISIVE_SEED = 1
"""Game seeds drawn from this deal two hands of different totals (an unseeded run may tie)."""


async def test_leaderboard_and_stats_after_a_game(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with running_bot(fake_discord, tmp_path, seed=DECISIVE_SEED) as harness:
        await leaderboard_and_stats(fake_discord, harness.bot)


async def leaderboard_and_stats(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    empty = await alice.slash("leaderboard")
    assert "No finished games yet" in empty.text()

    await open_table(fake_discord, alice, bob, hand=2)
    await play_to_the_end(fake_discord, [alice, bob])
    game = (await bot.storage.leaderboard(fake_discord.guild.id, "tokens"))
    assert sorted(r.wins for r in game) == [0, 1], "the seeded game must not end in a draw"
    winner = next(r for r in game if r.wins == 1)
    loser = next(r for r in game if r.wins == 0)
    assert winner.user_id != loser.user_id and winner.ordinal > loser.ordinal

    board = await bob.slash("leaderboard", game="tokens")
    assert not board.ephemeral  # leaderboards are for the whole channel
    lines = board.text().splitlines()
    first = next(i for i, line in enumerate(lines) if f"<@{winner.user_id}>" in line)
    second = next(i for i, line in enumerate(lines) if f"<@{loser.user_id}>" in line)
    assert first < second
    assert "🥇" in lines[first] and "1 game · 1 win" in lines[first]
    assert "🥈" in lines[second] and "1 game · 0 wins" in lines[second]
    assert f"{winner.ordinal:.1f}".replace("-", "−") in lines[first]

    everything = await alice.slash("leaderboard")
    assert f"<@{winner.user_id}>" in everything.text() and "Tokens" in everything.text()

    unknown = await alice.slash("leaderboard", game="chess")
    assert unknown.ephemeral and "no game called" in unknown.content

    mine = await alice.slash("stats")
    assert "alice" in mine.text() and "1 game ·" in mine.text()
    place = "1st" if winner.user_id == alice.id else "2nd"
    assert f"Last: {place} of 2 (game #" in mine.text()
    theirs = await alice.slash("stats", user=bob)
    assert "bob" in theirs.text() and "1 game ·" in theirs.text()
    nobody = await alice.slash("stats", user=fake_discord.user("carol"))
    assert "No finished games" in nobody.text()
