"""A press reads its message from the interaction's JSON (`cogs.table.pressed`): discord.py's
`Message` of it is made only when something asks for `interaction.message`, and is then the
same message the JSON describes."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.table import codec
from cogs.table.pressed import LazyInteraction, pressed
from tests.e2e.test_table_e2e import hand_message, open_table, play_button, play_to_the_end, table_message
from tests.fakediscord import FakeDiscord


def message_made(interaction: discord.Interaction) -> bool:
    """Whether the interaction's `Message` was made (its JSON is let go then)."""
    return getattr(interaction, "_message_data", None) is None


@pytest.fixture
def presses(bot: Any, monkeypatch: pytest.MonkeyPatch) -> list[discord.Interaction]:
    """Every press the edge routes, kept; a move (a button or a menu of the game) must not have
    made its Message by the end of it (the lobby's Start does: it opens a thread on it)."""
    seen: list[discord.Interaction] = []
    edge = bot.tables
    route = edge.on_component

    async def kept(interaction: discord.Interaction, parsed: codec.Route | None) -> None:
        await route(interaction, parsed)
        if parsed is not None and parsed.kind in ("action", "select", "hand"):
            assert not message_made(interaction), "a move made discord.py's Message of its message"
        seen.append(interaction)

    monkeypatch.setattr(edge, "on_component", kept)
    return seen


async def test_a_whole_game_is_played_without_making_a_message_per_press(
        fake_discord: FakeDiscord, bot: Any, presses: list[discord.Interaction]) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=2)
    mine = await alice.click(table_message(fake_discord), "My hand")  # an ephemeral panel
    assert mine.ephemeral
    mover = next(p for p in (alice, bob) if play_button(p))
    first = await mover.click(hand_message(mover), play_button(mover))  # type: ignore[arg-type]
    assert first.response_type == 7  # the DM redrawn in place: its id was read from the JSON
    result = await play_to_the_end(fake_discord, [alice, bob], use_select=True)
    assert "Rematch" in result.button_labels()
    await fake_discord.idle()

    assert len(presses) >= 6
    for interaction in presses:
        assert type(interaction) is LazyInteraction
        read = pressed(interaction)
        assert read is not None
        message = interaction.message  # made now, from the same JSON
        assert message is not None and message_made(interaction)
        assert (message.id, bool(message.flags.ephemeral)) == (read.id, read.ephemeral)
        assert [row.to_dict() for row in message.components] == read.components
        if interaction.guild_id is not None:
            assert message.guild is not None and message.guild.id == interaction.guild_id
        assert pressed(interaction) == read  # and read the same way once made
