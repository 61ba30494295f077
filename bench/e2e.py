#!/usr/bin/env python3
"""End-to-end benchmark: the real bot (`bot.build_bot`) against the fake Discord of
tests/fakediscord, with simulated players in many concurrent games.

    python bench/e2e.py                                  # Hallway and Words at 1, 100, 1000 games
    python bench/e2e.py --game hallway --games 1000 --think 5,15 --window 60
    python bench/e2e.py --game tokens --games 1,10,100   # the Tokens test engine (fixed plays)
    python bench/e2e.py --games 1000 --database postgresql --processes 2   # two sharded bot processes

`--processes N` (with `--database postgresql`) runs N bot processes, shard k of N each, on one
PostgreSQL database, as in production at scale: the games are spread over one guild per shard
and every DM interaction goes to shard 0, as Discord does; CPU time and memory are summed over
the processes.

Every game has its own channel (its table goes in a thread off the lobby message) and its own
players. The bot runs in a child process of its own (talking to the fake over 127.0.0.1 like a
real deployment), so its CPU time and memory are its own.

**Real games** (`--game hallway,words`): Two Fat Dudes (2 players) and Fighting Words (3 players).
Each player watches the table (its "Now" field names who is awaited) and, in Words, their DM
hand; when they are awaited they think (`--think`, uniform, seconds), then pick among the
controls actually shown to them: Hallway's Roll, offers through the form buttons (a modal) or
the `/hallway offer` shortcut, Accept / Decline / Counter / No deal and the Edge; Words' letter
then position selects in the DM, Skip, Backspace / Editor, Claim / Keep, Steal, and the
table's Challenge / Let it stand, Tip, rock-paper-scissors and tie-break buttons. Timers run on
the real clock (a challenge window closes after 10 s, as in a real game). A finished game is
followed by a rematch in the same channel, so the number of live games stays put.
`--game tarot,kniggits,fencing` plays the other three the same way, picking among the controls
shown (see `tarot_move`, `kniggits_move`, `fencing_move`): Conference / League from the DM hands
(4 players), Kniggits from the DM panels (2 commanders: the army form, deployment, moves,
attacks, gestures; a battle lasts its 30 rounds, about 270 interactions), Table Fencing from the
shared table (3 players, its reflex races pressed by all three at once).

Right before each game, the floor runs (`bench/floor.py`, a minimal discord.py bot on the same
fake; `--no-floor` skips it, `--floor-once` runs it once per level before all the games) with as
many games, and the game's CPU per interaction is also printed as a multiple of that floor's
(`cpu_vs_floor`): on a virtual machine the speed drifts by a third over minutes (the floor
measured 1.09 and 1.49 ms 20 minutes apart), so each ratio takes the floor measured beside it.
A last floor runs after the last game, and the summary also gives each game's ratio to the mean
of the floors either side of it (`cpu_vs_floors_around`). With `--rounds N` each game runs N
times, a floor before each round: the "pooled" lines (and the JSON's `pooled`) give each game's
CPU over all its rounds against the floors' over all those before and after its rounds, so that
the machine's drift over those minutes falls on the game and its floors alike.

A level opens all its games (the players start playing once every table is open), plays
`--warmup` seconds, then measures for `--window` seconds:

* `cpu_ms_per_interaction`: the bot process's user+sys CPU time (/proc/<pid>/stat; with
  `--picture-processes N`, a comparison that draws pictures in a pool of N processes instead of
  a thread, its workers' too) over the window divided by the interactions dispatched in it
  (timer expiries are bot work too, counted in `timer_actions`);
* `sys_cpu_ms_per_interaction`, `page_faults_per_interaction` ([minor, major]): the part of it
  spent in the kernel, and the page faults behind some of it; `bench_cpu_ms_per_interaction`:
  the bench and fake's own CPU per interaction, the same work in every run of a game, so it
  moves when the machine's speed does (the bot's CPU over it stays put from run to run);
* `p50_ms`/`p99_ms`/`max_ms`: interaction dispatched → its callback reaching the fake;
* `rss_mib`: the bot's resident memory at the end of the window;
* `bot_cpu_wait_percent`, `load_average`, `listen_overflows`: how long the bot was ready to run
  but waited for a CPU (its threads' run-queue time, % of the window), the machine's load, and
  the SYNs full listen queues dropped: on a loaded machine the latencies measure these;
* `rest_per_interaction`: every REST call the bot made in the window, per interaction;
* `rest_per_changed_message`: calls that write a message (table and DM edits and sends,
  interaction callbacks that create, defer or update one, followups) divided by the number of
  messages whose content (text, embeds, components, attachment bytes) actually changed
  (`..._with_deletes` also counts the calls deleting messages that a new one replaced: one
  per message, or one bulk delete for many, as a thread's older pings go); `deferrals` and
  `unchanged_writes` are what the writes above one per change were (a late answer is deferred,
  then written: two calls for one change);
* `pictures_per_interaction`, `picture_cpu_ms_p50`: pictures drawn by the bot and the thread
  CPU time of each (measured inside the bot);
* `race_p50_ms`/`race_p99_ms` (Table Fencing): a race opening (a Catch or Don hat button
  appearing) → the callbacks of all three players' presses of it (`races`: how many).

**Tokens** (`--game tokens`): the Tokens test engine, players pressing the Play button of their
DM hand `--actions` times per game (see `run_tokens_level`), with the call split by DM/table
and the goal of issue #3 (public calls per action ≤ 1.2, private ≤ changed seats).

Prints a line or two per level, then as its last line one JSON object:
{"levels": [{"game", "games", "interactions", "cpu_ms_per_interaction", "p50_ms", "p99_ms",
"rss_mib", "rest_per_interaction", "rest_per_changed_message", ...}, ...], "cores", "bot", "goals"}.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import math
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bot as bot_module  # noqa: E402
from bench.floor import cpu_seconds, listen_overflows, run_queue_seconds  # noqa: E402
from cogs.table.registry import load_ui  # noqa: E402
from games.registry import load_builtin, load_game  # noqa: E402
from runtime.service import TableService  # noqa: E402
from tests.fakediscord import ClientRunner, FakeDiscord, FakeUser, Message, pointed_at  # noqa: E402
from tests.fakediscord.harness import GUILD_READY_TIMEOUT  # noqa: E402
from tests.fakediscord.router import CallRecord  # noqa: E402

#: Discord's window for the first answer. The bench widens the fake's window so a slow answer
#: is measured rather than failing the run, and reports how many went over this.
DISCORD_WINDOW_S = 3.0
GOAL_EXTRA_CALLS = 1.2
#: What the real games aim for (ms of bot CPU per interaction, callback p99 at 1,000 games, REST
#: calls per changed message).
GOALS = {"cpu_ms": {"hallway": 4.0, "words": 6.0}, "p99_ms": 50.0, "rest_per_changed_message": 1.05,
         # bot CPU per interaction as a multiple of the floor bot's (bench/floor.py), issue 21
         "cpu_vs_floor": {"hallway": 2.5, "words": 3.0, "tarot": 4.0, "kniggits": 4.0, "fencing": 4.0}}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
log = logging.getLogger("bench.e2e")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the bot process as the OS sees it ------------------------------------------------------------------
def kernel_share(pid: int) -> tuple[float, int, int]:
    """The process's system CPU seconds and its minor and major page faults so far: on this VM
    the kernel pages out memory it finds cold (DAMON), and re-reading it shows up here."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return int(fields[12]) / CLOCK_TICKS, int(fields[7]), int(fields[9])  # stime, minflt, majflt


