"""The action loop under pressure, through the fake Discord: simultaneous presses, a slow
picture, a failure after the commit. The table must end on the newest state and a player
must never be told "unchanged" about a move that was stored."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cogs.table.delivery as delivery_module
from cogs.table.deferral import PATIENCE
from tests.e2e.conftest import RumpusHarness, running_bot
from tests.fakediscord import FakeDiscord, FakeUser, Message

SEED = 3
ID = re.compile(r"^rp:[af]:(\d+):(\d+):")


async def open_table(server: FakeDiscord, host: FakeUser, other: FakeUser) -> Message:
    """A Shapes game (both players throw at once, in secret): its table message."""
    lobby = (await host.slash("shapes new", wins=3)).message
    assert lobby is not None
    await other.click(lobby, "Join")
    await host.click(lobby, "Start")
    return await server.wait_for(
        lambda: next((m for t in server.general.threads() for m in t.history() if "Rock" in m.button_labels()),
                     None), what="the table message")


def game_id_of(table: Message) -> int:
    return next(int(m.group(1)) for b in table.buttons() if (m := ID.match(b.get("custom_id") or "")))


async def stored(harness: RumpusHarness, game_id: int) -> Any:
    game = await harness.bot.storage.game(game_id)
    assert game is not None
    return game


def versions_on(message: Message) -> set[int]:
    """The state versions the message's buttons were drawn for."""
    return {int(m.group(2)) for b in message.buttons() if (m := ID.match(b.get("custom_id") or ""))}


def slowed_once(original: Callable[..., Any], delay: float) -> Callable[..., Any]:
    """render_table that draws, then (the first time only) takes `delay` more seconds, as a
    slow picture would: the drawing is of the state it saw before the pause."""
    calls = {"n": 0}

    async def render(*args: Any, **kwargs: Any) -> Any:
        drawn = await original(*args, **kwargs)
        calls["n"] += 1
        if calls["n"] == 1:
            await asyncio.sleep(delay)
        return drawn

    return render


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> Any:
    async with running_bot(fake_discord, tmp_path, seed=SEED) as seeded:
        yield seeded


async def test_simultaneous_throws_both_count_and_the_table_ends_on_the_newest_state(
        fake_discord: FakeDiscord, harness: RumpusHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table = await open_table(fake_discord, alice, bob)
    game_id = game_id_of(table)
    [drawn] = versions_on(table)
    monkeypatch.setattr(delivery_module, "render_table", slowed_once(delivery_module.render_table, 0.6))

    # Alice's press is committed and drawn, and its picture is still on its way, when Bob
    # presses the button he sees (drawn before Alice's throw).
    alice_pressing = asyncio.create_task(alice.click(table, "Rock"))
    await asyncio.sleep(0.2)
    second = await bob.click(table, "Paper")
    first = await alice_pressing

    assert first.acknowledged and second.acknowledged
    assert "earlier turn" not in first.content + second.content  # the throws are independent
    game = await stored(harness, game_id)
    assert [a.seat for a in await harness.bot.storage.actions(game_id)] == [0, 1]
    assert game.version == drawn + 2
    await fake_discord.wait_for(lambda: versions_on(table) == {game.version},
                                what="the table to show the newest state", timeout=5)
    await asyncio.sleep(0.8)  # nothing older lands afterwards
    assert versions_on(table) == {game.version}


async def test_a_failure_after_the_commit_says_the_move_counts_and_the_table_still_moves_on(
        fake_discord: FakeDiscord, harness: RumpusHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table = await open_table(fake_discord, alice, bob)
    game_id = game_id_of(table)
    before = (await stored(harness, game_id)).version
    original, calls = delivery_module.render_table, {"n": 0}

    async def broken_once(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("the picture fell over")
        return await original(*args, **kwargs)

    monkeypatch.setattr(delivery_module, "render_table", broken_once)

    answer = await alice.click(table, "Rock")

    assert answer.ephemeral and "Your move counts" in answer.content, answer.content
    assert "unchanged" not in answer.content and "fell over" not in answer.content
    assert (await stored(harness, game_id)).version == before + 1
    await fake_discord.wait_for(lambda: versions_on(table) == {before + 1},
                                what="the table to be redrawn by the publish step", timeout=5)


async def test_an_answer_queued_behind_a_slow_step_is_deferred_then_drawn(
        fake_discord: FakeDiscord, harness: RumpusHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A step that takes longer than PATIENCE to show is deferred (so its 3 seconds cannot run
    out), and so is the next press, queued behind it; each message is redrawn once drawn."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table = await open_table(fake_discord, alice, bob)
    monkeypatch.setattr(delivery_module, "render_table",
                        slowed_once(delivery_module.render_table, PATIENCE + 0.6))
    alice_pressing = asyncio.create_task(alice.click(table, "Rock"))
    await asyncio.sleep(0.2)
    second = await bob.click(table, "Paper")
    first = await alice_pressing
    assert first.response_type == 6  # Alice's own answer was deferred while it was drawn, slowly
    assert second.response_type == 6  # Bob's was deferred while Alice's step showed …
    game = await stored(harness, game_id_of(table))
    await fake_discord.wait_for(lambda: versions_on(table) == {game.version}, timeout=5,
                                what="… then drawn: the table shows the newest state")
