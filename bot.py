#!/usr/bin/env python3
"""Rumpus: a Discord bot for remote game nights.

    python bot.py        (or: python tasks.py run, which also installs everything)

Settings come from the environment and `.env` (see .env.example). Runs from any working
directory: relative paths are taken from this file's folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import logging
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from discord.ext import commands  # noqa: E402

from cogs.table import one_write  # noqa: E402
from cogs.table import pressed as lazy_messages  # noqa: E402
from cogs.table.edge import TableEdge  # noqa: E402
from cogs.table.lines import event_line  # noqa: E402
from cogs.table.rate_buckets import sweep_buckets_lazily  # noqa: E402
from games.registry import load_builtin  # noqa: E402
from runtime.clock import Clock, SystemClock  # noqa: E402
from runtime.errors import Refusal  # noqa: E402
from runtime.service import TableService  # noqa: E402
from runtime.settings import Settings, SettingsError  # noqa: E402
from runtime.timers import Timers  # noqa: E402
from storage import Storage, open_storage  # noqa: E402

log = logging.getLogger("rumpus")

#: Added to each wait: the gateway times an IDENTIFY when it arrives, not when it was sent.
IDENTIFY_SLACK = 0.1

#: Cog packages whose `setup(bot)` adds their cogs. They are set up directly rather than
#: loaded as extensions: unloading an extension on close would drop shared modules (the UI
#: registry) from `sys.modules`, and nothing here is meant to be hot-reloaded.
COG_PACKAGES = ("cogs.table.cog", "cogs.leaderboard", "cogs.night")


async def open_database(settings: Settings) -> Storage:
    """The storage the settings name: PostgreSQL at DATABASE_URL, else the SQLite file."""
    if settings.database_url is None:
        return await Storage.open(settings.database_path)
    return await open_storage(settings.database_url)


class RumpusTree(discord.app_commands.CommandTree["RumpusBot"]):
    """The bot's slash commands: each one's options checked before it runs (a wrong type or an
    unresolved user gets a short answer instead: cogs.table.options.misfit), and every error
    answered by the bot's one handler."""

    async def interaction_check(self, interaction: discord.Interaction[RumpusBot], /) -> bool:
        return await self.client.tables.check_options(interaction)

    async def on_error(self, interaction: discord.Interaction[RumpusBot],
                       error: discord.app_commands.AppCommandError, /) -> None:
        await self.client.on_app_command_error(interaction, error)


#: The collector's thresholds once start-up is frozen (gc's are 700, 10, 10). A press makes
#: thousands of short-lived objects (parsed events, requests, drawings): with a young
#: generation of 10,000 most are freed before a collection looks at them. In the e2e bench
#: (20 Hallway and Words games, think 1-3 s) the collector's time fell from 24-31 ms to 11-15 ms
#: per 20 s (about 0.07 ms per interaction), no middle or full collection in the window; a
#: young collection takes 1-3 ms instead of 0.3, and full collections come ~50× more rarely.
GC_THRESHOLDS = (10_000, 20, 20)


