"""REST calls per action on the real bot: a press on a DM hand costs the callback (the hand,
updated in place), one table edit, and a DM edit only for seats whose DM would look different."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogs.table.delivery import REPOST_AFTER
from games.registry import get_engine
from runtime.clock import ManualClock
from runtime.service import Applied
from tests.e2e.conftest import running_bot
from tests.e2e.test_table_e2e import hand_message, open_table, play_button, play_turn, table_message
from tests.fakediscord import FakeDiscord


async def test_a_play_edits_only_the_dms_that_change(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
    await open_table(fake_discord, alice, bob, carol, hand=2)
    await fake_discord.idle()
    hands = {p.name: hand_message(p) for p in (alice, bob, carol)}
    assert all(hands.values())
    carol_before = (hands["carol"].text(), hands["carol"].edits)  # type: ignore[union-attr]

    button = play_button(alice)
    assert button is not None
    pressed = await alice.click(hands["alice"], button)  # type: ignore[arg-type]
    assert pressed.response_type == 7
    await fake_discord.wait_for(lambda: play_button(bob), what="bob's turn")
    await fake_discord.idle()

    calls = fake_discord.calls_for(pressed)
    routes = [c.route for c in calls]
    assert routes[0].endswith("/callback")
    dm_ids = {p.dm_channel.id for p in (alice, bob, carol) if p.dm_channel is not None}
    dm_calls = [c for c in calls if c.channel_id in dm_ids and not c.route.endswith("/callback")]
    table_calls = [c for c in calls if c not in dm_calls and not c.route.endswith("/callback")]
    hand_edits = [c for c in dm_calls if c.method == "PATCH"]
    ping_posts = [c for c in dm_calls if c.method == "POST"]
    assert [c.channel_id for c in hand_edits] == [bob.dm_channel.id]  # bob's turn now; carol's DM is as it was
    assert [c.channel_id for c in ping_posts] == [bob.dm_channel.id]  # and bob is told so by a new DM
    assert len(table_calls) == 1 and table_calls[0].method == "PATCH"
    assert (hands["carol"].text(), hands["carol"].edits) == carol_before  # type: ignore[union-attr]

    # The DM does change for carol once it is her turn.
    button = play_button(bob)
    assert button is not None
    await bob.click(hand_message(bob), button)  # type: ignore[arg-type]
    await fake_discord.wait_for(lambda: play_button(carol), what="carol's turn")


async def test_an_hour_old_table_and_dm_are_posted_again_not_edited(fake_discord: FakeDiscord,
                                                                    tmp_path: Path) -> None:
    """Discord throttles edits of messages older than an hour: after 50 minutes the table and
    the hands come as new messages, and the old table's buttons are refused as stale."""
    clock = ManualClock()
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, tmp_path, seed=5, clock=clock):
        await open_table(fake_discord, alice, bob, hand=3)
        await play_turn(fake_discord, [alice, bob])
        await fake_discord.idle()
        old_table = table_message(fake_discord)
        old_hands = {p.name: hand_message(p) for p in (alice, bob)}
        assert old_table is not None and all(old_hands.values())

        clock.advance(REPOST_AFTER + 60)
        mover = await play_turn(fake_discord, [alice, bob])
        other = bob if mover is alice else alice
        await fake_discord.idle()

        new_table = table_message(fake_discord)
        assert new_table is not None and new_table.id != old_table.id
        assert old_table.id in {m.id for m in new_table.channel.history()}  # kept, not deleted
        new_hand = hand_message(other)
        assert new_hand is not None and new_hand.id != old_hands[other.name].id  # type: ignore[union-attr]
        stale = await other.click(old_table, "My hand")  # the hand button never goes stale
        assert stale.ephemeral and "Your tokens" in stale.text()


async def test_publishing_a_state_the_table_already_shows_costs_no_edit(fake_discord: FakeDiscord,
                                                                        bot: Any) -> None:
    """Steps queued behind one another all draw the newest state: once the table shows it,
    the later ones skip their edit."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=2)
    await fake_discord.idle()
    table = table_message(fake_discord)
    assert table is not None
    game = await bot.service.game_here(table.channel.id)
    again = Applied(game, get_engine(game.kind), [], [])
    with fake_discord.track() as calls:
        await bot.tables.publish(again)
        await fake_discord.idle()
    assert calls == []
    bot.tables.delivery.forget_shown()  # a bot that does not know what the table shows edits it
    with fake_discord.track() as calls:
        await bot.tables.publish(again)
        await fake_discord.idle()
    assert [c.method for c in calls] == ["PATCH"]