def database_cpu_seconds() -> float | None:
    """CPU time of the throw-away PostgreSQL server (`--database postgresql`): the postmaster,
    the backends that ended (its children's time) and the live ones; None without one."""
    from tests import pg

    try:
        postmaster = int((pg.server().data / "postmaster.pid").read_text().split()[0])
        with open(f"/proc/{postmaster}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
    except (OSError, ValueError, pg.NoPostgres):
        return None
    total = sum(int(n) for n in fields[11:15]) / CLOCK_TICKS  # utime, stime, cutime, cstime
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                child = f.read().rpartition(")")[2].split()
        except OSError:
            continue
        if int(child[1]) == postmaster:  # ppid
            total += (int(child[11]) + int(child[12])) / CLOCK_TICKS
    return total


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


# -- what a player sees (Tokens) ------------------------------------------------------------------
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
class Observed:
    """What the bot's runtime did, counted inside the bot's process: the seats whose private
    view each action changed (`Applied.changed_seats`) and the actions applied by timers."""

    changed_seats: ClassVar[list[int]] = []
    timer_actions = 0
    pictures: ClassVar[list[float]] = []  # CPU ms of each picture drawn (in its thread)
    lags: ClassVar[list[float]] = []
    #: (generation, ms) of each garbage collection in the window (gc.callbacks)
    collections: ClassVar[list[tuple[int, float]]] = []
    measuring = False
    _collecting_since = 0.0

    @classmethod
    def reset(cls) -> None:
        cls.changed_seats, cls.timer_actions, cls.lags, cls.pictures, cls.measuring = [], 0, [], [], True
        cls.collections, cls.collection_cpu = [], []
        if cls.on_collection not in gc.callbacks:
            gc.callbacks.append(cls.on_collection)

    #: CPU ms of each collection (a pause longer than its CPU was the process waiting for a core)
    collection_cpu: ClassVar[list[float]] = []
    _collecting_cpu = 0.0

    @classmethod
    def on_collection(cls, phase: str, info: dict[str, int]) -> None:
        """Each collection's pause, as the collector reports its start and stop."""
        if phase == "start":
            cls._collecting_since, cls._collecting_cpu = time.perf_counter(), time.thread_time()
        elif cls.measuring:
            cls.collections.append((info["generation"], (time.perf_counter() - cls._collecting_since) * 1000))
            cls.collection_cpu.append((time.thread_time() - cls._collecting_cpu) * 1000)

    @classmethod
    def report(cls) -> dict[str, Any]:
        lags = sorted(cls.lags)
        pictures = sorted(cls.pictures)
        return {"changed": cls.changed_seats, "timer_actions": cls.timer_actions, "pictures": len(pictures),
                "picture_ms_p50": round(statistics.median(pictures), 2) if pictures else None,
                "picture_ms_total": round(sum(pictures), 1),
                "loop_lag_p50_ms": round(statistics.median(lags), 2) if lags else None,
                "loop_lag_p99_ms": round(percentile(lags, 0.99), 2) if lags else None,
                "loop_lag_max_ms": round(lags[-1], 2) if lags else None,
                "gc_ms_total": round(sum(ms for _, ms in cls.collections), 1),
                "gc_full": sum(1 for generation, _ in cls.collections if generation == 2),
                "gc_max_ms": round(max((ms for _, ms in cls.collections), default=0.0), 2),
                "gc_cpu_ms_total": round(sum(cls.collection_cpu), 1),
                "gc_cpu_max_ms": round(max(cls.collection_cpu, default=0.0), 2),
                "gc_by_generation": {generation: [len(pauses), round(sum(pauses), 1), round(max(pauses), 2)]
                                     for generation in range(3)
                                     if (pauses := [ms for g, ms in cls.collections if g == generation])}}


def observe_runtime() -> None:
    original_act, original_expire = TableService.act, TableService.expire
    if getattr(original_act, "_bench_observed", False):
        return
    from cogs.table import present

    draw = present._draw

    async def timed_draw(screen: Any, key: str | None = None) -> Any:
        """Time each picture in the thread that draws it (thread CPU time)."""
        image = screen.image
        if image is not None:
            def timed() -> bytes:
                started = time.thread_time()
                try:
                    return image()  # type: ignore[no-any-return]
                finally:
                    if Observed.measuring:
                        Observed.pictures.append((time.thread_time() - started) * 1000)
            screen.image = timed
        return await draw(screen, key)

    present._draw = timed_draw  # type: ignore[assignment]

    async def act(self: TableService, *args: Any, **kwargs: Any) -> Any:
        applied = await original_act(self, *args, **kwargs)
        Observed.changed_seats.append(len(applied.changed_seats))
        return applied

    async def expire(self: TableService, *args: Any, **kwargs: Any) -> Any:
        done = await original_expire(self, *args, **kwargs)
        Observed.timer_actions += len(done)
        return done

    act._bench_observed = True  # type: ignore[attr-defined]
    TableService.act = act  # type: ignore[method-assign]
    TableService.expire = expire  # type: ignore[method-assign]


async def watch_loop_lag(every: float = 0.02) -> None:
    """How late the bot's event loop wakes a sleeper (the time it was blocked by something)."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(every)
        if Observed.measuring:
            Observed.lags.append(max(0.0, loop.time() - started - every) * 1000)


def draw_pictures_in_thread() -> None:
    """For comparison only: draw pictures in a thread (`asyncio.to_thread`), as the bot did
    before it drew them on the event loop."""
    from cogs.table import present

    draw = present._draw

    async def in_thread(screen: Any, key: str | None = None) -> Any:
        if screen.image is not None and (key is None or present.IMAGES.get(key) is None):
            image = screen.image
            png = await asyncio.to_thread(image)
            screen.image = lambda: png
        return await draw(screen, key)

    present._draw = in_thread  # type: ignore[assignment]


def draw_pictures_in_processes(workers: int) -> None:
    """For comparison only (issue 21 item 6): draw pictures in a pool of `workers` processes
    instead of a thread (a drawing that cannot be pickled, a lambda, still goes to a thread).
    The workers are the bot's children: their CPU is counted with the bot's (`ChildBot.pids`)."""
    import atexit
    import concurrent.futures
    import multiprocessing
    import pickle

    from cogs.table import present

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([f"cogs.{game}.ui" for game in ("hallway", "words", "tarot", "fencing",
                                                                   "kniggits")])
    pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=context)
    atexit.register(pool.shutdown)  # before the interpreter's teardown, which the pool's callbacks outlive
    for done in [pool.submit(len, "") for _ in range(workers)]:  # start every worker now
        done.result()

    async def pooled(screen: Any, key: str | None = None) -> Any:
        if screen.image is None:
            return None
        png = present.IMAGES.get(key) if key is not None else None
        if png is None:
            try:
                png = await asyncio.get_running_loop().run_in_executor(pool, screen.image)
            except (AttributeError, TypeError, pickle.PicklingError):
                png = await asyncio.to_thread(screen.image)
            if key is not None:
                present.IMAGES.put(key, png)
        import discord

        return (discord.File(present.io.BytesIO(png), filename=screen.image_name),
                hashlib.blake2b(png, digest_size=16).hexdigest())

    present._draw = pooled  # type: ignore[assignment]


def descendants(pid: int) -> list[int]:
    """The processes under `pid` (a picture pool's workers), from /proc."""
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                found += [int(child), *descendants(int(child))]
    except OSError:
        pass
    return found


def stub_pictures() -> None:
    """For comparison only: no picture is drawn (a fixed 1×1 PNG stands in), to see what the
    pictures cost of the bot's CPU."""
    from cogs.table import present

    blank = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                          "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")

    async def stub(screen: Any, key: str | None = None) -> Any:
        if screen.image is None:
            return None
        import discord

        return (discord.File(present.io.BytesIO(blank), filename=screen.image_name), key or "blank")

    present._draw = stub  # type: ignore[assignment]


def setup_games() -> None:
    """Register the Tokens engine and its UI the way tests/conftest.py does, and the real games."""
    load_game("tests.engines.tokens")
    load_ui("tests.engines.tokens_ui")
    load_builtin()
    observe_runtime()


def bot_settings(token: str, database: Path | str, guild_id: int, shard: tuple[int, int] | None = None) -> Any:
    """`database`: a SQLite path or a `postgresql://` URL (`--database postgresql`); `shard`:
    (shard_id, shard_count) of one of several processes (`--processes`), which syncs its
    commands globally (the games are in several guilds) and only from shard 0."""
    where = ({"database_url": database} if isinstance(database, str) and database.startswith("postgresql://")
             else {"database_path": Path(database)})
    if shard is None:
        return bot_module.Settings(token=token, dev_guild_id=guild_id, log_level="WARNING", **where)
    return bot_module.Settings(token=token, log_level="WARNING", shard_count=shard[1], shard_ids=(shard[0],),
                               **where)


async def level_database(args: argparse.Namespace, folder: Path, name: str) -> Path | str:
    """A level's database: a SQLite file in the bench's folder, or (`--database postgresql`) a
    fresh database on a throw-away PostgreSQL server started by tests/pg.py (durability off:
    the figures are the bot's, not the disk's). Each run of a level gets a file of its own: a
    second round (`--rounds`) on the first one's file would resume its games, their players
    gone, and time them out."""
    if args.database == "postgresql":
        from tests import pg

        return await pg.fresh_postgres_url()
    path, n = folder / name, 1
    while path.exists():
        n += 1
        path = folder / f"{Path(name).stem}-{n}{Path(name).suffix}"
    return path


class InProcessBot:
    """The bot on the bench's own event loop (shares it with the fake server and the players)."""

    pid = None
    pids: ClassVar[list[int]] = []

    def __init__(self, server: FakeDiscord, database: Path | str, **_: Any) -> None:
        settings = bot_settings(server.token, database, server.guild.id)
        client = bot_module.build_bot(settings, guild_ready_timeout=GUILD_READY_TIMEOUT)
        self.runner = ClientRunner(server, client, server.token)

    async def start(self) -> None:
        await self.runner.start(timeout=30.0)

    async def mark(self) -> None:
        Observed.reset()

    async def stats(self) -> dict[str, Any]:
        return Observed.report()

    async def stop(self) -> dict[str, Any]:
        report = Observed.report()
        await self.runner.close()
        return report

    def kill(self) -> None:
        pass


class ChildBot:
    """The bot in a child process (`--serve-bot`), talking to the fake server over 127.0.0.1 like
    a real deployment; steered by lines on its stdin: "mark" (start counting), "stats", "stop"."""

    def __init__(self, server: FakeDiscord, database: Path | str, *, loop_lag: bool = False,
                 thread_pictures: bool = False, stub: bool = False, profile: Path | None = None,
                 shard: tuple[int, int] | None = None, picture_processes: int = 0) -> None:
        self.server = server
        self.database = database
        self.flags = (["--loop-lag"] if loop_lag else []) + (["--thread-pictures"] if thread_pictures else [])
        self.flags += ["--bot-shard", f"{shard[0]}/{shard[1]}"] if shard is not None else []
        self.flags += ["--stub-pictures"] if stub else []
        self.flags += ["--picture-processes", str(picture_processes)] if picture_processes else []
        if profile is not None:
            self.flags += ["--profile", str(profile)]
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def pids(self) -> list[int]:
        """The bot's process and its children (`--picture-processes` workers)."""
        return [self.proc.pid, *descendants(self.proc.pid)] if self.proc is not None else []

    async def _line(self, timeout: float = 60.0) -> str:
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
            "--token", server.token, "--guild", str(server.guild.id), "--bot-database", str(self.database),
            *self.flags, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**26)
        assert await self._line() == "ready"

    async def mark(self) -> None:
        await self._say("mark")

    async def stats(self) -> dict[str, Any]:
        return json.loads(await self._say("stats"))  # type: ignore[no-any-return]

    async def stop(self) -> dict[str, Any]:
        assert self.proc is not None
        report = json.loads(await self._say("stop"))
        await asyncio.wait_for(self.proc.wait(), 30.0)
        return report  # type: ignore[no-any-return]

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()


