#!/usr/bin/env python3
"""What one picture costs: CPU time per render (draw + PNG encoding) and its size, median over
views sampled from random playouts (tests/playout.py), for every picture the games draw; each
view's first drawing (its strings not yet in the text caches) and a second one.

    PYTHONPATH=. python bench/pictures.py [--views 50] [--save /tmp/pictures]

Prints one line per picture, then as its last line one JSON object {picture: {"median_ms",
"p90_ms", "warm_median_ms", "kib", "views", "width_px"}}. `--save` writes a few of the PNGs there to look at.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogs.hallway import render as hallway_render  # noqa: E402
from cogs.words import render as words_render  # noqa: E402
from games.hallway import ENGINE as HALLWAY  # noqa: E402
from games.words import ENGINE as WORDS  # noqa: E402
from tests.playout import random_playout  # noqa: E402


def sample(engine: Any, players: int, count: int, seats: list[int | None]) -> list[tuple[dict[str, Any], int | None]]:
    """`count` views, spread evenly over as many random playouts as it takes."""
    states: list[Any] = []
    seed = 1
    while len(states) < count * 3:
        states.extend(random_playout(engine, players, seed).states)
        seed += 1
    step = len(states) // count
    picked = states[::step][:count]
    return [(engine.view(s, seat), seat) for i, s in enumerate(picked) for seat in seats[i % len(seats):][:1]]


def measure(draw: Callable[[dict[str, Any]], bytes], views: list[dict[str, Any]],
            save: Path | None, name: str) -> dict[str, Any]:
    draw(views[0])  # warm caches (fonts, the static board)
    costs, sizes, widths = [], [], set()
    for n, view in enumerate(views):
        started = time.process_time()
        png = draw(view)
        costs.append((time.process_time() - started) * 1000)
        sizes.append(len(png))
        widths.add(int.from_bytes(png[16:20], "big"))  # the PNG's IHDR width
        if save is not None and n % max(1, len(views) // 4) == 0:
            (save / f"{name}-{n}.png").write_bytes(png)
    again = []  # the same views drawn again: text and tiles come from the caches
    for view in views:
        started = time.process_time()
        draw(view)
        again.append((time.process_time() - started) * 1000)
    costs.sort()
    return {"median_ms": round(statistics.median(costs), 2), "p90_ms": round(costs[int(0.9 * len(costs))], 2),
            "warm_median_ms": round(statistics.median(again), 2),
            "kib": round(statistics.median(sizes) / 1024, 1), "views": len(views),
            "width_px": sorted(widths)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=50)
    parser.add_argument("--save", type=Path, help="write some of the pictures to this folder")
    args = parser.parse_args()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    hallway = [v for v, _ in sample(HALLWAY, 2, args.views, [None])]
    words_public = [v for v, _ in sample(WORDS, 3, args.views, [None])]
    words_private = [v for v, _ in sample(WORDS, 3, args.views, [0, 1, 2])]
    names = ("Alice", "Bob")
    results = {
        "hallway": measure(lambda v: hallway_render.render_hallway(v, names), hallway, args.save, "hallway"),
        "words_word": measure(lambda v: words_render.render_word(v, ("Alice", "Bob", "Cy")), words_public,
                              args.save, "word"),
        "words_hand": measure(words_render.render_hand, words_private, args.save, "hand"),
    }
    for name, r in results.items():
        print(f"{name:>12}: median {r['median_ms']} ms CPU, p90 {r['p90_ms']} ms (drawn again: "
              f"{r['warm_median_ms']} ms), {r['kib']} KiB, {r['width_px']} px wide ({r['views']} views)")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
