"""A player who is at the table is not pinged on every turn: the table already says it is their
turn, so their ping waits the grace and goes only if they have not answered by then (a brisk
game makes no notifications); one who has not acted lately is pinged at once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.e2e.conftest import running_bot
from tests.e2e.test_pings_e2e import pings, start_hallway
from tests.fakediscord import FakeDiscord

GRACE = 1.5


def the_table(thread: Any) -> Any:
    return next(m for m in thread.history() if m.embeds and "Hallway" in str(m.embeds[0].get("title")))


async def roll_off(fake_discord: FakeDiscord, bot: Any, thread: Any, alice: Any, bob: Any) -> Any:
    """Both roll until the roll-off is decided; the player to move."""
    game = await bot.service.game_here(thread.id)
    while game.state["phase"] == "rolloff":
        for user in (alice, bob):
            await user.click(the_table(thread), "Roll")
        await fake_discord.idle()
        game = await bot.service.game_here(thread.id)
    return (alice, bob)[game.state["turn"]]


async def test_players_at_the_table_are_pinged_only_when_they_do_not_answer(fake_discord: FakeDiscord,
                                                                           tmp_path: Path) -> None:
    async with running_bot(fake_discord, tmp_path, seed=0, ping_grace=GRACE) as harness:
        thread, alice, bob = await start_hallway(fake_discord)
        [first] = pings(thread.history())  # nobody has acted yet: the roll-off pings both at once
        assert alice.mention in first.content and bob.mention in first.content
        mover = await roll_off(fake_discord, harness.bot, thread, alice, bob)
        # both just rolled: they are at the table, and a brisk game sends no ping
        for _ in range(4):
            await asyncio.sleep(0.2)
            game = await harness.bot.service.game_here(thread.id)
            if game.state["phase"] != "play":
                break
            mover = (alice, bob)[game.state["turn"]]
            await mover.click(the_table(thread), "Roll")
            await fake_discord.idle()
        assert pings(thread.history()) == [first]
        # now whoever is to move looks away: after the grace they are pinged
        game = await harness.bot.service.game_here(thread.id)
        awaited = [d["seat"] for d in game.deadlines if d["seat"] is not None]
        assert awaited
        waiting = (alice, bob)[awaited[0]]
        await asyncio.sleep(GRACE / 2)
        assert pings(thread.history()) == [first]
        ping = await fake_discord.wait_for(lambda: next(iter(pings(thread.history())[1:]), None),
                                           what="the ping after the grace", timeout=GRACE + 3)
        assert waiting.mention in ping.content and "your turn" in ping.content
