"""Leaving a running game with computers about, through the fake Discord: a tarot player leaves,
a computer takes the seat, the host keeps it and the game goes on to its end; a host ends the
game instead (the leaver forfeits); the last human leaving forfeits as before; the offer's
buttons answer only the host, once, and after a restart; a computer's pending move survives a
restart; /stats counts games against computers apart, leaderboards never list a computer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.registry import get_engine
from runtime.clock import ManualClock
from storage import Status
from tests.e2e.conftest import RumpusHarness, running_bot
from tests.e2e.test_computers_e2e import computers_for, computers_move, play_out, seat_computers
from tests.fakediscord import FakeDiscord, FakeUser, Message

KEEP, END = "Keep the computer", "End the game"


def everything_said(server: FakeDiscord) -> str:
    channels = [server.general, *server.general.threads()]
    return "\n".join(m.text() for c in channels for m in c.history())


def offer_message(server: FakeDiscord) -> Message | None:
    for channel in [server.general, *server.general.threads()]:
        for message in reversed(channel.history()):
            if "stand-in" in message.text() and (KEEP in message.button_labels() or "kept" in message.text()
                                                 or "ended the game" in message.text()):
                return message
    return None


def table_text(server: FakeDiscord) -> str:
    """The newest table message in the game's thread (its footer names the move)."""
    for thread in server.general.threads():
        for message in reversed(thread.history()):
            if "· move " in message.text():
                return message.text()
    return ""


async def started(server: FakeDiscord, harness: RumpusHarness, kind: str, host: FakeUser,
                  others: list[FakeUser]) -> Any:
    lobby = (await host.slash(f"{kind} new")).message
    assert lobby is not None
    teams = "Join A" in lobby.button_labels()
    for n, user in enumerate(others):  # the host sits on A; then B, A, B …
        await user.click(lobby, ("Join A" if n % 2 else "Join B") if teams else "Join")
    await host.click(lobby, "Start")
    game = await harness.bot.service.game_for(host.id, None)
    await server.wait_for(lambda: table_text(server), what="the first table")
    return game


@pytest.fixture
def tarot_computer() -> Iterator[None]:
    with computers_for("tarot"):  # TEMP: a stand-in until tarot's own computer lands
        yield


