"""Partnerships through the fake Discord, on the test-only Pairs game: joining by team, the
two-pick menu, the partners' private threads, `/pairs confer`, and the best pairs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import running_bot
from tests.fakediscord import FakeDiscord, FakeUser, Message
from tests.fakediscord import permissions as perm
from tests.fakediscord.state import Overwrite

PRIVATE_THREAD = 12


def table_message(server: FakeDiscord) -> Message | None:
    for thread in server.general.threads():
        for msg in reversed(thread.history()):
            if msg.text().startswith("Pairs") and "Team A" in msg.text():
                return msg
    return None


def team_threads(server: FakeDiscord) -> list[Any]:
    return [t for t in server.general.threads() if t.type == PRIVATE_THREAD]


def result_message(server: FakeDiscord) -> Message | None:
    for thread in server.general.threads():
        found = next((m for m in thread.history() if "game over" in m.text()), None)
        if found is not None:
            return found
    return None


async def team_lobby(server: FakeDiscord, *options: tuple[str, Any]) -> tuple[Message, list[FakeUser]]:
    """alice opens; bob joins A, carol B, dave B: a full lobby, not started."""
    alice, bob, carol, dave = (server.user(n) for n in ("alice", "bob", "carol", "dave"))
    lobby = (await alice.slash("pairs new", **dict(options))).message
    assert lobby is not None
    await bob.click(lobby, "Join A")
    await carol.click(lobby, "Join B")
    await dave.click(lobby, "Join B")
    return lobby, [alice, bob, carol, dave]


async def started(server: FakeDiscord, *options: tuple[str, Any]) -> list[FakeUser]:
    lobby, players = await team_lobby(server, *options)
    await players[0].click(lobby, "Start")
    await server.wait_for(lambda: table_message(server), what="the table in its thread")
    return players


async def discard_in_turn(server: FakeDiscord, players: list[FakeUser]) -> None:
    """Whoever's turn it is discards the first two cards of the menu, together."""
    table = table_message(server)
    assert table is not None
    [menu] = table.selects()
    assert (menu["min_values"], menu["max_values"]) == (2, 2)
    text = table.text()
    mover = next(p for p in players if f"{p.name} (Team" in text and any(
        line.startswith(p.name) and all(o["label"] in line for o in menu["options"])
        for line in text.splitlines()))
    before = table.text()
    picked = [menu["options"][1]["label"], menu["options"][0]["label"]]
    result = await mover.select(table, picked, menu="Discard two cards")
    assert result.acknowledged and not result.ephemeral, result.content
    await server.wait_for(lambda: table.text() != before or result_message(server), what="the discard shown")
    assert f"{mover.name} discarded {picked[1]} and {picked[0]}." in table.text() or result_message(server)


