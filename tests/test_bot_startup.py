"""`python bot.py` without a token: exits non-zero fast, with one line naming the setting."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_missing_token_exits_nonzero_within_seconds(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "", "DATABASE_PATH": str(tmp_path / "x.db")}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=10)
    elapsed = time.monotonic() - started
    assert proc.returncode != 0
    assert elapsed < 5.0  # imports take ~1 s; a CI machine running tests in parallel can double that
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0]
    assert not (tmp_path / "x.db").exists()


def test_settings_resolve_relative_paths_from_the_project(monkeypatch) -> None:
    from bot import ROOT as BOT_ROOT
    from runtime.settings import Settings

    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_PATH", "data/r.db")
    monkeypatch.setenv("DEV_GUILD_ID", "123")
    settings = Settings.from_env()
    assert settings.token == "abc"
    assert settings.database_path == BOT_ROOT / "data" / "r.db"
    assert settings.dev_guild_id == 123


def test_after_start_up_the_heap_is_frozen_and_collected_less_often(monkeypatch) -> None:
    """A started bot's heap is frozen, then the collector runs on `GC_THRESHOLDS` (a young
    generation of 10,000, not 700): most of a press's objects are freed before it looks."""
    import gc

    import bot

    done: list[object] = []
    monkeypatch.setattr(gc, "collect", lambda *a: done.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: done.append("freeze"))
    monkeypatch.setattr(gc, "set_threshold", lambda *t: done.append(t))
    bot.settle_heap()
    assert done == ["collect", "freeze", bot.GC_THRESHOLDS] and bot.GC_THRESHOLDS[0] >= 5_000
