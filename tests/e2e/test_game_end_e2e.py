"""The end of a game tells the whole story: the result in the thread, mirrored on the lobby
message in the parent channel, the thread archived, and `/game status` showing the result."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_table_e2e import open_table, play_turn, result_message
from tests.fakediscord import FakeDiscord


async def test_the_result_is_mirrored_on_the_lobby_and_the_thread_archived(fake_discord: FakeDiscord,
                                                                          bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lobby = await open_table(fake_discord, alice, bob, hand=1)
    [thread] = fake_discord.general.threads()
    for _ in range(2):
        await play_turn(fake_discord, [alice, bob])
    await fake_discord.wait_for(lambda: result_message(fake_discord), what="the result")
    await fake_discord.wait_for(lambda: "Started!" not in lobby.text(), what="the lobby to show the result")
    await fake_discord.idle()
    text = lobby.text()
    assert ("won" in text or "Finished" in text) and thread.mention in text and "/game record id:" in text
    assert "Ratings" in result_message(fake_discord).text()
    assert thread.archived

    status = await bob.slash("game status", channel=thread)
    assert status.ephemeral and "Game over." in status.text()
    assert "not in a game" not in status.text()
