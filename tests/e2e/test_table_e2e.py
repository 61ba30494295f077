"""The real Rumpus bot, end to end, on the test-only Tokens game: lobby, a whole game, refusals,
closed DMs, a restart mid-game, and Discord's 3-second window."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tests.fakediscord import FakeDiscord, FakeUser, Message


# -- helpers -----------------------------------------------------------------------------------------
def hand_message(player: FakeUser) -> Message | None:
    """The player's private hand (the last DM that shows their tokens)."""
    return next((m for m in reversed(player.dms()) if "Your tokens" in m.text()), None)


def play_button(player: FakeUser) -> str | None:
    msg = hand_message(player)
    if msg is None:
        return None
    return next((label for label in msg.button_labels() if label.startswith("Play ")), None)


def result_message(server: FakeDiscord) -> Message | None:
    for channel in [server.general, *server.general.threads()]:
        for msg in channel.history():
            if "game over" in msg.text():
                return msg
    return None


async def open_table(server: FakeDiscord, host: FakeUser, *others: FakeUser, hand: int = 3) -> Message:
    """/tokens new by `host`, everyone else joins, the host starts. Returns the lobby message."""
    lobby = (await host.slash("tokens new", hand=hand)).message
    assert lobby is not None
    for player in others:
        await player.click(lobby, "Join")
    await host.click(lobby, "Start")
    players = [host, *others]
    await server.wait_for(lambda: "Started!" in lobby.text() and table_message(server)
                          and all(hand_message(p) or not p.accepts_dms for p in players),
                          what="the table to be posted and the hands sent")
    return lobby


def table_message(server: FakeDiscord) -> Message | None:
    for thread in server.general.threads():
        for msg in reversed(thread.history()):
            if "My hand" in msg.button_labels():
                return msg
    return None


async def play_turn(server: FakeDiscord, players: list[FakeUser], *, use_select: bool = False) -> FakeUser:
    """Whoever holds a Play button in their DM presses it (or picks the first token in the
    "Play a token" menu); waits until the game has moved on."""
    ready = await server.wait_for(lambda: next((p for p in players if play_button(p)), None),
                                  what="a player to be offered a Play button")
    msg = hand_message(ready)
    assert msg is not None
    button = play_button(ready)
    assert button is not None
    if use_select:
        [menu] = msg.selects()
        result = await ready.select(msg, menu["options"][0]["label"], menu="Play a token")
    else:
        result = await ready.click(msg, button)
    assert result.acknowledged and result.response_type == 7  # the DM hand is updated in place
    await server.wait_for(lambda: result_message(server) or (
        play_button(ready) is None and any(play_button(p) for p in players if p is not ready)),
        what="the turn to pass")
    return ready


async def play_to_the_end(server: FakeDiscord, players: list[FakeUser], limit: int = 40, *,
                          use_select: bool = False) -> Message:
    for _ in range(limit):
        done = result_message(server)
        if done is not None:
            return done
        await play_turn(server, players, use_select=use_select)
    raise AssertionError("the game did not end")


