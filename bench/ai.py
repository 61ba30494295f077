#!/usr/bin/env python3
"""How strong and how quick each game's computer player is, against a uniformly random
legal player, over seeded games (the engines alone: no Discord, no database).

    python bench/ai.py                    # every game with a policy, 200 games each
    python bench/ai.py --game tarot --games 400

Seats: in a two-sided game the computer takes one side and the random player the other,
alternating sides from game to game; in tarot a computer pair plays a random pair; in Table
Fencing (three players) one computer plays two random players. A win is a first place the
computer side does not share with every other seat. The games are the ones every game's
`tests/<game>/test_ai.py` plays, through the one computer-vs-random playout
(`tests/computers.py`): the random player picks uniformly among `Engine.legal_actions` (the
game's own timers fire as in the contract playouts); the computer is asked through
`games.computer.Policy` with its seat's view alone, and its move is made `delay` seconds after
the previous one (a human-like pace; the random player takes 0.5, 2 or 30 s).

Prints one line per game, then as its last line one JSON object:
{"<game>": {"games", "wins", "draws", "win_rate", "decisions", "ms_p50", "ms_p99", "ms_max",
"illegal"}, ...}.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.computer import Policy  # noqa: E402
from games.core import Engine  # noqa: E402
from games.registry import BUILTIN_GAMES, get_engine, get_policy  # noqa: E402
from tests.computers import setup, versus_random, won  # noqa: E402


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    illegal: int = 0
    unfinished: int = 0
    decision_ms: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        times = sorted(self.decision_ms) or [0.0]
        return {
            "games": self.games, "wins": self.wins, "draws": self.draws,
            "win_rate": round(self.wins / self.games, 3) if self.games else 0.0,
            "decisions": len(self.decision_ms),
            "ms_p50": round(statistics.median(times), 3),
            "ms_p99": round(times[min(len(times) - 1, int(len(times) * 0.99))], 3),
            "ms_max": round(times[-1], 3), "illegal": self.illegal, "unfinished": self.unfinished,
        }


def play_one(engine: Engine, policy: Policy[Any], seed: int, players: int, options: dict[str, Any],
             computers: set[int], tally: Tally) -> None:
    """One game of the shared computer-vs-random playout (tests/computers.py), counted."""
    run = versus_random(engine, policy, seed, players, computers, options, strict=False)
    tally.illegal += run.illegal
    tally.decision_ms += run.decision_ms
    if not run.finished:
        tally.unfinished += 1
        return
    tally.games += 1
    result = won(engine, run, computers, players)
    tally.wins += result == "win"
    tally.draws += result == "draw"


def bench(name: str, games: int, first_seed: int) -> dict[str, Any]:
    engine = get_engine(name)
    policy = get_policy(name)
    if policy is None:
        return {"games": 0, "note": "no computer player"}
    tally = Tally()
    for game in range(games):
        players, options, computers = setup(engine, game)
        play_one(engine, policy, first_seed + game, players, options, computers, tally)
    return tally.summary()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=BUILTIN_GAMES)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    for name in args.game or BUILTIN_GAMES:
        started = time.perf_counter()
        results[name] = summary = bench(name, args.games, args.seed)
        if summary.get("games"):
            print(f"{name:9} win {summary['win_rate']:.1%} ({summary['wins']}/{summary['games']},"
                  f" {summary['draws']} shared)  decision p50 {summary['ms_p50']} ms"
                  f" p99 {summary['ms_p99']} ms max {summary['ms_max']} ms  illegal {summary['illegal']}"
                  f"  [{time.perf_counter() - started:.1f} s]", flush=True)
        else:
            print(f"{name:9} {summary.get('note')}", flush=True)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
