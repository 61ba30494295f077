"""Smoke test of bench/e2e.py at a tiny size: one game of each kind (the Tokens test engine, Two
Fat Dudes and Fighting Words) through the fake Discord and the real bot in its own process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TOKENS_KEYS = {"games", "actions", "p50_ms", "p99_ms", "calls_per_action", "dm_calls_per_action",
               "other_calls_per_action", "changed_seats_per_action", "goal_met", "cpu_ms_per_interaction"}
GAME_KEYS = {"game", "games", "interactions", "cpu_ms_per_interaction", "p50_ms", "p99_ms", "rss_mib",
             "rest_per_interaction", "rest_per_changed_message", "changed_messages", "message_writes",
             "unanswered", "games_started"}


def test_bench_e2e_prints_one_json_line_with_the_numbers() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "e2e.py"), "--game", "tokens,hallway,words", "--games", "1",
         "--players", "2", "--actions", "2", "--think", "0.05,0.2", "--warmup", "0.2", "--window", "2"],
        capture_output=True, text=True, timeout=150, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    tokens, floor_h, hallway, floor_w, words, floor_end = result["levels"]

    # the floor bot (bench/floor.py) runs right before each game and after the last, and each
    # game's CPU is a ratio to the floor before it, to the floors either side and to the median
    floors = [floor_h["cpu_ms_per_interaction"], floor_w["cpu_ms_per_interaction"], floor_end["cpu_ms_per_interaction"]]
    for floor, level, after in ((floor_h, hallway, floor_w), (floor_w, words, floor_end)):
        assert floor["game"] == "floor" and floor["interactions"] >= 1 and floor["cpu_ms_per_interaction"] > 0
        assert level["floor_cpu_ms_per_interaction"] == floor["cpu_ms_per_interaction"]
        assert level["cpu_vs_floor"] == round(level["cpu_ms_per_interaction"] / floor["cpu_ms_per_interaction"], 2)
        assert level["floors_around_ms"] == [floor["cpu_ms_per_interaction"], after["cpu_ms_per_interaction"]]
        assert level["cpu_vs_floors_around"] == round(
            level["cpu_ms_per_interaction"] / ((floor["cpu_ms_per_interaction"] + after["cpu_ms_per_interaction"]) / 2), 2)
        assert level["cpu_vs_median_floor"] == round(level["cpu_ms_per_interaction"] / sorted(floors)[1], 2)
    assert "summary: bot CPU per interaction" in done.stdout

    assert set(tokens) >= TOKENS_KEYS
    assert tokens["games"] == 1 and tokens["actions"] == 2
    assert 0 < tokens["p50_ms"] <= tokens["p99_ms"]
    # each press: the callback (the presser's hand, updated in place) and the table edit; the
    # other seat's DM only when it changed; one result post for the game
    split = tokens["dm_calls_per_action"] + tokens["other_calls_per_action"]
    assert abs(tokens["calls_per_action"] - split) < 0.01
    assert tokens["dm_calls_per_action"] <= tokens["changed_seats_per_action"]

    for level, game in ((hallway, "hallway"), (words, "words")):
        assert set(level) >= GAME_KEYS
        assert level["game"] == game and level["games"] == level["games_started"] == 1
        # players act from what they are shown, and every interaction is answered
        assert level["interactions"] >= 1 and level["unanswered"] == 0
        assert 0 < level["p50_ms"] <= level["p99_ms"]
        assert level["cpu_ms_per_interaction"] > 0 and level["rss_mib"] > 0
        assert level["changed_messages"] > 0 and level["rest_per_changed_message"] >= 1.0


def test_bench_e2e_runs_two_sharded_processes_on_postgresql() -> None:
    """`--processes 2`: games in a guild of each shard, DMs at shard 0, both processes answering."""
    import pytest

    from tests import pg

    if pg.find_bin_dir() is None:
        pytest.skip("PostgreSQL not available: no server binaries")
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "e2e.py"), "--game", "words", "--games", "4", "--database",
         "postgresql", "--processes", "2", "--think", "0.05,0.2", "--warmup", "0.5", "--window", "3",
         "--no-floor"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    [words] = result["levels"]
    assert result["processes"] == 2 and words["processes"] == 2 and words["database"] == "postgresql"
    assert words["games_started"] == 4 and words["interactions"] >= 1 and words["unanswered"] == 0
    assert words["cpu_ms_per_interaction"] > 0 and words["rss_mib"] > 0


def test_bench_e2e_refuses_two_processes_on_sqlite() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "e2e.py"), "--processes", "2"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "--database postgresql" in done.stderr


def test_the_bench_reads_a_process_cpu_to_well_under_a_clock_tick() -> None:
    """The CI run failed once on /proc's 10 ms ticks: a two-second window of a few presses read
    0 ms of bot CPU. The bench reads another process's CPU clock to the nanosecond."""
    import os
    import time

    from bench.floor import cpu_seconds

    before_own, before = time.process_time(), cpu_seconds(os.getpid())
    spin_until = time.process_time() + 0.002  # 2 ms: a fifth of a tick
    while time.process_time() < spin_until:
        pass
    after, after_own = cpu_seconds(os.getpid()), time.process_time()
    assert 0.002 <= after - before <= after_own - before_own + 0.001


