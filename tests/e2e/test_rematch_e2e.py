"""🔁 Rematch end to end: a Fighting Words game (alice, bob and a computer) played to its end;
after a restart, bob presses 🔁 Rematch on the result mirrored in #general: the rematch lobby
opens there with the same seats (the computer too) and options, bob hosting, alice pinged
(bob, who pressed, is not), each person's DM checked and stored (bob's DMs are closed); alice
leaves and joins again; bob starts it and it is played to its end; alice presses 🔁 Rematch on
that result in its thread — a rematch of a rematch. Then the presses that must be refused:
a second rematch of one game, a rematch by someone who did not play, and a rematch while the
channel has another lobby open — each a clear sentence, with no lobby made."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from runtime.clock import ManualClock
from storage import GameRecord, Status
from storage.gamenight import GameNights
from tests.e2e.conftest import RumpusHarness, running_bot
from tests.e2e.test_computers_e2e import play_out, seat_computers
from tests.fakediscord import FakeDiscord, FakeUser, Message

SEED = 2323
DM_CLOSED = 50007


def with_rematch(server: FakeDiscord, channel: Any, after: int = 0) -> list[Message]:
    """The bot's messages in `channel` offering 🔁 Rematch (newer than message id `after`)."""
    return [m for m in channel.history() if m.author.id == server.world.bot.id and m.id > after
            and "Rematch" in m.button_labels()]


def rematch_lobbies(server: FakeDiscord) -> list[Message]:
    return [m for m in server.general.history() if m.author.id == server.world.bot.id
            and m.content.startswith("🔁 **Rematch**")]


async def stored(harness: RumpusHarness, game_id: int) -> GameRecord:
    game = await harness.bot.storage.game(game_id)
    assert game is not None
    return game


def seating(game: GameRecord) -> list[tuple[int, str, bool]]:
    return [(s.user_id, s.name, s.computer) for s in game.seats]


async def delivery_checked(harness: RumpusHarness, game_id: int, people: list[FakeUser]) -> dict[int, Any]:
    """The rematch's seats once each person's DM check is stored (it runs after the answer)."""
    for _ in range(200):
        seats = {s.user_id: s for s in (await stored(harness, game_id)).seats}
        if all(seats[p.id].dm_channel_id is not None or not seats[p.id].dm_ok for p in people):
            return seats
        await asyncio.sleep(0.02)
    raise AssertionError("the rematch's DM checks were not stored")


async def play_to_the_end(server: FakeDiscord, harness: RumpusHarness, clock: ManualClock,
                          humans: list[FakeUser], game_id: int) -> GameRecord:
    finished = await play_out(server, harness, clock, humans, game_id)
    assert finished.status is Status.FINISHED, finished.status
    await server.idle()
    return finished


