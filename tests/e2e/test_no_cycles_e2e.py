"""A press leaves no reference cycle behind in the real bot: its interaction, discord.py's
response object, the message and components it carried are freed as soon as the press is
answered, not left for the garbage collector (whose sweeps of such garbage took 130-210 ms at a
time with 1,000 live games)."""

from __future__ import annotations

import gc
from pathlib import Path

import discord

from tests.e2e.conftest import running_bot
from tests.e2e.test_pings_e2e import start_hallway
from tests.fakediscord import FakeDiscord


async def test_answered_presses_leave_no_interaction_for_the_collector(fake_discord: FakeDiscord,
                                                                      tmp_path: Path) -> None:
    async with running_bot(fake_discord, tmp_path, seed=0) as harness:
        thread, alice, bob = await start_hallway(fake_discord)
        table = next(m for m in thread.history() if m.embeds and "Hallway" in str(m.embeds[0].get("title")))
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for user in (alice, bob, alice, bob):
                await user.click(table, "Roll")
                await fake_discord.idle()
            game = await harness.bot.service.game_here(thread.id)
            assert game.version >= 3  # the presses were played
            gc.collect()
            left = [o for o in gc.garbage if isinstance(o, discord.Interaction | discord.InteractionResponse)]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        assert left == []
