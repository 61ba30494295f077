"""A game stopped without a result by `/game end` leaves no screen offering a move (issue 20,
item 1): the table, each hand by DM and the hand a player opened with **My hand** all say the
game is over and lose their controls (the hands used to keep their buttons, which then only
answered "This game is over")."""

from __future__ import annotations

from pathlib import Path

from cogs.table.present import GAME_OVER_PRIVATE, GAME_OVER_TABLE
from tests.e2e.conftest import running_bot
from tests.fakediscord import FakeDiscord, Message


def says_over(message: Message | None, words: str) -> bool:
    return message is not None and words.split(" — ")[0].replace("*", "") in message.text().replace("*", "") \
        and not message.components


async def test_game_end_leaves_every_screen_saying_so(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    server = fake_discord
    alice, bob = server.user("alice"), server.user("bob")
    async with running_bot(server, tmp_path, seed=5) as harness:
        lobby = (await alice.slash("words new")).message
        assert lobby is not None
        await bob.click(lobby, "Join")
        await alice.click(lobby, "Start")
        game = await harness.bot.service.game_for(alice.id, None)
        await server.wait_for(lambda: all(s.dm_message_id for s in game.seats), what="both hands by DM")
        await server.idle()
        assert any(m.components for p in (alice, bob) for m in p.dms())  # someone's hand offers a move
        thread = server.general.threads()[0]
        table = next(m for m in thread.history() if m.id == game.table_message_id)
        opened = await alice.click(table, "My hand")
        assert opened.ephemeral and opened.message is not None and opened.message.components
        ended = await alice.slash("game end", channel=thread)
        assert not ended.ephemeral, ended.content
        await server.idle()
        assert says_over(table, GAME_OVER_TABLE), table.text()
        for player in (alice, bob):
            hand = next(m for m in player.dms() if m.id == game.seats[game.seat_of(player.id)].dm_message_id)
            assert says_over(hand, GAME_OVER_PRIVATE), (player.name, hand.text(), hand.button_labels())
        assert says_over(opened.message, GAME_OVER_PRIVATE), opened.message.text()