class BotGroup:
    """Several ChildBots, one shard each (`--processes`), driven and measured as one bot: CPU
    and memory summed over the processes, their reports merged."""

    def __init__(self, bots: list[ChildBot]) -> None:
        self.bots = bots

    @property
    def pid(self) -> int | None:
        return self.bots[0].pid

    @property
    def pids(self) -> list[int]:
        return [pid for bot in self.bots for pid in bot.pids]

    async def start(self) -> None:
        await asyncio.gather(*(bot.start() for bot in self.bots))

    async def mark(self) -> None:
        await asyncio.gather(*(bot.mark() for bot in self.bots))

    async def stats(self) -> dict[str, Any]:
        return merge_reports(list(await asyncio.gather(*(bot.stats() for bot in self.bots))))

    async def stop(self) -> dict[str, Any]:
        return merge_reports(list(await asyncio.gather(*(bot.stop() for bot in self.bots))))

    def kill(self) -> None:
        for bot in self.bots:
            bot.kill()


def merge_reports(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """One report of several processes: counts summed, medians and percentiles the worst."""
    merged: dict[str, Any] = {"changed": [n for r in reports for n in r.get("changed", [])]}
    for key in ("timer_actions", "pictures", "picture_ms_total", "gc_ms_total", "gc_full", "gc_cpu_ms_total"):
        merged[key] = sum(r.get(key) or 0 for r in reports)
    for key in ("picture_ms_p50", "loop_lag_p50_ms", "loop_lag_p99_ms", "loop_lag_max_ms", "gc_max_ms", "gc_cpu_max_ms"):
        values = [r[key] for r in reports if r.get(key) is not None]
        merged[key] = max(values) if values else None
    return merged


async def serve_bot(base_url: str, token: str, guild_id: int, database: Path | str, *, loop_lag: bool,
                    thread_pictures: bool, stub: bool = False, profile: Path | None = None,
                    shard: tuple[int, int] | None = None, picture_processes: int = 0) -> None:
    """The child process: run the real bot against the fake server at `base_url`."""
    import discord
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    setup_games()
    if thread_pictures:
        draw_pictures_in_thread()
    if stub:
        stub_pictures()
    if picture_processes:
        draw_pictures_in_processes(picture_processes)
    Route.BASE = f"{base_url}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base_url.replace("http://", "ws://") + "/gateway")
    client = bot_module.build_bot(bot_settings(token, database, guild_id, shard), freeze_heap=True,
                                  guild_ready_timeout=GUILD_READY_TIMEOUT)
    runner = asyncio.create_task(client.start(token))
    waiting = asyncio.create_task(client.wait_until_ready())
    await asyncio.wait({runner, waiting}, return_when=asyncio.FIRST_COMPLETED)
    if runner.done():
        runner.result()  # raises what stopped the bot
        return
    lag = asyncio.create_task(watch_loop_lag()) if loop_lag else None
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    print("ready", flush=True)
    profiler = None
    while True:
        word = (await reader.readline()).decode().strip()
        if word == "mark":
            Observed.reset()
            if profile is not None:
                import cProfile

                profiler = cProfile.Profile(time.thread_time)  # CPU, not waits: the OS and the GIL
                profiler.enable()
            print("marked", flush=True)
        elif word == "stats":
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(profile)
                profiler = None
            print(json.dumps(Observed.report()), flush=True)
        else:  # "stop", or the bench went away
            break
    report = Observed.report()
    if lag is not None:
        lag.cancel()
    await client.close()
    with contextlib.suppress(discord.DiscordException, asyncio.CancelledError):
        await runner
    print(json.dumps(report), flush=True)


# == Tokens: fixed plays from the DM hand ===========================================================
@dataclass
class TokensGame:
    number: int
    players: list[FakeUser]
    channel: Any
    hands: list[Hand] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    turns: list[float] = field(default_factory=list)
    actions: int = 0

    def __post_init__(self) -> None:
        self.hands = [Hand(p) for p in self.players]


async def open_tokens_game(server: FakeDiscord, watch: Watch, game: TokensGame, hand: int) -> None:
    host, *others = game.players
    lobby = (await host.slash("tokens new", channel=game.channel, hand=hand)).message
    assert lobby is not None, f"game {game.number}: no lobby message"
    for player in others:
        await player.click(lobby, "Join")
    await host.click(lobby, "Start")
    await watch.until(lambda: all(h.current() for h in game.hands) and game.hands[0].play_button(),
                      30.0, f"game {game.number}: the hands")


async def play_tokens_game(watch: Watch, game: TokensGame, actions: int, think: tuple[float, float],
                           jitter: random.Random) -> None:
    await asyncio.sleep(jitter.random() * think[1])  # games do not start in lockstep
    seats = len(game.players)
    for n in range(actions):
        if think[1] > 0:
            await asyncio.sleep(jitter.uniform(*think))
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


async def run_tokens_level(games: int, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """Tokens: every game plays `--actions` presses of the Play button, in turn, from the DM hands."""
    players, actions, think = args.players, args.actions, args.think
    hand = math.ceil(actions / players)
    server = await FakeDiscord(interaction_timeout=60.0).start()
    database = await level_database(args, folder, f"e2e-tokens-{games}.db")
    bot: InProcessBot | ChildBot | None = None
    try:
        with pointed_at(server):
            tables = [TokensGame(n, [server.user(f"g{n}p{s}") for s in range(players)],
                                 server.add_channel(f"table-{n}")) for n in range(games)]
            bot = InProcessBot(server, database) if args.in_process else ChildBot(server, database)
            await bot.start()

            watch = Watch(server)
            t0 = time.perf_counter()
            await asyncio.gather(*(open_tokens_game(server, watch, g, hand) for g in tables))
            await server.idle(timeout=30.0)
            setup_s = time.perf_counter() - t0

            await bot.mark()
            mark = server.mark()
            cpu0 = cpu_seconds(bot.pid) if bot.pid else None
            jitter = random.Random(games)
            t1 = time.perf_counter()
            await asyncio.gather(*(play_tokens_game(watch, g, actions, think, jitter) for g in tables))
            await server.idle(timeout=30.0)
            play_s = time.perf_counter() - t1
            cpu1 = cpu_seconds(bot.pid) if bot.pid else None
            rss = rss_mib(bot.pid) if bot.pid else None
            calls = server.calls_since(mark)
            changed = (await bot.stop())["changed"]
            bot = None
    finally:
        if bot is not None:
            bot.kill()
            if isinstance(bot, InProcessBot):
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
        "game": "tokens",
        "games": games,
        "players": players,
        "actions": done,
        "interactions": done,
        "cpu_ms_per_interaction": round((cpu1 - cpu0) * 1000 / done, 2) if cpu0 is not None and done else None,
        "rss_mib": round(rss, 1) if rss is not None else None,
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "max_ms": round(max(latencies), 2),
        "over_3s": sum(1 for x in latencies if x > DISCORD_WINDOW_S * 1000),
        "turn_p50_ms": round(statistics.median(turns), 2),
        "turn_p99_ms": round(percentile(turns, 0.99), 2),
        "actions_per_s": round(done / play_s, 1),
        "calls_per_action": total_per,
        "rest_per_interaction": total_per,
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


def print_tokens_level(result: dict[str, Any]) -> None:
    print(f"tokens {result['games']:>4} games, {result['actions']} actions, {result['actions_per_s']} actions/s: "
          f"callback p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms; "
          f"turn passed p50 {result['turn_p50_ms']} ms, p99 {result['turn_p99_ms']} ms; "
          f"bot CPU {result['cpu_ms_per_interaction']} ms/action, RSS {result['rss_mib']} MiB", flush=True)
    print(f"      {result['calls_per_action']} REST calls/action = {result['other_calls_per_action']} "
          f"ack/table/other + {result['dm_calls_per_action']} DM; "
          f"{result['public_calls_per_action']} public + {result['private_calls_per_action']} private views "
          f"for {result['changed_seats_per_action']} changed seats (goal ≤ {GOAL_EXTRA_CALLS} + one per "
          f"changed seat: {'met' if result['goal_met'] else 'MISSED'})", flush=True)


# == Real games: players choosing among the controls they are shown ====================================
WAITING = re.compile(r"Waiting for <@(\d+)>")
HAND_TITLE = "Fighting Words — your hand"
#: Interaction callback types that create, defer or update a message (not PONG, autocomplete, modal).
MESSAGE_CALLBACKS = {4, 5, 6, 7}
#: Seconds a player waits for a change after acting before looking again (a refused press).
RETRY_S = 20.0
LOADING = 1 << 7


def fingerprint(msg: Message) -> str:
    """What a message shows: text, embeds, components, flags and the attachments' bytes."""
    digest = hashlib.blake2b(json.dumps([msg.content, msg.embeds, msg.components, msg.flags & ~LOADING],
                                        sort_keys=True, default=str).encode(), digest_size=16)
    for attachment in msg.attachments:
        digest.update(attachment.filename.encode())
        digest.update(attachment.data)
    return digest.hexdigest()


class Feed:
    """Wakes the players of one channel (or one user's DMs) when a message there is created or
    edited, and counts the messages whose content actually changed. It wraps the fake's own
    create/edit helpers (the one place every message write goes through), so a change wakes only
    the few players who look at that channel, not every waiter of the whole fake world."""

    def __init__(self) -> None:
        self.waiters: dict[tuple[str, int], set[asyncio.Event]] = defaultdict(set)
        self.prints: dict[int, str] = {}
        self.counting = False
        self.changed = 0
        self.changed_by: Counter[str] = Counter()
        #: Writes whose message shows what it showed before (by where), while counting.
        self.unchanged_by: Counter[str] = Counter()
        self._undo: list[Callable[[], None]] = []
        #: Set when the level ends: every wait gives up (a cancellation alone can be lost in
        #: Python 3.11's asyncio.wait_for when the awaited event fires at the same moment).
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True
        for events in self.waiters.values():
            for event in events:
                event.set()

    def install(self) -> Feed:
        from tests.fakediscord import routes_channels, routes_interactions

        for module in (routes_channels, routes_interactions):
            create, edit = module.create_message, module.edit_message

            async def created(*args: Any, _create: Any = create, **kwargs: Any) -> Message:
                msg = await _create(*args, **kwargs)
                self.touched(msg)
                return msg

            async def edited(*args: Any, _edit: Any = edit, **kwargs: Any) -> Message:
                msg = await _edit(*args, **kwargs)
                self.touched(msg)
                return msg

            module.create_message, module.edit_message = created, edited  # type: ignore[attr-defined]
            self._undo.append(lambda m=module, c=create, e=edit: (setattr(m, "create_message", c),
                                                                   setattr(m, "edit_message", e)))
        return self

    def uninstall(self) -> None:
        for undo in self._undo:
            undo()
        self._undo.clear()

    @staticmethod
    def keys_of(msg: Message) -> list[tuple[str, int]]:
        channel = msg.channel
        if channel.is_dm and channel.recipient is not None:
            return [("user", channel.recipient.id)]
        keys = [("channel", channel.id)]
        if channel.parent_id is not None:
            keys.append(("channel", channel.parent_id))
        return keys

    def touched(self, msg: Message) -> None:
        if not msg.flags & LOADING:  # a "thinking…" placeholder shows nothing yet
            shown = fingerprint(msg)
            where = "dm" if msg.channel.is_dm else "ephemeral" if msg.visible_to is not None else "channel"
            if self.prints.get(msg.id) != shown:
                self.prints[msg.id] = shown
                if self.counting:
                    self.changed += 1
                    self.changed_by[where] += 1
            elif self.counting:
                self.unchanged_by[where] += 1
        for key in self.keys_of(msg):
            for event in self.waiters.get(key, ()):
                event.set()

    async def until(self, keys: list[tuple[str, int]], predicate: Callable[[], Any], timeout: float,
                    what: str) -> Any:
        """predicate()'s first truthy value, re-checked when a message under `keys` changes
        (and every second, for what a message write does not show, such as a new thread)."""
        event = asyncio.Event()
        for key in keys:
            self.waiters[key].add(event)
        deadline = time.monotonic() + timeout
        try:
            while True:
                if self.stopped:
                    raise asyncio.CancelledError
                event.clear()
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), min(left, 1.0))
        finally:
            for key in keys:
                self.waiters[key].discard(event)