async def test_a_rematch_is_opened_from_the_result_played_and_rematched_again(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake_discord.allow_errors(DM_CLOSED)
    clock = ManualClock()
    alice, bob, carol = fake_discord.user("alice"), fake_discord.user("bob"), fake_discord.user("carol")
    async with running_bot(fake_discord, tmp_path, seed=SEED, clock=clock) as harness:
        lobby = await seat_computers(fake_discord, alice, "words", 1)
        await bob.click(lobby, "Join")
        await alice.click(lobby, "Start")
        first = await harness.bot.service.game_for(alice.id, None)
        await play_to_the_end(fake_discord, harness, clock, [alice, bob], first.id)
        first = await stored(harness, first.id)
        assert first.thread_id is not None
        # the result in the thread and its mirror on the lobby in #general both offer the rematch
        thread = next(t for t in fake_discord.general.threads() if t.id == first.thread_id)
        await fake_discord.wait_for(lambda: with_rematch(fake_discord, thread), what="the result's 🔁 Rematch")
        mirror = await fake_discord.wait_for(
            lambda: next((m for m in with_rematch(fake_discord, fake_discord.general) if m.id == lobby.id), None),
            what="🔁 Rematch on the lobby's mirror")

        await harness.restart()  # the button is stateless: it outlives the bot that drew it
        bob.accepts_dms = False
        pressed = await bob.click(mirror, "Rematch")
        await pressed.done()
        assert pressed.ephemeral and "The rematch is open" in pressed.text(), pressed.text()
        [call] = await fake_discord.wait_for(lambda: rematch_lobbies(fake_discord), what="the rematch lobby")
        second_id = int(call.text().split("game #")[1].split(" ")[0])
        second = await stored(harness, second_id)
        # same game, options and seats (the computer too), bob hosting, in #general
        assert second.status is Status.LOBBY and second.kind == "words" and second.channel_id == first.channel_id
        assert second.host_id == bob.id and seating(second) == seating(first)
        assert second.options == {k: v for k, v in first.options.items() if k != "champion"}
        assert f"Rematch** of Fighting Words #{first.id}, hosted by <@{bob.id}>" in call.content
        assert "🤖 Bot 1" in call.text() and f"<@{bob.id}> (host)" in call.text()
        assert [b for b in ("Join", "Leave", "Start", "Cancel") if b in call.button_labels()] == [
            "Join", "Leave", "Start", "Cancel"]
        # alice is pinged and told by DM; bob pressed, so he is not pinged; his closed DMs are stored
        assert call in fake_discord.pinged(alice) and call not in fake_discord.pinged(bob)
        assert "<@-" not in call.text()  # a computer is named, never mentioned
        await fake_discord.wait_for(lambda: any("rematch" in m.text() for m in alice.dms()), what="alice's DM")
        by_user = await delivery_checked(harness, second_id, [alice, bob])
        assert by_user[alice.id].dm_ok and by_user[alice.id].dm_channel_id == alice.dm_channel.id
        assert not by_user[bob.id].dm_ok
        assert await GameNights(harness.bot.storage).rematch_of(second_id) == first.id

        # a seated player may leave the rematch, and join again
        await alice.click(call, "Leave")
        assert alice.id not in {s.user_id for s in (await stored(harness, second_id)).seats}
        await alice.click(call, "Join")
        assert alice.id in {s.user_id for s in (await stored(harness, second_id)).seats}

        # bob starts it; it is played to its end
        bob.accepts_dms = True
        refused = await alice.click(call, "Start")
        assert refused.ephemeral and "Only the host" in refused.content
        await bob.click(call, "Start")
        second = await play_to_the_end(fake_discord, harness, clock, [alice, bob], second_id)
        second = await stored(harness, second_id)
        thread = next(t for t in fake_discord.general.threads() if t.id == second.thread_id)
        [result] = await fake_discord.wait_for(lambda: with_rematch(fake_discord, thread), what="the second result")

        # a rematch of the rematch, from the result in the game's thread
        pressed = await alice.click(result, "Rematch")
        await pressed.done()
        assert "The rematch is open" in pressed.text(), pressed.text()
        calls = await fake_discord.wait_for(lambda: rematch_lobbies(fake_discord)[1:], what="the third lobby")
        third_id = int(calls[0].text().split("game #")[1].split(" ")[0])
        third = await stored(harness, third_id)
        assert third.host_id == alice.id and third.status is Status.LOBBY
        assert {s.user_id for s in third.seats} == {s.user_id for s in second.seats}
        assert await GameNights(harness.bot.storage).rematch_of(third_id) == second_id
        assert calls[0] in fake_discord.pinged(bob) and calls[0] not in fake_discord.pinged(alice)

        # refusals, each a sentence, no lobby made
        games_before = len(rematch_lobbies(fake_discord))
        again = await bob.click(mirror, "Rematch")
        await again.done()
        assert again.ephemeral and f"Game #{first.id} already has its rematch: game #{second_id} (it is over)" in (
            again.text()), again.text()
        again = await bob.click(result, "Rematch")
        await again.done()
        assert f"Game #{second_id} already has its rematch: game #{third_id} (its lobby is open)" in again.text()
        stranger = await carol.click(result, "Rematch")
        await stranger.done()
        assert stranger.ephemeral and f"Only the players of game #{second_id}" in stranger.text()

        # the third lobby is cancelled and carol opens another game in the channel: a press is refused
        await alice.click(calls[0], "Cancel")
        other = (await carol.slash("hallway new")).message
        assert other is not None
        busy = await bob.click(result, "Rematch")
        await busy.done()
        other_id = (await harness.bot.service.game_here(fake_discord.general.id)).id
        assert busy.ephemeral and (f"This channel already has a Two Fat Dudes in a Narrow Hallway lobby "
                                   f"(game #{other_id}). Finish or cancel it, then press 🔁 Rematch again.") in (
            busy.text()), busy.text()
        assert len(rematch_lobbies(fake_discord)) == games_before
        assert await GameNights(harness.bot.storage).rematches_of(second_id) == []
        await fake_discord.idle()
