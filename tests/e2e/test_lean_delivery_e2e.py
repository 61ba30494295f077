"""Lean delivery: a private step edits no public message, and a picture already on a message
is kept by id rather than uploaded again."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace
from typing import Any

import discord
import orjson as real_orjson
import pytest

from cogs.table import delivery as delivery_module
from cogs.table import intake as intake_module
from cogs.table import present
from games.registry import get_engine
from runtime.service import Applied
from tests.e2e.test_table_e2e import open_table, play_turn
from tests.fakediscord import FakeDiscord


async def start(fake_discord: FakeDiscord, kind: str, title: str, *names: str) -> tuple[Any, list[Any]]:
    users = [fake_discord.user(n) for n in names]
    before = {t.id for t in fake_discord.general.threads()}
    lobby = (await users[0].slash(f"{kind} new")).message
    assert lobby is not None
    for user in users[1:]:
        await user.click(lobby, "Join")
    await users[0].click(lobby, "Start")
    thread = await fake_discord.wait_for(
        lambda: next((t for t in fake_discord.general.threads() if t.id not in before), None),
        what="the game's thread")
    await fake_discord.wait_for(lambda: next((m for m in thread.history() if m.embeds
                                              and title in str(m.embeds[0].get("title"))), None),
                                what="the table")
    await fake_discord.idle()
    return thread, users


def table_of(thread: Any, title: str) -> Any:
    return next(m for m in thread.history() if any(title in str(e.get("title", "")) for e in m.embeds))


async def play_first_letter(fake_discord: FakeDiscord, bot: Any, thread: Any, users: list[Any]) -> None:
    """The player in turn puts a letter on the empty word (one step: it has one place)."""
    game = await bot.service.game_here(thread.id)
    player = users[game.state["phase"]["seat"]]
    hand = next(m for m in reversed(player.dms()) if m.selects())
    menu = next(s for s in hand.selects() if str(s.get("placeholder", "")).startswith("Play a letter"))
    await player.select(hand, menu["options"][0]["value"], menu=menu["placeholder"])
    await fake_discord.idle()


async def test_picking_a_letter_before_placing_it_edits_no_public_message(fake_discord: FakeDiscord,
                                                                          bot: Any) -> None:
    thread, users = await start(fake_discord, "words", "Fighting Words", "alice", "bob", "carol")
    await play_first_letter(fake_discord, bot, thread, users)
    game = await bot.service.game_here(thread.id)
    assert game.state["wip"], "the first letter is on the table"
    seat, version = game.state["phase"]["seat"], game.version
    player = users[seat]
    hand = await fake_discord.wait_for(
        lambda: next((m for m in reversed(player.dms()) if any(
            str(s.get("placeholder", "")).startswith("Play a letter") for s in m.selects())), None),
        what="the next player's hand")
    table = table_of(thread, "Fighting Words")
    edits_before = table.edits
    menu = next(s for s in hand.selects() if str(s.get("placeholder", "")).startswith("Play a letter"))
    picked = await player.select(hand, menu["options"][0]["value"], menu=menu["placeholder"])
    await fake_discord.idle()
    assert picked.response_type == 7  # the hand is redrawn in place, asking where the letter goes
    calls = fake_discord.calls_for(picked)
    assert [c.route for c in calls if not c.route.endswith("/callback")] == []
    assert table.edits == edits_before  # the ⚔️ Challenge on it is a lasting button: still good
    after = await bot.service.game(game.id)
    assert after.version == version + 1  # the pick was a committed step all the same
    assert bot.tables.delivery.table_shows(game.id) == (table.id, after.version)


async def test_the_same_picture_is_kept_not_uploaded_again(fake_discord: FakeDiscord, bot: Any) -> None:
    thread, _ = await start(fake_discord, "hallway", "Narrow Hallway", "alice", "bob")
    table = table_of(thread, "Narrow Hallway")
    [picture] = table.attachments
    game = await bot.service.game_here(thread.id)
    bot.tables.delivery.forget_shown()  # make the next publish redraw the same state
    with fake_discord.track() as calls:
        await bot.tables.publish(Applied(game, get_engine(game.kind), [], []))
        await fake_discord.idle()
    [edit] = [c for c in calls if c.method == "PATCH"]
    assert [int(a["id"]) for a in edit.body["attachments"]] == [picture.id]  # kept by id
    assert [a.id for a in table.attachments] == [picture.id]
    assert table.embeds[0]["image"]["url"].endswith("hallway.png")


async def test_an_edit_makes_no_message_of_its_reply_and_the_picture_stays_kept(
        fake_discord: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's and the hands' edits go out as `PartialMessage.edit` would send them, but
    of the reply only the attachments are read (no discord.py Message is made): the picture
    they name is kept by id edit after edit."""

    async def refused(self: Any, **kwargs: Any) -> Any:
        raise AssertionError("a drawn message edited through discord.py's PartialMessage.edit")

    monkeypatch.setattr(discord.PartialMessage, "edit", refused)
    thread, _ = await start(fake_discord, "hallway", "Narrow Hallway", "alice", "bob")
    table = table_of(thread, "Narrow Hallway")
    [picture] = table.attachments
    game = await bot.service.game_here(thread.id)
    for _ in range(2):
        bot.tables.delivery.forget_shown()  # make the next publish redraw the same state
        with fake_discord.track() as calls:
            await bot.tables.publish(Applied(game, get_engine(game.kind), [], []))
            await fake_discord.idle()
        [edit] = [c for c in calls if c.method == "PATCH"]
        assert [int(a["id"]) for a in edit.body["attachments"]] == [picture.id]  # kept by id
    assert [a.id for a in table.attachments] == [picture.id] and table.embeds[0]["title"]


