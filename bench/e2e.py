#!/usr/bin/env python3
"""End-to-end benchmark: the real bot (`bot.build_bot`) against the fake Discord of
tests/fakediscord, playing concurrent games of the Tokens test engine with simulated players.

    python bench/e2e.py --games 1,10,100

Every game has its own channel (its table goes in a thread off the lobby message) and its own
players; players press the Play button of their DM hand, like people do, after thinking a while
(`--think`, exponential). The bot runs in a child process of its own (`--in-process` puts it
on the bench's event loop, next to the fake server and the players). Per level it measures

* interaction → callback latency: from the simulated user dispatching the interaction to the
  bot's callback arriving at the fake server (p50/p99/max), and the time until the turn has
  visibly passed (the next player's DM shows their Play button: `turn_p50_ms`/`turn_p99_ms`);
* REST calls per player action, counted in the play phase only (lobbies, starts and the first
  hands are excluded; the game's result post is included): `dm` = calls on DM channels,
  `other` = everything else (interaction callbacks, table edits, the result post, ...). A press
  on a DM hand is answered by editing that hand in place, so its callback delivers one private
  view itself: `private` = DM calls + those callbacks, `public` = the rest. Seats whose private
  view changed come from the runtime (`Applied.changed_seats`).
  Goal (issue #3): at most 1.2 public calls per action plus one per changed seat
  (`goal_met`: public <= 1.2 and private <= changed seats).

Prints two lines per level, then as its last line one JSON object: {"levels": [{"games",
"actions", "p50_ms", "p99_ms", "calls_per_action", "dm_calls_per_action", "other_calls_per_action",
...}, ...], "cores", "bot"}.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bot as bot_module  # noqa: E402
from cogs.table.registry import register_ui  # noqa: E402
from games.registry import load_builtin, register  # noqa: E402
from runtime.service import TableService  # noqa: E402
from tests.engines.tokens import ENGINE as TOKENS  # noqa: E402
from tests.engines.tokens_ui import TokensUI  # noqa: E402
from tests.fakediscord import ClientRunner, FakeDiscord, FakeUser, Message, pointed_at  # noqa: E402
from tests.fakediscord.harness import GUILD_READY_TIMEOUT  # noqa: E402
from tests.fakediscord.router import CallRecord  # noqa: E402

#: Discord's window for the first answer. The bench widens the fake's window so a slow answer
#: is measured rather than failing the run, and reports how many went over this.
DISCORD_WINDOW_S = 3.0
GOAL_EXTRA_CALLS = 1.2


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- what a player sees ---------------------------------------------------------------------------
def hand_message(player: FakeUser) -> Message | None:
    """The player's private hand: the last DM that shows their tokens."""
    return next((m for m in reversed(player.dms()) if "Your tokens" in m.text()), None)


class Hand:
    """A player's DM hand, found once and re-found only when a new DM arrives (the bot edits
    the hand in place), so checking it on every change of the fake world stays cheap."""

    def __init__(self, player: FakeUser) -> None:
        self.player = player
        self.seen = -1
        self.message: Message | None = None

    def current(self) -> Message | None:
        channel = self.player.dm_channel
        count = len(channel.messages) if channel is not None else 0
        if count != self.seen:
            self.seen, self.message = count, hand_message(self.player)
        return self.message

    def play_button(self) -> str | None:
        msg = self.current()
        if msg is None:
            return None
        return next((b["label"] for b in msg.buttons() if b.get("label", "").startswith("Play ")), None)


class Watch:
    """Waits on predicates over the fake world, all re-checked by one listener on every change
    (the fake's own `wait_for` wakes every waiter, which costs too much with 100s of them)."""

    def __init__(self, server: FakeDiscord) -> None:
        self.pending: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
        server.world.notifier.listeners.append(self.check)

    def check(self) -> None:
        still = []
        for predicate, future in self.pending:
            if future.done():
                continue
            try:
                value = predicate()
            except Exception as exc:  # handed to the waiter
                future.set_exception(exc)
                continue
            if value:
                future.set_result(value)
            else:
                still.append((predicate, future))
        self.pending = still

    async def until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        value = predicate()
        if value:
            return value
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending.append((predicate, future))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}") from None


