"""The bot's settings, read from the environment and `.env` (documented in .env.example and
the README) and checked before anything starts: a bad one stops `python bot.py` with one line
naming it. Apart from bot.py so the settings are read and tested without Discord.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

#: The project's folder (bot.py's, in a checkout or an install alike): relative paths and `.env` start here.
ROOT = Path(__file__).resolve().parents[1]

#: Discord lets each identify bucket (`shard_id % max_concurrency`) start one session per 5 s.
IDENTIFY_SPACING = 5.0
#: A player who is at the table gets this long to take their turn before they are pinged.
PING_GRACE = 20.0


class SettingsError(ValueError):
    """A setting that cannot be used (the message names it and says what is expected)."""


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """SHARD_IDS: "0,1", "0-3" or both ("0-3,8"), in the order given, without repeats."""
    out: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        first, dash, last = part.partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise SettingsError(f"SHARD_IDS: {part!r} is not a shard number or a range like 0-3")
        lo, hi = int(first), int(last) if dash else int(first)
        if hi < lo:
            raise SettingsError(f"SHARD_IDS: the range {part!r} runs backwards")
        out += [n for n in range(lo, hi + 1) if n not in out]
    if not out:
        raise SettingsError("SHARD_IDS is empty")
    return tuple(out)


@dataclass(frozen=True)
class Settings:
    """What one process runs with; checked when made, so a bad combination never starts."""

    token: str | None
    database_path: Path = ROOT / "rumpus.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    #: How many shards the bot runs in all (None: as many as Discord recommends, all in this process).
    shard_count: int | None = None
    #: The shards this process runs (None: all of them).
    shard_ids: tuple[int, ...] | None = None
    #: `postgresql://…`: a database several processes share (replaces database_path).
    database_url: str | None = None
    #: Seconds between two IDENTIFYs of one bucket (Discord: 5; tests shorten it).
    identify_spacing: float = IDENTIFY_SPACING
    #: Seconds a player who is at the table (acted in the game lately) has to answer before a
    #: ping notifies them (cogs/table/pings.py); 0 pings everyone at once.
    ping_grace: float = PING_GRACE

    def __post_init__(self) -> None:
        if self.shard_count is not None and self.shard_count < 1:
            raise SettingsError("SHARD_COUNT must be 1 or more")
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise SettingsError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all)")
            wrong = [n for n in self.shard_ids if n >= self.shard_count]
            if wrong:
                raise SettingsError(f"SHARD_IDS {wrong} are not below SHARD_COUNT={self.shard_count}")
        if not 0 <= self.ping_grace <= 600:
            raise SettingsError("PING_GRACE must be 0-600 seconds")
        if self.database_url is not None and not self.database_url.startswith(("postgresql://", "postgres://")):
            raise SettingsError("DATABASE_URL must start with postgresql:// (for SQLite, set DATABASE_PATH)")

    @property
    def own_shards(self) -> list[int]:
        """The shards this process runs, when the settings say (unsharded: decided by Discord)."""
        if self.shard_count is None:
            return []
        return list(self.shard_ids or range(self.shard_count))

    @property
    def process_id(self) -> str:
        """Names this process among those sharing a database: the same after a restart (so its
        own last heartbeat is not taken for a live peer), different for every shard set."""
        if self.shard_count is None:
            return "main"
        return f"shards {','.join(map(str, self.own_shards))} of {self.shard_count}"

    @property
    def syncs_commands(self) -> bool:
        """Only the process that runs shard 0 syncs the commands (one sync, not one per process)."""
        return self.shard_ids is None or 0 in self.shard_ids

    @classmethod
    def from_env(cls) -> Settings:
        """Read `.env` (beside bot.py, then the working directory) and the environment."""
        from dotenv import load_dotenv

        load_dotenv(ROOT / ".env")
        load_dotenv()
        database = Path(os.environ.get("DATABASE_PATH") or "rumpus.db")
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        count = os.environ.get("SHARD_COUNT", "").strip()
        if count and not count.isdigit():
            raise SettingsError(f"SHARD_COUNT must be a whole number, not {count!r}")
        ids = os.environ.get("SHARD_IDS", "").strip()
        grace = os.environ.get("PING_GRACE", "").strip()
        try:
            ping_grace = float(grace) if grace else PING_GRACE
        except ValueError:
            raise SettingsError(f"PING_GRACE must be a number of seconds, not {grace!r}") from None
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=database if database.is_absolute() else ROOT / database,
            dev_guild_id=int(guild) if guild.isdigit() else None,
            log_level=os.environ.get("LOG_LEVEL", "INFO").upper(),
            shard_count=int(count) if count else None,
            shard_ids=parse_shard_ids(ids) if ids else None,
            database_url=os.environ.get("DATABASE_URL", "").strip() or None,
            ping_grace=ping_grace,
        )
