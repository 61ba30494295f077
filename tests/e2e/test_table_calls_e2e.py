"""REST calls per action on the real bot: a press on a DM hand costs the callback (the hand,
updated in place), one table edit, and a DM edit only for seats whose DM would look different."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_table_e2e import hand_message, open_table, play_button
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
    assert [c.channel_id for c in dm_calls] == [bob.dm_channel.id]  # bob's turn now; carol's DM is as it was
    assert len(table_calls) == 1 and table_calls[0].method == "PATCH"
    assert (hands["carol"].text(), hands["carol"].edits) == carol_before  # type: ignore[union-attr]

    # The DM does change for carol once it is her turn.
    button = play_button(bob)
    assert button is not None
    await bob.click(hand_message(bob), button)  # type: ignore[arg-type]
    await fake_discord.wait_for(lambda: play_button(carol), what="carol's turn")
