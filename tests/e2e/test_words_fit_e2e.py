"""Words that fit, as a Kniggits player meets them through the fake Discord (issue 20 item 6):
the lobby lists armies, and the DM check on joining promises a commander's panel, not a hand."""

from __future__ import annotations

from typing import Any

from tests.fakediscord import FakeDiscord


async def test_the_kniggits_lobby_and_join_dm_speak_of_armies_and_panels(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    opened = await alice.slash("kniggits new")
    lobby = opened.message
    assert lobby is not None
    assert "Army A (1 or 2 players)" in lobby.text() and "Army B (1 or 2 players)" in lobby.text()
    assert "Team" not in lobby.text() and "1-2" not in lobby.text()
    note = await opened.followup()
    assert note.ephemeral and "commander's panel" in note.content and "hand" not in note.content
    dm = await fake_discord.wait_for(lambda: alice.dms(), what="alice's DM check")
    assert "Your private commander's panel will arrive here" in dm[-1].text() and "hand" not in dm[-1].text()
    await bob.click(lobby, "Join B")
    assert bob.mention in lobby.text() and "Army B (1 or 2 players)" in lobby.text()