# -- the bot: in this process, or in a child process of its own ---------------------------------------
CHANGED_SEATS: list[int] = []


def observe_changed_seats() -> None:
    """Count the seats whose private view each action changed (`Applied.changed_seats`)."""
    original = TableService.act
    if getattr(original, "_bench_observed", False):
        return

    async def act(self: TableService, *args: Any, **kwargs: Any) -> Any:
        applied = await original(self, *args, **kwargs)
        CHANGED_SEATS.append(len(applied.changed_seats))
        return applied

    act._bench_observed = True  # type: ignore[attr-defined]
    TableService.act = act  # type: ignore[method-assign]


def setup_games() -> None:
    """Register the Tokens engine and its UI the way tests/conftest.py does."""
    register(TOKENS)
    register_ui(TokensUI())
    load_builtin()
    observe_changed_seats()


def bot_settings(token: str, database: Path, guild_id: int) -> Any:
    return bot_module.Settings(token=token, database_path=database, dev_guild_id=guild_id, log_level="WARNING")


class InProcessBot:
    """The bot on the bench's own event loop (shares it with the fake server and the players)."""

    def __init__(self, server: FakeDiscord, database: Path) -> None:
        settings = bot_settings(server.token, database, server.guild.id)
        client = bot_module.build_bot(settings, guild_ready_timeout=GUILD_READY_TIMEOUT)
        self.runner = ClientRunner(server, client, server.token)

    async def start(self) -> None:
        await self.runner.start(timeout=30.0)

    async def mark(self) -> None:
        CHANGED_SEATS.clear()

    async def stop(self) -> list[int]:
        changed = list(CHANGED_SEATS)
        await self.runner.close()
        return changed


class ChildBot:
    """The bot in a child process (`--serve-bot`), talking to the fake server over 127.0.0.1 like
    a real deployment; steered by lines on its stdin: "mark" (start counting), "stop"."""

    def __init__(self, server: FakeDiscord, database: Path) -> None:
        self.server = server
        self.database = database
        self.proc: asyncio.subprocess.Process | None = None

    async def _line(self, timeout: float = 30.0) -> str:
        assert self.proc is not None and self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not line:
            raise RuntimeError(f"the bot process ended (exit code {await self.proc.wait()})")
        return line.decode().strip()

    async def _say(self, word: str) -> str:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(word.encode() + b"\n")
        await self.proc.stdin.drain()
        return await self._line()

    async def start(self) -> None:
        server = self.server
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--serve-bot", server.base_url,
            "--token", server.token, "--guild", str(server.guild.id), "--database", str(self.database),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert await self._line() == "ready"

    async def mark(self) -> None:
        await self._say("mark")

    async def stop(self) -> list[int]:
        assert self.proc is not None
        changed = json.loads(await self._say("stop"))
        await asyncio.wait_for(self.proc.wait(), 30.0)
        return changed

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()


async def serve_bot(base_url: str, token: str, guild_id: int, database: Path) -> None:
    """The child process: run the real bot against the fake server at `base_url`."""
    import discord
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    setup_games()
    Route.BASE = f"{base_url}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base_url.replace("http://", "ws://") + "/gateway")
    client = bot_module.build_bot(bot_settings(token, database, guild_id), freeze_heap=True,
                                  guild_ready_timeout=GUILD_READY_TIMEOUT)
    runner = asyncio.create_task(client.start(token))
    waiting = asyncio.create_task(client.wait_until_ready())
    await asyncio.wait({runner, waiting}, return_when=asyncio.FIRST_COMPLETED)
    if runner.done():
        runner.result()  # raises what stopped the bot
        return
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    print("ready", flush=True)
    while True:
        word = (await reader.readline()).decode().strip()
        if word == "mark":
            CHANGED_SEATS.clear()
            print("marked", flush=True)
        else:  # "stop", or the bench went away
            break
    changed = list(CHANGED_SEATS)
    await client.close()
    with contextlib.suppress(discord.DiscordException, asyncio.CancelledError):
        await runner
    print(json.dumps(changed), flush=True)


