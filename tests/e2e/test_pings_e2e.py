"""Players are told it's their turn: added to the game's thread, pinged there (or by DM in
games with a hand), with what happened since their last turn; one ping at a time."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.table import pings as pings_module
from cogs.table.pings import PING_SPACING, PINGS_KEPT
from tests.e2e.conftest import running_bot
from tests.e2e.test_table_e2e import hand_message, open_table, play_turn, result_message
from tests.fakediscord import FakeDiscord

#: Discord's message flag for "no link previews".
SUPPRESS_EMBEDS = 4


def pings(messages: list[Any]) -> list[Any]:
    return [m for m in messages if "your turn" in m.content.lower()]


async def start_hallway(fake_discord: FakeDiscord) -> tuple[Any, Any, Any]:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    before = {t.id for t in fake_discord.general.threads()}
    lobby = (await alice.slash("hallway new")).message
    await bob.click(lobby, "Join")
    await alice.click(lobby, "Start")
    thread = await fake_discord.wait_for(
        lambda: next((t for t in fake_discord.general.threads() if t.id not in before), None), what="the thread")
    await fake_discord.wait_for(lambda: pings(thread.history()), what="the first ping")
    await fake_discord.idle()
    return thread, alice, bob


#: bot seeds whose first Hallway game has a decisive roll-off, and one that ties first (the
#: re-roll's ping must not swallow the roll-off lines that happen while it waits its turn)
DECISIVE_ROLLOFF, TIED_ROLLOFF = 0, 3


@pytest.mark.parametrize("seed", [DECISIVE_ROLLOFF, TIED_ROLLOFF], ids=["decisive", "tied"])
async def test_players_join_the_thread_and_are_pinged_there_one_ping_at_a_time(
        fake_discord: FakeDiscord, tmp_path: Path, seed: int) -> None:
    async with running_bot(fake_discord, tmp_path, seed=seed) as harness:
        await _pinged_in_the_thread(fake_discord, harness.bot, tied=seed == TIED_ROLLOFF)


async def _pinged_in_the_thread(fake_discord: FakeDiscord, bot: Any, *, tied: bool) -> None:
    thread, alice, bob = await start_hallway(fake_discord)
    assert {alice.id, bob.id} <= set(thread.thread_members)
    [first] = pings(thread.history())  # the roll-off: both are awaited, one message names both
    assert alice.mention in first.content and bob.mention in first.content
    assert "roll for the start player" in first.content and "<t:" in first.content

    table = next(m for m in thread.history() if m.embeds and "Hallway" in str(m.embeds[0].get("title")))
    await alice.click(table, "Roll")
    await fake_discord.idle()
    assert pings(thread.history()) == [first]  # alice was awaited already: no new ping
    await bob.click(table, "Roll")
    await fake_discord.idle()
    game = await bot.service.game_here(thread.id)
    assert (game.state["phase"] == "rolloff") is tied
    while game.state["phase"] == "rolloff":  # a tied roll-off: both roll again
        for user in (alice, bob):
            await user.click(table, "Roll")
        await fake_discord.idle()
        game = await bot.service.game_here(thread.id)
    mover = (alice, bob)[game.state["turn"]]
    # pings in one thread keep a second apart (Discord: 5 messages / 5 s per channel)
    await fake_discord.wait_for(lambda: "roll the die" in pings(thread.history())[-1].content,
                                what="the turn's ping")
    ping = pings(thread.history())[-1]  # the earlier pings stay until they are swept together
    assert ping.id != first.id and mover.mention in ping.content and "roll the die" in ping.content
    assert pings(thread.history())[0].id == first.id and len(pings(thread.history())) <= PINGS_KEPT
    assert "rolled" in ping.content  # what happened since their last turn: the roll-off dice


async def test_a_player_with_a_hand_is_pinged_by_a_new_dm_and_can_choose_the_thread(fake_discord: FakeDiscord,
                                                                                    bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=3)
    await fake_discord.idle()
    first = await play_turn(fake_discord, [alice, bob])
    other = bob if first is alice else alice
    await fake_discord.idle()
    dm_pings = pings(other.dms())
    assert dm_pings and "Your turn to play a token" in dm_pings[-1].content
    hand = hand_message(other)
    assert hand is not None  # the hand itself is still the one DM, edited in place
    assert dm_pings[-1].message_reference["message_id"] == str(hand.id)  # the ping replies to it

    told = await other.slash("notify", where="thread")
    assert told.ephemeral and "thread" in told.content
    await play_turn(fake_discord, [alice, bob])  # other plays
    await play_turn(fake_discord, [alice, bob])  # first plays: other's turn again
    await fake_discord.idle()
    [thread] = [t for t in fake_discord.general.threads() if t.id == (await bot.service.game_for(alice.id, None)).thread_id]
    assert other.mention in pings(thread.history())[-1].content
    assert pings(other.dms()) == dm_pings  # the DM pings stay (the player's own), no new one came


async def test_a_ping_is_sent_as_channel_send_would_without_making_a_message(
        fake_discord: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing reads the message a ping's call answers with: it is posted on the client's HTTP
    client (the same payload: previews off, the mentions it names, a DM's reply to the hand),
    so discord.py makes no Message of it."""
    sent: list[str] = []
    send = discord.abc.Messageable.send

    async def counted(self: Any, content: Any = None, **kwargs: Any) -> Any:
        sent.append(str(content))
        return await send(self, content, **kwargs)

    monkeypatch.setattr(discord.abc.Messageable, "send", counted)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await bob.slash("notify", where="thread")
    await open_table(fake_discord, alice, bob, hand=3)
    game = await bot.service.game_for(alice.id, None)
    thread = next(t for t in fake_discord.general.threads() if t.id == game.thread_id)
    while not (pings(thread.history()) and pings(alice.dms())):
        await play_turn(fake_discord, [alice, bob])
        await asyncio.sleep(PING_SPACING)
        await fake_discord.idle()
    [dm_ping, *_] = pings(alice.dms())
    [thread_ping, *_] = pings(thread.history())
    assert dm_ping.flags & SUPPRESS_EMBEDS and thread_ping.flags & SUPPRESS_EMBEDS
    assert dm_ping.message_reference["message_id"] == str(hand_message(alice).id) and not dm_ping.mentioned
    assert bob.mention in thread_ping.content and alice.mention not in thread_ping.content
    assert not [content for content in sent if "your turn" in content.lower()]


