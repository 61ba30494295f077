"""The player whose DMs are closed is guided (issue 20, item 5), in a tarot game through the
fake Discord: the ping for their turn says to press **My hand** (or use `/hand`); the hand they
open that way keeps up with the game while it is their newest; and a press on an older one,
drawn for an earlier turn, is answered with the hand as it is now, menu and all, in place
(it used to say "That button is from an earlier turn" and show the table)."""

from __future__ import annotations

import random
from pathlib import Path

from cogs.table import codec
from cogs.table.intake import EARLIER_TURN
from games.registry import get_engine
from runtime.clock import ManualClock
from storage import GameRecord
from tests.e2e.conftest import RumpusHarness, running_bot
from tests.fakediscord import FakeDiscord, FakeUser, Message

SEED = 2020
MENU = "Play a card"


def menu_of(message: Message) -> dict | None:
    return next((m for m in message.selects() if m.get("placeholder") == MENU), None)


def drawn_at(message: Message) -> int | None:
    """The state version the message's card menu was drawn for."""
    menu = menu_of(message)
    route = codec.parse(str(menu["custom_id"])) if menu else None
    return route.version if route else None


async def others_play(harness: RumpusHarness, game: GameRecord, players: dict[int, FakeUser], seat: int,
                      rng: random.Random) -> None:
    """Everyone else moves (through the action loop) until `seat` is asked to play a card."""
    engine = get_engine("tarot")
    service = harness.bot.service
    for _ in range(200):
        awaited = sorted({d["seat"] for d in game.deadlines if d["seat"] is not None})
        assert game.state is not None
        if awaited == [seat] and engine.view(game.state, seat).get("legal"):
            return
        mover = next(s for s in awaited if s != seat) if awaited != [seat] else seat  # the discard
        applied = await service.act(game.id, players[mover].id, rng.choice(engine.legal_actions(game.state, mover)))
        await harness.bot.tables.publish(applied)
    raise AssertionError("the seat was never asked to play")


async def test_a_player_with_closed_dms_is_pinged_to_their_hand_and_an_old_hand_answers_now(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    server = fake_discord
    server.allow_errors(50007)
    alice, bob, dan = server.user("alice"), server.user("bob"), server.user("dan")
    carol = server.user("carol", accepts_dms=False)
    rng = random.Random(SEED)
    async with running_bot(server, tmp_path, seed=SEED, clock=ManualClock()) as harness:
        lobby = (await alice.slash("tarot new", conference="off")).message
        assert lobby is not None
        await bob.click(lobby, "Join A")
        await carol.click(lobby, "Join B")
        await dan.click(lobby, "Join B")
        await alice.click(lobby, "Start")
        game = await harness.bot.service.game_for(alice.id, None)
        await server.wait_for(lambda: game.table_message_id is not None and any(
            m.id == game.table_message_id for t in server.general.threads() for m in t.history()), what="the table")
        await server.idle()
        players = {s.seat: next(p for p in (alice, bob, carol, dan) if p.id == s.user_id) for s in game.seats}
        seat = game.seat_of(carol.id)
        assert seat is not None and not game.seats[seat].dm_ok
        thread = server.general.threads()[0]
        table = lambda: next(m for m in thread.history() if m.id == game.table_message_id)  # noqa: E731

        # her turn: the thread's ping tells her where her hand is
        await others_play(harness, game, players, seat, rng)
        ping = await server.wait_for(lambda: next((m for m in thread.history() if carol.mention in m.content
                                                   and "your turn" in m.content), None), what="carol's ping")
        assert "**My hand**" in ping.content and "`/hand`" in ping.content, ping.content
        assert alice.mention not in ping.content  # the others have their DMs, and are not asked

        # she opens her hand twice: the first one is now the older one
        older = (await carol.click(table(), "My hand")).message
        newest = (await carol.click(table(), "My hand")).message
        assert older is not None and newest is not None and older.ephemeral and newest.ephemeral
        assert drawn_at(older) == drawn_at(newest) == game.version
        card = menu_of(newest)["options"][0]["value"]
        await carol.select(newest, [card], menu=menu_of(newest)["custom_id"])
        await server.wait_for(lambda: drawn_at(newest) is None, what="her hand without its menu")

        # the others play round to her again: the newest hand keeps up, the older does not
        await others_play(harness, game, players, seat, rng)
        await server.idle()
        assert drawn_at(newest) == game.version, "the newest ephemeral hand did not keep up"
        assert drawn_at(older) is not None and drawn_at(older) < game.version
        version = game.version
        stale = menu_of(older)
        answer = await carol.select(older, [stale["options"][0]["value"]], menu=stale["custom_id"])
        await server.idle()
        assert not answer.content, answer.content  # no "earlier turn" refusal with the table
        assert game.version == version  # nothing was played from the old menu
        assert EARLIER_TURN in older.text() and drawn_at(older) == version  # her hand now, in place
        assert older.attachments and "Your hand" in older.text()
        # and the hand she was answered with plays
        fresh = menu_of(older)
        await carol.select(older, [fresh["options"][0]["value"]], menu=fresh["custom_id"])
        await server.wait_for(lambda: game.version > version, what="the card from the answered hand")
