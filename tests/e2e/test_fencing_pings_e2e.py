"""Pings in Table Fencing's races and windows, through the fake Discord: a ping still waiting
for its channel when its prompt closes is never sent; a player whose optional prompt (the
applause) becomes a required one (the count) is pinged for it; a golf window that closed
before its ping could go out is not announced while the table waits for someone else; and an
insult quoted in a ping's digest pings nobody.

Pings keep a second apart per channel; each test holds the thread's next ping slot a few
seconds off (as a burst of earlier pings would), so the race does not depend on the machine's
speed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from runtime.clock import ManualClock
from tests.e2e.conftest import running_bot
from tests.e2e.test_fencing_e2e import DUEL, Fencing
from tests.e2e.test_fencing_e2e import clock as clock  # the fixture
from tests.e2e.test_hostile_text_e2e import assert_harmless
from tests.fakediscord import FakeDiscord, FakeUser, Message

#: An insult written to ping: everyone, the channel, a role, a user outside the game.
HOSTILE = "@everyone @here <@&456> <@123> {outsider} you fight like a dairy farmer"
#: How long the thread's next ping slot is held off while a race is played.
HOLD = 2.5


def sent_in(table: Fencing, words: str) -> list[Message]:
    """Every message the bot sent in the table's thread containing `words`, deleted or not."""
    thread = table.table.channel
    bot_id = table.server.world.bot.id
    return [m for m in thread.messages if m.author.id == bot_id and words in m.content]


def hold_the_slot(table: Fencing, harness: Any) -> None:
    """The thread's next ping may go only HOLD seconds from now (as after a burst of pings)."""
    pings = harness.bot.tables.delivery.pings
    pings._last_sent[table.table.channel.id] = asyncio.get_running_loop().time() + HOLD


async def settle(table: Fencing, harness: Any) -> None:
    await harness.bot.tables.delivery.pings.drain()
    await table.server.idle()


async def test_the_count_is_pinged_and_the_applause_that_closed_is_not(
        fake_discord: FakeDiscord, tmp_path: Path, clock: ManualClock) -> None:
    outsider = fake_discord.user("dave")  # in the server, not in the game
    async with running_bot(fake_discord, tmp_path, seed=DUEL, clock=clock) as harness:
        table = Fencing(fake_discord, harness, clock)
        await table.open()
        state = await table.until("duel")
        a, b = state["step"]["seats"]
        third = state["step"]["third"]
        counter: FakeUser = table.player(third)
        await settle(table, harness)

        notes = len(fake_discord.world.notifications)
        hold_the_slot(table, harness)
        insult = HOSTILE.format(outsider=outsider.mention)
        assert (await table.player(a).click(table.table, "Insult")).modal is not None
        await table.player(a).submit({"text": insult})
        await table.shown()
        game = await table.game()
        assert [d["prompt"] for d in game.deadlines if d["seat"] == third] == ["applaud an insult (optional)"]
        assert sent_in(table, "applaud") == []  # its ping waits for the thread's slot
        await table.press(table.player(b), {"type": "insult", "text": ""})  # Skip: the insults are over
        await table.shown()
        assert [d["prompt"] for d in (await table.game()).deadlines if d["seat"] == third] == ["count to three"]
        await settle(table, harness)

        assert sent_in(table, "applaud") == [], "a ping for the applause after the insults ended"
        [count] = sent_in(table, "count to three")
        assert count.content.startswith(f"{counter.mention} — your turn to count to three")
        assert [(n.message, n.mentions.users) for n in fake_discord.world.notifications[notes:]] == [
            (count, (counter.id,))]
        # the digest quotes the insult once, every mention in it defused, and pings nobody else
        assert count.content.count("you fight like a dairy farmer") == 1
        for raw in ("@everyone", "@here", "<@&456>", "<@123>", outsider.mention):
            assert raw not in count.content
        assert fake_discord.pinged(outsider) == []
        assert all(not n.mentions.everyone and not n.mentions.roles for n in fake_discord.world.notifications)
        pinged = {u for n in fake_discord.world.notifications for u in n.mentions.users}
        assert pinged <= {p.id for p in table.players}
        assert_harmless(fake_discord, table.players, outsider)  # the table, its log, every message


async def test_a_golf_window_that_closed_before_its_ping_is_not_announced(
        fake_discord: FakeDiscord, tmp_path: Path, clock: ManualClock) -> None:
    """Bot seed 2: seat 1 calls Thrust and the golf window opens for seat 0, who presses Done
    at once; the table then waits for seat 1 to move."""
    async with running_bot(fake_discord, tmp_path, seed=DUEL, clock=clock) as harness:
        table = Fencing(fake_discord, harness, clock)
        await table.open()
        state = await table.until("thrust")
        assert state["start"] == 1
        await settle(table, harness)

        notes = len(fake_discord.world.notifications)
        hold_the_slot(table, harness)
        await table.step()  # Thrust: the golf window opens for seat 0
        state = await table.state()
        assert state["step"]["kind"] == "golf" and state["step"]["holder"] == 0
        assert sent_in(table, "your turn in the golf window") == []
        await table.step()  # seat 0: Done, and the move is seat 1's
        game = await table.game()
        assert game.state["step"]["kind"] == "move" and [d["seat"] for d in game.deadlines] == [1]
        await settle(table, harness)

        assert sent_in(table, "your turn in the golf window") == [], [m.content for m in sent_in(table, "your turn in the golf window")]
        [move] = sent_in(table, "move the attacked piece")
        assert move.content.startswith(f"{table.player(1).mention} — your turn to move the attacked piece")
        since = fake_discord.world.notifications[notes:]
        assert [(n.message, n.mentions.users) for n in since] == [(move, (table.player(1).id,))]