@pytest.mark.usefixtures("tarot_computer")
async def test_a_tarot_leaver_is_replaced_the_host_keeps_the_computer_and_the_game_ends(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    clock = ManualClock()
    alice, bob, carol, dan = (fake_discord.user(n) for n in ("alice", "bob", "carol", "dan"))
    async with running_bot(fake_discord, tmp_path, seed=21, clock=clock) as harness:
        game = await started(fake_discord, harness, "tarot", alice, [bob, carol, dan])
        humans = [alice, bob, carol, dan]
        await play_out(fake_discord, harness, clock, humans, game.id, until=lambda g: g.version >= 12)

        left = await bob.slash("game leave")
        assert left.ephemeral and "bob's stand-in" in left.content
        offer = await fake_discord.wait_for(lambda: offer_message(fake_discord), what="the offer to the host")
        assert alice.mention in offer.content and offer.button_labels() == [KEEP, END]
        await fake_discord.wait_for(lambda: "🤖 bob's stand-in" in table_text(fake_discord), what="the stand-in seated")
        assert bob.mention not in table_text(fake_discord)

        # only the host chooses; the leaver and the others are told so
        for other in (carol, bob):
            refused = await other.click(offer, KEEP)
            assert refused.ephemeral and "Only" in refused.content and "host" in refused.content
        end_id = next(b["custom_id"] for b in offer.buttons() if b.get("label") == END)
        kept = await alice.click(offer, KEEP)
        assert not kept.ephemeral and "kept" in offer.text() and offer.button_labels() == []
        again = await alice.forge(offer, end_id)
        assert again.ephemeral and "already" in again.content

        finished = await play_out(fake_discord, harness, clock, [alice, carol, dan], game.id)
        assert finished.status is Status.FINISHED
        await fake_discord.wait_for(lambda: "game over" in everything_said(fake_discord), what="the result")
        await fake_discord.idle()
        said = everything_said(fake_discord)
        assert "**🤖 bob's stand-in**" in said and "<@-" not in said
        guild = fake_discord.guild.id
        assert await harness.bot.storage.player_ratings(guild, bob.id) == []  # a computer finished his seat
        assert await harness.bot.storage.player_ratings(guild, alice.id) != []  # humans of both teams: rated


async def test_the_host_ends_the_game_for_a_leaver_and_the_offer_answers_after_a_restart(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    clock = ManualClock()
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, tmp_path, seed=22, clock=clock) as harness:
        game = await started(fake_discord, harness, "kniggits", alice, [bob])
        await play_out(fake_discord, harness, clock, [alice, bob], game.id, until=lambda g: g.version >= 3)

        # the host leaves: bob, the other human, becomes host and gets the offer
        left = await alice.slash("game leave")
        assert left.ephemeral and "alice's stand-in" in left.content
        offer = await fake_discord.wait_for(lambda: offer_message(fake_discord), what="the offer")
        assert bob.mention in offer.content

        await harness.restart()  # the buttons are stateless: they work for the new process
        refused = await alice.click(offer, END)
        assert refused.ephemeral and "Only" in refused.content
        ended = await bob.click(offer, END)
        assert not ended.ephemeral and "ended the game" in offer.text() and offer.button_labels() == []
        await fake_discord.wait_for(lambda: "game over" in everything_said(fake_discord), what="the result")
        record = await harness.bot.storage.game(game.id)
        assert record is not None and record.status is Status.FINISHED
        assert not any(s.computer for s in record.seats)  # the leaver is back in the seat, as a forfeit
        await fake_discord.idle()


async def test_the_last_human_leaving_forfeits_and_stats_count_games_against_computers_apart(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    clock = ManualClock()
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, tmp_path, seed=23, clock=clock) as harness:
        lobby = await seat_computers(fake_discord, alice, "kniggits", 1, rounds=2)
        await alice.click(lobby, "Start")
        game = await harness.bot.service.game_for(alice.id, None)
        await fake_discord.wait_for(lambda: table_text(fake_discord), what="the first table")
        await play_out(fake_discord, harness, clock, [alice], game.id, until=lambda g: g.version >= 3)

        left = await alice.slash("game leave")
        assert left.ephemeral and "counts as a loss" in left.content
        await fake_discord.wait_for(lambda: "game over" in everything_said(fake_discord), what="the result")
        assert offer_message(fake_discord) is None

        stats = await alice.slash("stats")
        assert "vs computers: 1 game, 0 wins" in stats.text()
        board = await alice.slash("leaderboard", game="kniggits")
        assert "🤖" not in board.text() and "<@-" not in board.text()
        await fake_discord.idle()


async def test_a_computers_pending_move_survives_a_restart(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    clock = ManualClock()
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, tmp_path, seed=24, clock=clock) as harness:
        lobby = await seat_computers(fake_discord, alice, "kniggits", 1, rounds=2)
        await alice.click(lobby, "Start")
        game = await harness.bot.service.game_for(alice.id, None)
        pending = await fake_discord.wait_for(
            lambda: any(d.get("computer") for d in game.deadlines) and game.deadlines, what="a computer's wait")
        await fake_discord.wait_for(lambda: "🤖 Bot 1 is thinking…" in table_text(fake_discord),
                                    what="the table saying the computer thinks")
        assert "Bot 1 to" not in table_text(fake_discord)  # no countdown for a computer
        seat = next(d["seat"] for d in pending if d.get("computer"))
        before = len(await harness.bot.storage.actions(game.id))

        await harness.restart()
        assert not [r for r in await harness.bot.storage.actions(game.id) if r.seat == seat][before:]
        assert await computers_move(harness, clock, game.id)
        actions = await harness.bot.storage.actions(game.id)
        assert any(r.seat == seat for r in actions[before:]), "the computer did not move after the restart"
        await fake_discord.idle()


def away_offer(server: FakeDiscord) -> Message | None:
    for channel in [server.general, *server.general.threads()]:
        for message in reversed(channel.history()):
            if "seems to be away" in message.text():
                return message
    return None


@pytest.mark.usefixtures("tarot_computer")
async def test_an_away_tarot_player_is_handed_to_a_computer(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Three timeouts in a row flag bob and pause play for the table's vote; the host is offered
    to hand bob's seat to a computer instead, and the game goes on with it."""
    clock = ManualClock()
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, tmp_path, seed=25, clock=clock) as harness:
        lobby = (await alice.slash("tarot new")).message
        assert lobby is not None
        await bob.click(lobby, "Join B")
        for team in ("A", "B"):
            said = await alice.slash("tarot addbot", team=team)
            assert said.ephemeral and f"Team {team}" in said.content
        await alice.click(lobby, "Start")
        game = await harness.bot.service.game_for(alice.id, None)
        await fake_discord.wait_for(lambda: table_text(fake_discord), what="the first table")

        # bob never moves: his turns time out until the table pauses to vote on him
        voting = await play_out(fake_discord, harness, clock, [alice], game.id,
                                until=lambda g: g.state is not None and g.state.get("vote") is not None)
        assert voting.status is Status.ACTIVE
        offer = await fake_discord.wait_for(lambda: away_offer(fake_discord), what="the offer for bob's seat")
        assert alice.mention in offer.content
        [hand_over] = offer.button_labels()
        refused = await bob.click(offer, hand_over)
        assert refused.ephemeral and "Only" in refused.content
        await alice.click(offer, hand_over)
        await fake_discord.wait_for(lambda: "handed the seat" in offer.text(), what="the offer settled")
        record = await harness.bot.service.game(game.id)
        assert record.seat_of(bob.id) is None and any("bob's stand-in" in s.name for s in record.seats)

        finished = await play_out(fake_discord, harness, clock, [alice], game.id)
        assert finished.status is Status.FINISHED
        await fake_discord.wait_for(lambda: "game over" in everything_said(fake_discord), what="the result")
        await fake_discord.idle()


KNIGGITS_SETUP = ("map", "build", "deploy", "rps")


async def test_an_away_kniggits_commander_is_handed_to_a_computer(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Army B sits out three of its turns in a row: the log says Army A may claim a forfeit, and
    the host is offered to hand bob's seat to a computer instead. Alice passes her next turn
    (she could claim: she does not); the computer plays B's turn, so the claim closes and the
    battle goes on to its end."""
    clock = ManualClock()
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, tmp_path, seed=7, clock=clock) as harness:
        service = harness.bot.service
        lobby = (await alice.slash("kniggits new", rounds=8, size=24)).message
        assert lobby is not None
        await bob.click(lobby, "Join B")
        await alice.click(lobby, "Start")
        game = await service.game_for(alice.id, None)
        battle = await play_out(fake_discord, harness, clock, [alice, bob], game.id,
                                until=lambda g: g.state is not None and g.state["phase"] not in KNIGGITS_SETUP)
        assert battle.status is Status.ACTIVE and battle.seat_of(bob.id) == 1

        # bob stops playing: his turns time out until his army has sat out three in a row
        away = await play_out(fake_discord, harness, clock, [alice], game.id,
                              until=lambda g: g.state is not None and g.state["idle"][1] >= 3)
        assert away.status is Status.ACTIVE
        assert "may claim a forfeit" in everything_said(fake_discord)
        offer = await fake_discord.wait_for(lambda: away_offer(fake_discord), what="the offer for bob's seat")
        [hand_over] = offer.button_labels()
        assert (await bob.click(offer, hand_over)).ephemeral
        await alice.click(offer, hand_over)
        await fake_discord.wait_for(lambda: "handed the seat" in offer.text(), what="the offer settled")
        record = await service.game(game.id)
        assert record.seat_of(bob.id) is None and record.seats[1].computer

        # alice passes her turn; the computer plays B's, which closes the claim
        for _ in range(200):
            record = await service.game(game.id)
            assert record.status is Status.ACTIVE and record.state is not None
            if record.state["idle"][1] == 0:
                break
            if record.state["turn"]["army"] == 0 and record.seat_of(alice.id) in {
                    d["seat"] for d in record.deadlines}:
                kind = "end_turn" if record.state["phase"] == "fight" else "done"
                await harness.bot.tables.publish(await service.act(game.id, alice.id, {"type": kind}))
            else:
                assert await computers_move(harness, clock, game.id)
        else:
            raise AssertionError("the computer never played B's turn")
        view = get_engine("kniggits").view(record.state, 0)
        assert not view["me"]["can_claim"] and view["claimable"] is None

        finished = await play_out(fake_discord, harness, clock, [alice], game.id)
        assert finished.status is Status.FINISHED and finished.state["over"]["reason"] != "forfeit_claim"
        await fake_discord.wait_for(lambda: "game over" in everything_said(fake_discord), what="the result")
        await fake_discord.idle()