def test_rounds_are_pooled_against_the_floors_before_and_after_each() -> None:
    """`--rounds`: a game's CPU over all its rounds' interactions, against the CPU of the floors
    right before and after its rounds over all their presses (a floor between rounds once)."""
    from bench.e2e import print_pooled

    def level(game: str, cpu: float, interactions: int, **more: Any) -> dict[str, Any]:
        return {"game": game, "games": 100, "cpu_ms_per_interaction": cpu, "interactions": interactions, **more}

    results = [level("floor", 1.0, 100), level("hallway", 3.0, 50, round=1, cpu_vs_floors_around=2.4),
               level("floor", 1.5, 100), level("hallway", 2.0, 150, round=2, cpu_vs_floors_around=1.8),
               level("floor", 1.1, 200), level("words", 4.0, 10, round=1, cpu_vs_floors_around=3.6),
               level("floor", 1.2, 100)]
    hallway, words = print_pooled(results)
    assert hallway["rounds"] == 2 and hallway["floors"] == 3 and hallway["interactions"] == 200
    assert hallway["cpu_ms_per_interaction"] == round((3.0 * 50 + 2.0 * 150) / 200, 2)
    floor = (1.0 * 100 + 1.5 * 100 + 1.1 * 200) / 400
    assert hallway["floor_cpu_ms_per_interaction"] == round(floor, 2)
    assert hallway["cpu_vs_floor"] == round(2.25 / floor, 2)
    assert hallway["rounds_vs_floors_around"] == [2.4, 1.8] and hallway["goal"] == 2.5
    assert words["floors"] == 2 and words["cpu_vs_floor"] == round(4.0 / ((1.1 * 200 + 1.2 * 100) / 300), 2)


def test_each_run_of_a_level_gets_a_database_of_its_own(tmp_path: Path) -> None:
    """A second round on the first one's SQLite file resumed its 100 games, their players gone:
    their timers fired in the window (86-143 timer actions, 1.3-1.5 REST writes per change)."""
    import argparse
    import asyncio

    from bench.e2e import level_database

    args = argparse.Namespace(database="sqlite")
    first = asyncio.run(level_database(args, tmp_path, "e2e-hallway-100.db"))
    Path(first).write_bytes(b"")  # the bot made it
    second = asyncio.run(level_database(args, tmp_path, "e2e-hallway-100.db"))
    Path(second).write_bytes(b"")
    third = asyncio.run(level_database(args, tmp_path, "e2e-hallway-100.db"))
    assert len({first, second, third}) == 3 and all(Path(p).parent == tmp_path for p in (first, second, third))
