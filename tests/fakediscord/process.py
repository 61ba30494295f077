"""`python bot.py`, unmodified, as a separate process against the fake Discord: discord.py's REST
base and default gateway are pointed at the fake, then bot.py runs as `__main__`. Settings come
from the environment, as in production (DISCORD_TOKEN, DATABASE_PATH or DATABASE_URL,
SHARD_COUNT, SHARD_IDS, ...)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

from .server import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]

#: Points discord.py at the fake server, runs the test's preamble (argv[4], optional), then runs
#: bot.py as `python bot.py` would.
LAUNCH = """
import sys, runpy, yarl
from discord.http import Route
from discord.gateway import DiscordWebSocket
Route.BASE = sys.argv[1]
DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
if len(sys.argv) > 4:
    exec(sys.argv[4])
sys.argv = [sys.argv[3]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


class BotProcess:
    """One running bot.py; its stdout and stderr go to `log_path` (a pipe nobody reads could
    fill up and stall a long-running bot)."""

    def __init__(self, proc: asyncio.subprocess.Process, log_path: Path) -> None:
        self.proc = proc
        self.log_path = log_path

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 15.0) -> str:
        """Send `sig`, wait for the process to end, return its log. Killed if it hangs."""
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        finally:
            if self.proc.returncode is None:
                self.proc.kill()
                await self.proc.wait()
        return self.log()

    async def kill(self) -> None:
        """SIGKILL: the process dies at once, its sockets dropped without a close frame."""
        await self.stop(signal.SIGKILL)


async def launch_bot(server: FakeDiscord, cwd: Path, name: str = "bot", *, preamble: str = "",
                     **settings: str) -> BotProcess:
    """Start bot.py with DISCORD_TOKEN for `server` plus `settings` as environment variables
    (LOG_LEVEL=INFO unless given; DATABASE_URL, SHARD_* and DEV_GUILD_ID only when given). Its
    output goes to `cwd / f"{name}.log"` (appended to, so a restart keeps the earlier lines).
    `preamble`: Python run in the process before bot.py (a test's configuration, such as a
    shorter time limit; never a change to what bot.py does)."""
    # PING_GRACE 0: every turn pinged at once, as the tests expect (tests/e2e/conftest.py does the same)
    env = {**os.environ, "DISCORD_TOKEN": server.token, "LOG_LEVEL": "INFO", "PING_GRACE": "0", **settings}
    for unset in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID"):
        if unset not in settings:
            env.pop(unset, None)
    log_path = cwd / f"{name}.log"
    with log_path.open("ab") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", LAUNCH, server.api_base, server.gateway_url, str(ROOT / "bot.py"),
            *([preamble] if preamble else []), cwd=cwd, env=env, stdout=out, stderr=asyncio.subprocess.STDOUT)
    return BotProcess(proc, log_path)