def message_write(call: CallRecord) -> bool:
    """A REST call that sends, edits, defers or answers with a message."""
    route = call.route
    if route.startswith("POST /interactions/"):
        kind = call.body.get("type") if isinstance(call.body, dict) else None
        return kind in MESSAGE_CALLBACKS
    return route in ("POST /channels/{channel_id}/messages", "PATCH /channels/{channel_id}/messages/{message_id}",
                     "POST /webhooks/{app_id}/{token}", "PATCH /webhooks/{app_id}/{token}/messages/{message_id}")


@dataclass
class Move:
    """One thing a player does: press a button, pick in a select, fill a form or run a command."""

    kind: str  # "click", "select", "form", "slash"
    message: Message | None = None
    target: str = ""  # the button's or select's custom_id, or the command
    value: Any = None  # the option picked; the form's values; the command's options


def enabled_buttons(msg: Message) -> list[dict[str, Any]]:
    return [b for b in msg.buttons() if not b.get("disabled") and b.get("style") not in (5, 6)
            and b.get("label") != "My hand"]


def awaited_ids(table: Message) -> set[int]:
    for embed in table.embeds:
        for f in embed.get("fields", []):
            if f.get("name") == "Now":
                return {int(uid) for uid in WAITING.findall(f.get("value", ""))}
    return set()


def pick_option(select: dict[str, Any], rng: random.Random) -> Move:
    return Move("select", None, select["custom_id"], rng.choice(select["options"])["value"])


@dataclass
class Table:
    """One channel, its players and the game now on it (a rematch follows each game)."""

    kind: str
    number: int
    players: list[FakeUser]
    channel: Any
    thread: Any = None
    table: Message | None = None
    round: int = 0
    over: bool = False
    finished: int = 0
    failed: int = 0
    failed_openings: int = 0
    #: Per player: (DM message count, the hand message) — re-found only when a DM arrives.
    hands: dict[int, tuple[int, Message | None]] = field(default_factory=dict)
    #: Table Fencing races: (when the race opened, ms until the callbacks of all three presses).
    races: list[tuple[float, float]] = field(default_factory=list)

    @property
    def where(self) -> Any:
        return self.thread if self.thread is not None else self.channel

    def hand(self, player: FakeUser) -> Message | None:
        channel = player.dm_channel
        count = len(channel.messages) if channel is not None else 0
        seen, msg = self.hands.get(player.id, (-1, None))
        if count != seen:
            msg = next((m for m in reversed(player.dms())
                        if any(str(e.get("title", "")).startswith(HAND_TITLES[self.kind]) for e in m.embeds)), None)
            self.hands[player.id] = (count, msg)
        return msg

    def situation(self, player: FakeUser) -> tuple[int, int, int] | None:
        """None unless the table awaits `player`; else what they see (changes when it does)."""
        table = self.table
        if table is None or self.over or player.id not in awaited_ids(table):
            return None
        hand = self.hand(player) if self.kind in HAND_TITLES else None
        return (table.edits, hand.id if hand else 0, hand.edits if hand else 0)


# -- choosing a move --------------------------------------------------------------------------------
def hallway_move(t: Table, player: FakeUser, rng: random.Random) -> Move | None:
    table = t.table
    assert table is not None
    buttons = {b["label"]: b for b in enabled_buttons(table)}

    def press(label: str) -> Move:
        return Move("click", table, buttons[label]["custom_id"])

    def offer(verb: str) -> Move:
        pay = rng.random() < 0.5
        amount = rng.randint(0, 8)
        if rng.random() < 0.3:  # the slash shortcut instead of the form
            return Move("slash", None, "hallway offer", {"kind": "pay" if pay else "ask", "amount": amount})
        label = f"{verb}: I pay you…" if pay else f"{verb}: you pay me…"
        return Move("form", table, buttons[label]["custom_id"], {"amount": str(amount)})

    if "Roll" in buttons:
        return press("Roll")
    if "Accept" in buttons:
        roll = rng.random()
        can_counter = "Counter: I pay you…" in buttons
        if roll < 0.4 or (roll >= 0.75 and not can_counter):
            return press("Accept")
        return press("Decline") if roll < 0.75 else offer("Counter")
    if "No deal" in buttons:
        return offer("Offer") if rng.random() < 0.6 else press("No deal")
    edge = [label for label in buttons if "back" in label]
    if edge:
        return press(rng.choice(edge))
    return None


def words_move(t: Table, player: FakeUser, rng: random.Random) -> Move | None:
    table = t.table
    assert table is not None
    shown = enabled_buttons(table)
    if shown:  # a window on the table: challenge, tip, rock-paper-scissors, tie-break
        by_label = {b.get("label") or b["custom_id"]: b for b in shown}
        for bold, odds in (("Challenge", 0.25), ("Use Tip", 0.3)):  # mostly let it be
            if bold in by_label and len(by_label) > 1:
                others = [label for label in by_label if label != bold]
                label = bold if rng.random() < odds else rng.choice(others)
                break
        else:
            label = rng.choice(list(by_label))
        return Move("click", table, by_label[label]["custom_id"])
    hand = t.hand(player)
    if hand is None:
        return None
    selects = {s.get("placeholder", ""): s for s in hand.selects() if not s.get("disabled")}
    buttons = {b["label"]: b for b in enabled_buttons(hand)}
    move: Move | None = None
    second_step = [s for p, s in selects.items() if p.startswith("Where does") or p.endswith(" to…")]
    if second_step:  # a letter (or Editor's letter) is picked: say where it goes
        move = pick_option(second_step[0], rng)
    elif "Claim" in buttons:
        move = Move("click", hand, buttons["Claim" if rng.random() < 0.8 else "Keep building"]["custom_id"])
    elif buttons and not selects:  # Steal / Don't steal / Go on / Skip (no cards)
        move = Move("click", hand, rng.choice(list(buttons.values()))["custom_id"])
    elif selects:
        weights = {"Play a letter…": 70, "Skip: discard a card…": 15, "Backspace: remove which letter?": 7,
                   "Editor: move which letter?": 5}
        names = list(selects)
        chosen = rng.choices(names, [weights.get(n, 20) for n in names])[0]
        move = pick_option(selects[chosen], rng)
    else:
        forms = [b for b in hand.buttons() if not b.get("disabled")]
        if forms:  # a position form (a word longer than a select holds)
            move = Move("form", hand, forms[0]["custom_id"], None)
    if move is not None and move.message is None:
        move.message = hand
    return move