# -- one game -------------------------------------------------------------------------------------
@dataclass
class Game:
    number: int
    players: list[FakeUser]
    channel: Any
    hands: list[Hand] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    turns: list[float] = field(default_factory=list)
    actions: int = 0

    def __post_init__(self) -> None:
        self.hands = [Hand(p) for p in self.players]


async def open_game(server: FakeDiscord, watch: Watch, game: Game, hand: int) -> None:
    host, *others = game.players
    lobby = (await host.slash("tokens new", channel=game.channel, hand=hand)).message
    assert lobby is not None, f"game {game.number}: no lobby message"
    for player in others:
        await player.click(lobby, "Join")
    await host.click(lobby, "Start")
    await watch.until(lambda: all(h.current() for h in game.hands) and game.hands[0].play_button(),
                      30.0, f"game {game.number}: the hands")


async def play_game(watch: Watch, game: Game, actions: int, think: float, jitter: random.Random) -> None:
    await asyncio.sleep(jitter.random() * think)  # games do not start in lockstep
    seats = len(game.players)
    for n in range(actions):
        if think > 0:
            await asyncio.sleep(jitter.expovariate(1 / think))
        player, hand = game.players[n % seats], game.hands[n % seats]
        button = await watch.until(hand.play_button, 30.0, f"game {game.number}: {player.name}'s Play button")
        msg = hand.current()
        assert msg is not None
        pressed = time.perf_counter()
        result = await player.click(msg, button)
        assert result.response_type == 7, f"game {game.number}: the hand was not updated in place"
        assert result.latency is not None
        game.latencies.append(result.latency * 1000)
        game.actions += 1
        if n + 1 < actions:  # wait until the next player holds the turn (the publish is done)
            following = game.hands[(n + 1) % seats]
            await watch.until(lambda h=hand, f=following: h.play_button() is None and f.play_button(),
                              30.0, f"game {game.number}: the turn to pass")
            game.turns.append((time.perf_counter() - pressed) * 1000)


# -- counting calls -------------------------------------------------------------------------------
def classify(server: FakeDiscord, call: CallRecord) -> str:
    """"dm" (on a DM channel, or opening one); "ack_private" (an interaction callback that
    updated the presser's DM hand in place: a private view delivered in the response); "ack"
    (other callbacks, followups); "table" (a guild channel or thread); "other"."""
    if call.route.startswith("POST /interactions/"):
        inter = server.world.interactions.get(call.interaction_id or 0)
        if (inter is not None and inter.response_type == 7 and inter.message is not None
                and inter.message.channel.is_dm):
            return "ack_private"
        return "ack"
    if "/webhooks/" in call.route:
        return "ack"
    if call.route == "POST /users/@me/channels":
        return "dm"
    channel = server.world.channels.get(call.channel_id) if call.channel_id is not None else None
    if channel is not None:
        return "dm" if channel.is_dm else "table"
    return "other"


