"""A press on a player's DM whose commit lands while another step is being shown: that step's
publish, drawing the newest state, would edit the DM, and the press's own answer then redraws
the same picture in place (issue 21: Kniggits re-sent unchanged DMs, 3-64 per 100 games). The
publish leaves the DM to the answer: one write per change."""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

import pytest

from cogs.table.due_answers import DueAnswers
from games.registry import get_engine
from runtime.service import Applied
from tests.e2e.test_lean_delivery_e2e import start
from tests.fakediscord import FakeDiscord, Message, routes_channels, routes_interactions


def shown(msg: Message) -> str:
    """What a message shows: text, embeds, components and the attachments' bytes."""
    digest = hashlib.blake2b(json.dumps([msg.content, msg.embeds, msg.components], sort_keys=True,
                                        default=str).encode(), digest_size=16)
    for attachment in msg.attachments:
        digest.update(attachment.filename.encode() + attachment.data)
    return digest.hexdigest()


async def test_a_publish_during_a_dm_press_leaves_the_dm_to_its_answer(
        fake_discord: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[tuple[int, str]] = []  # (message id, what it shows after the write)
    for module in (routes_channels, routes_interactions):
        async def edited(*args: Any, _edit: Any = module.edit_message, **kwargs: Any) -> Message:
            msg: Message = await _edit(*args, **kwargs)
            writes.append((msg.id, shown(msg)))
            return msg
        monkeypatch.setattr(module, "edit_message", edited)
    thread, users = await start(fake_discord, "words", "Fighting Words", "alice", "bob", "carol")
    game = await bot.service.game_here(thread.id)
    seat, version = game.state["phase"]["seat"], game.version
    player = users[seat]
    hand = next(m for m in reversed(player.dms()) if m.selects())
    before = shown(hand)
    menu = next(s for s in hand.selects() if str(s.get("placeholder", "")).startswith("Play a letter"))
    lock = bot.tables.delivery.lock(game.id)
    await lock.acquire()  # another step is being shown
    try:
        press = asyncio.create_task(player.select(hand, menu["options"][0]["value"], menu=menu["placeholder"]))
        await fake_discord.wait_for(lambda: game.version > version, what="the press committed")
        # ... and that step's publish, drawing the newest state, reaches the presser's DM
        await bot.tables.delivery.publish_locked(Applied(game, get_engine(game.kind), [], [seat]))
    finally:
        lock.release()
    await press
    await fake_discord.idle()
    on_hand = [what for message_id, what in writes if message_id == hand.id]
    assert on_hand and on_hand[-1] != before, "the DM shows the letter picked"
    assert len(on_hand) == len(set(on_hand)) == 1, "one write, by the press's answer"



async def test_a_press_whose_answer_the_dm_already_shows_rewrites_nothing(
        fake_discord: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the publish write the DM anyway (here: it is not told an answer is coming), the
    press's answer would draw exactly what the DM shows: it is acknowledged, not re-sent."""
    monkeypatch.setattr(DueAnswers, "expect", lambda self, game_id, seat: None)
    await test_a_publish_during_a_dm_press_leaves_the_dm_to_its_answer(fake_discord, bot, monkeypatch)