def settle_heap() -> None:
    """What start-up built (the dictionary index, engines, discord.py) lives as long as the
    process: out of the collector's sight (`gc.freeze`), full collections stop rescanning it
    (bench/loop.py: p99 13 → 7 ms); then the collector runs less often (`GC_THRESHOLDS`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class RumpusBot(commands.AutoShardedBot):
    """The bot, given its dependencies: settings, a clock and a source of seeds."""

    def __init__(self, settings: Settings, *, clock: Clock, rng: random.Random,
                 storage: Storage | None = None, freeze_heap: bool = False, warm_up: bool = False,
                 **client_options: Any) -> None:
        # Only what the bot reads: guilds (channels, threads, its own permissions). Everything
        # players do arrives as interactions, so message events (one per message the bot sends
        # or edits, each parsed into a Message and matched against a cache) would be paid for
        # and thrown away, as would a message cache nothing reads.
        intents = discord.Intents.none()
        intents.guilds = True
        # No message pings anyone unless it names whom (cogs/table/mentions.py): player text
        # quoted anywhere ("@everyone <@123>") reaches nobody.
        options: dict[str, Any] = {"max_messages": None, "allowed_mentions": discord.AllowedMentions.none(),
                                   **client_options}
        if settings.shard_count is not None:
            options.setdefault("shard_count", settings.shard_count)
            options.setdefault("shard_ids", list(settings.shard_ids or range(settings.shard_count)))
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, tree_cls=RumpusTree, **options)
        sweep_buckets_lazily(self.http)
        one_write.install()
        lazy_messages.install()
        self.settings = settings
        self.clock = clock
        self.rng = rng
        self._given_storage = storage
        self.freeze_heap = freeze_heap
        self.warm_up = warm_up
        self.storage: Storage
        self.service: TableService
        self.tables: TableEdge
        self.timers: Timers
        self.restored_timers = 0
        self._background: set[asyncio.Task[None]] = set()
        self._max_concurrency: int | None = None
        self._identify_locks: dict[int, asyncio.Lock] = {}
        self._identify_next: dict[int, float] = {}

    async def setup_hook(self) -> None:
        # Opened here, in login(), so it is there before connect() sends the first IDENTIFY.
        self.storage = self._given_storage or await open_database(self.settings)
        self.service = TableService(self.storage, self.clock, self.rng, describe=event_line)
        self.tables = TableEdge(self, self.service)
        self.timers = Timers(self.service, self.clock, self.tables.publish_timeout,
                             process_id=self.settings.process_id, shards=self.settings.own_shards)
        for package in COG_PACKAGES:
            await importlib.import_module(package).setup(self)
        for engine in load_builtin().values():
            await asyncio.to_thread(engine.prepare)
        # Pictures drawn once while the timers are restored: a player's first press after a
        # restart does not pay for opening fonts and drawing boards inside its 3 seconds.
        warming = asyncio.create_task(self.tables.warm()) if self.warm_up else None
        self.restored_timers = await self.timers.restore()
        log.info("restored %d game timers", self.restored_timers)
        behind = await self.storage.tables_behind()
        graced = [game.id for game in self.timers.graced]
        if warming is not None:
            await warming
        if behind or graced:
            self.tables.expect_catch_up()  # presses meanwhile are deferred sooner
            task = asyncio.create_task(self.refresh_tables(behind, graced))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        self.tables.start()
        await self.sync_commands()
        if self.freeze_heap:  # tests that start many bots in one process skip it
            settle_heap()

    async def refresh_tables(self, behind: dict[int, int], graced: list[int]) -> None:
        """Once connected, show what the stored games hold: the tables a crash left on an older
        move (and the hands that changed since), and the new countdowns of restart grace."""
        await self.wait_until_ready()
        await self.tables.catch_up(behind, graced)
        log.info("redrew %d tables left behind; gave %d games restart grace", len(behind), len(graced))

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Pace IDENTIFYs as Discord asks: one per `identify_spacing` seconds in each bucket
        `shard_id % max_concurrency` (discord.py's default sleeps 5 s before every IDENTIFY but
        the first, whatever max_concurrency is, and knows nothing of other processes). Within
        this process a lock and a next-slot time per bucket; across processes on a shared
        database, the slot is claimed in the database."""
        spacing = self.settings.identify_spacing + IDENTIFY_SLACK
        # Shard 0 is in bucket 0 whatever max_concurrency is: an unsharded bot never asks.
        bucket = shard_id % await self.max_concurrency() if shard_id else 0
        async with self._identify_locks.setdefault(bucket, asyncio.Lock()):
            wait = self._identify_next.get(bucket, 0.0) - time.monotonic()
            storage = getattr(self, "storage", None)
            if storage is not None and storage.shared:
                now = time.time()
                try:
                    wait = max(wait, await storage.claim_identify(bucket, now, spacing) - now)
                except Exception:  # the database is away: pace this process alone, still connect
                    log.exception("could not claim an identify slot in the database")
            if wait > 0:
                log.info("shard %s waits %.1f s to identify (bucket %d)", shard_id, wait, bucket)
                await asyncio.sleep(wait)
            self._identify_next[bucket] = time.monotonic() + spacing

    async def max_concurrency(self) -> int:
        """Discord's max_concurrency for this bot (GET /gateway/bot, asked once; 1 if it fails)."""
        if self._max_concurrency is None:
            try:
                limits = await self.fetch_session_start_limits()
                self._max_concurrency = max(1, int(limits.max_concurrency))
            except (discord.HTTPException, discord.GatewayNotFound, KeyError, ValueError):
                log.warning("could not read max_concurrency from Discord; identifying one at a time")
                self._max_concurrency = 1
        return self._max_concurrency

    async def sync_commands(self) -> None:
        if not self.settings.syncs_commands:
            log.info("not syncing commands: shard 0 runs in another process, which syncs them")
            return
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (they may take a while to appear)", len(synced))

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: discord.app_commands.AppCommandError) -> None:
        """One handler: refusals as a sentence, surprises as a reference code."""
        original = getattr(error, "original", error)
        from games.core import IllegalAction

        if isinstance(original, Refusal | IllegalAction):
            await self.tables.tell(interaction, original.message)
        elif isinstance(error, discord.app_commands.CheckFailure):
            await self.tables.tell(interaction, "You can't use that command here.")
        else:
            import secrets

            ref = secrets.token_hex(3)
            log.error("command failed (ref %s)", ref, exc_info=original)
            await self.tables.tell(interaction, f"Something went wrong (ref `{ref}`). The game is unchanged.")

    async def on_ready(self) -> None:
        shards = sorted(self.shards)
        log.info("ready as %s in %d servers (shards %s of %s)", self.user, len(self.guilds),
                 ",".join(map(str, shards)), self.shard_count)

    async def close(self) -> None:
        if hasattr(self, "timers"):
            try:
                await self.timers.retire()  # stops them; peers sharing the database learn it at once
            except Exception:
                log.exception("could not tell the other processes this one stops")
                self.timers.close()
        for task in list(self._background):
            task.cancel()
        if hasattr(self, "tables"):
            try:
                await self.tables.before_disconnect()
            except Exception:
                log.exception("could not send the pings on their way")
        await super().close()
        if hasattr(self, "tables"):
            try:
                await self.tables.close()  # the table versions shown, written before the database closes
            except Exception:
                log.exception("could not record the table versions shown")
        if hasattr(self, "storage"):
            await self.storage.close()


