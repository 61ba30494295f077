"""Each game's own slash subcommands (`/hallway roll`, `/words play` …) through the fake Discord:
the synced schema, the same action loop as the buttons, refusals, and autocomplete that shows a
player only their own cards."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from games.hallway.negotiation import pending
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
    old = {t.id for t in server.general.threads()}
    lobby = (await host.slash(f"{kind} new")).message
    assert lobby is not None
    for player in others:
        await player.click(lobby, "Join")
    await host.click(lobby, "Start")
    table = await server.wait_for(lambda: next((m for t in server.general.threads() if t.id not in old
                                                for m in t.history()
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
    assert {"play", "backspace", "editor", "skip", "challenge", "claim", "keep", "tip", "rps",
            "tiebreak", "ask", "steal", "trash"} <= set(subs)
    assert "stand" not in subs, "nothing is ever let stand: /words stand is gone"
    assert subs["tip"].get("options", []) == [], "/words tip takes no option: there is no “no Tip”"
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
    assert shortcut("words", "tip").build({}) == {"type": "tip"}
    assert shortcut("words", "steal").build({"answer": "yes"}) == {"type": "steal"}


# ----- every Words and Hallway shortcut moves a game at least once ---------------------------------

#: Words' and Hallway's own shortcuts; each one below succeeds at least once through the fake Discord.
WORDS_MOVES = {"play", "backspace", "editor", "skip", "challenge", "claim", "keep", "tip", "rps", "tiebreak",
               "ask", "steal", "trash"}
HALLWAY_MOVES = {"roll", "offer", "accept", "decline", "nodeal", "edge"}


def test_the_lists_below_are_every_shortcut() -> None:
    assert {s.name for s in shortcut_list("words")} == WORDS_MOVES
    assert {s.name for s in shortcut_list("hallway")} == HALLWAY_MOVES


def shortcut_list(kind: str) -> Any:
    from cogs.table.registry import load_builtin_uis, ui_for

    load_builtin_uis()
    return ui_for(kind).shortcuts


async def moved(bot: Any, game_id: int, player: FakeUser, command: str, thread: Any, seat: int,
                expect: str, used: set[str], **options: Any) -> Any:
    """`player` types `/command` and it is the move stored next: the game's version goes up and
    the last action is `seat`'s `expect`."""
    before = await bot.storage.game(game_id)
    result = await player.slash(command, channel=thread, **options)
    for _ in range(100):
        after = await bot.storage.game(game_id)
        if after.version > before.version:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError(f"{player.name} /{command} {options}: nothing moved ({result.content!r})")
    last = (await bot.storage.actions(game_id))[-1]
    assert (last.seat, last.action["type"]) == (seat, expect), (command, last)
    used.add(command.split()[-1])
    return after


def rigged_words_story() -> dict[str, Any]:
    """Three players; the deal and the draws are set so that every Words shortcut comes up:
    alice (seat 0) starts; the pile gives How Do You Say…? to alice and Trash Talk to bob later."""
    from tests.words.support import build

    draw = [*"EEEEEEEEE", "trash_talk", "I", "how_do_you_say", *"LLNNOODDMM"]  # top last
    return build(3, hands={0: ["S", "R", "Q", "tip", "editor"], 1: ["T", "T", "X", "Z"],
                           2: ["A", "U", "tip", "backspace", "E"]}, draw=draw, turn=0)


def rigged_tie() -> dict[str, Any]:
    """Two players, nothing won, one card left: bob draws it, and a skip ends the game tied."""
    from tests.words.support import build

    return build(2, hands={0: ["E"], 1: ["E"]}, draw=["L"], turn=0)