async def test_a_press_is_answered_by_updating_its_message_without_asking_for_it_back(
        fake_discord: FakeDiscord, bot: Any) -> None:
    """The pressed table is redrawn as the press's response (type 7) without `with_response`:
    Discord answers 204 and discord.py parses no message it would throw away."""
    thread, users = await start(fake_discord, "hallway", "Narrow Hallway", "alice", "bob")
    table = table_of(thread, "Narrow Hallway")
    before = table.embeds[0]
    with fake_discord.track() as calls:
        await users[0].click(table, "Roll")
        await fake_discord.idle()
    [answer] = [c for c in calls if c.route == "POST /interactions/{interaction_id}/{token}/callback"]
    assert answer.status == 204 and answer.body["type"] == 7
    assert table_of(thread, "Narrow Hallway").embeds[0] != before  # the roll is on the table


async def test_each_message_drawn_is_fingerprinted_once(fake_discord: FakeDiscord, bot: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A DM is asked its fingerprint several times (its panel, whether the DM already shows it,
    what it now shows); the message is serialised and hashed for it once."""
    serialised: list[int] = []
    real_dumps, real_fingerprint = present.orjson.dumps, present.Rendered.fingerprint

    def dumps(obj: Any, *args: Any, **kwargs: Any) -> bytes:
        serialised.append(1)
        return real_dumps(obj, *args, **kwargs)

    asked: dict[int, list[int]] = {}  # Rendered -> serialisations during each of its fingerprint()s
    kept: list[present.Rendered] = []  # (alive, so that ids are not reused)

    def fingerprint(self: present.Rendered) -> str:
        before = len(serialised)
        out = real_fingerprint(self)
        kept.append(self)
        asked.setdefault(id(self), []).append(len(serialised) - before)
        return out

    monkeypatch.setattr(present, "orjson", SimpleNamespace(dumps=dumps, OPT_SORT_KEYS=real_orjson.OPT_SORT_KEYS,
                                                           OPT_NON_STR_KEYS=real_orjson.OPT_NON_STR_KEYS))
    monkeypatch.setattr(present.Rendered, "fingerprint", fingerprint)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=3)
    for _ in range(3):
        await play_turn(fake_discord, [alice, bob])
    await fake_discord.idle()
    assert len(asked) >= 6  # the DMs of every step
    assert all(sum(times) == 1 for times in asked.values())  # each drawn message hashed once
    assert any(len(times) > 1 for times in asked.values())  # though asked more than once


async def test_each_message_is_drawn_once_per_game_version_and_seat(fake_discord: FakeDiscord, bot: Any,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The table and each hand (embed, components, picture) are built once per state version:
    the presser's answer, the other DMs and the table share no second drawing."""
    drawn: Counter[tuple[str, int, int, int | None]] = Counter()
    for module in (delivery_module, intake_module):
        def private(game: Any, engine: Any, ui: Any, seat: int, *args: Any, _real: Any = module.render_private,
                    **kwargs: Any) -> Any:
            drawn[("hand", game.id, game.version, seat)] += 1
            return _real(game, engine, ui, seat, *args, **kwargs)
        monkeypatch.setattr(module, "render_private", private)
    real_table = delivery_module.render_table

    def table(game: Any, *args: Any, **kwargs: Any) -> Any:
        drawn[("table", game.id, game.version, None)] += 1
        return real_table(game, *args, **kwargs)
    monkeypatch.setattr(delivery_module, "render_table", table)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(fake_discord, alice, bob, hand=3)
    for _ in range(4):
        await play_turn(fake_discord, [alice, bob])
    await fake_discord.idle()
    assert sum(1 for what, *_ in drawn if what == "table") >= 4 and sum(1 for what, *_ in drawn if what == "hand") >= 8
    assert {key: n for key, n in drawn.items() if n > 1} == {}
