"""Presses right after a restart are answered in time, however slow the start-up's work is.

`python bot.py` plays Conference / League, is SIGKILLed mid-game and started again with its
work made slow on purpose (a preamble, in the bot's process only): every storage call takes
STORAGE_DELAY seconds more (a database connecting, busy), every picture DRAW_DELAY more (fonts
and boards drawn cold on a busy machine). No table version was written before the kill, so
the start-up redraws the table and re-sends every hand while the players press. They press
as soon as the bot is back on the gateway: a card from the DM hand (its picture redrawn in
place), `/tarot play` in the thread (lines), the table's hand button (an ephemeral picture),
and once the start-up has caught up, a card from a DM hand again (still slow: the picture
alone outlasts Discord's window).

Every press is acknowledged within Discord's 3 s (the fake fails a later one), applied once
and in order, and then shown: the DM hand redrawn, the lines and the hand filled in where
the press was deferred. On SQLite and on PostgreSQL (skipped where no server can run).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from cogs.tarot.card_names import card_label
from games.tarot import ENGINE
from storage import GameRecord, Storage, open_storage
from tests.fakediscord import FakeDiscord, FakeUser, InteractionResult, Message
from tests.fakediscord.process import BotProcess, launch_bot

#: Seconds each storage call and each picture take more while the bot is slowed.
STORAGE_DELAY = 0.4
DRAW_DELAY = 3.0


def slowing(flag: Path) -> str:
    """The preamble: slow while `flag` exists; table versions never written before a kill."""
    return f"""
import asyncio, os
import cogs.table.delivery as delivery
import cogs.table.present as present
import games.tarot.engine as tarot
import storage.database as database

delivery.FLUSH_EVERY = 3600.0
tarot.PLAY = 3600.0  # no time limit runs out while the test waits on the slowed bot

def slowed(original, delay):
    async def call(*args, **kwargs):
        if os.path.exists({str(flag)!r}):
            await asyncio.sleep(delay)
        return await original(*args, **kwargs)
    return call

database.Storage._read = slowed(database.Storage._read, {STORAGE_DELAY})
database.Storage._write = slowed(database.Storage._write, {STORAGE_DELAY})
present._draw = slowed(present._draw, {DRAW_DELAY})
"""


def hand_of(player: FakeUser) -> Message | None:
    """The player's hand: the newest DM showing it."""
    return next((m for m in reversed(player.dms()) if any(
        str(e.get("title", "")).startswith("Your hand") for e in m.embeds)), None)


def playable(message: Message) -> set[str]:
    """The cards the hand's "Play a card" menu offers."""
    return {o["label"].split(" as ")[0] for m in message.selects() if m.get("placeholder") == "Play a card"
            for o in m.get("options", [])}


async def until(check: Any, timeout: float, what: str) -> Any:
    """Poll an async condition (the database wakes no waiter of the fake's)."""
    deadline = time.monotonic() + timeout
    while not (found := await check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.05)
    return found


@dataclass
class Game:
    server: FakeDiscord
    folder: Path
    settings: dict[str, str]
    players: list[FakeUser]
    flag: Path
    store: Storage | None = None
    bot: BotProcess | None = None
    game_id: int = 0
    #: (seat, action) of every press, in the order they were applied.
    pressed: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    results: list[InteractionResult] = field(default_factory=list)
    #: How many times each pressed DM hand had been edited before its press.
    edits_before: dict[int, int] = field(default_factory=dict)

    async def launch(self) -> None:
        self.bot = await launch_bot(self.server, self.folder, preamble=slowing(self.flag), **self.settings,
                                    DEV_GUILD_ID=str(self.server.guild.id))
        await self.server.wait_for(lambda: any(s.connected and any(f["t"] == "READY" for f in s.buffer)
                                               for s in self.server.gateway.live.values()), 60,
                                   "the bot to be on the gateway")

    async def kill(self) -> None:
        assert self.bot is not None
        await self.bot.kill()
        await self.server.wait_for(lambda: not self.server.gateway.connected_shards(), 10, "the socket to drop")

    def log(self) -> str:
        return self.bot.log() if self.bot is not None else ""

    async def game(self) -> GameRecord:
        assert self.store is not None
        found = await self.store.game(self.game_id)
        assert found is not None
        return found

    async def awaited(self) -> tuple[GameRecord, int, FakeUser, dict[str, Any]]:
        """The stored game, the seat it waits for, that player, and their first legal action."""
        game = await self.game()
        seat = ENGINE.to_act(game.state)[0].seat
        assert seat is not None
        player = next(p for p in self.players if p.id == game.seats[seat].user_id)
        return game, seat, player, ENGINE.legal_actions(game.state, seat)[0]

    async def menu_ready(self) -> bool:
        """The awaited player's DM hand offers exactly the cards the stored state allows."""
        game = await self.game()
        waits = ENGINE.to_act(game.state)
        if not waits or waits[0].seat is None:
            return True
        seat = waits[0].seat
        hand = hand_of(next(p for p in self.players if p.id == game.seats[seat].user_id))
        legal = ENGINE.legal_actions(game.state, seat)
        if hand is None or legal[0]["type"] == "discard":
            return hand is not None
        return playable(hand) == {card_label(a["card"]) for a in legal}

    async def press(self, via: str) -> InteractionResult:
        """The awaited player's first legal action, from the DM hand or typed in the thread;
        returns once it is acknowledged (the fake fails the test past 3 s) and applied."""
        game, seat, player, action = await self.awaited()
        if via == "dm":
            hand = hand_of(player)
            assert hand is not None
            edits = hand.edits
            result = await player.select(hand, card_label(action["card"]), menu="Play a card")
            self.edits_before[result.interaction.id] = edits
        elif action["type"] == "discard":
            first, second = action["cards"]
            result = await player.slash("tarot discard", first=first, second=second, channel=self.thread())
        else:
            result = await player.slash("tarot play", card=action["card"], channel=self.thread())
        self.results.append(result)

        async def applied() -> bool:
            return (await self.game()).version > game.version
        await until(applied, 30, f"{player.name}'s {action} to be applied")
        self.pressed.append((seat, action))
        return result

    def thread(self) -> Any:
        [thread] = self.server.general.threads()
        return thread

    def table(self) -> Message:
        return next(m for m in reversed(self.thread().history())
                    if {"My hand", "Respond"} & set(m.button_labels()))


