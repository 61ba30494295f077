"""Turn timers through the real bot: the countdown on the table, a default played when time
runs out, and 30 s of grace for a deadline that passed while the bot was down."""

from __future__ import annotations

import re
from pathlib import Path

from runtime.clock import ManualClock
from runtime.service import RESTART_GRACE
from tests.e2e.conftest import running_bot
from tests.e2e.test_table_e2e import open_table, table_message
from tests.engines.tokens import TURN_TIMEOUT
from tests.fakediscord import FakeDiscord, FakeUser, Message

COUNTDOWN = re.compile(r"⏳ Waiting for <@(\d+)> to play a token — (\d+:\d\d) left \(<t:(\d+):R>\)")


def countdown(table: Message) -> tuple[int, str, int]:
    match = COUNTDOWN.search(table.text())
    assert match, f"no countdown on the table: {table.text()}"
    return int(match.group(1)), match.group(2), int(match.group(3))


async def two_player_table(server: FakeDiscord) -> tuple[FakeUser, FakeUser, Message]:
    alice, bob = server.user("alice"), server.user("bob")
    await open_table(server, alice, bob, hand=2)
    table = table_message(server)
    assert table is not None
    return alice, bob, table


async def test_a_timeout_plays_the_default_and_the_table_says_so(fake_discord: FakeDiscord,
                                                                 tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_bot(fake_discord, tmp_path, seed=3, clock=clock) as harness:
        alice, bob, table = await two_player_table(fake_discord)
        waiting, left, at = countdown(table)
        assert left == "1:00" and at == int(clock.now() + TURN_TIMEOUT)

        clock.advance(TURN_TIMEOUT - 1)
        assert await harness.bot.timers.fire_due() == 0
        clock.advance(1)
        assert await harness.bot.timers.fire_due() == 1
        await fake_discord.idle()
        [action] = await harness.bot.storage.actions((await harness.bot.storage.live_game_in(table.channel.id)).id)
        assert action.action.get("timeout") is True and action.seat == [alice.id, bob.id].index(waiting)
        assert "played a" in table.text()
        next_up, left, _ = countdown(table)
        assert next_up != waiting and left == "1:00"


async def test_a_deadline_missed_while_the_bot_was_down_gets_grace(fake_discord: FakeDiscord,
                                                                   tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_bot(fake_discord, tmp_path, seed=3, clock=clock) as harness:
        *_, table = await two_player_table(fake_discord)
        waiting, _, _ = countdown(table)
        game = await harness.bot.storage.live_game_in(table.channel.id)

        await harness.close()
        clock.advance(TURN_TIMEOUT + 300)  # down for five minutes past the deadline
        await harness.start()
        restarted = clock.now()
        await fake_discord.wait_for(lambda: countdown(table)[2] == int(restarted + RESTART_GRACE),
                                    what="the table to show the new countdown")
        assert countdown(table)[:2] == (waiting, "0:30")
        assert await harness.bot.storage.actions(game.id) == []  # nobody was auto-played

        clock.advance(RESTART_GRACE)
        assert await harness.bot.timers.fire_due() == 1
        [action] = await harness.bot.storage.actions(game.id)
        assert action.action.get("timeout") is True
