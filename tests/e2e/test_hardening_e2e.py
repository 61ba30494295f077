"""What a probing user can throw at the running bot, through the fake Discord: typed actions
no control offers, Start and Cancel at one instant, very long input, forged component ids and
options, and a crash between a commit and its picture. Every one ends in a short answer and a
table that shows the stored game."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from cogs.table import codec
from cogs.table.ui import Param, Shortcut
from runtime.clock import ManualClock
from tests.e2e.conftest import RumpusHarness, running_bot
from tests.e2e.test_table_e2e import hand_message, open_table, play_button, table_message
from tests.engines.tokens_ui import TokensUI
from tests.fakediscord import FakeDiscord, FakeUser, InteractionResult, Message, Raw

NO_LONGER_VALID = "no longer valid"


async def stored(bot: Any, channel_id: int) -> Any:
    game = await bot.storage.live_game_in(channel_id)
    assert game is not None
    return game


def short_answer(result: InteractionResult, *words: str) -> str:
    """The interaction got one short ephemeral answer, saying `words`, and no apology."""
    assert result.acknowledged
    text = result.text()
    assert result.ephemeral or all(m.ephemeral for m in result.followups), text
    assert 0 < len(text) <= 2000, len(text)
    assert "Something went wrong" not in text, text
    for word in words:
        assert word in text, text
    return text


def packed_token(game: Any, seat: int, index: int = 0, **extra: Any) -> str:
    return codec.pack({"type": "play", "token": game.state["hands"][seat][index]["id"], **extra})


# -- /<game> do: only what the controls offer ---------------------------------------------------------
async def test_do_sends_only_an_action_the_players_controls_offer_now(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=3)
    table = table_message(fake_discord)
    assert table is not None
    thread = table.channel
    game = await stored(bot, thread.id)
    turn = game.state["turn"]
    mover, waiter = (alice, bob) if turn == 0 else (bob, alice)

    forged = [
        packed_token(game, turn, timeout=True),  # a runtime-only field: only the clock may send it
        packed_token(game, turn, note="x"),  # a field no control sends (the engine would ignore it)
        codec.pack({"type": "play", "token": "s9t9"}),  # no such token
        "not json at all",
    ]
    for packed in forged:
        refused = await mover.slash("tokens do", channel=thread, action=packed)
        short_answer(refused, "not one of your options")
    refused = await waiter.slash("tokens do", channel=thread, action=packed_token(game, 1 - turn))
    short_answer(refused, "not one of your options")
    assert (await stored(bot, thread.id)).version == game.version
    assert [a.action for a in await bot.storage.actions(game.id)] == []

    offered = [c["value"] for c in await mover.autocomplete("tokens do", "action", "", channel=thread)]
    assert packed_token(game, turn) in offered
    done = await mover.slash("tokens do", channel=thread, action=packed_token(game, turn))
    assert done.acknowledged and "not one of" not in done.text()
    [played] = await bot.storage.actions(game.id)
    assert played.action == {**json.loads(packed_token(game, turn)), "typed": True}  # a command, marked so


# -- Start and Cancel at the same instant -------------------------------------------------------------
@pytest.mark.parametrize("first", ["Start", "Cancel"])
async def test_start_and_cancel_at_once_leave_no_empty_thread(fake_discord: FakeDiscord, bot: Any,
                                                              first: str) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lobby = (await alice.slash("tokens new")).message
    assert lobby is not None
    await bob.click(lobby, "Join")
    second = "Cancel" if first == "Start" else "Start"
    answers = await asyncio.gather(alice.click(lobby, first), alice.click(lobby, second))
    assert all(a.acknowledged for a in answers)
    await fake_discord.idle()
    game = await bot.storage.game(int(lobby.text().split("game #")[1].split()[0]))
    threads = fake_discord.general.threads()
    if game.status.value == "cancelled":
        assert threads == [], "a cancelled lobby left a thread behind"
        assert "Cancelled by" in lobby.text()
        short_answer(answers[[first, second].index("Start")], "closed")
    else:
        assert game.status.value == "active"
        [thread] = threads
        assert game.thread_id == thread.id and table_message(fake_discord) is not None
        assert "Started!" in lobby.text()
        short_answer(answers[[first, second].index("Cancel")], "closed")


# -- long input -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["rules", "leaderboard"])
async def test_a_refusal_never_echoes_more_than_a_line_of_long_input(fake_discord: FakeDiscord, bot: Any,
                                                                      command: str) -> None:
    alice = fake_discord.user("alice")
    typed = "x" * 4000
    refused = await alice.slash(command, game=typed)
    text = short_answer(refused, "no game called")
    assert text.count("x") <= 100


# -- forged and outdated component ids --------------------------------------------------------------
FORGED_BUTTONS = [
    "rp:a:99999999999999999999:1:{\"type\":\"play\"}",  # a game id past 2^63
    "rp:a:1:99999999999999999999:{\"type\":\"play\"}",  # a version past 2^63
    "rp:a:1:1:not json",
    "rp:a:1:1:[1,2]",
    "rp:f:1:1:{bad",
    "rp:f:1:",
    "rp:l:1:explode",
    "rp:l:99999999999999999999:join",
    "rp:h:",
    "rp:h:0",
    "rp:zzz",
    "rp:",
    "rp:m:1:1:{\"type\":\"play\"}",  # a modal's id on a button
]


def plant(message: Message, custom_id: str) -> str:
    """Rewrite the first button of `message` (in the fake) to carry `custom_id`; returns it."""
    button = message.buttons()[0]
    button["custom_id"] = custom_id
    return custom_id


@pytest.mark.parametrize("custom_id", FORGED_BUTTONS)
async def test_a_forged_button_is_answered_whether_or_not_its_message_shows_it(
        fake_discord: FakeDiscord, bot: Any, custom_id: str) -> None:
    alice = fake_discord.user("alice")
    lobby = (await alice.slash("tokens new")).message
    assert lobby is not None
    short_answer(await alice.forge(lobby, custom_id), NO_LONGER_VALID)  # not on the message
    short_answer(await alice.click(lobby, plant(lobby, custom_id)), NO_LONGER_VALID)  # on it


async def test_forged_selects_and_modals_are_answered(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=2)
    thread_id = table_message(fake_discord).channel.id  # type: ignore[union-attr]
    game = await stored(bot, thread_id)
    mover = alice if game.state["turn"] == 0 else bob
    hand = hand_message(mover)
    assert hand is not None and hand.selects()
    select_id = hand.selects()[0]["custom_id"]
    for values in (["not json"], ["[1]"], [], ["{\"type\":\"play\"}", "{\"type\":\"play\"}"]):
        short_answer(await mover.forge(hand, select_id, component_type=3, values=values), "no longer valid")
    short_answer(await mover.forge(hand, "rp:s:1:99999999999999999999", component_type=3, values=["{}"]),
                 NO_LONGER_VALID)
    short_answer(await mover.forge(hand, play_custom_id(hand), component_type=3, values=["{}"]),
                 NO_LONGER_VALID)  # a button's id sent as a select
    for custom_id in ("rp:m:1:1", "rp:m:x:1:{}", "rp:m:99999999999999999999:1:{\"type\":\"a\"}",
                      f"rp:m:{game.id}:{game.version}:not json", "rp:zzz"):
        short_answer(await mover.forge_modal(custom_id, channel=hand.channel), "no longer valid")
    weird = [{"type": 1, "components": ["text", 5, None]}, "row"]
    answer = await mover.forge_modal(codec.modal_id(game.id, game.version, {"type": "play", "token": "x"}),
                                     weird, channel=hand.channel)
    short_answer(answer, "not open to you")
    assert (await stored(bot, thread_id)).version == game.version


def play_custom_id(message: Message) -> str:
    return next(b["custom_id"] for b in message.buttons() if (b.get("label") or "").startswith("Play"))


async def test_an_unknown_user_in_stats_is_answered(fake_discord: FakeDiscord, bot: Any) -> None:
    alice = fake_discord.user("alice")
    short_answer(await alice.slash("stats", user=Raw("123456789012345678")), "can't find that user")
    short_answer(await alice.slash("stats", user=Raw("not a snowflake")), "can't find that user")
    mine = await alice.slash("stats")
    assert mine.acknowledged and not mine.ephemeral


async def test_text_in_an_integer_option_is_answered(fake_discord: FakeDiscord, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A shortcut that does arithmetic on its integer (as `/words play position` does) gets a
    whole number or never runs."""
    pick = Shortcut("pick", "Play the n-th token of your hand",
                    build=lambda o: {"type": "play", "token": f"s0t{o['index'] - 1}"},
                    params=(Param("index", "Which token (1 = first)", integer=True, minimum=1, maximum=5),))
    monkeypatch.setattr(TokensUI, "shortcuts", (pick,))
    async with running_bot(fake_discord, tmp_path):
        alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
        await open_table(fake_discord, alice, bob, hand=2)
        thread = table_message(fake_discord).channel  # type: ignore[union-attr]
        for raw in ("abc", "1", 2.5, True, 10**30):
            short_answer(await alice.slash("tokens pick", channel=thread, index=Raw(raw)), "`index`")
        short_answer(await alice.slash("tokens pick", channel=thread, index=Raw(9)), "between 1 and 5")
        short_answer(await alice.slash("tokens new", hand=Raw("abc")), "`hand`")
        short_answer(await alice.slash("rules", game=Raw(5)), "`game`")
        played = await alice.slash("tokens pick", channel=thread, index=1)
        assert played.acknowledged and "Something went wrong" not in played.text()