async def test_a_thread_ping_costs_one_call_and_the_thread_keeps_a_few(
        fake_discord: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ping is one post; the pings before the newest go together in one bulk delete when
    they make `PINGS_KEPT` (4 here), and the rest with the game: the thread never shows more."""
    kept = 4
    monkeypatch.setattr(pings_module, "PINGS_KEPT", kept)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    for user in (alice, bob):
        await user.slash("notify", where="thread")
    await open_table(fake_discord, alice, bob, hand=5)
    game = await bot.service.game_for(alice.id, None)
    thread = next(t for t in fake_discord.general.threads() if t.id == game.thread_id)
    await fake_discord.wait_for(lambda: pings(thread.history()), what="the first ping")
    mark = fake_discord.mark()
    most = 0
    while result_message(fake_discord) is None:
        await play_turn(fake_discord, [alice, bob])
        await asyncio.sleep(PING_SPACING)  # the turn's ping goes out
        await fake_discord.idle()
        most = max(most, len(pings(thread.history())))
    await fake_discord.idle()
    calls = [c for c in fake_discord.calls_since(mark) if c.channel_id == thread.id]
    posted = [c for c in calls if c.route == "POST /channels/{channel_id}/messages"
              and "your turn" in str((c.body or {}).get("content", "")).lower()]
    bulk = [c for c in calls if c.route == "POST /channels/{channel_id}/messages/bulk-delete"]
    single = [c for c in calls if c.route == "DELETE /channels/{channel_id}/messages/{message_id}"]
    total = len(posted) + 1  # with the first, sent before the mark
    assert total >= 2 * kept and most <= kept
    # one bulk delete per kept - 1 pings, and the game's end takes the rest in one call
    assert len(bulk) + len(single) == (total - 1) // (kept - 1) + 1 and len(single) <= 1
    assert (total + len(bulk) + len(single)) / total <= 1 + 1 / (kept - 1) + 1 / total
    assert pings(thread.history()) == []  # none asks for a move of the finished game


async def test_notify_off_means_no_ping(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    for user in (alice, bob):
        await user.slash("notify", where="off")
    await open_table(fake_discord, alice, bob, hand=2)
    await play_turn(fake_discord, [alice, bob])
    await fake_discord.idle()
    assert pings(alice.dms()) == [] and pings(bob.dms()) == []
    assert all(pings(t.history()) == [] for t in fake_discord.general.threads())


async def test_a_ping_still_waiting_for_its_channel_is_dropped_when_the_game_ends(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A ping waits its channel's turn (a second apart); if the game ends meanwhile it is not
    sent: nobody is told to move in a game that is over."""
    async with running_bot(fake_discord, tmp_path, seed=DECISIVE_ROLLOFF) as harness:
        thread, alice, bob = await start_hallway(fake_discord)
        table = next(m for m in thread.history() if m.embeds and "Hallway" in str(m.embeds[0].get("title")))
        await alice.click(table, "Roll")
        await bob.click(table, "Roll")  # the roll-off is decided: the mover's ping waits its turn
        game = await harness.bot.service.game_here(thread.id)
        assert game.state is not None and game.state["phase"] != "rolloff"
        ended = await alice.slash("game end", channel=thread)
        assert "ended game" in ended.content
        await asyncio.sleep(PING_SPACING + 0.3)
        await fake_discord.idle()
        assert not [p for p in pings(thread.history()) if "roll the die" in p.content]


async def test_a_shutdown_sends_the_pings_on_their_way_before_disconnecting(
        fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A ping still waiting its channel's turn when the bot stops goes out before the connection
    closes (it used to fail on the closed session: 'Session is closed')."""
    async with running_bot(fake_discord, tmp_path, seed=DECISIVE_ROLLOFF) as harness:
        thread, alice, bob = await start_hallway(fake_discord)
        table = next(m for m in thread.history() if m.embeds and "Hallway" in str(m.embeds[0].get("title")))
        await alice.click(table, "Roll")
        await bob.click(table, "Roll")  # the mover's ping now waits for the channel
        game = await harness.bot.service.game_here(thread.id)
        assert game.state is not None and game.state["phase"] != "rolloff"
    assert not [r for r in caplog.records if r.levelname == "ERROR"], [r.getMessage() for r in caplog.records]
    assert [p for p in pings(thread.history()) if "roll the die" in p.content]


async def test_settling_cancels_pings_that_outlast_the_shutdown_allowance() -> None:
    """A ping that cannot go out within the allowance (its channel slot far off, Discord slow)
    is cancelled, so shutdown is not held up by it."""
    from cogs.table.pings import Pings

    pings_ = Pings(delivery=None)  # type: ignore[arg-type]
    stuck = asyncio.create_task(asyncio.sleep(60))
    pings_._tasks.add(stuck)
    stuck.add_done_callback(pings_._tasks.discard)
    started = asyncio.get_running_loop().time()
    await pings_.settle(within=0.1)
    assert stuck.cancelled() and not pings_._tasks
    assert asyncio.get_running_loop().time() - started < 2.0
