"""Smoke test of bench/e2e.py: one tiny game through the fake Discord and the real bot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEYS = {"games", "actions", "p50_ms", "p99_ms", "calls_per_action", "dm_calls_per_action",
        "other_calls_per_action", "changed_seats_per_action", "goal_met"}


def test_bench_e2e_prints_one_json_line_with_the_numbers() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "e2e.py"), "--games", "1", "--players", "2", "--actions", "2",
         "--think", "0"],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    [level] = result["levels"]
    assert set(level) >= KEYS
    assert level["games"] == 1 and level["actions"] == 2
    assert 0 < level["p50_ms"] <= level["p99_ms"]
    # each press: the callback (the presser's hand, updated in place) and the table edit; the
    # other seat's DM only when it changed; one result post for the game
    split = level["dm_calls_per_action"] + level["other_calls_per_action"]
    assert abs(level["calls_per_action"] - split) < 0.01
    assert level["dm_calls_per_action"] <= level["changed_seats_per_action"]
