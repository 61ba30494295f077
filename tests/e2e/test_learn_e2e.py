"""`/<game> learn` end to end: a practice Hallway table (the caller against a computer) opens
in a thread of its own and starts at once; the caller's prompt carries 💡 Hint, which answers
only them with the computer's move in their place, why, and the rule's text; the hinted move
is legal (pressing it counts); played to the end, the game is neither rated nor counted. A
rated table never shows a Hint, and a forged one is answered, not obeyed. The first game of a kind a player
joins mentions `/<game> learn`, once."""

from __future__ import annotations

from pathlib import Path

from cogs.table import codec
from cogs.table.controls import controls_for
from cogs.table.learn import control_label
from cogs.table.rules import rule_text
from games.registry import get_engine, get_policy
from runtime.clock import ManualClock
from runtime.hints import hint_for
from storage import Status
from tests.e2e.conftest import running_bot
from tests.e2e.test_computers_e2e import pick_control, play_out, seat_computers
from tests.fakediscord import FakeDiscord, Message

LEARN = "`/hallway learn`"


def practice_table(server: FakeDiscord) -> Message | None:
    for thread in server.general.threads():
        for message in reversed(thread.history()):
            if message.buttons() and "Hallway" in message.text():
                return message
    return None


def hint_button(message: Message) -> str | None:
    found = [b["custom_id"] for b in message.buttons() if b["custom_id"].startswith("rp:i:")]
    return found[0] if found else None


async def test_a_practice_table_gives_a_legal_hint_from_the_players_view(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    clock = ManualClock()
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, tmp_path, seed=21, clock=clock) as harness:
        opened = await alice.slash("hallway learn")
        assert opened.acknowledged and "practice" in opened.text() and "not rated" in opened.text()
        await fake_discord.wait_for(lambda: practice_table(fake_discord) is not None
                                    and hint_button(practice_table(fake_discord)) is not None,
                                    what="the practice table with its Hint")
        game = await harness.bot.service.game_for(alice.id, None)
        assert game.practice and game.status is Status.ACTIVE and game.thread_id is not None
        assert [s.computer for s in game.seats] == [False, True]
        table = practice_table(fake_discord)
        assert table is not None
        custom_id = hint_button(table)
        assert custom_id == codec.hint_id(game.id)

        # Someone who is not playing gets no hint; the learner gets one, only for them.
        stranger = await bob.click(table, custom_id)
        assert stranger.ephemeral and "not playing" in stranger.text().lower(), stranger.text()
        answered = await (await alice.click(table, custom_id)).done()
        hint = answered.message
        assert hint is not None and hint.ephemeral and hint.visible_to == alice.id
        text = hint.text()
        assert "💡 Hint" in text and "the computer would choose **Roll**" in text, text
        assert "📖 Rule 2" in text and rule_text("hallway", "2")[:60] in text

        # The hinted move is legal: pressing the control it names counts.
        version = game.version
        pressed = await alice.click(table, "Roll")
        assert pressed.acknowledged
        await fake_discord.wait_for(lambda: game.version > version, what="the hinted roll counted")

        finished = await play_out(fake_discord, harness, clock, [alice], game.id)
        assert finished.status is Status.FINISHED
        await fake_discord.idle()
        assert await harness.bot.storage.player_ratings(fake_discord.guild.id, alice.id) == []
        assert await harness.bot.storage.computer_record(fake_discord.guild.id, alice.id) == {}
        await fake_discord.wait_for(lambda: hint_button(table) is None, what="the finished table, without a Hint")


async def test_a_rated_table_never_offers_a_hint_and_refuses_a_forged_one(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    clock = ManualClock()
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, tmp_path, seed=22, clock=clock) as harness:
        lobby = await seat_computers(fake_discord, alice, "hallway", 1)
        await alice.click(lobby, "Start")
        game = await harness.bot.service.game_for(alice.id, None)
        assert not game.practice
        await fake_discord.wait_for(lambda: practice_table(fake_discord) is not None, what="the table")
        table = practice_table(fake_discord)
        assert table is not None and hint_button(table) is None and "Roll" in table.button_labels()
        # A Hint the table never drew is answered, never obeyed (runtime/hints.py refuses it too).
        forged = await alice.forge(table, codec.hint_id(game.id))
        assert forged.ephemeral and "no longer valid" in forged.text() and "💡" not in forged.text()


async def test_the_first_game_of_a_kind_mentions_learn_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, tmp_path, seed=23):
        first = await alice.slash("hallway new")
        said = await first.followup(1)
        assert LEARN in said.text() and said.ephemeral and said.visible_to == alice.id
        lobby = first.message
        assert lobby is not None and LEARN not in lobby.text()
        joined = await bob.click(lobby, "Join")
        told = await joined.followup(1)
        assert LEARN in told.text() and told.visible_to == bob.id
        await alice.click(lobby, "Cancel")
        await fake_discord.idle()

        again = await alice.slash("hallway new")
        await fake_discord.idle()
        assert not any(LEARN in m.text() for m in again.followups)
        rejoined = await bob.click(again.message, "Join")
        await fake_discord.idle()
        assert not any(LEARN in m.text() for m in rejoined.followups)


async def test_a_tarot_learner_gets_the_hint_in_their_own_hand_and_it_plays(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Tarot's prompts are in the player's hand (a DM): the Hint is there, names the control that
    sends the computer's move from alice's view, and that move is accepted."""
    clock = ManualClock()
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, tmp_path, seed=24, clock=clock) as harness:
        opened = await alice.slash("tarot learn")
        assert opened.acknowledged
        game = await harness.bot.service.game_for(alice.id, None)
        assert game.practice and [s.computer for s in game.seats].count(True) == 3
        seat = game.seat_of(alice.id)
        assert seat is not None
        await play_out(fake_discord, harness, clock, [], game.id,
                       until=lambda g: any(d["seat"] == seat for d in g.deadlines))
        await fake_discord.wait_for(lambda: alice.last_dm() is not None and hint_button(alice.last_dm()) is not None,
                                    what="alice's hand with its Hint")
        hand = alice.last_dm()
        assert hand is not None
        answered = await (await alice.click(hand, codec.hint_id(game.id))).done()
        hint = hint_for(get_engine("tarot"), get_policy("tarot"), game, seat, harness.bot.service.clock.now())
        named = control_label(game, seat, hint.action)
        text = answered.message.text() if answered.message is not None else ""
        assert f"the computer would choose **{named}**" in text and "📖 Rule R" in text, text

        version = game.version
        packed, value = pick_control(controls_for(game, seat), hint.action)
        if packed is not None:
            done = await alice.slash("tarot do", action=packed, **({"value": value} if value else {}))
            assert done.acknowledged and "not one of your options" not in done.text()
        else:  # a two-card discard: several picks of one menu, sent as the menu would
            await harness.bot.tables.publish(await harness.bot.service.act(game.id, alice.id, hint.action))
        await fake_discord.wait_for(lambda: game.version > version, what="the hinted move counted")