# -- one level --------------------------------------------------------------------------------------
async def run_level(games: int, players: int, actions: int, think: float, folder: Path,
                    in_process: bool) -> dict[str, Any]:
    hand = math.ceil(actions / players)
    server = await FakeDiscord(interaction_timeout=60.0).start()
    database = folder / f"e2e-{games}.db"
    bot: InProcessBot | ChildBot | None = None
    try:
        with pointed_at(server):
            tables = [Game(n, [server.user(f"g{n}p{s}") for s in range(players)],
                           server.add_channel(f"table-{n}")) for n in range(games)]
            bot = InProcessBot(server, database) if in_process else ChildBot(server, database)
            await bot.start()

            watch = Watch(server)
            t0 = time.perf_counter()
            await asyncio.gather(*(open_game(server, watch, g, hand) for g in tables))
            await server.idle(timeout=30.0)
            setup_s = time.perf_counter() - t0

            await bot.mark()
            mark = server.mark()
            jitter = random.Random(games)
            t1 = time.perf_counter()
            await asyncio.gather(*(play_game(watch, g, actions, think, jitter) for g in tables))
            await server.idle(timeout=30.0)
            play_s = time.perf_counter() - t1
            calls = server.calls_since(mark)
            changed = await bot.stop()
            bot = None
    finally:
        if isinstance(bot, ChildBot):
            bot.kill()
        elif bot is not None:
            await bot.runner.close()
        await server.stop()
    server.check()

    latencies = [x for g in tables for x in g.latencies]
    turns = [x for g in tables for x in g.turns] or [0.0]
    done = sum(g.actions for g in tables)
    kinds = Counter(classify(server, c) for c in calls)
    routes = Counter(c.route for c in calls)
    per = (lambda n: round(n / done, 3)) if done else (lambda n: 0.0)
    changed_per = per(sum(changed))
    total_per = per(len(calls))
    private_per = per(kinds["dm"] + kinds["ack_private"])
    public_per = per(len(calls) - kinds["dm"] - kinds["ack_private"])
    return {
        "games": games,
        "players": players,
        "actions": done,
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "max_ms": round(max(latencies), 2),
        "over_3s": sum(1 for x in latencies if x > DISCORD_WINDOW_S * 1000),
        "turn_p50_ms": round(statistics.median(turns), 2),
        "turn_p99_ms": round(percentile(turns, 0.99), 2),
        "actions_per_s": round(done / play_s, 1),
        "calls_per_action": total_per,
        "dm_calls_per_action": per(kinds["dm"]),
        "other_calls_per_action": per(len(calls) - kinds["dm"]),
        "ack_calls_per_action": per(kinds["ack"] + kinds["ack_private"]),
        "table_calls_per_action": per(kinds["table"]),
        "private_calls_per_action": private_per,
        "public_calls_per_action": public_per,
        "changed_seats_per_action": changed_per,
        "goal_calls_per_action": round(GOAL_EXTRA_CALLS + changed_per, 3),
        "goal_met": public_per <= GOAL_EXTRA_CALLS and private_per <= changed_per,
        "routes": dict(routes.most_common()),
        "rate_limit_hits": len(server.rate_limit_hits),
        "setup_s": round(setup_s, 2),
        "play_s": round(play_s, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,10,100", help="comma-separated concurrency levels")
    parser.add_argument("--actions", type=int, default=20,
                        help="plays per game (a game ends after players × 5; fewer stops it early)")
    parser.add_argument("--players", type=int, default=4, help="players per game (2-4)")
    parser.add_argument("--think", type=float, default=0.2,
                        help="mean seconds a player thinks before a move (0 = as fast as answered)")
    parser.add_argument("--in-process", action="store_true",
                        help="run the bot on the bench's event loop instead of in a child process")
    parser.add_argument("--serve-bot", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    parser.add_argument("--guild", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice-support warnings
    if args.serve_bot:
        asyncio.run(serve_bot(args.serve_bot, args.token, args.guild, args.database))
        return
    levels = [int(x) for x in args.games.split(",") if x.strip()]
    if not 2 <= args.players <= 4 or not 1 <= args.actions <= args.players * 5:
        parser.error("--players must be 2-4 and --actions at most players × 5")
    setup_games()
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for games in levels:
            result = asyncio.run(run_level(games, args.players, args.actions, args.think, Path(folder),
                                           args.in_process))
            results.append(result)
            print(f"{games:>4} games, {result['actions']} actions, {result['actions_per_s']} actions/s: "
                  f"callback p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms; "
                  f"turn passed p50 {result['turn_p50_ms']} ms, p99 {result['turn_p99_ms']} ms", flush=True)
            print(f"      {result['calls_per_action']} REST calls/action = {result['other_calls_per_action']} "
                  f"ack/table/other + {result['dm_calls_per_action']} DM; "
                  f"{result['public_calls_per_action']} public + {result['private_calls_per_action']} private views "
                  f"for {result['changed_seats_per_action']} changed seats (goal ≤ {GOAL_EXTRA_CALLS} + one per "
                  f"changed seat: {'met' if result['goal_met'] else 'MISSED'})", flush=True)
    print(json.dumps({"levels": results, "cores": os.cpu_count(),
                      "bot": "in-process" if args.in_process else "child process"}))


if __name__ == "__main__":
    main()