# -- the lobby -------------------------------------------------------------------------------------
async def test_players_join_by_team_switch_and_start_when_every_team_is_full(
        fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob, carol, dave = (fake_discord.user(n) for n in ("alice", "bob", "carol", "dave"))
    lobby = (await alice.slash("pairs new")).message
    assert lobby is not None
    assert lobby.button_labels() == ["Join A", "Join B", "Leave", "Start", "Cancel"]
    assert "Team A (1/2)" in lobby.text() and "Team B (0/2)" in lobby.text()

    await bob.click(lobby, "Join A")
    full = await carol.click(lobby, "Join A")
    assert full.ephemeral and "Team A is full" in full.content
    await carol.click(lobby, "Join B")
    short = await alice.click(lobby, "Start")
    assert short.ephemeral and "Team B needs 1 more player." in short.content

    await bob.click(lobby, "Join B")  # bob switches: A has alice, B has carol and bob
    text = lobby.text()
    assert "Team A (1/2)" in text and "Team B (2/2)" in text
    assert text.index(bob.mention) > text.index("Team B")
    joined = await dave.slash("pairs join", team="A")
    assert joined.ephemeral and "Team A" in joined.content
    await fake_discord.wait_for(lambda: "Team A (2/2)" in lobby.text(), what="dave shown on Team A")

    await alice.click(lobby, "Start")
    table = await fake_discord.wait_for(lambda: table_message(fake_discord), what="the table")
    lines = [line for line in table.text().splitlines() if "(Team" in line]
    # seats by team, each in the order its players joined the lobby: alice, dave (A), then
    # bob (who joined before carol, on A, and switched), carol (B)
    assert [line.split(" ")[0] for line in lines] == ["alice", "dave", "bob", "carol"]
    assert "(Team A)" in lines[1] and "(Team B)" in lines[2]


# -- the two-pick menu and the team threads ---------------------------------------------------------
async def test_a_whole_game_with_two_pick_menus_and_private_team_threads(
        fake_discord: FakeDiscord, bot: Any) -> None:
    players = await started(fake_discord)
    alice, bob, carol, dave = players
    threads = await fake_discord.wait_for(lambda: len(team_threads(fake_discord)) == 2 and team_threads(fake_discord),
                                          what="two team threads")
    by_name = {t.name: t for t in threads}
    assert set(by_name) == {"Pairs #1 · Team A", "Pairs #1 · Team B"}
    bot_id = fake_discord.world.bot.id
    await fake_discord.wait_for(lambda: all(len(t.thread_members) == 3 for t in threads), what="partners added")
    assert set(by_name["Pairs #1 · Team A"].thread_members) == {bot_id, alice.id, bob.id}
    assert set(by_name["Pairs #1 · Team B"].thread_members) == {bot_id, carol.id, dave.id}
    assert not any(t.invitable for t in threads)
    assert not carol.can_see(by_name["Pairs #1 · Team A"])

    # the partners' thread exists: /confer points there and posts the words in it
    said = await alice.slash("pairs confer", text="keep your @everyone high cards")
    assert said.ephemeral and f"<#{by_name['Pairs #1 · Team A'].id}>" in said.content
    posted = await fake_discord.wait_for(lambda: by_name["Pairs #1 · Team A"].history(), what="the relayed words")
    assert "alice" in posted[-1].text() and "@everyone" not in posted[-1].content.replace("@\u200beveryone", "")

    # a menu that asks for two picks cannot be sent with one (Discord refuses), nor forged
    table = table_message(fake_discord)
    assert table is not None
    [menu] = table.selects()
    with pytest.raises(AssertionError, match="between 2 and 2"):
        await alice.select(table, menu["options"][0]["label"], menu="Discard two cards")
    before = table.text()
    forged = await alice.forge(table, menu["custom_id"], component_type=3,
                               values=[menu["options"][0]["value"], menu["options"][0]["value"]])
    assert forged.ephemeral and "no longer valid" in forged.content
    assert table.text() == before

    for _ in range(8):
        if result_message(fake_discord):
            break
        await discard_in_turn(fake_discord, players)
    assert await fake_discord.wait_for(lambda: result_message(fake_discord), what="the result")
    await fake_discord.wait_for(lambda: all(t.archived and t.locked for t in threads), what="team threads closed")


async def test_no_team_threads_when_the_game_turns_conferring_off(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, *_ = await started(fake_discord, ("confer", False))
    await fake_discord.idle()
    assert team_threads(fake_discord) == []
    refused = await alice.slash("pairs confer", text="psst")
    assert refused.ephemeral and "Partners can't confer in this game." in refused.content


async def test_confer_goes_by_dm_when_no_thread_could_be_made(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    general = fake_discord.general
    bot_id = fake_discord.world.bot.id
    general.overwrites[bot_id] = Overwrite(bot_id, 1, deny=perm.CREATE_PRIVATE_THREADS)
    async with running_bot(fake_discord, tmp_path, seed=5):
        alice, bob, carol, dave = await started(fake_discord)
        await fake_discord.idle()
        assert team_threads(fake_discord) == []
        said = await carol.slash("pairs confer", text="lead low, @here")
        assert said.ephemeral and "Sent to dave" in said.content
        dm = await fake_discord.wait_for(lambda: next((m for m in dave.dms() if "your partner" in m.text()), None),
                                         what="the partner's DM")
        assert dm.text().startswith("**carol** (your partner, Pairs #1): lead low, @\u200bhere")
        assert not any("your partner" in m.text() for m in (alice.dms() + bob.dms()))
        outsider = await fake_discord.user("erin").slash("pairs confer", text="hi")
        assert outsider.ephemeral and "not" in outsider.content


# -- best pairs -------------------------------------------------------------------------------------
async def test_the_leaderboard_names_the_best_pairs(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob, carol, dave = await started(fake_discord, ("confer", False))
    left = await dave.slash("game leave", channel=table_message(fake_discord).channel)
    assert left.ephemeral
    await fake_discord.wait_for(lambda: result_message(fake_discord), what="the result")
    board = await alice.slash("leaderboard", game="pairs")
    text = board.text()
    assert "Best pairs" in text
    assert f"🥇 {alice.mention} & {bob.mention} — 1 win in 1 game" in text
    assert f"{carol.mention} & {dave.mention} — 0 wins in 1 game" in text
