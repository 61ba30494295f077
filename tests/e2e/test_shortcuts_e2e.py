"""Each game's own slash subcommands (`/hallway roll`, `/words play` …) through the fake Discord:
the synced schema, the same action loop as the buttons, refusals, and autocomplete that shows a
player only their own cards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.registry import get_engine
from runtime.clock import ManualClock
from tests.e2e.conftest import running_bot
from tests.fakediscord import FakeDiscord, FakeUser, Message

WORDS_SEED = 11


def synced(server: FakeDiscord, group: str) -> dict[str, dict[str, Any]]:
    """The subcommands of `/group` as synced to the fake guild, by name."""
    commands = [c for c in server.world.commands_for(server.guild.id) if c["name"] == group]
    assert commands, f"/{group} was not synced"
    return {sub["name"]: sub for sub in commands[0]["options"]}


async def start(server: FakeDiscord, kind: str, host: FakeUser, *others: FakeUser) -> tuple[Any, Message]:
    """Open `/kind new`, seat everyone, start; return the thread and its table message."""
    lobby = (await host.slash(f"{kind} new")).message
    assert lobby is not None
    for player in others:
        await player.click(lobby, "Join")
    await host.click(lobby, "Start")
    table = await server.wait_for(lambda: next((m for t in server.general.threads() for m in t.history()
                                                if m.author.id == server.world.bot.id and m.embeds), None),
                                  what="the table message")
    return table.channel, table


async def live_game(bot: Any, channel_id: int) -> Any:
    game = await bot.storage.live_game_in(channel_id)
    assert game is not None
    return game


async def test_hallway_shortcuts_drive_the_game(fake_discord: FakeDiscord, bot: Any) -> None:
    subs = synced(fake_discord, "hallway")
    assert {"new", "do", "roll", "offer", "accept", "decline", "nodeal", "edge"} <= set(subs)
    assert [o["name"] for o in subs["offer"]["options"]] == ["kind", "amount"]  # /hallway offer pay|ask amount
    amount = next(o for o in subs["offer"]["options"] if o["name"] == "amount")
    assert (amount["min_value"], amount["max_value"]) == (0, 999)
    assert "board" in subs

    alice, bob, mallory = (fake_discord.user(n) for n in ("alice", "bob", "mallory"))
    thread, table = await start(fake_discord, "hallway", alice, bob)
    before = await live_game(bot, thread.id)

    outsider = await mallory.slash("hallway roll", channel=thread)
    assert outsider.ephemeral and "not playing" in outsider.content
    assert (await live_game(bot, thread.id)).version == before.version

    rolled = await alice.slash("hallway roll", channel=thread)
    assert rolled.acknowledged
    after = await live_game(bot, thread.id)
    assert after.version == before.version + 1
    assert [(a.seat, a.action["type"]) for a in await bot.storage.actions(after.id)] == [(0, "roll")]
    await fake_discord.wait_for(lambda: "alice ✔ rolled" in table.text(), what="the table to show alice's roll")

    again = await alice.slash("hallway roll", channel=thread)
    assert again.ephemeral and again.content
    assert (await live_game(bot, thread.id)).version == after.version

    board = await bob.slash("hallway board", channel=thread)
    assert board.ephemeral and board.message is not None and board.message.embeds
    assert "alice ✔ rolled" in board.message.text() and not board.message.buttons()

    early = await bob.slash("hallway accept", channel=thread)
    assert early.ephemeral and early.content
    assert (await live_game(bot, thread.id)).version == after.version


async def test_words_play_autocompletes_only_your_own_letters(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with running_bot(fake_discord, tmp_path, seed=WORDS_SEED, clock=ManualClock()) as harness:
        await words_shortcuts(fake_discord, harness.bot)


async def words_shortcuts(fake_discord: FakeDiscord, bot: Any) -> None:
    subs = synced(fake_discord, "words")
    assert {"play", "backspace", "editor", "skip", "challenge", "stand", "claim", "keep", "tip", "rps",
            "tiebreak", "ask", "steal", "trash"} <= set(subs)
    assert [o["name"] for o in subs["editor"]["options"]] == ["from", "to"]  # a Python keyword, renamed
    assert [o["name"] for o in subs["backspace"]["options"]] == ["index"]
    letter = next(o for o in subs["play"]["options"] if o["name"] == "letter")
    assert letter["autocomplete"] is True

    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    thread, _table = await start(fake_discord, "words", alice, bob)
    game = await live_game(bot, thread.id)
    engine = get_engine("words")
    for seat, player in enumerate((alice, bob)):
        own = {f for f in engine.view(game.state, seat)["hand_faces"] if len(f) == 1}
        offered = {c["value"] for c in await player.autocomplete("words play", "letter", "", channel=thread)}
        assert offered == own

    phase = game.state["phase"]
    assert phase["name"] == "main" and phase["step"] == "act"  # the seed opens on a plain turn
    turn = phase["seat"]
    mover, waiter = (alice, bob) if turn == 0 else (bob, alice)
    hand = [f for f in engine.view(game.state, turn)["hand_faces"] if len(f) == 1]
    refused = await waiter.slash("words play", channel=thread, letter="A", position=1)
    assert refused.ephemeral and refused.content
    assert (await live_game(bot, thread.id)).version == game.version

    played = await mover.slash("words play", channel=thread, letter=hand[0].lower(), position=1)
    assert played.acknowledged
    later = await live_game(bot, thread.id)
    assert later.version > game.version
    assert any(a.action.get("type") == "play" and a.action.get("card") == hand[0] and a.action.get("at") == 0
               for a in await bot.storage.actions(game.id))


def shortcut(kind: str, name: str) -> Any:
    from cogs.table.registry import load_builtin_uis, ui_for

    load_builtin_uis()
    return next(s for s in ui_for(kind).shortcuts if s.name == name)


def test_typed_options_become_the_engines_actions() -> None:
    offer = shortcut("hallway", "offer").build
    assert offer({"kind": "pay", "amount": 4}) == {"type": "offer", "payer": "me", "amount": 4}
    assert offer({"kind": "ask", "amount": 0}) == {"type": "offer", "payer": "you", "amount": 0}
    assert shortcut("words", "play").build({"letter": " q ", "position": 1}) == {
        "type": "play", "card": "Q", "at": 0}
    assert shortcut("words", "editor").build({"from": 3, "to": 1}) == {"type": "editor", "from": 2, "to": 0}
    assert shortcut("words", "backspace").build({"index": 2}) == {"type": "backspace", "index": 1}
    assert shortcut("words", "tip").build({"use": "no"}) == {"type": "no_tip"}
    assert shortcut("words", "steal").build({"answer": "yes"}) == {"type": "steal"}
