"""Delivery when other processes share the database (sharded bots): what this process
remembers of a message — the attachment it kept, the DM it last drew — may be out of date,
because another process edited the same message since. Nothing may be lost for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.registry import get_engine
from runtime.service import Applied
from tests.e2e.conftest import running_bot
from tests.e2e.test_pings_e2e import start_hallway
from tests.e2e.test_table_e2e import hand_message, open_table, play_turn, table_message
from tests.fakediscord import FakeDiscord
from tests.fakediscord.ids import snowflake
from tests.fakediscord.state import Attachment

INVALID_FORM_BODY = 50035


def replaced_elsewhere(message: Any) -> list[int]:
    """What another process's edit of the message did: the same picture uploaded again, under
    new attachment ids. Returns the ids this process last saw."""
    old = [a.id for a in message.attachments]
    message.attachments = [Attachment(snowflake(), a.filename, a.data, a.content_type, a.description, a.url)
                           for a in message.attachments]
    return old


async def test_an_edit_keeping_a_picture_another_process_replaced_uploads_it_again(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake_discord.allow_errors(INVALID_FORM_BODY)  # the first try of the edit, refused
    async with running_bot(fake_discord, tmp_path) as harness:
        thread, _, _ = await start_hallway(fake_discord)
        game = await harness.bot.service.game_here(thread.id)
        table = fake_discord.world.messages[game.table_message_id]
        assert table.attachments
        picture = table.attachments[0].data
        seen = replaced_elsewhere(table)
        mark = fake_discord.mark()

        game.version += 1  # a newer step with the same picture: the edit would keep it
        await harness.bot.tables.delivery.update_table(game)

        edits = [c for c in fake_discord.calls_since(mark) if c.route.startswith("PATCH /channels")]
        assert len(edits) == 2, "a refused keep, then the picture uploaded again"
        assert [(e.status, e.code) for _, e in fake_discord.errors] == [(400, INVALID_FORM_BODY)]
        [shown] = table.attachments
        assert shown.data == picture and shown.id not in seen


async def test_a_dm_is_redrawn_when_another_process_moved_the_game_lately(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A process skips an edit that would show what it last drew in a DM — unless another
    process sharing the database moved the game lately: that one may have drawn something else
    there since. (One process alone, on either database, keeps skipping.)"""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, tmp_path) as harness:
        await open_table(fake_discord, alice, bob)
        await fake_discord.idle()
        delivery, service = harness.bot.tables.delivery, harness.bot.service
        table = table_message(fake_discord)
        assert table is not None
        game = await service.game_here(table.channel.id)
        hand = hand_message(alice)
        assert hand is not None
        seat = game.seat_of(alice.id)
        again = Applied(game, get_engine(game.kind), [], [seat])

        mark = fake_discord.mark()
        await delivery.deliver_private(again, seat)
        assert fake_discord.calls_since(mark) == [], "alone: the DM already shows this"

        hand.content = "(drawn by another process)"
        service.saw_step_from_elsewhere(game.id)  # as a reload after another process's commit does
        await delivery.deliver_private(again, seat)
        assert [c.route for c in fake_discord.calls_since(mark)] == [
            "PATCH /channels/{channel_id}/messages/{message_id}"]
        assert "Your tokens" in hand.text()
        assert not service.moved_elsewhere_lately(game.id, within=0.0)


async def test_a_reload_after_another_process_committed_marks_the_game_moved_elsewhere(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, tmp_path) as harness:
        await open_table(fake_discord, alice, bob)
        await fake_discord.idle()
        service = harness.bot.service
        table = table_message(fake_discord)
        assert table is not None
        game = await service.game_here(table.channel.id)
        assert not service.moved_elsewhere_lately(game.id)
        harness.bot.storage.backend.shared = True
        try:
            game.version -= 1  # the cached copy is a step behind the stored game
            refreshed = await service.game(game.id)
        finally:
            harness.bot.storage.backend.shared = False
        assert refreshed.version == game.version and service.moved_elsewhere_lately(game.id)


async def test_converging_redraws_only_for_steps_another_process_committed(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """After publishing, a process sharing the database redraws the game when the stored version
    is newer than what it drew — unless that newer step is its own, whose publish (queued
    behind this one) draws it anyway: one process on PostgreSQL draws each step once."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, tmp_path) as harness:
        await open_table(fake_discord, alice, bob)
        await play_turn(fake_discord, [alice, bob])
        await fake_discord.idle()
        delivery, service = harness.bot.tables.delivery, harness.bot.service
        table = table_message(fake_discord)
        assert table is not None
        game = await service.game_here(table.channel.id)
        assert service.committed_here(game.id) == game.version
        applied = Applied(game, get_engine(game.kind), [], [])
        harness.bot.storage.backend.shared = True
        try:
            delivery.remember_table(game.id, table.id, await delivery.draw_table(game))
            delivery._table_shown[game.id] = (table.id, game.version - 1)  # drawn before our last step
            mark = fake_discord.mark()
            await delivery.converge(applied)
            assert fake_discord.calls_since(mark) == [], "our own step: its publish draws it"

            service._committed[game.id] = game.version - 1  # the newest step came from elsewhere
            await delivery.converge(applied)
            assert "PATCH /channels/{channel_id}/messages/{message_id}" in [
                c.route for c in fake_discord.calls_since(mark)]
            assert delivery.table_shows(game.id) == (table.id, game.version)
        finally:
            harness.bot.storage.backend.shared = False
