"""Player text never pings anyone, through the fake Discord. Conferring words, a player's name
and a computer's name written to ping ("@everyone", "@here", a role, a user outside the game)
are quoted in threads, DMs, tables, digests and answers; over every message the bot sent, the
fake finds no @everyone/@here or role ping, no user pinged but a player, and no live mention
in the text. (An insult: `test_fencing_pings_e2e`.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runtime.clock import ManualClock
from storage import Status
from tests.e2e.conftest import running_bot
from tests.e2e.test_computers_e2e import play_out
from tests.e2e.test_teams_e2e import table_message, team_threads
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord import permissions as perm
from tests.fakediscord.state import Overwrite

#: The mentions a hostile text tries (besides a user outside the game).
RAW = ("@everyone", "@here", "<@&456>", "<@123>")


def hostile(outsider: FakeUser) -> str:
    return f"@everyone @here <@&456> <@123> {outsider.mention} lead your low cards"


def assert_harmless(server: FakeDiscord, players: list[FakeUser], outsider: FakeUser) -> None:
    """Every message the bot sent (deleted and ephemeral ones too) pinged players only, and
    shows no live mention from player text."""
    bot_id = server.world.bot.id
    for note in server.world.notifications:
        said = note.mentions
        assert not said.everyone and not said.roles, note.message.content
        assert set(said.users) <= {p.id for p in players}, note.message.content
    assert server.pinged(outsider) == []
    for message in server.world.messages.values():
        if message.author.id != bot_id:
            continue
        text = message.text()
        for raw in (*RAW, outsider.mention):
            assert raw not in text, f"{raw!r} live in: {text}"


@pytest.mark.parametrize("where", ["thread", "dm"])
async def test_conferring_words_and_a_players_name_ping_nobody(fake_discord: FakeDiscord, tmp_path: Path,
                                                                where: str) -> None:
    outsider = fake_discord.user("erin")  # in the server, not in the game
    alice, carol, dave = (fake_discord.user(n) for n in ("alice", "carol", "dave"))
    sly = fake_discord.user("@here <@&456> sly")  # a name written to ping
    if where == "dm":  # no private thread can be made: /confer relays by DM
        bot_id = fake_discord.world.bot.id
        fake_discord.general.overwrites[bot_id] = Overwrite(bot_id, 1, deny=perm.CREATE_PRIVATE_THREADS)
    async with running_bot(fake_discord, tmp_path, seed=5) as harness:
        lobby = (await alice.slash("pairs new")).message
        assert lobby is not None
        await sly.click(lobby, "Join A")
        await carol.click(lobby, "Join B")
        await dave.click(lobby, "Join B")
        await alice.click(lobby, "Start")
        await fake_discord.wait_for(lambda: table_message(fake_discord), what="the table")
        if where == "thread":
            await fake_discord.wait_for(lambda: len(team_threads(fake_discord)) == 2, what="the team threads")
        await fake_discord.idle()

        for speaker in (alice, sly, carol):
            said = await speaker.slash("pairs confer", text=hostile(outsider))
            assert said.ephemeral, said.content
        await fake_discord.idle()
        relayed = [m for m in fake_discord.world.messages.values() if "lead your low cards" in m.content]
        assert len(relayed) == 3, [m.content for m in relayed]
        assert all("@\u200beveryone @\u200bhere <@\u200b&456> <@\u200b123>" in m.content for m in relayed)
        assert any("@\u200bhere <@\u200b&456> sly" in m.content for m in relayed)  # the name, defused
        await harness.bot.tables.delivery.pings.drain()
        await fake_discord.idle()
        game = await harness.bot.service.game_for(alice.id, None)
        assert any("@\u200bhere" in s.name for s in game.seats)
        assert_harmless(fake_discord, [alice, sly, carol, dave], outsider)


async def test_a_computer_named_to_ping_pings_nobody(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The host names a computer "@everyone <@&456> <@123>"; a whole Hallway game against it
    names it in the lobby, the table, its log, the pings' digests and the result."""
    clock = ManualClock()
    alice, outsider = fake_discord.user("alice"), fake_discord.user("erin")
    async with running_bot(fake_discord, tmp_path, seed=11, clock=clock) as harness:
        lobby = (await alice.slash("hallway new")).message
        assert lobby is not None
        said = await alice.slash("hallway addbot", name="@everyone <@&456> <@123>")
        assert said.ephemeral and "🤖" in said.content, said.content
        await alice.click(lobby, "Start")
        game = await harness.bot.service.game_for(alice.id, None)
        [computer] = [s for s in game.seats if s.computer]
        assert not any(c in computer.name for c in "@<>&")
        finished: Any = await play_out(fake_discord, harness, clock, [alice], game.id)
        assert finished.status is Status.FINISHED
        await harness.bot.tables.delivery.pings.drain()
        await fake_discord.idle()
        said_all = "\n".join(m.text() for m in fake_discord.world.messages.values())
        assert computer.name in said_all
        assert_harmless(fake_discord, [alice], outsider)


async def test_a_form_line_written_to_ping_is_quoted_defused(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Kniggits' army form refuses a line it cannot read by quoting it: the quote is defused,
    by the form and by the typed command alike; a kniggit named to ping is shown defused when
    its army is revealed."""
    from tests.e2e.test_kniggits_e2e import form, panel_of, press, start_battle, table_of

    alice, bob, outsider = (fake_discord.user(n) for n in ("alice", "bob", "erin"))
    async with running_bot(fake_discord, tmp_path, seed=7):
        await start_battle(fake_discord, [alice, bob], ["A", "B"], size=24, preset="open", budget=25)
        for captain in (alice, bob):
            await press(fake_discord, captain, lambda: table_of(fake_discord), "Accept map")
        line = f"@everyone <@&456> <@123> {outsider.mention}"
        refused = await form(fake_discord, alice, lambda: panel_of(alice), "Write my army", lines=line)
        typed = await bob.slash("kniggits army", lines=line, channel=table_of(fake_discord).channel)
        for answer in (refused, typed):
            assert answer.ephemeral and "@\u200beveryone" in answer.content, answer.content
        # a kniggit named to ping: its army is revealed on the table and in the log
        await form(fake_discord, alice, lambda: panel_of(alice), "Write my army", lines="@everyone <@&456> 6 1 1")
        await bob.slash("kniggits army", lines="<@123> @here 6 1 1", channel=table_of(fake_discord).channel)
        for player in (alice, bob):
            await press(fake_discord, player, lambda p=player: panel_of(p), "Lock my army")
        await fake_discord.wait_for(lambda: "@\u200beveryone <@\u200b&456>" in table_of(fake_discord).text(),
                                    what="the armies revealed")
        await fake_discord.idle()
        assert_harmless(fake_discord, [alice, bob], outsider)