def tarot_move(t: Table, player: FakeUser, rng: random.Random) -> Move | None:
    """Conference / League: the AFK vote on the table; in the DM hand, the card menu, the
    dealer's two-pick discard, the gallowglass suit, an allegiance call."""
    table = t.table
    assert table is not None
    shown = {b["label"]: b for b in enabled_buttons(table) if b.get("label") in ("Continue", "Abandon")}
    if shown:
        return Move("click", table, shown["Continue"]["custom_id"])
    hand = t.hand(player)
    if hand is None:
        return None
    selects = {s.get("placeholder", ""): s for s in hand.selects() if not s.get("disabled")}
    buttons = {b["label"]: b for b in enabled_buttons(hand)}
    if "Discard two cards" in selects:
        menu = selects["Discard two cards"]
        values = [o["value"] for o in rng.sample(menu["options"], 2)]
        return Move("select", hand, menu["custom_id"], values)
    if "Play a card" in selects:
        return Move("select", hand, selects["Play a card"]["custom_id"],
                    rng.choice(selects["Play a card"]["options"])["value"])
    if buttons:  # a gallowglass suit, or Ours / Yours / Pass
        return Move("click", hand, rng.choice(list(buttons.values()))["custom_id"])
    return None


def fencing_move(t: Table, player: FakeUser, rng: random.Random) -> Move | None:
    """Table Fencing: everything is on the table, shared by all three players. An awaited player
    pays their own penalty first, else presses the prompt's button (the golf window mostly
    Done, sometimes a Quick-switch or a Hose) or picks in its select (the move menu, the attack
    call, the handout); a press that is someone else's call is refused, as in a real game."""
    table = t.table
    assert table is not None
    buttons = {b.get("label") or b["custom_id"]: b for b in enabled_buttons(table)}
    mine = [label for label in buttons if label.startswith(("Eat chocolate", "Slide 1 point")) and player.name in label]
    if mine:
        return Move("click", table, buttons[rng.choice(mine)]["custom_id"])
    selects = [s for s in table.selects() if not s.get("disabled")]
    if selects:
        menu = selects[0] if len(selects) == 1 or rng.random() < 0.85 else rng.choice(selects)
        return Move("select", table, menu["custom_id"], rng.choice(menu["options"][:4])["value"])
    others = [label for label in buttons if not label.startswith(("Eat chocolate", "Slide 1 point"))]
    if not others:
        return None
    if "Done" in others and rng.random() < 0.8:
        label = "Done"
    elif "Hail to the fish!" in others and rng.random() < 0.6:
        label = "Hail to the fish!"
    else:
        label = rng.choice([o for o in others if o != "Insult"] or others)
    return Move("click", table, buttons[label]["custom_id"])


def kniggits_move(t: Table, player: FakeUser, rng: random.Random) -> Move | None:
    """Kniggits: the table's map and rock-paper-scissors buttons; in the DM panel the army form,
    the deployment preset and lock, the move panel (kniggit, destination, confirm), the attack
    menu, the gesture buttons, and Done / End turn."""
    table = t.table
    assert table is not None
    on_table = {b["label"]: b for b in enabled_buttons(table)}
    shapes = [x for x in ("Rock", "Paper", "Scissors") if x in on_table]
    if shapes or "Accept map" in on_table:
        return Move("click", table, on_table[rng.choice(shapes) if shapes else "Accept map"]["custom_id"])
    panel = t.hand(player)
    if panel is None:
        return None
    text = panel.text()
    selects = {s.get("placeholder", ""): s for s in panel.selects() if not s.get("disabled")}
    buttons = {b["label"]: b for b in enabled_buttons(panel)}

    def press(label: str) -> Move:
        return Move("click", panel, buttons[label]["custom_id"])

    def choose(menu: dict[str, Any], labels: tuple[str, ...] = ()) -> Move:
        good = [o for o in menu["options"] if o["label"].startswith(labels)] if labels else []
        return Move("select", panel, menu["custom_id"], rng.choice(good or menu["options"])["value"])

    if "Lock my army" in buttons:
        return press("Lock my army")
    if "Write my army" in buttons:
        return Move("form", panel, buttons["Write my army"]["custom_id"], {"lines": "Lance 3 2 2\nPage 2 2 2"})
    if "Lock deployment" in buttons:
        return press("Front rows" if "→ —" in text and "Front rows" in buttons else "Lock deployment")
    if "Lock gesture" in buttons:
        two = [s for p, s in selects.items() if p.startswith("Sword") and "(now" not in p]
        if two:
            return choose(two[0])
        picked = text.split("Your pick so far:")[-1].split("\n")[0]
        swords = [x for x in buttons if x.startswith(("Sword", "Guard 2"))]
        shields = [x for x in buttons if x.startswith("Shield")]
        if swords and "sword" not in picked and "guards" not in picked:
            return press(rng.choice(swords))
        if shields and "shield" not in picked:
            return press(rng.choice(shields))
        return press("Lock gesture")
    if "Confirm move" in buttons:
        return press("Confirm move")
    where = [s for p, s in selects.items() if p.startswith("Where does")]
    if where:
        return choose(where[0], ("Engage", "Advance", "Flag", "Potion"))
    if "Kniggit to move" in selects and rng.random() < 0.8:
        return choose(selects["Kniggit to move"])
    attack = [s for p, s in selects.items() if p.startswith("Attack")]
    if attack and rng.random() < 0.9:
        return choose(attack[0])
    for label in ("Done moving", "Done turning", "End turn"):
        if label in buttons:
            return press(label)
    return None



CHOOSE = {"hallway": hallway_move, "words": words_move, "tarot": tarot_move, "fencing": fencing_move}
SEATS = {"hallway": 2, "words": 3, "tarot": 4, "fencing": 3}
TITLES = {"hallway": "Two Fat Dudes in a Narrow Hallway", "words": "Fighting Words", "tarot": "Conference",
          "fencing": "🤺 Table Fencing"}
HAND_TITLES = {"words": (HAND_TITLE,), "tarot": ("Your hand",)}
CHOOSE["kniggits"] = kniggits_move
SEATS["kniggits"] = 2
TITLES["kniggits"] = "⚔️ Kniggits"
HAND_TITLES["kniggits"] = ("⚔️ Kniggits",)


async def perform(t: Table, player: FakeUser, move: Move, rng: random.Random) -> None:
    """Do `move`; a refusal is fine (it is answered like any press), a missing answer is counted."""
    if move.kind == "slash":
        result = await player.slash(move.target, channel=t.where, check=False, **move.value)
    elif move.kind == "select":
        assert move.message is not None
        result = await player.select(move.message, move.value, menu=move.target, check=False)
    else:
        assert move.message is not None
        result = await player.click(move.message, move.target, check=False)
        if move.kind == "form" and result.modal is not None:
            await asyncio.sleep(rng.uniform(0.5, 2.0))  # typing the amount
            values = move.value
            if values is None:  # a position form: any whole number in range
                inputs = [c for row in result.modal.get("components", [])
                          for c in row.get("components", [row.get("component")]) if c]
                values = {inputs[0]["custom_id"]: str(rng.randint(0, 5))}
            result = await player.submit(values, check=False)
    if not result.acknowledged:
        t.failed += 1


async def attempt(t: Table, player: FakeUser, move: Move, rng: random.Random) -> None:
    """`perform`, where a control that vanished meanwhile (the driver's check) is a missed move."""
    try:
        await perform(t, player, move, rng)
    except AssertionError as exc:
        t.failed += 1
        log.info("table %s: %s could not play (%s)", t.number, player.name, str(exc)[:200])


# -- one table's life: lobby, game, rematch ---------------------------------------------------------------
def find_table(t: Table, lobby: Message) -> Message | None:
    thread = lobby.thread
    where = thread if thread is not None else t.channel
    for msg in where.messages:
        if msg.id != lobby.id and msg.author.id == msg.channel.world.bot.id and any(
                TITLES[t.kind] in e.get("title", "") and not e.get("title", "").endswith(("game over", "new table"))
                for e in msg.embeds):
            t.thread = thread
            return msg
    return None


def game_over(t: Table) -> bool:
    where = t.where
    return any("game over" in e.get("title", "") for m in where.messages[-3:] for e in m.embeds)


async def open_game(t: Table, feed: Feed) -> None:
    host, *others = t.players
    lobby = (await host.slash(f"{t.kind} new", channel=t.channel)).message
    assert lobby is not None, f"table {t.number}: no lobby"
    for number, player in enumerate(others, start=1):  # partnership lobbies: two per team
        await player.click(lobby, "Join" if t.kind not in ("tarot", "kniggits") else
                          ("Join A" if number < SEATS[t.kind] // 2 else "Join B"))
    await host.click(lobby, "Start")
    t.table = await feed.until([("channel", t.channel.id)], lambda: find_table(t, lobby), 60.0,
                               f"table {t.number}: the {t.kind} table")
    t.over = False
    t.round += 1
    if t.kind in HAND_TITLES:
        started = t.table.id
        await feed.until([("user", p.id) for p in t.players],
                         lambda: all((h := t.hand(p)) is not None and h.id > started for p in t.players),
                         60.0, f"table {t.number}: the hands")


async def play(t: Table, player: FakeUser, feed: Feed, rng: random.Random, think: tuple[float, float],
               actions: list[float]) -> None:
    """One player for one game: when awaited, think, then pick among what they are shown."""
    event = asyncio.Event()
    keys = [("channel", t.where.id), ("user", player.id)]
    for key in keys:
        feed.waiters[key].add(event)
    acted_on: Any = None
    acted_at = 0.0
    try:
        while not t.over and not feed.stopped:
            event.clear()
            seen = t.situation(player)
            if seen is None or (seen == acted_on and time.monotonic() - acted_at < RETRY_S):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), RETRY_S)
                continue
            await asyncio.sleep(rng.uniform(*think))
            seen = t.situation(player)  # the world moved on while they thought?
            if seen is None:
                continue
            try:
                move = CHOOSE[t.kind](t, player, rng)
            except Exception:  # a screen this bench does not know yet: skip it, say so once
                log.exception("table %s: %s cannot choose a move", t.number, player.name)
                t.failed += 1
                move = None
            acted_on, acted_at = seen, time.monotonic()
            if move is not None:
                actions.append(time.monotonic())
                await attempt(t, player, move, rng)
    finally:
        for key in keys:
            feed.waiters[key].discard(event)


