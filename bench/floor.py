#!/usr/bin/env python3
"""The floor: what a minimal discord.py bot pays per button press on the same fake Discord.

A press of its one button is answered with a type-7 update (UPDATE_MESSAGE) of the message
that carries it: an embed with a picture-less table (whose turn, a move counter, a short
log), the button drawn again. Nothing is stored, nothing is drawn, nobody is pinged. What
Rumpus pays per interaction above this is its own cost; `bench/e2e.py` runs this level in
the same run and reports every game's CPU per interaction as a ratio to it.

    python bench/floor.py --games 100 --think 1,3     # on its own
    python bench/e2e.py --game hallway --games 1000   # the floor is measured first (--no-floor skips it)

The bot has the same intents as Rumpus (guilds only) and no message cache, so the ratio
measures Rumpus's work, not a difference of configuration.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from discord import app_commands  # noqa: E402

from tests.fakediscord import FakeDiscord, FakeUser, Message, pointed_at  # noqa: E402

TITLE = "Floor table"


def table_embed(moves: int, player: int) -> discord.Embed:
    """A table as a game bot would show it, without a picture."""
    embed = discord.Embed(title=TITLE, description=f"Move {moves}", colour=0x5865F2)
    embed.add_field(name="Now", value=f"Waiting for <@{player}> to press", inline=False)
    embed.add_field(name="Log", value=f"• move {moves} made\n• move {moves - 1} made" if moves > 1 else "• start",
                    inline=False)
    embed.set_footer(text="floor bench")
    return embed


class PressButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"floor:(?P<moves>\d+)"):
    """Stateless, as Rumpus's are: the move count rides in the custom_id."""

    def __init__(self, moves: int) -> None:
        super().__init__(discord.ui.Button(label="Press", style=discord.ButtonStyle.primary,
                                           custom_id=f"floor:{moves}"))
        self.moves = moves

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PressButton:
        return cls(int(match["moves"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        moves = self.moves + 1
        await interaction.response.edit_message(embed=table_embed(moves, interaction.user.id), view=view_for(moves))


def view_for(moves: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PressButton(moves))
    return view


class FloorBot(discord.Client):
    def __init__(self, guild_id: int) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, max_messages=None)
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="floor", description="open a floor table")
        async def floor(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(embed=table_embed(0, interaction.user.id), view=view_for(0))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(PressButton)
        guild = discord.Object(id=self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


def cpu_seconds(pid: int) -> float:
    """CPU time of process `pid`, all its threads (ended ones too), to the nanosecond.

    Read from the process's CPU-time clock (Linux's clock id for another process,
    `clock_getcpuclockid`); /proc/<pid>/stat counts in 10 ms ticks, too coarse for a short
    window of a few presses, and is the fallback where that clock cannot be read."""
    with contextlib.suppress(OSError):
        return time.clock_gettime(process_cpu_clock(pid))
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_cpu_clock(pid: int) -> int:
    """The clock id Linux gives the whole process `pid`'s CPU time (`CPUCLOCK_SCHED` of its
    thread group), as glibc's `clock_getcpuclockid` builds it."""
    return ((~pid) << 3) | 2


def run_queue_seconds(pid: int) -> float:
    """Seconds the threads of process `pid` spent runnable but waiting for a CPU
    (/proc/<pid>/task/*/schedstat): on a loaded machine the latencies measure this, not the bot."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def listen_overflows() -> int:
    """The machine's count of SYNs dropped by a full listen queue (TcpExt ListenOverflows, every
    process's): a rise during a level means connections to the fake waited on SYN retries."""
    with contextlib.suppress(OSError, ValueError):
        lines = Path("/proc/net/netstat").read_text().splitlines()
        for names, values in zip(lines[::2], lines[1::2], strict=False):
            if names.startswith("TcpExt:"):
                return int(dict(zip(names.split(), values.split(), strict=False))["ListenOverflows"])
    return 0


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def serve(base_url: str, token: str, guild_id: int) -> None:
    """The child process: the floor bot against the fake at `base_url`, until stdin closes."""
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    Route.BASE = f"{base_url}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base_url.replace("http://", "ws://") + "/gateway")
    client = FloorBot(guild_id)
    runner = asyncio.create_task(client.start(token))
    waiting = asyncio.create_task(client.wait_until_ready())
    await asyncio.wait({runner, waiting}, return_when=asyncio.FIRST_COMPLETED)
    if runner.done():
        runner.result()
        return
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    await reader.readline()  # "stop", or the bench went away
    await client.close()
    with contextlib.suppress(discord.DiscordException, asyncio.CancelledError):
        await runner


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_floor_level(games: int, think: tuple[float, float], warmup: float, window: float,
                          openings: int = 25, setup_timeout: float = 120.0) -> dict[str, Any]:
    """`games` channels, one player each pressing the table's button every `think` seconds once
    every table is open; the floor bot's CPU per interaction and callback latencies over `window`
    seconds after `warmup`."""
    server = await FakeDiscord(interaction_timeout=60.0).start()
    proc: asyncio.subprocess.Process | None = None
    tasks: list[asyncio.Task[None]] = []
    try:
        with pointed_at(server):
            players = [server.user(f"floor{n}") for n in range(games)]
            channels = [server.world.add_channel(server.guild, f"floor-{n}") for n in range(games)]
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(Path(__file__).resolve()), "--serve", server.base_url, "--token", server.token,
                "--guild", str(server.guild.id), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
            assert proc.stdout is not None and proc.stdin is not None
            line = await asyncio.wait_for(proc.stdout.readline(), 60.0)
            assert line.strip() == b"ready", line
            rng = random.Random(f"floor-{games}")
            gate = asyncio.Semaphore(openings)
            opened = asyncio.Event()
            tables: list[Message] = []
            stopping = False

            async def life(player: FakeUser, channel: Any) -> None:
                async with gate:
                    table = (await player.slash("floor", channel=channel)).message
                assert table is not None
                message: Message = table
                tables.append(message)
                if len(tables) == games:
                    opened.set()
                while not stopping:  # a flag as well as cancel(): the players stop even if a cancel is lost
                    await asyncio.sleep(rng.uniform(*think))
                    await player.click(message, "Press")

            tasks = [asyncio.create_task(life(p, c)) for p, c in zip(players, channels, strict=True)]
            t_setup = time.monotonic()
            with contextlib.suppress(TimeoutError):  # as the games' levels: every table open, then play
                await asyncio.wait_for(opened.wait(), setup_timeout)
            setup_s = time.monotonic() - t_setup
            await asyncio.sleep(warmup)
            cpu0, wait0, t0 = cpu_seconds(proc.pid), run_queue_seconds(proc.pid), time.monotonic()
            load = os.getloadavg()[0]
            await asyncio.sleep(window)
            cpu1, wait1, t1 = cpu_seconds(proc.pid), run_queue_seconds(proc.pid), time.monotonic()
            rss = rss_mib(proc.pid)
            stopping = True
            for task in tasks:
                task.cancel()
            _, stuck = await asyncio.wait(tasks, timeout=30.0)
            failed = sum(1 for task in tasks if task.done() and not task.cancelled() and task.exception())
            proc.stdin.write(b"stop\n")
            await proc.stdin.drain()
            await asyncio.wait_for(proc.wait(), 30.0)
            proc = None
    finally:
        for task in tasks:
            task.cancel()
        if proc is not None and proc.returncode is None:
            proc.kill()
        await server.stop()
    inters = [i for i in server.world.interactions.values()
              if i.dispatched_at is not None and t0 <= i.dispatched_at < t1 and i.type == 3]
    latencies = [i.latency * 1000 for i in inters if i.latency is not None]
    done = len(inters)
    return {
        "game": "floor", "games": games, "interactions": done,
        "interactions_per_s": round(done / (t1 - t0), 1),
        "cpu_ms_per_interaction": round((cpu1 - cpu0) * 1000 / done, 2) if done else None,
        "p50_ms": round(statistics.median(latencies), 2) if latencies else None,
        "p99_ms": round(percentile(latencies, 0.99), 2) if latencies else None,
        "rss_mib": round(rss, 1),
        "cpu_wait_percent": round((wait1 - wait0) * 100 / (t1 - t0), 1), "load_average": round(load, 2),
        "tables_open": len(tables), "setup_s": round(setup_s, 1),
        "failed_players": failed, "players_not_stopped": len(stuck),
    }


def print_floor(r: dict[str, Any]) -> None:
    print(f"  floor {r['games']:>4} games: {r['interactions']} presses ({r['interactions_per_s']}/s), "
          f"bot CPU {r['cpu_ms_per_interaction']} ms/interaction, callback p50 {r['p50_ms']} ms, "
          f"p99 {r['p99_ms']} ms, RSS {r['rss_mib']} MiB; waited for a CPU {r['cpu_wait_percent']}% of the "
          f"time (load {r['load_average']}); {r['tables_open']} tables open in {r['setup_s']} s"
          f"{f', {failed} players failed' if (failed := r['failed_players']) else ''}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--think", default="1,3", help="LOW,HIGH seconds between presses")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--window", type=float, default=30.0)
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    parser.add_argument("--guild", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve, args.token, args.guild))
        return
    low, high = (float(x) for x in args.think.split(","))
    result = asyncio.run(run_floor_level(args.games, (low, high), args.warmup, args.window))
    print_floor(result)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
