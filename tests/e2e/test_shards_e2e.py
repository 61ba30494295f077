"""Two real bot processes (`python bot.py`, shards 0 and 1 of 2) on one PostgreSQL database,
playing Conference / League in a guild of shard 1.

Discord sends the guild's interactions (the thread's `/tarot play`, the lobby's buttons) to
shard 1's process and every DM interaction (the hands' selects) to shard 0's process, so one
game is pressed from two processes. The test plays from both sides, sometimes both at once
(the same card twice, two different cards, a player out of turn), kills shard 1's process with
SIGKILL mid-game while DMs go on being answered by the other, restarts it, and lets a turn's
time limit run out with both processes up. Then:

- every press was answered within Discord's 3 s;
- the stored action log runs 2, 3, … without a gap, holds each applied press once in the
  order the presses were applied, and replaying it from the seed gives the stored state;
- the timeout's default play is in the log exactly once;
- the processes kept to Discord's identify limit (one bucket: 5 s apart), enforced by the fake,
  by claiming identify slots in the database.

The tarot time limit is shortened in both processes (a preamble sets `PLAY`, 90 s on Discord)
so the timer part takes seconds.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from cogs.tarot.card_names import card_label
from games.tarot import ENGINE
from storage import GameRecord, Storage, open_storage
from tests.fakediscord import FakeDiscord, FakeUser, InteractionResult, Message
from tests.fakediscord.process import BotProcess, launch_bot
from tests.fakediscord.state import Channel, Guild

#: Seconds a player has for a card in these tests (tarot's PLAY; 90 in the game).
PLAY_LIMIT = 12.0
PREAMBLE = f"import games.tarot.engine as tarot_engine; tarot_engine.PLAY = {PLAY_LIMIT}"
SHARDS = (1, 2)  # the game's guild is on shard 1 of 2


def hand_of(player: FakeUser) -> Message | None:
    """The player's private hand: the newest DM showing it."""
    return next((m for m in reversed(player.dms()) if any(
        str(e.get("title", "")).startswith("Your hand") for e in m.embeds)), None)


def menu_labels(message: Message, menu: str) -> list[str]:
    return [o["label"] for m in message.selects() if m.get("placeholder") == menu for o in m.get("options", [])]