# -- the press time reaches the action loop ----------------------------------------------------------
async def test_leaving_a_game_is_judged_at_the_press_time(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    clock = ManualClock(start=time.time() - 60)
    async with running_bot(fake_discord, tmp_path, clock=clock) as harness:
        alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
        await open_table(fake_discord, alice, bob, hand=2)
        thread = table_message(fake_discord).channel  # type: ignore[union-attr]
        game = await stored(harness.bot, thread.id)
        clock.advance(3600)  # the bot's clock runs an hour ahead of the press
        pressed = time.time()
        await bob.slash("game leave", channel=thread)
        [forfeit] = await harness.bot.storage.actions(game.id)
        assert abs(forfeit.at - pressed) < 5, (forfeit.at, pressed)


# -- a crash between a commit and its picture --------------------------------------------------------
async def committed_without_answer(harness: RumpusHarness, players: list[FakeUser]) -> tuple[Any, FakeUser]:
    """The player in turn's move, committed straight through the service: no interaction is
    answered and nothing is published, as when the bot dies right after the commit."""
    bot = harness.bot
    thread = table_message(harness.server).channel  # type: ignore[union-attr]
    game = await stored(bot, thread.id)
    seat = game.state["turn"]
    await bot.service.act(game.id, game.user_of(seat), json.loads(packed_token(game, seat)))
    return await stored(bot, thread.id), players[1 - seat]


async def test_a_table_left_behind_by_a_crash_is_redrawn_at_start_up(
        fake_discord: FakeDiscord, bot_harness: RumpusHarness) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=3)
    await fake_discord.idle()
    table = table_message(fake_discord)
    assert table is not None and "Pile: —" in table.text()
    game, nextone = await committed_without_answer(bot_harness, [alice, bob])
    assert play_button(nextone) is None and f"move {game.version - 1}" in table.text()

    await bot_harness.restart()

    await fake_discord.wait_for(lambda: f"move {game.version}" in table.text(), what="the table's new move")
    assert "Pile: —" not in table.text()
    button = await fake_discord.wait_for(lambda: play_button(nextone), what="the next player's hand")
    pressed = await nextone.click(hand_message(nextone), button)  # type: ignore[arg-type]
    assert pressed.response_type == 7 and "earlier turn" not in pressed.text()


async def test_a_table_that_shows_the_stored_move_is_not_redrawn_at_start_up(
        fake_discord: FakeDiscord, bot_harness: RumpusHarness) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=3)
    await fake_discord.idle()
    table = table_message(fake_discord)
    assert table is not None
    edits = table.edits

    await bot_harness.restart()  # the versions shown are written on close

    await fake_discord.idle()
    await asyncio.sleep(0.3)
    assert table.edits == edits