@pytest.fixture
def flag(tmp_path: Path) -> Path:
    return tmp_path / "slow"


async def play_through_a_slow_restart(server: FakeDiscord, folder: Path, settings: dict[str, str],
                                      flag: Path, store_at: str) -> None:
    players = [server.user(name) for name in ("alice", "bob", "carol", "dan")]
    game = Game(server, folder, settings, players, flag)
    try:
        await game.launch()
        await server.wait_for(lambda: server.command_syncs, 30, "the commands to be synced")
        alice, bob, carol, dan = players
        lobby = (await alice.slash("tarot new", conference="off")).message
        assert lobby is not None
        await bob.click(lobby, "Join A")
        await carol.click(lobby, "Join B")
        await dan.click(lobby, "Join B")
        await alice.click(lobby, "Start")
        await server.wait_for(lambda: all(hand_of(p) for p in players), 20, "four hands by DM")
        game.store = await open_storage(store_at)
        found = await game.store.live_game_in(game.thread().id)
        assert found is not None
        game.game_id = found.id
        await until(game.menu_ready, 20, "the first menu")
        await game.press("thread")  # the discard
        await until(game.menu_ready, 20, "the lead's menu")
        await game.press("dm")
        await until(game.menu_ready, 20, "the next menu")

        flag.touch()  # from here the bot's storage and pictures are slow
        await game.kill()
        await game.launch()
        dm = await game.press("dm")  # the start-up is still redrawing the table and the hands
        assert "redrew" not in game.log(), "the start-up caught up before the first press"
        typed = await game.press("thread")
        game_now, _, _, _ = await game.awaited()
        hand_button = next(label for label in game.table().button_labels() if label in ("My hand", "Respond"))
        holder = next(p for p in players if p.id == game_now.seats[0].user_id)
        shown = await holder.click(game.table(), hand_button)
        game.results.append(shown)
        await until(game.menu_ready, 90, "the next menu, redrawn by the slow start-up")
        await server.wait_for(lambda: "redrew" in game.log(), 90, "the start-up to catch up")
        late = await game.press("dm")  # caught up, but its picture alone outlasts 3 s
        assert late.response_type == 6, "a slow answer is deferred, then drawn in place"

        # what each press shows once drawn: the hands redrawn in place, the typed play's lines,
        # the hand the button asked for
        for pressed in (dm, late):
            await server.wait_for(lambda p=pressed: p.message is not None and  # type: ignore[misc]
                                  p.message.edits > game.edits_before[p.interaction.id], 60,
                                  "the pressed hand to be redrawn")
        await typed.done(timeout=60)
        assert typed.text().strip() and "Something went wrong" not in typed.text()
        await shown.done(timeout=60)
        assert shown.ephemeral and any(str(e.get("title", "")).startswith("Your hand")
                                       for e in shown.message.embeds)
        flag.unlink()
        await until(game.menu_ready, 60, "the next menu")
        await game.press("dm")  # and the game plays on at full speed

        final = await game.game()
        log = [a for a in await game.store.actions(game.game_id) if a.seat is not None]
        assert [(a.seat, {k: v for k, v in a.action.items() if k != "typed"}) for a in log] == game.pressed
        assert final.version == log[-1].seq
        answered = [(r.interaction.command_name or r.interaction.data.get("custom_id"), r.response_type, r.latency)
                    for r in game.results]
        print("press, response type, seconds to acknowledge:", answered)
        slow = [(what, latency) for what, _, latency in answered
                if latency is None or latency > server.interaction_timeout]
        assert not slow, slow
        assert "Traceback" not in game.log(), game.log()[-6000:]
    finally:
        flag.unlink(missing_ok=True)
        if game.bot is not None:
            await game.bot.stop()
        if game.store is not None:
            await game.store.close()
        print(game.log()[-8000:])  # shown when the test fails


async def test_presses_right_after_a_slow_restart_are_answered_on_sqlite(
        fake_discord: FakeDiscord, tmp_path: Path, flag: Path) -> None:
    database = str(tmp_path / "rumpus.db")
    await play_through_a_slow_restart(fake_discord, tmp_path, {"DATABASE_PATH": database}, flag, database)


async def test_presses_right_after_a_slow_restart_are_answered_on_postgresql(
        fake_discord: FakeDiscord, tmp_path: Path, flag: Path, postgres_url: str) -> None:
    await play_through_a_slow_restart(fake_discord, tmp_path, {"DATABASE_URL": postgres_url}, flag, postgres_url)
