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
import os
import random
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from discord.ext import commands  # noqa: E402

from cogs.table.components import DYNAMIC_ITEMS  # noqa: E402
from cogs.table.edge import TableEdge  # noqa: E402
from games.registry import load_builtin  # noqa: E402
from runtime.clock import Clock, SystemClock  # noqa: E402
from runtime.errors import Refusal  # noqa: E402
from runtime.service import TableService  # noqa: E402
from runtime.timers import Timers  # noqa: E402
from storage import Storage  # noqa: E402

log = logging.getLogger("rumpus")

#: Cog packages whose `setup(bot)` adds their cogs. They are set up directly rather than
#: loaded as extensions: unloading an extension on close would drop shared modules (the UI
#: registry) from `sys.modules`, and nothing here is meant to be hot-reloaded.
COG_PACKAGES = ("cogs.table", "cogs.leaderboard")


@dataclass(frozen=True)
class Settings:
    token: str | None
    database_path: Path = ROOT / "rumpus.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"

    @classmethod
    def from_env(cls) -> Settings:
        """Read `.env` (beside this file, then the working directory) and the environment."""
        from dotenv import load_dotenv

        load_dotenv(ROOT / ".env")
        load_dotenv()
        database = Path(os.environ.get("DATABASE_PATH") or "rumpus.db")
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=database if database.is_absolute() else ROOT / database,
            dev_guild_id=int(guild) if guild.isdigit() else None,
            log_level=os.environ.get("LOG_LEVEL", "INFO").upper(),
        )


class RumpusBot(commands.Bot):
    """The bot, given its dependencies: settings, a clock and a source of seeds."""

    def __init__(self, settings: Settings, *, clock: Clock, rng: random.Random,
                 storage: Storage | None = None, freeze_heap: bool = False, **client_options: Any) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        options: dict[str, Any] = {"max_messages": 500, **client_options}
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **options)
        self.settings = settings
        self.clock = clock
        self.rng = rng
        self._given_storage = storage
        self.freeze_heap = freeze_heap
        self.storage: Storage
        self.service: TableService
        self.tables: TableEdge
        self.timers: Timers
        self.restored_timers = 0
        self._background: set[asyncio.Task[None]] = set()

    async def setup_hook(self) -> None:
        self.storage = self._given_storage or await Storage.open(self.settings.database_path)
        self.service = TableService(self.storage, self.clock, self.rng)
        self.tables = TableEdge(self, self.service)
        self.timers = Timers(self.service, self.clock, self.tables.publish_timeout)
        for package in COG_PACKAGES:
            await importlib.import_module(package).setup(self)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = self.on_app_command_error
        self.tree.interaction_check = self.tables.check_options  # type: ignore[method-assign]
        for engine in load_builtin().values():
            await asyncio.to_thread(engine.prepare)
        self.restored_timers = await self.timers.restore()
        log.info("restored %d game timers", self.restored_timers)
        behind = await self.storage.tables_behind()
        graced = [game.id for game in self.timers.graced]
        if behind or graced:
            task = asyncio.create_task(self.refresh_tables(behind, graced))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        self.tables.start()
        await self.sync_commands()
        if self.freeze_heap:
            # What start-up built (the dictionary index, engines, discord.py) lives as long as
            # the process: out of the collector's sight, full collections stop rescanning it
            # (bench/loop.py: p99 13 → 7 ms). Tests that start many bots in one process skip it.
            gc.collect()
            gc.freeze()

    async def refresh_tables(self, behind: dict[int, int], graced: list[int]) -> None:
        """Once connected, show what the stored games hold: the tables a crash left on an older
        move (and the hands that changed since), and the new countdowns of restart grace."""
        await self.wait_until_ready()
        await self.tables.catch_up(behind, graced)
        log.info("redrew %d tables left behind; gave %d games restart grace", len(behind), len(graced))

    async def sync_commands(self) -> None:
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
        log.info("ready as %s in %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        if hasattr(self, "timers"):
            self.timers.close()
        for task in list(self._background):
            task.cancel()
        await super().close()
        if hasattr(self, "tables"):
            try:
                await self.tables.close()  # the table versions shown, written before the database closes
            except Exception:
                log.exception("could not record the table versions shown")
        if hasattr(self, "storage"):
            await self.storage.close()


def build_bot(settings: Settings, *, clock: Clock | None = None, rng: random.Random | None = None,
              storage: Storage | None = None, freeze_heap: bool = False, **client_options: Any) -> RumpusBot:
    """The bot with real defaults; `client_options` go to discord.py's Client (for
    example `guild_ready_timeout`, which tests shorten). `freeze_heap` is for the one bot of
    a process (`python bot.py`)."""
    return RumpusBot(settings, clock=clock or SystemClock(), rng=rng or random.SystemRandom(),
                     storage=storage, freeze_heap=freeze_heap, **client_options)


async def _run(settings: Settings) -> None:
    bot = build_bot(settings, freeze_heap=True)
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
            await bot.close()
            runner.cancel()
        else:
            stopper.cancel()
            runner.result()


def main() -> int:
    settings = Settings.from_env()
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