def build_bot(settings: Settings, *, clock: Clock | None = None, rng: random.Random | None = None,
              storage: Storage | None = None, freeze_heap: bool = False, warm_up: bool = False,
              **client_options: Any) -> RumpusBot:
    """The bot with real defaults; `client_options` go to discord.py's Client (for
    example `guild_ready_timeout`, which tests shorten). `freeze_heap` and `warm_up` (each
    game's pictures drawn once before connecting: cogs/table/warmup.py) are for the one bot
    of a process (`python bot.py`); tests that start many bots in one process skip them."""
    return RumpusBot(settings, clock=clock or SystemClock(), rng=rng or random.SystemRandom(),
                     storage=storage, freeze_heap=freeze_heap, warm_up=warm_up, **client_options)


async def _run(settings: Settings) -> None:
    bot = build_bot(settings, freeze_heap=True, warm_up=True)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows has no signal handlers
            loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token or ""))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("shutting down")
            # Cancelled first: a shard still connecting would otherwise see its HTTP session
            # closed under it and log a traceback (and retry) instead of stopping.
            runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await runner
            await bot.close()
        else:
            stopper.cancel()
            runner.result()


def main() -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"Bad setting: {exc} (see .env.example).", file=sys.stderr)
        return 2
    if not settings.token:
        print("Missing setting: DISCORD_TOKEN (put it in .env; see .env.example).", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level, logging.INFO))
    try:
        asyncio.run(_run(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token in DISCORD_TOKEN.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