# -- tests ---------------------------------------------------------------------------------------------
async def test_lobby_join_leave_start(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    opened = await alice.slash("tokens new")
    lobby = opened.message
    assert lobby is not None and not lobby.ephemeral
    assert lobby.button_labels() == ["Join", "Leave", "Start", "Cancel"]
    assert "Players (1/4)" in lobby.text() and alice.mention in lobby.text()
    note = await opened.followup()
    assert note.ephemeral and "I can DM you" in note.content

    await bob.click(lobby, "Join")
    assert "Players (2/4)" in lobby.text() and bob.mention in lobby.text()
    await bob.click(lobby, "Leave")
    assert bob.mention not in lobby.text()
    await bob.click(lobby, "Join")

    refused = await bob.click(lobby, "Start")
    assert refused.ephemeral and "Only the host" in refused.content
    await alice.click(lobby, "Start")
    await fake_discord.wait_for(lambda: table_message(fake_discord), what="the table in its thread")
    assert "Started!" in lobby.text() and lobby.buttons() == []
    [thread] = fake_discord.general.threads()
    assert thread.id == lobby.id  # the thread hangs off the lobby message
    await fake_discord.wait_for(lambda: hand_message(alice) and hand_message(bob), what="both hands by DM")


async def test_whole_game_to_the_end(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
    await open_table(fake_discord, alice, bob, carol, hand=2)
    players = [alice, bob, carol]
    result = await play_to_the_end(fake_discord, players, use_select=True)
    assert "Tokens — game over" in result.text()
    assert all(p.mention in result.text() for p in players)
    [thread] = fake_discord.general.threads()
    table = next(m for m in thread.history() if "Pile:" in m.text())
    assert "0 left" in table.text() and "My hand" not in table.button_labels()
    assert all(play_button(p) is None for p in players)


async def test_non_player_gets_an_ephemeral_refusal(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob, mallory = (fake_discord.user(n) for n in ("alice", "bob", "mallory"))
    lobby = await open_table(fake_discord, alice, bob)
    table = table_message(fake_discord)
    assert table is not None
    before = (table.text(), table.edits, len(table.channel.history()))
    refused = await mallory.click(table, "My hand")
    assert refused.ephemeral and "not playing" in refused.content
    assert refused.message in mallory.ephemerals() and refused.message not in alice.ephemerals()
    assert (table.text(), table.edits, len(table.channel.history())) == before
    hand = await mallory.slash("hand", channel=table.channel)
    assert hand.ephemeral and "not playing" in hand.content
    assert lobby.buttons() == []


async def test_dms_closed_before_joining_use_my_hand(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    bob.accepts_dms = False
    fake_discord.allow_errors(50007)
    lobby = (await alice.slash("tokens new")).message
    assert lobby is not None
    joined = await bob.click(lobby, "Join")
    warning = await joined.followup()
    assert warning.ephemeral and "can't DM you" in warning.content
    await alice.click(lobby, "Start")
    table = await fake_discord.wait_for(lambda: table_message(fake_discord))
    assert bob.dms() == []
    mine = await bob.click(table, "My hand")
    assert mine.ephemeral and "Your tokens" in mine.message.text()


async def test_dms_closed_mid_way_fall_back_to_the_channel(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lobby = (await alice.slash("tokens new")).message
    assert lobby is not None
    await bob.click(lobby, "Join")
    await fake_discord.wait_for(lambda: bob.dms(), what="the lobby's DM check")
    bob.accepts_dms = False  # closed after the lobby's DM check succeeded
    fake_discord.allow_errors(50007)
    await alice.click(lobby, "Start")

    def fallback() -> Message | None:
        for channel in [fake_discord.general, *fake_discord.general.threads()]:
            for msg in channel.history():
                if bob.mention in msg.content and "can't send you direct messages" in msg.content:
                    return msg
        return None

    notice = await fake_discord.wait_for(fallback, what="the closed-DM notice in the channel")
    assert "My hand" in notice.content and "[" not in notice.content  # no private content
    table = table_message(fake_discord)
    assert table is not None
    mine = await bob.click(table, "My hand")
    assert mine.ephemeral and "Your tokens" in mine.message.text()


async def test_restart_mid_game_old_buttons_still_work(
        fake_discord: FakeDiscord, bot: Any, restart_bot: Callable[[], Awaitable[Any]]) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=2)
    players = [alice, bob]
    await play_turn(fake_discord, players)
    old_table = table_message(fake_discord)
    waiting = next(p for p in players if play_button(p))
    old_hand = hand_message(waiting)
    assert old_table is not None and old_hand is not None

    new_bot = await restart_bot()
    assert new_bot is not bot and new_bot.is_ready()

    mine = await alice.click(old_table, "My hand")
    assert mine.ephemeral and "Your tokens" in mine.message.text()
    button = play_button(waiting)
    assert button is not None
    pressed = await waiting.click(old_hand, button)
    assert pressed.response_type == 7
    result = await play_to_the_end(fake_discord, players)
    assert "game over" in result.text()


async def test_every_interaction_is_answered_within_three_seconds(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=2)
    mark = fake_discord.mark()
    await play_to_the_end(fake_discord, [alice, bob])
    interactions = list(fake_discord.world.interactions.values())
    assert interactions and all(i.acknowledged for i in interactions)
    latencies = fake_discord.latencies()
    assert max(latencies) < fake_discord.interaction_timeout, f"slowest answer took {max(latencies):.2f}s"
    assert not any(i.late_callbacks for i in interactions)
    await fake_discord.idle()
    plays = [i for i in interactions if i.type == 3 and i.message is not None and i.message.channel.is_dm]
    assert plays
    all_pings = 0
    for play in plays:  # the answer (DM hand edited in place), the table edit, the next player's DM
        calls = fake_discord.calls_for(play)
        # the next player's "your turn" ping: a new DM, and the previous ping deleted. Pings go
        # out on their own task, so one may land in the next press's window: they are counted
        # over the whole game (plus the start's two), not per press.
        pings = [c for c in calls if c.method == "DELETE" or
                 (c.method == "POST" and "your turn" in str((c.body or {}).get("content", "")).lower())]
        all_pings += len(pings)
        answer = next(c for c in calls if c not in pings)
        assert answer.route.endswith("/callback") and answer.interaction_id == play.id
        # the last play also posts the result, mirrors it on the lobby and archives the thread
        last = play is plays[-1]
        assert len(calls) - len(pings) <= (6 if last else 4), [str(c) for c in calls]
    assert all_pings <= 2 * len(plays) + 4
    assert fake_discord.calls_since(mark)