#: Table Fencing's reflex races (spec §4): a button every player may hit at once.
RACE_LABELS = ("Don hat!", "Catch! (")


def race_button(t: Table, seen: set[str]) -> dict[str, Any] | None:
    """A Catch or Don hat button on the table that was not raced yet."""
    if t.table is None:
        return None
    return next((b for b in enabled_buttons(t.table) if str(b.get("label", "")).startswith(RACE_LABELS)
                 and b["custom_id"] not in seen), None)


async def race_presses(t: Table, feed: Feed) -> None:
    """Fencing: when a race opens (a Catch or Don hat button appears), all three players press it
    at once (only the awaited count; the others get "not your call"); the time from the opening
    to the last of the three callbacks is the race's answer time."""
    seen: set[str] = set()
    while not t.over and not feed.stopped:
        button = await feed.until([("channel", t.where.id)], lambda: race_button(t, seen), float("inf"),
                                  f"table {t.number}: a race")
        opened = time.monotonic()
        seen.add(button["custom_id"])
        message = t.table
        results = await asyncio.gather(*(p.click(message, button["custom_id"], check=False) for p in t.players),
                                       return_exceptions=True)
        if all(not isinstance(r, BaseException) and r.acknowledged for r in results):
            t.races.append((opened, (time.monotonic() - opened) * 1000))


async def table_life(t: Table, feed: Feed, openings: asyncio.Semaphore, started: Callable[[], None],
                     go: asyncio.Event, rng: random.Random, think: tuple[float, float],
                     actions: list[float]) -> None:
    first = True
    while not feed.stopped:
        try:
            async with openings:
                await open_game(t, feed)
        except AssertionError as exc:  # an overloaded bot: count it, try again a little later
            t.failed_openings += 1
            log.warning("table %s: opening a game failed (%s)", t.number, str(exc)[:200])
            await asyncio.sleep(rng.uniform(*think) + 1.0)
            continue
        if first:
            started()
            first = False
            await go.wait()  # everybody plays once every table is open
        players = [asyncio.create_task(play(t, p, feed, rng, think, actions)) for p in t.players]
        if t.kind == "fencing":
            players.append(asyncio.create_task(race_presses(t, feed)))
        try:
            await feed.until([("channel", t.where.id)], lambda: game_over(t), float("inf"),
                             f"table {t.number}: the end")
        finally:
            t.over = True
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
        t.finished += 1
        await asyncio.sleep(rng.uniform(*think))  # then a rematch