async def until(check: Any, timeout: float, what: str, every: float = 0.05) -> Any:
    """Poll an async or plain condition until it is truthy (the database is not the fake's world:
    its changes wake no waiter)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if asyncio.iscoroutine(found):
            found = await found
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(every)


@dataclass
class Table:
    """The game as the test drives it: the fake, the two processes, the database."""

    server: FakeDiscord
    folder: Path
    url: str
    store: Storage
    guild: Guild
    players: list[FakeUser]
    bots: dict[int, BotProcess] = field(default_factory=dict)
    game_id: int = 0
    thread: Channel | None = None
    #: Each applied press, in the order the test saw them applied: (seat, action).
    applied: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    # -- processes -------------------------------------------------------------------------------------
    async def launch(self, shard: int) -> BotProcess:
        bot = await launch_bot(self.server, self.folder, f"shard{shard}", preamble=PREAMBLE,
                               DATABASE_URL=self.url, SHARD_COUNT=str(SHARDS[1]), SHARD_IDS=str(shard))
        self.bots[shard] = bot
        return bot

    async def connected(self, shard: int, timeout: float = 40.0) -> None:
        gateway = self.server.gateway

        def up() -> bool:
            session = gateway.live.get((shard, SHARDS[1]))
            return session is not None and session.connected and any(
                f["t"] == "READY" for f in session.buffer) and self.bots[shard].returncode is None

        await self.server.wait_for(up, timeout, f"shard {shard}'s process to connect")

    def logs(self) -> str:
        return "\n".join(f"----- shard {n} -----\n{bot.log()[-6000:]}" for n, bot in sorted(self.bots.items()))

    # -- the game --------------------------------------------------------------------------------------
    async def game(self) -> GameRecord:
        found = await self.store.game(self.game_id)
        assert found is not None
        return found

    def player(self, game: GameRecord, seat: int) -> FakeUser:
        return next(p for p in self.players if p.id == game.seats[seat].user_id)

    async def awaited(self) -> tuple[GameRecord, int, FakeUser, list[dict[str, Any]]]:
        """The stored game, the seat it waits for, that player and their legal actions."""
        game = await self.game()
        waits = ENGINE.to_act(game.state)
        assert waits and waits[0].seat is not None, waits
        seat = waits[0].seat
        return game, seat, self.player(game, seat), ENGINE.legal_actions(game.state, seat)

    async def menu_ready(self) -> bool:
        """The awaited player's DM hand shows the menu of the stored state: its legal cards,
        whichever process drew it last."""
        game = await self.game()
        waits = ENGINE.to_act(game.state)
        if not waits or waits[0].seat is None:
            return True
        seat = waits[0].seat
        hand = hand_of(self.player(game, seat))
        if hand is None:
            return False
        legal = ENGINE.legal_actions(game.state, seat)
        if legal and legal[0]["type"] == "discard":
            return any(m.get("placeholder") == "Discard two cards" for m in hand.selects())
        shown = {label.split(" as ")[0] for label in menu_labels(hand, "Play a card")}
        return shown == {card_label(a["card"]) for a in legal}

    async def press(self, player: FakeUser, action: dict[str, Any], via: str) -> InteractionResult:
        """The action from the DM hand (reaches shard 0) or typed in the thread (shard 1)."""
        discard = action["type"] == "discard"
        if via == "dm":
            hand = hand_of(player)
            assert hand is not None
            if discard:
                return await player.select(hand, [card_label(c) for c in action["cards"]], menu="Discard two cards")
            label = card_label(action["card"])
            shown = [x for x in menu_labels(hand, "Play a card") if x.split(" as ")[0] == label]
            return await player.select(hand, shown[0] if shown else label, menu="Play a card")
        assert self.thread is not None
        if discard:
            first, second = action["cards"]
            return await player.slash("tarot discard", first=first, second=second, channel=self.thread)
        return await player.slash("tarot play", card=action["card"], channel=self.thread)

    async def step(self, *presses: tuple[FakeUser, dict[str, Any], str]) -> tuple[int, dict[str, Any]]:
        """Send the presses at once; exactly one action must be applied. Returns it."""
        before = await self.game()
        results = await asyncio.gather(*(self.press(p, a, via) for p, a, via in presses))
        for result in results:
            assert result.acknowledged, result.text()
        after = await until(self._moved(before.version), 10, "the press to be applied")
        await asyncio.sleep(0.2)  # a second application would land now
        latest = await self.game()
        assert latest.version == before.version + 1, f"{len(presses)} presses applied {latest.version - before.version}x"
        record = (await self.store.actions(self.game_id))[-1]
        assert record.seq == after.version and record.seat is not None
        pressed = [(self._seat_of(before, p), a) for p, a, _ in presses]
        applied = (record.seat, {k: v for k, v in record.action.items() if k != "typed"})
        assert applied in pressed, (applied, pressed)
        self.applied.append(applied)
        await until(self.menu_ready, 10, "the next player's menu")
        return applied

    def _moved(self, version: int) -> Any:
        async def check() -> GameRecord | None:
            game = await self.game()
            return game if game.version > version else None
        return check

    @staticmethod
    def _seat_of(game: GameRecord, player: FakeUser) -> int:
        return next(s.seat for s in game.seats if s.user_id == player.id)

    async def play(self, via: str) -> None:
        """The awaited player takes their first legal action through `via`."""
        _, _, player, legal = await self.awaited()
        await self.step((player, legal[0], via))


def next_seat(game: GameRecord, seat: int, action: dict[str, Any]) -> int | None:
    """Who the game awaits once `seat` has taken `action`."""
    state, _ = ENGINE.apply(game.state, seat, action, 0.0)
    waits = ENGINE.to_act(state)
    return waits[0].seat if waits else None


@pytest.fixture
async def table(fake_discord: FakeDiscord, postgres_url: str, tmp_path: Path) -> AsyncIterator[Table]:
    # Discord's usual identify limit, enforced: one bucket, one IDENTIFY per 5 s, op 9 if sooner.
    # The two processes know of each other only through the database's identify slots.
    fake_discord.gateway.max_concurrency = 1
    fake_discord.gateway.enforce_identify_limit = True
    # Two processes edit one DM hand: an edit that keeps the picture the message showed when
    # this process last drew it is refused when the other process has replaced that picture
    # since (50035, ATTACHMENT_NOT_FOUND), and the bot then uploads it again (kept_pictures.py).
    # That refusal is expected; any other 50035 still fails the test (checked at the end).
    fake_discord.allow_errors(50035)
    guild = fake_discord.add_guild("Shard One", shard=SHARDS)
    players = [fake_discord.user(name, guild=guild) for name in ("alice", "bob", "carol", "dan")]
    store = await open_storage(postgres_url)
    found = Table(fake_discord, tmp_path, postgres_url, store, guild, players)
    try:
        yield found
    finally:
        logs = found.logs()
        for bot in found.bots.values():
            await bot.stop()
        await store.close()
        print(logs)  # shown when the test failed
    refused = [(call.route, exc.errors) for call, exc in fake_discord.errors if exc.code == 50035]
    assert all("ATTACHMENT_NOT_FOUND" in str(errors) for _, errors in refused), refused


async def test_two_sharded_processes_play_one_game_exactly_once(fake_discord: FakeDiscord, table: Table) -> None:
    started = time.monotonic()
    for shard in (0, 1):
        await table.launch(shard)
    for shard in (0, 1):
        await table.connected(shard)
    await fake_discord.wait_for(lambda: fake_discord.command_syncs, 20, "shard 0's process to sync the commands")
    first = sorted(rec.at for rec in fake_discord.gateway.identify_log)
    assert len(first) == 2 and first[1] - first[0] >= fake_discord.gateway.identify_spacing
    alice, bob, carol, dan = table.players
    general = table.guild.channel("general")

    # the lobby: the guild's interactions, all at shard 1's process
    lobby = (await alice.slash("tarot new", conference="off", channel=general)).message
    assert lobby is not None
    await bob.click(lobby, "Join A")
    await carol.click(lobby, "Join B")
    await dan.click(lobby, "Join B")
    await alice.click(lobby, "Start")
    await fake_discord.wait_for(lambda: all(hand_of(p) for p in table.players), 15, "four hands by DM")
    [table.thread] = general.threads()
    record = await table.store.live_game_in(table.thread.id)
    assert record is not None
    table.game_id = record.id
    await until(table.menu_ready, 15, "the dealer's menu")

    # the discard from the thread (shard 1), then plays from both sides, alternating
    await table.play("thread")
    for via in ("dm", "thread", "dm", "dm", "thread", "thread", "dm", "thread"):
        await table.play(via)

    # simultaneous presses from both processes (chosen so that only one of them can ever count)
    _, _, player, legal = await table.awaited()
    await table.step((player, legal[0], "dm"), (player, legal[0], "thread"))  # the same card twice
    for via in ("dm", "thread"):  # two different cards of the player in turn, from both sides
        game, seat, player, legal = await table.awaited()
        while len(legal) < 2 or seat in (next_seat(game, seat, legal[0]), next_seat(game, seat, legal[-1])):
            await table.play(via)  # (the player in turn would lead again: both could count)
            game, seat, player, legal = await table.awaited()
        await table.step((player, legal[0], via), (player, legal[-1], "thread" if via == "dm" else "dm"))
    game, seat, player, legal = await table.awaited()  # a player out of turn, at the same moment
    idle = next(s for s in range(4) if s not in (seat, next_seat(game, seat, legal[0])))
    idle_card = ENGINE.view(game.state, idle)["hand"][0]
    await table.step((player, legal[0], "dm"), (table.player(game, idle), {"type": "play", "card": idle_card},
                                                  "thread"))
    for _ in range(3):  # both again, with nobody waiting in between
        _, _, player, legal = await table.awaited()
        await table.step((player, legal[-1], "thread"), (player, legal[-1], "dm"))

    # SIGKILL shard 1's process mid-game: shard 0's process keeps answering the DMs
    await table.bots[1].kill()
    await fake_discord.wait_for(lambda: (1, 2) not in fake_discord.gateway.connected_shards(), 10,
                                "shard 1's socket to drop")
    for _ in range(4):
        await table.play("dm")
    await table.launch(1)  # restarted; DMs go on while it starts
    while not fake_discord.gateway.live.get((1, 2)) or not fake_discord.gateway.live[(1, 2)].connected:
        await table.play("dm")
    await table.connected(1)
    for via in ("thread", "dm", "thread", "thread", "dm"):
        await table.play(via)

    # the time limit runs out with both processes up: one default play, applied once
    before = await table.game()
    deadline = min(d["at"] for d in before.deadlines)
    await until(table._moved(before.version), PLAY_LIMIT + 10, "the time limit to run out")
    await asyncio.sleep(3.0)  # both processes' timers and sweeps have woken by now
    after = await table.game()
    assert after.version == before.version + 1, "the timeout was applied more than once"
    timeout = (await table.store.actions(table.game_id))[-1]
    assert timeout.action.get("timeout") and timeout.seat == ENGINE.to_act(before.state)[0].seat
    assert timeout.at >= deadline - 0.01
    await until(table.menu_ready, 10, "the next player's menu")
    await table.play("thread")

    # the stored log: contiguous, each applied press once and in order, replaying to the state
    final = await table.game()
    log = await table.store.actions(table.game_id)
    assert [a.seq for a in log] == list(range(log[0].seq, final.version + 1))
    pressed = [(a.seat, {k: v for k, v in a.action.items() if k != "typed"}) for a in log
               if not a.action.get("timeout")]
    assert pressed == table.applied
    assert sum(1 for a in log if a.action.get("timeout")) == 1
    state = ENGINE.new_game(len(final.seats), final.seed, final.options)
    for action in log:
        state, _ = ENGINE.apply(state, action.seat, action.action, action.at)
    assert json.dumps(state, sort_keys=True) == json.dumps(final.state, sort_keys=True)

    # every interaction was answered, within Discord's window
    results = [r for p in table.players for r in p.results]
    slow = [(r.interaction.command_name or r.interaction.data.get("custom_id"), r.latency) for r in results
            if r.latency is None or r.latency > fake_discord.interaction_timeout]
    assert not slow, slow
    assert "Traceback" not in table.bots[0].log(), table.logs()
    assert not fake_discord.gateway.identify_violations
    print(f"{len(results)} interactions, {len(log)} actions, {time.monotonic() - started:.1f} s")
