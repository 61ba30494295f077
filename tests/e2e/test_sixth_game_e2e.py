"""The sixth game (Last Stick, test-only, built by docs/engines.md's checklist alone) plays to
the end on the real bot through the fake Discord: lobby, table in its thread with a picture,
out-of-turn and junk presses refused with the state unchanged, the result posted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.fakediscord import FakeDiscord, FakeUser, Message


def table_message(server: FakeDiscord) -> Message | None:
    for thread in server.general.threads():
        for msg in reversed(thread.history()):
            if "Last Stick" in msg.text() and "sticks left" in msg.text():
                return msg
    return None


def result_message(server: FakeDiscord) -> Message | None:
    for channel in [server.general, *server.general.threads()]:
        for msg in channel.history():
            if "game over" in msg.text():
                return msg
    return None


def moved_on(server: FakeDiscord, table: Message, edits: int) -> Callable[[], bool]:
    return lambda: result_message(server) is not None or table.edits > edits


def whose_turn(table: Message, players: list[FakeUser]) -> FakeUser:
    line = next((row for row in table.text().splitlines() if "to take 1, 2 or 3" in row), None)
    assert line is not None, table.text()
    return next(p for p in players if p.name in line or p.mention in line)


async def test_last_stick_plays_to_the_end(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lobby = (await alice.slash("sticks new")).message
    assert lobby is not None
    await bob.click(lobby, "Join")
    await alice.click(lobby, "Start")
    table = await fake_discord.wait_for(lambda: table_message(fake_discord), what="the Last Stick table")
    assert table.attachments and table.button_labels()[:3] == ["Take 1", "Take 2", "Take 3"]

    players = [alice, bob]
    mover = whose_turn(table, players)
    idle = bob if mover is alice else alice
    before = (table.text(), table.edits)
    refused = await idle.click(table, "Take 1")
    assert refused.ephemeral and "Not your turn" in refused.content
    assert (table.text(), table.edits) == before

    for _ in range(40):
        table = table_message(fake_discord) or table
        if "This game is over" in table.text():
            break
        mover = whose_turn(table, players)
        left = int(table.text().split("**")[1]) if "**" in table.text() else None
        label = "Take 1" if left is None or left <= 2 else "Take 2"
        result = await mover.click(table, label)
        assert result.acknowledged and not result.ephemeral, result.content
        await fake_discord.wait_for(moved_on(fake_discord, table, before[1]), what="the table to move on")
        before = (table.text(), table.edits)
    done = await fake_discord.wait_for(lambda: result_message(fake_discord), what="the result")
    assert "took the last stick" in done.text()
    assert alice.mention in done.text() and bob.mention in done.text()