async def run_game_level(kind: str, games: int, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    server = await FakeDiscord(interaction_timeout=60.0).start()
    feed = Feed().install()
    database = await level_database(args, folder, f"e2e-{kind}-{games}.db")
    bot: InProcessBot | ChildBot | BotGroup | None = None
    lives: list[asyncio.Task[None]] = []
    try:
        with pointed_at(server):
            shards = args.processes
            # one guild per shard; game n in the guild of shard n % N (DMs all reach shard 0)
            guilds = ([server.add_guild(f"Shard {k}'s", shard=(k, shards)) for k in range(shards)]
                      if shards > 1 else [server.guild])
            tables = [Table(kind, n, [server.user(f"{kind[0]}{n}p{s}", guild=guilds[n % shards])
                                      for s in range(SEATS[kind])],
                            server.world.add_channel(guilds[n % shards], f"{kind}-{n}")) for n in range(games)]
            if args.in_process:
                bot = InProcessBot(server, database)
            elif shards > 1:
                bot = BotGroup([ChildBot(server, database, loop_lag=args.loop_lag,
                                         thread_pictures=args.thread_pictures, stub=args.stub_pictures,
                                         shard=(k, shards)) for k in range(shards)])
            else:
                bot = ChildBot(server, database, loop_lag=args.loop_lag, thread_pictures=args.thread_pictures,
                               stub=args.stub_pictures, profile=args.profile,
                               picture_processes=args.picture_processes)
            await bot.start()

            rng = random.Random(f"{kind}-{games}")
            all_started = asyncio.Event()
            count = 0

            def started() -> None:
                nonlocal count
                count += 1
                if count == games:
                    all_started.set()

            openings = asyncio.Semaphore(args.openings)
            actions: list[float] = []
            t_setup = time.monotonic()
            go = asyncio.Event()
            lives = [asyncio.create_task(table_life(t, feed, openings, started, go, rng, args.think, actions))
                     for t in tables]
            waiting = asyncio.create_task(all_started.wait())
            while not all_started.is_set() and time.monotonic() - t_setup < args.setup_timeout:
                await asyncio.wait([waiting, *lives], timeout=10.0, return_when=asyncio.FIRST_COMPLETED)
                for life in lives:
                    if life.done():
                        life.result()  # raises what stopped a table (a bug of the bench)
                print(f"  … {count} of {games} {kind} games started after {time.monotonic() - t_setup:.0f} s",
                      file=sys.stderr, flush=True)
            waiting.cancel()
            setup_s = time.monotonic() - t_setup
            started_games = count
            # the fake's world and the players built so far live to the end of the level: out of
            # the bench's collector's sight, as the bot does with what its start-up built
            bot_module.settle_heap()
            go.set()
            await asyncio.sleep(args.warmup)

            await bot.mark()
            mark = server.mark()
            feed.changed, feed.changed_by, feed.unchanged_by, feed.counting = 0, Counter(), Counter(), True
            pids = bot.pids
            cpu0 = sum(map(cpu_seconds, pids)) if pids else None
            kernel0 = [sum(column) for column in zip(*map(kernel_share, pids), strict=True)] if pids else None
            wait0 = sum(map(run_queue_seconds, pids)) if pids else None
            load, overflows0 = os.getloadavg()[0], listen_overflows()
            db0 = database_cpu_seconds() if args.database == "postgresql" else None
            own0 = sum(os.times()[:2])
            t0 = time.monotonic()
            await asyncio.sleep(args.window)
            t1 = time.monotonic()
            cpu1 = sum(map(cpu_seconds, pids)) if pids else None
            kernel1 = [sum(column) for column in zip(*map(kernel_share, pids), strict=True)] if pids else None
            wait1 = sum(map(run_queue_seconds, pids)) if pids else None
            overflows = listen_overflows() - overflows0
            db1 = database_cpu_seconds() if args.database == "postgresql" else None
            own1 = sum(os.times()[:2])
            rss = sum(map(rss_mib, pids)) if pids else None
            feed.counting = False
            changed, changed_by, unchanged_by = feed.changed, dict(feed.changed_by), dict(feed.unchanged_by)
            calls = server.calls_since(mark)
            feed.stop()  # the players stop here; what they were waiting for is not waited for
            for life in lives:
                life.cancel()
            await asyncio.wait(lives, timeout=30.0)
            crashed = [life.exception() for life in lives if life.done() and not life.cancelled()
                       and life.exception() is not None]
            lives = []
            if crashed:
                raise crashed[0]
            # let the answers to the window's interactions land before the bot stops
            late = time.monotonic() + 30.0
            while time.monotonic() < late and any(
                    not i.acknowledged for i in server.world.interactions.values()
                    if i.dispatched_at is not None and t0 <= i.dispatched_at < t1):
                await asyncio.sleep(0.1)
            with contextlib.suppress(AssertionError):
                await server.idle(quiet=0.3, timeout=15.0)
            try:
                report = await asyncio.wait_for(bot.stats(), 60.0)
                await asyncio.wait_for(bot.stop(), 90.0)
            except (TimeoutError, RuntimeError) as exc:
                log.warning("the bot did not stop cleanly (%r): killed", exc)
                report = {}
            else:
                bot = None
    finally:
        for life in lives:
            life.cancel()
        if bot is not None:
            bot.kill()
            if isinstance(bot, InProcessBot):
                await bot.runner.close()
        feed.uninstall()
        await server.stop()
        gc.unfreeze()  # this level's world may go once the level is read

    inters = [i for i in server.world.interactions.values()
              if i.dispatched_at is not None and t0 <= i.dispatched_at < t1]
    latencies = [i.latency * 1000 for i in inters if i.latency is not None]
    done = len(inters)
    writes = [c for c in calls if message_write(c)]
    deletes = sum(1 for c in calls if c.route in ("DELETE /channels/{channel_id}/messages/{message_id}",
                                                  "POST /channels/{channel_id}/messages/bulk-delete"))
    span = t1 - t0
    by_type = Counter({2: "command", 3: "component", 5: "modal"}.get(i.type, str(i.type)) for i in inters)
    races = [ms for t in tables for at, ms in t.races if t0 <= at < t1]
    return {
        "game": kind,
        "games": games,
        "database": args.database,
        "processes": args.processes,
        "players": SEATS[kind],
        "interactions": done,
        "interactions_per_s": round(done / span, 1),
        "interaction_kinds": dict(by_type),
        "unanswered": sum(1 for i in inters if not i.acknowledged),
        "cpu_ms_per_interaction": round((cpu1 - cpu0) * 1000 / done, 2) if cpu0 is not None and done else None,
        "bot_cpu_percent": round((cpu1 - cpu0) * 100 / span, 1) if cpu0 is not None else None,
        "bench_cpu_percent": round((own1 - own0) * 100 / span, 1),
        # the same players and fake answer every run of a game alike: when this moves, the machine did
        "bench_cpu_ms_per_interaction": round((own1 - own0) * 1000 / done, 2) if done else None,
        # time the bot was ready to run but waited for a CPU (other processes on the machine)
        "bot_cpu_wait_percent": round((wait1 - wait0) * 100 / span, 1) if wait0 is not None and wait1 is not None
        else None,
        "load_average": round(load, 2),
        "listen_overflows": overflows,  # the machine's, in the window
        # the PostgreSQL server's CPU (its own processes), apart from the bot's
        "sys_cpu_ms_per_interaction": round((kernel1[0] - kernel0[0]) * 1000 / done, 2) if kernel0 and kernel1 and done
        else None,
        "page_faults_per_interaction": [round((kernel1[n] - kernel0[n]) / done, 2) for n in (1, 2)]
        if kernel0 and kernel1 and done else None,
        "database_cpu_ms_per_interaction": round((db1 - db0) * 1000 / done, 2) if db0 is not None and db1 is not None
        and done else None,
        "database_cpu_percent": round((db1 - db0) * 100 / span, 1) if db0 is not None and db1 is not None else None,
        "p50_ms": round(statistics.median(latencies), 2) if latencies else None,
        "p99_ms": round(percentile(latencies, 0.99), 2) if latencies else None,
        "max_ms": round(max(latencies), 2) if latencies else None,
        "over_3s": sum(1 for x in latencies if x > DISCORD_WINDOW_S * 1000),
        "rss_mib": round(rss, 1) if rss is not None else None,
        "rest_calls": len(calls),
        "rest_per_interaction": round(len(calls) / done, 3) if done else None,
        "message_writes": len(writes),
        # what the writes above one per changed message were: deferrals (type 5/6 callbacks, sent
        # when an answer is late, then the answer's own write) and writes that changed nothing
        "deferrals": sum(1 for c in writes if isinstance(c.body, dict) and c.body.get("type") in (5, 6)),
        "unchanged_writes": unchanged_by,
        "changed_messages": changed,
        "changed_by": changed_by,
        "rest_per_changed_message": round(len(writes) / changed, 3) if changed else None,
        "message_deletes": deletes,
        "rest_per_changed_message_with_deletes": round((len(writes) + deletes) / changed, 3) if changed else None,
        "timer_actions": report.get("timer_actions"),
        "pictures_per_interaction": round(report.get("pictures", 0) / done, 3) if done and report else None,
        "picture_cpu_ms_p50": report.get("picture_ms_p50"),
        "picture_cpu_ms_per_interaction": round(report.get("picture_ms_total", 0) / done, 2) if done and report
        else None,
        "loop_lag_p99_ms": report.get("loop_lag_p99_ms"),
        "loop_lag_max_ms": report.get("loop_lag_max_ms"),
        "gc_ms_total": report.get("gc_ms_total"),
        "gc_full": report.get("gc_full"),
        "gc_max_ms": report.get("gc_max_ms"),
        "gc_cpu_ms_total": report.get("gc_cpu_ms_total"),
        "gc_cpu_max_ms": report.get("gc_cpu_max_ms"),
        "gc_by_generation": report.get("gc_by_generation"),
        "games_started": started_games,
        "failed_openings": sum(t.failed_openings for t in tables),
        "missed_moves": sum(t.failed for t in tables),
        "games_finished": sum(t.finished for t in tables),
        "routes": dict(Counter(c.route for c in calls).most_common()),
        "rate_limit_hits": len(server.rate_limit_hits),
        "setup_s": round(setup_s, 1),
        "window_s": round(span, 1),
        "pictures": "stub" if args.stub_pictures else "thread" if args.thread_pictures else
        f"{args.picture_processes} processes" if args.picture_processes else "event loop",
        # fencing: a race opening (Catch / Don hat appears) → the callbacks of all three presses
        "races": len(races),
        "race_p50_ms": round(statistics.median(races), 2) if races else None,
        "race_p99_ms": round(percentile(races, 0.99), 2) if races else None,
    }


def print_game_level(r: dict[str, Any]) -> None:
    goal_cpu = GOALS["cpu_ms"].get(r["game"])
    print(f"{r['game']:>7} {r['games']:>4} games: {r['interactions']} interactions "
          f"({r['interactions_per_s']}/s, {r['unanswered']} unanswered), bot CPU {r['cpu_ms_per_interaction']} "
          f"ms/interaction{f' (goal ≤ {goal_cpu})' if goal_cpu else ''}, {r['bot_cpu_percent']}% of a core (the bench and fake: \
{r['bench_cpu_percent']}%), waited for a CPU {r['bot_cpu_wait_percent']}% of the time (load {r['load_average']}; {r['listen_overflows']} SYNs dropped by full listen queues), RSS {r['rss_mib']} MiB; "
          f"callback p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, max {r['max_ms']} ms", flush=True)
    if r.get("page_faults_per_interaction") is not None:
        minor, major = r["page_faults_per_interaction"]
        print(f"        of its CPU {r['sys_cpu_ms_per_interaction']} ms/interaction in the kernel; page faults "
              f"{minor} minor, {major} major per interaction; the bench and fake's own CPU "
              f"{r.get('bench_cpu_ms_per_interaction')} ms/interaction", flush=True)
    if r.get("cpu_vs_floor") is not None:
        print(f"        = {r['cpu_vs_floor']}× the floor bot's {r['floor_cpu_ms_per_interaction']} ms "
              f"(goal ≤ {GOALS['cpu_vs_floor'].get(r['game'])}×)", flush=True)
    if r.get("database_cpu_percent") is not None:
        print(f"        PostgreSQL server: {r['database_cpu_ms_per_interaction']} ms CPU/interaction, "
              f"{r['database_cpu_percent']}% of a core; {r['processes']} bot process(es)", flush=True)
    lag = f"; loop lag p99 {r['loop_lag_p99_ms']} ms, max {r['loop_lag_max_ms']} ms" if r["loop_lag_p99_ms"] else ""
    if r.get("gc_ms_total") is not None:
        lag += (f"; the collector paused the bot {r['gc_ms_total']} ms in all ({r['gc_full']} full collections, "
                f"longest {r['gc_max_ms']} ms; its CPU {r['gc_cpu_ms_total']} ms, longest {r['gc_cpu_max_ms']} ms)")
    print(f"        {r['rest_per_interaction']} REST calls/interaction; {r['message_writes']} message writes for "
          f"{r['changed_messages']} changed messages = {r['rest_per_changed_message']} per changed message "
          f"(goal ≤ {GOALS['rest_per_changed_message']}; {r['rest_per_changed_message_with_deletes']} counting "
          f"{r['message_deletes']} deletes; {r['deferrals']} deferrals, unchanged writes "
          f"{r['unchanged_writes'] or 0}); {r['pictures_per_interaction']} pictures/interaction "
          f"at {r['picture_cpu_ms_p50']} ms CPU (p50) = {r['picture_cpu_ms_per_interaction']} ms/interaction; "
          f"{r['timer_actions']} timer actions, "
          f"{r['games_finished']} games finished; {r['games_started']} started in {r['setup_s']} s "
          f"({r['failed_openings']} failed openings, {r['missed_moves']} missed moves){lag}", flush=True)


def print_summary(results: list[dict[str, Any]]) -> None:
    """Each game's ratio against the floor right before it, against the mean of the floors
    either side of it (the machine's drift over the game's minutes cancels out when it is
    steady), and against the median of the run's floors at its level: the floor alone moves by
    a third from run to run on a virtual machine."""
    floors: dict[int, list[float]] = {}
    for r in results:
        if r.get("game") == "floor" and r.get("cpu_ms_per_interaction"):
            floors.setdefault(r["games"], []).append(r["cpu_ms_per_interaction"])
    games = [r for r in results if r.get("game") not in (None, "floor", "tokens") and r.get("cpu_ms_per_interaction")]
    if not floors or not games:
        return
    print("summary: bot CPU per interaction, × the floor before it, × the floors either side, × the median floor "
          + ", ".join(f"({n} games: {statistics.median(f):.2f} ms of {len(f)})" for n, f in floors.items()))
    for r in games:
        median = statistics.median(floors.get(r["games"], [0.0])) or None
        r["cpu_vs_median_floor"] = round(r["cpu_ms_per_interaction"] / median, 2) if median else None
        around = floors_around(results, r)
        r["floors_around_ms"] = around
        r["cpu_vs_floors_around"] = (round(r["cpu_ms_per_interaction"] / statistics.mean(around), 2)
                                     if len(around) == 2 else None)
        goal = GOALS["cpu_vs_floor"].get(r["game"])
        print(f"  {r['game']:>8} {r['games']:>4}: {r['cpu_ms_per_interaction']:.2f} ms, {r.get('cpu_vs_floor')}× before, "
              f"{r['cpu_vs_floors_around']}× either side, {r['cpu_vs_median_floor']}× median (goal ≤ {goal}×)",
              flush=True)


def print_pooled(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each game's rounds (`--rounds`) pooled: its CPU over all its interactions against the
    floors' CPU over all their presses, the floors being those right before and after each
    round (a floor between two rounds counted once). Drift over the minutes of a game's rounds
    then weighs on its floors as on it; each round's own ratio (to the floors either side) shows
    the spread."""
    pooled = []
    for game, games in dict.fromkeys((r["game"], r["games"]) for r in results
                                     if r.get("round") and r.get("cpu_ms_per_interaction")):
        rounds = [r for r in results if r.get("round") and r["game"] == game and r["games"] == games
                  and r.get("cpu_ms_per_interaction")]
        around = sorted({n for r in rounds for n in floors_around_at(results, r)})
        floors = [results[n] for n in around]
        if not floors:
            continue
        cpu = weighted(rounds)
        floor_ms = weighted(floors)
        each = [r["cpu_vs_floors_around"] for r in rounds if r.get("cpu_vs_floors_around")]
        entry = {"game": game, "games": games, "rounds": len(rounds), "floors": len(floors),
                 "interactions": sum(r["interactions"] for r in rounds), "cpu_ms_per_interaction": round(cpu, 2),
                 "floor_cpu_ms_per_interaction": round(floor_ms, 2), "cpu_vs_floor": round(cpu / floor_ms, 2),
                 "rounds_vs_floors_around": each, "goal": GOALS["cpu_vs_floor"].get(game)}
        pooled.append(entry)
    if pooled:
        print("pooled: each game's rounds against the floors before and after each round")
    for e in pooled:
        spread = f"{min(e['rounds_vs_floors_around'])}–{max(e['rounds_vs_floors_around'])}×" \
            if e["rounds_vs_floors_around"] else "n/a"
        print(f"  {e['game']:>8} {e['games']:>4}: {e['cpu_ms_per_interaction']:.2f} ms over {e['rounds']} rounds "
              f"({e['interactions']} interactions), floor {e['floor_cpu_ms_per_interaction']:.2f} ms over "
              f"{e['floors']} floors = {e['cpu_vs_floor']}× (rounds {spread}; goal ≤ {e['goal']}×)", flush=True)
    return pooled


def weighted(levels: list[dict[str, Any]]) -> float:
    """CPU per interaction over all of `levels`' interactions together."""
    return sum(r["cpu_ms_per_interaction"] * r["interactions"] for r in levels) / \
        sum(r["interactions"] for r in levels)


def floors_around(results: list[dict[str, Any]], game: dict[str, Any]) -> list[float]:
    """The CPU per interaction of the floors run right before and right after `game` at its level."""
    return [results[n]["cpu_ms_per_interaction"] for n in floors_around_at(results, game)]


def floors_around_at(results: list[dict[str, Any]], game: dict[str, Any]) -> list[int]:
    """Where in `results` the floors right before and right after `game` at its level are."""
    at = next(n for n, r in enumerate(results) if r is game)
    level = [n for n, r in enumerate(results) if r.get("game") == "floor" and r.get("games") == game["games"]
             and r.get("cpu_ms_per_interaction")]
    before = [n for n in level if n < at and not any(
        results[m].get("game") not in ("floor", "tokens") and results[m].get("games") == game["games"]
        for m in range(n + 1, at))]
    after = [n for n in level if n > at and not any(
        results[m].get("game") not in ("floor", "tokens") and results[m].get("games") == game["games"]
        for m in range(at + 1, n))]
    return before[-1:] + after[:1]


def think_range(text: str) -> tuple[float, float]:
    parts = [float(x) for x in text.split(",")]
    low, high = (parts[0], parts[0]) if len(parts) == 1 else (parts[0], parts[1])
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError("--think is LOW,HIGH seconds with 0 <= LOW <= HIGH")
    return low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hallway,words",
                        help="comma-separated: hallway, words, tarot, kniggits, fencing, tokens")
    parser.add_argument("--games", default="1,100,1000", help="comma-separated numbers of live games")
    parser.add_argument("--think", type=think_range, default=(5.0, 15.0),
                        help="seconds a player thinks before each action, uniform in LOW,HIGH (default 5,15)")
    parser.add_argument("--warmup", type=float, default=15.0,
                        help="seconds of play once every game has started, before measuring")
    parser.add_argument("--window", type=float, default=60.0, help="seconds measured")
    parser.add_argument("--openings", type=int, default=25, help="lobbies being opened at once")
    parser.add_argument("--setup-timeout", type=float, default=120.0,
                        help="seconds to wait for every game to start before measuring anyway")
    parser.add_argument("--loop-lag", action="store_true",
                        help="sample the bot's event-loop lag (a 20 ms sleeper; costs a little CPU)")
    parser.add_argument("--thread-pictures", action="store_true",
                        help="for comparison: draw pictures in a thread, not on the bot's event loop")
    parser.add_argument("--picture-processes", type=int, default=0, metavar="N",
                        help="for comparison: draw pictures in a pool of N processes, not on the event loop "
                             "(their CPU is counted with the bot's)")
    parser.add_argument("--stub-pictures", action="store_true",
                        help="for comparison: draw no pictures (a 1×1 PNG stands in) to see what they cost")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="cProfile the bot's event loop thread over the window into FILE (slows it down)")
    parser.add_argument("--actions", type=int, default=20,
                        help="tokens: plays per game (a game ends after players × 5; fewer stops it early)")
    parser.add_argument("--players", type=int, default=4, help="tokens: players per game (2-4)")
    parser.add_argument("--in-process", action="store_true",
                        help="run the bot on the bench's event loop instead of in a child process")
    parser.add_argument("--serve-bot", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    parser.add_argument("--guild", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite",
                        help="the bot's storage: a SQLite file, or a throw-away local PostgreSQL server")
    parser.add_argument("--bot-database", help=argparse.SUPPRESS)
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes, each running one shard (shard k of N); the games are spread over "
                             "one guild per shard, DMs all go to shard 0 as on Discord; N > 1 needs "
                             "--database postgresql")
    parser.add_argument("--bot-shard", help=argparse.SUPPRESS)
    parser.add_argument("--floor-once", action="store_true",
                        help="run the floor once per level, before all the games, instead of right before "
                             "each game (quicker; the ratios then take in how the machine's speed drifts)")
    parser.add_argument("--rounds", type=int, default=1, metavar="N",
                        help="run each game level N times, each right after a floor (a floor after the "
                             "last too): the summary pools each game's rounds against the floors between "
                             "and around them, so the machine's drift over minutes falls on both alike")
    parser.add_argument("--no-floor", action="store_true",
                        help="skip the floor (bench/floor.py: a minimal discord.py bot answering a button "
                             "with a type-7 update), measured first at each level for the CPU ratios")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice-support warnings
    if args.serve_bot:
        shard = tuple(int(n) for n in args.bot_shard.split("/")) if args.bot_shard else None
        asyncio.run(serve_bot(args.serve_bot, args.token, args.guild, args.bot_database, loop_lag=args.loop_lag,
                              thread_pictures=args.thread_pictures, stub=args.stub_pictures, profile=args.profile,
                              shard=shard, picture_processes=args.picture_processes))  # type: ignore[arg-type]
        return
    kinds = [k.strip() for k in args.game.split(",") if k.strip()]
    unknown = set(kinds) - {*CHOOSE, "tokens"}
    if unknown:
        parser.error(f"unknown --game {sorted(unknown)}: choose among {', '.join([*CHOOSE, 'tokens'])}")
    levels = [int(x) for x in args.games.split(",") if x.strip()]
    if args.processes < 1 or (args.processes > 1 and (args.database != "postgresql" or args.in_process)):
        parser.error("--processes N > 1 runs N child processes on one PostgreSQL: add --database postgresql")
    if args.processes > 1 and "tokens" in kinds:
        parser.error("--processes applies to the real games, not tokens")
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    if "tokens" in kinds and (not 2 <= args.players <= 4 or not 1 <= args.actions <= args.players * 5):
        parser.error("--players must be 2-4 and --actions at most players × 5")
    setup_games()
    results = []
    floors: dict[int, float] = {}
    with_floor = not args.no_floor and bool(set(kinds) - {"tokens"})

    def floor_at(games: int) -> None:
        """Run the floor at this level (into `floors`, or none if it did not finish)."""
        from bench.floor import print_floor, run_floor_level

        warmup = min(args.warmup, 10.0)
        floors.pop(games, None)
        try:  # never let the floor hold up the games' levels
            floor = asyncio.run(asyncio.wait_for(
                run_floor_level(games, args.think, warmup, args.window, args.openings, args.setup_timeout),
                args.setup_timeout + warmup + args.window + 120.0))
        except TimeoutError:
            print(f"  floor {games:>4} games: did not finish in time; no ratios at this level", flush=True)
            return
        print_floor(floor)
        results.append(floor)
        if floor["cpu_ms_per_interaction"]:
            floors[games] = floor["cpu_ms_per_interaction"]

    if with_floor and args.floor_once:
        for games in levels:
            floor_at(games)
    with tempfile.TemporaryDirectory() as folder:
        for kind in kinds:
            for games in levels:
                if kind == "tokens":
                    result = asyncio.run(run_tokens_level(games, args, Path(folder)))
                    print_tokens_level(result)
                    results.append(result)
                    continue
                for round_ in range(1, args.rounds + 1):
                    if with_floor and not args.floor_once:
                        floor_at(games)  # right before the game: a VM's speed drifts over minutes
                    result = asyncio.run(run_game_level(kind, games, args, Path(folder)))
                    floor_ms, cpu = floors.get(games), result.get("cpu_ms_per_interaction")
                    result["round"] = round_
                    result["floor_cpu_ms_per_interaction"] = floor_ms
                    result["cpu_vs_floor"] = round(cpu / floor_ms, 2) if floor_ms and cpu else None
                    print_game_level(result)
                    results.append(result)
        if with_floor and not args.floor_once and set(kinds) - {"tokens"}:
            for games in levels:
                floor_at(games)  # after the last game too: each game has a floor either side
    print_summary(results)
    pooled = print_pooled(results) if args.rounds > 1 else []
    if args.database == "postgresql":
        from tests import pg

        pg.stop_server()
    print(json.dumps({"levels": results, "cores": os.cpu_count(), "think_s": list(args.think),
                      "bot": "in-process" if args.in_process else "child process", "database": args.database,
                      "processes": args.processes, "rounds": args.rounds, "pooled": pooled,
                      "goals": GOALS}))


if __name__ == "__main__":
    main()
