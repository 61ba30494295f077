"""The shared commands through the fake Discord: `/rules`, `/game status`, `/game leave`,
`/game end` — who may use them, what they answer, what they change."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_table_e2e import open_table, result_message, table_message
from tests.fakediscord import FakeDiscord


async def test_rules_for_every_game_and_a_refusal_for_an_unknown_one(fake_discord: FakeDiscord, bot: Any) -> None:
    alice = fake_discord.user("alice")
    offered = {c["value"] for c in await alice.autocomplete("rules", "game", "")}
    assert {"hallway", "words"} <= offered
    rules = await alice.slash("rules", game="hallway")
    assert rules.ephemeral and "Two Fat Dudes" in rules.text() and "/hallway new" in rules.text()
    unknown = await alice.slash("rules", game="chess")
    assert unknown.ephemeral and "no game called" in unknown.content


async def test_status_answers_only_the_caller_and_not_in_a_lobby(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    nothing = await alice.slash("game status")
    assert nothing.ephemeral and "not in a game" in nothing.content
    lobby = (await alice.slash("tokens new")).message
    assert lobby is not None
    waiting = await alice.slash("game status")
    assert waiting.ephemeral and "lobby" in waiting.content
    await bob.click(lobby, "Join")
    await alice.click(lobby, "Start")
    table = await fake_discord.wait_for(lambda: table_message(fake_discord), what="the table")
    status = await bob.slash("game status", channel=table.channel)
    assert status.ephemeral and status.message is not None and status.message.embeds
    assert status.message.buttons() == []  # a picture of the table, not a second control panel
    assert status.message in bob.ephemerals() and status.message not in alice.ephemerals()


async def test_leaving_a_lobby_and_forfeiting_a_game(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
    lobby = (await alice.slash("tokens new")).message
    assert lobby is not None
    await bob.click(lobby, "Join")
    await carol.click(lobby, "Join")
    left = await carol.slash("game leave")
    assert left.ephemeral and "left the lobby" in left.content
    await fake_discord.wait_for(lambda: carol.mention not in lobby.text(), what="the lobby to be redrawn")
    assert "Players (2/4)" in lobby.text() and bob.mention in lobby.text()

    await alice.click(lobby, "Start")
    table = await fake_discord.wait_for(lambda: table_message(fake_discord), what="the table")
    forfeit = await bob.slash("game leave", channel=table.channel)
    assert forfeit.ephemeral and "counts as a loss" in forfeit.content
    result = await fake_discord.wait_for(lambda: result_message(fake_discord), what="the result")
    assert result.text().index(alice.mention) < result.text().index(bob.mention)  # the leaver ranks last
    # Nobody had played a turn yet: the game is recorded, not rated.
    assert "Not rated" in result.text()
    assert await bot.storage.leaderboard(fake_discord.guild.id, "tokens") == []
    assert [r.rank for r in await bot.storage.recent_results(fake_discord.guild.id, bob.id)] == [1]


async def test_only_the_host_or_a_manager_ends_a_game_and_nothing_is_rated(fake_discord: FakeDiscord,
                                                                          bot: Any) -> None:
    alice, bob, mod = (fake_discord.user(n) for n in ("alice", "bob", "mod"))
    await open_table(fake_discord, alice, bob)
    table = table_message(fake_discord)
    assert table is not None
    game = await bot.storage.live_game_in(table.channel.id)

    refused = await bob.slash("game end", channel=table.channel)
    assert refused.ephemeral and "Only the host or someone with Manage Server" in refused.content
    assert (await bot.storage.live_game_in(table.channel.id)) is not None

    mod.grant("manage_guild")
    ended = await mod.slash("game end", channel=table.channel)
    assert not ended.ephemeral, ended.content
    assert f"ended game #{game.id}" in ended.content and "No result" in ended.content
    assert await bot.storage.live_game_in(table.channel.id) is None
    assert await bot.storage.leaderboard(fake_discord.guild.id, "tokens") == []
    await fake_discord.wait_for(lambda: table.buttons() == [], what="the table's controls to go")
    again = await alice.slash("game end", channel=table.channel)
    assert again.ephemeral and "no game running here" in again.content