async def test_every_words_shortcut_moves_the_game(fake_discord: FakeDiscord, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    engine = get_engine("words")
    deals = [rigged_words_story(), rigged_tie()]
    monkeypatch.setattr(type(engine), "setup", lambda self, players, rng, options: deals.pop(0))
    used: set[str] = set()
    alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
    async with running_bot(fake_discord, tmp_path, seed=WORDS_SEED, clock=ManualClock()) as harness:
        bot = harness.bot
        thread, table = await start(fake_discord, "words", alice, bob, carol)
        game_id = (await live_game(bot, thread.id)).id
        assert [s.user_id for s in (await bot.storage.game(game_id)).seats] == [alice.id, bob.id, carol.id]

        async def move(player: FakeUser, command: str, seat: int, expect: str, **options: Any) -> Any:
            return await moved(bot, game_id, player, f"words {command}", thread, seat, expect, used, **options)

        await move(alice, "play", 0, "play", letter="S", position=1)
        await move(bob, "play", 1, "play", letter="t", position=2)
        await move(carol, "play", 2, "play", letter="A", position=3)
        game = await move(alice, "play", 0, "play", letter="R", position=4)
        assert game.state["phase"]["name"] == "claim"
        await move(alice, "keep", 0, "keep")
        await move(bob, "play", 1, "play", letter="T", position=5)
        game = await move(bob, "claim", 1, "claim")
        assert game.state["score"] == [0, 1, 0]
        game = await move(carol, "tip", 2, "tip")  # carol takes START
        assert game.state["score"] == [0, 0, 1]
        await move(alice, "tip", 0, "tip")  # a second Tip: rock, paper, scissors
        await move(alice, "rps", 0, "rps", shape="rock")
        game = await move(carol, "rps", 2, "rps", shape="scissors")
        assert game.state["score"] == [1, 0, 0] and game.state["rps"] is None
        await move(carol, "skip", 2, "skip", card="E")
        await move(alice, "play", 0, "play", letter="Q", position=1)
        await move(bob, "play", 1, "play", letter="X", position=2)  # a bluff: QX
        game = await move(carol, "challenge", 2, "challenge")
        assert game.state["forced_skip"][1] == 1 and len(game.state["wip"]) == 1  # upheld
        await move(carol, "play", 2, "play", letter="U", position=2)
        await move(alice, "editor", 0, "editor", **{"from": 1, "to": 2})
        game = await move(carol, "backspace", 2, "backspace", index=1)  # bob's turn was lost
        assert game.state["phase"]["step"] == "ask"  # alice drew How Do You Say…?
        await move(alice, "ask", 0, "ask", letter="z")
        game = await move(alice, "steal", 0, "steal", answer="yes")
        assert game.state["phase"]["step"] == "act"
        game = await move(alice, "skip", 0, "skip", card="Z")
        assert game.state["phase"] == {**game.state["phase"], "seat": 1, "step": "trash"}
        await move(bob, "trash", 1, "trash", letter="X")
        board = await carol.slash("words board", channel=thread)
        assert board.ephemeral and board.message is not None and board.message.embeds
        # Computers take the seats of the first two to leave; the last human leaving ends it.
        await carol.slash("game leave", channel=thread)
        await bob.slash("game leave", channel=thread)
        await alice.slash("game leave", channel=thread)
        await fake_discord.wait_for(lambda: not table.buttons(), what="the first game to end")

        thread, table = await start(fake_discord, "words", alice, bob)
        game_id = (await live_game(bot, thread.id)).id
        await move(alice, "skip", 0, "skip", card="E")
        game = await move(bob, "skip", 1, "skip", card="E")  # the last card was drawn: a tie
        assert game.state["phase"]["name"] == "tiebreak"
        await move(alice, "tiebreak", 0, "coin", how="coin")
        game = await move(bob, "tiebreak", 1, "coin", how="coin")
        assert game.state["phase"]["name"] == "over"
        await fake_discord.wait_for(lambda: not table.buttons(), what="the tie-break's result on the table")
    assert used == WORDS_MOVES


async def test_every_hallway_shortcut_moves_the_game(fake_discord: FakeDiscord, bot: Any) -> None:
    used: set[str] = set()
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    thread, table = await start(fake_discord, "hallway", alice, bob)
    game_id = (await live_game(bot, thread.id)).id
    players = (alice, bob)

    async def move(seat: int, command: str, expect: str, **options: Any) -> Any:
        return await moved(bot, game_id, players[seat], f"hallway {command}", thread, seat, expect, used,
                           **options)

    offers = 0
    for _ in range(300):
        game = await bot.storage.game(game_id)
        state = game.state
        if get_engine("hallway").outcome(state) is not None:
            break
        waits = get_engine("hallway").to_act(state)
        seats = [w.seat for w in waits]
        phase = state["phase"]
        if phase == "edge":
            await move(seats[0], "edge", "edge", back="you" if "edge" in used else "me")
        elif phase == "negotiate" and pending(state) is None and state["encounters"] == 1:
            await move(seats[0], "nodeal", "nodeal")
            if (await bot.storage.game(game_id)).state["phase"] == "negotiate":
                await move(seats[1], "nodeal", "nodeal")
        elif phase == "negotiate" and pending(state) is None:
            await move(seats[0], "offer", "offer", kind="pay" if offers % 2 else "ask", amount=1)
            offers += 1
        elif phase == "negotiate":
            answer = "decline" if "decline" not in used else "accept"
            await move(seats[0], answer, answer)
        else:
            for seat in seats:
                await move(seat, "roll", "roll")
    else:
        raise AssertionError("the hallway game did not end")
    await fake_discord.wait_for(lambda: not table.buttons(), what="the result on the table")
    assert used == HALLWAY_MOVES, used


async def test_a_private_lookup_with_optional_params_shows_a_picture_of_the_callers_own_view(
        fake_discord: FakeDiscord, bot: Any) -> None:
    """`/tokens peek [count] [who]`: options may be left out, `who` autocompletes with the
    players' names, the answer (text and picture) is the caller's own and only theirs."""
    subs = synced(fake_discord, "tokens")
    options = {o["name"]: o for o in subs["peek"]["options"]}
    assert not options["count"]["required"] and not options["who"]["required"]
    alice, bob, mallory = (fake_discord.user(n) for n in ("alice", "bob", "mallory"))
    thread, _table = await start(fake_discord, "tokens", alice, bob)
    game = await live_game(bot, thread.id)
    hand = " ".join(str(t["value"]) for t in game.state["hands"][0])

    whole = await alice.slash("tokens peek", channel=thread)
    assert whole.ephemeral and whole.message.text().startswith("Your tokens") and hand in whole.message.text()
    [picture] = whole.message.attachments
    assert picture.filename == "peek.png" and picture.data.startswith(b"\x89PNG")
    assert whole.message.embeds[0]["image"]["url"] == "attachment://peek.png"

    first = await alice.slash("tokens peek", channel=thread, count=1)
    assert str(game.state["hands"][0][0]["value"]) in first.message.text() and hand not in first.message.text()
    assert [c["name"] for c in await alice.autocomplete("tokens peek", "who", "", channel=thread)] == ["bob"]
    asked = await alice.slash("tokens peek", channel=thread, who="1")
    assert "(asked about 1)" in asked.message.text()

    outsider = await mallory.slash("tokens peek", channel=thread)
    assert outsider.ephemeral and hand not in outsider.message.text() and not outsider.message.attachments
    assert all(hand not in m.text() for m in thread.history() if not m.ephemeral)
