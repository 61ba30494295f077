"""Presses are read straight from the raw interaction by the table edge (`TableEdge.on_interaction`),
once each: discord.py never rebuilds the pressed message as its own items (`View.from_message`,
which its dynamic-item dispatch did on every press), and nothing of ours piles up in its ViewStore
(no view per message sent, no dynamic item, no modal closed without being submitted)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import discord
import pytest

from cogs.table import codec
from tests.e2e.test_table_e2e import hand_message, open_table, play_button, play_to_the_end, table_message
from tests.fakediscord import FakeDiscord

NAME = "Name (optional)"


@pytest.fixture
def routed(bot: Any, monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """Interaction id -> how many times the edge routed it; `View.from_message` made to fail."""

    def rebuilt(cls: Any, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a press rebuilt its message as discord.py items (View.from_message)")

    for view_class in (discord.ui.View, discord.ui.LayoutView):
        monkeypatch.setattr(view_class, "from_message", classmethod(rebuilt))
    seen: Counter[int] = Counter()
    edge = bot.tables
    route = edge.on_component

    async def counted(interaction: discord.Interaction, parsed: codec.Route | None) -> None:
        seen[interaction.id] += 1
        await route(interaction, parsed)

    monkeypatch.setattr(edge, "on_component", counted)
    return seen


def stored_with_discord_py(bot: Any) -> dict[str, int]:
    store = bot._connection._view_store
    return {"dynamic items": len(store._dynamic_items), "views": len(store._views),
            "message views": len(store._synced_message_views), "modals": len(store._modals)}


EMPTY = {"dynamic items": 0, "views": 0, "message views": 0, "modals": 0}


async def test_a_whole_game_and_its_rematch_are_pressed_through_the_edge_once_each(
        fake_discord: FakeDiscord, bot: Any, routed: Counter[int]) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=2)  # Join, Start
    mine = await alice.click(table_message(fake_discord), "My hand")  # type: ignore[arg-type]
    assert mine.ephemeral and "Your tokens" in mine.message.text()
    mover = next(p for p in (alice, bob) if play_button(p))
    hand = hand_message(mover)
    assert hand is not None
    # a double press: the first counts, the second is told so; each is handled once
    first = await mover.click(hand, play_button(mover))  # type: ignore[arg-type]
    assert first.response_type == 7
    result = await play_to_the_end(fake_discord, [alice, bob], use_select=True)
    assert "Rematch" in result.button_labels()
    again = await bob.click(result, "Rematch")
    await again.done()
    assert "The rematch is open" in again.text(), again.text()
    await fake_discord.idle()

    presses = [i for i in fake_discord.world.interactions.values() if i.type == 3]
    assert len(presses) >= 8 and all(i.acknowledged for i in presses)
    assert routed == Counter({i.id: 1 for i in presses})  # every press routed, none twice
    assert stored_with_discord_py(bot) == EMPTY


async def test_forged_presses_are_refused_without_reaching_the_routes(
        fake_discord: FakeDiscord, bot: Any, routed: Counter[int]) -> None:
    alice = fake_discord.user("alice")
    lobby = (await alice.slash("tokens new")).message
    assert lobby is not None
    join = next(b["custom_id"] for b in lobby.buttons() if b.get("label") == "Join")
    route = codec.parse(join)
    assert route is not None
    for custom_id in (codec.hand_id(route.game), codec.lobby_id(route.game, "join-1"), "rp:zzz"):
        forged = await alice.forge(lobby, custom_id)  # not on the message
        assert forged.ephemeral and "no longer valid" in forged.text()
    as_select = await alice.forge(lobby, join, component_type=3, values=["x"])  # on it, as another type
    assert as_select.ephemeral and "no longer valid" in as_select.text()
    assert not routed  # none is on the message: refused before any route
    lobby.buttons()[0]["custom_id"] = "rp:a:1:1:not json"  # a forged id the message does show
    planted = await alice.click(lobby, lobby.buttons()[0]["label"])
    assert planted.ephemeral and "no longer valid" in planted.text()
    assert list(routed.values()) == [1]  # that one reached the routes, once, and was refused there
    assert "Players (1/4)" in lobby.text()


async def test_a_form_closed_unsent_is_not_kept_and_one_sent_is_handled_once(
        fake_discord: FakeDiscord, bot: Any, routed: Counter[int]) -> None:
    alice = fake_discord.user("alice")
    lobby = (await alice.slash("tarot new")).message
    assert lobby is not None
    closed = await alice.click(lobby, "Add computer to A")  # its form is closed unsent: Discord says nothing
    assert closed.modal is not None
    opened = await alice.click(lobby, "Add computer to B")  # another form (another custom_id), sent
    assert opened.modal is not None
    await alice.submit({NAME: "Bea"})
    await fake_discord.wait_for(lambda: "🤖 Bea" in lobby.text(), what="Bea on B")
    await fake_discord.idle()
    assert lobby.text().count("🤖") == 1
    assert list(routed.values()) == [1, 1]
    assert stored_with_discord_py(bot) == EMPTY  # neither form is kept waiting
