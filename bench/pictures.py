#!/usr/bin/env python3
"""What one picture costs: CPU time per render (draw + PNG encoding) and its size, median over
views sampled from random playouts (tests/playout.py), for every picture the games draw; each
view's first drawing (its strings not yet in the text caches) and a second one.

    PYTHONPATH=. python bench/pictures.py [--views 50] [--save /tmp/pictures]
    PYTHONPATH=. python bench/pictures.py --fencing   # only the Table Fencing map (first picture
                                                    # in a process, new boards p50/p99, cached)

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



# -- Table Fencing: the map of Ohio -------------------------------------------------------------------
def fencing_views(count: int) -> list[dict[str, Any]]:
    """`count` distinct boards: the map's fields of a public view, pieces on seeded random towns,
    the last move a random road path (or an off-road hop) of one of them."""
    import random

    from games.fencing.region import load

    region = load("ohio")
    rng = random.Random(13)
    towns, pieces = sorted(region.towns), ("BK", "WR", "BN", "WN", "WB")
    views = []
    for n in range(count):
        places = dict(zip(pieces, rng.sample(towns, 5), strict=True))
        difficulty = ("interstate", "state", "backroads")[n % 3]
        mover = rng.choice(pieces)
        paths = region.road_paths(places[mover], difficulty)
        if paths and n % 4:
            to = rng.choice(sorted(paths))
            route, offroad = paths[to][0][0], False
        else:
            to = rng.choice(sorted(region.offroad_targets(places[mover])))
            route, offroad = [to], True
        move = {"piece": mover, "from": places[mover], "to": to, "route": route, "offroad": offroad}
        places[mover] = to if to not in places.values() else places[mover]
        views.append({"region": "ohio", "difficulty": difficulty, "bumper_no": 1 + n % 4, "trick_no": n % 30,
                      "attacked": rng.choice(pieces), "streak": {"owner": 0, "last_move": move},
                      "pieces": {p: {"town": t, "colour": p[0], "offroad": False} for p, t in places.items()}})
    return views


def fencing_map(count: int, save: Path | None) -> dict[str, Any]:
    """The map: a process's first picture (layout, static layers), then each new board (p50,
    p99) and the same boards again (served from the picture cache)."""
    from cogs.fencing import render as fencing_render

    views = fencing_views(count)
    fencing_render.clear_caches()
    started = time.process_time()
    fencing_render.ohio_map(views[0])
    first = (time.process_time() - started) * 1000
    for difficulty in ("interstate", "state", "backroads"):  # each difficulty's static map, once a process
        fencing_render.base(difficulty)
    costs, sizes, cached = [], [], []
    for n, view in enumerate(views[1:], 1):
        started = time.process_time()
        png = fencing_render.ohio_map(view)
        costs.append((time.process_time() - started) * 1000)
        sizes.append(len(png))
        started = time.perf_counter()  # the same board posted again
        fencing_render.ohio_map(view)
        cached.append((time.perf_counter() - started) * 1000)
        if save is not None and n % max(1, count // 4) == 0:
            (save / f"fencing-{n}.png").write_bytes(png)
    costs.sort()
    return {"first_in_process_ms": round(first, 1), "median_ms": round(statistics.median(costs), 2),
            "p99_ms": round(costs[min(len(costs) - 1, int(0.99 * len(costs)))], 2),
            "p90_ms": round(costs[int(0.9 * len(costs))], 2), "warm_median_ms": round(statistics.median(cached), 4),
            "cached_median_ms": round(statistics.median(cached), 4), "kib": round(statistics.median(sizes) / 1024, 1),
            "max_kib": round(max(sizes) / 1024, 1), "views": len(views), "width_px": [fencing_render.WIDTH]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=50)
    parser.add_argument("--save", type=Path, help="write some of the pictures to this folder")
    parser.add_argument("--fencing", action="store_true", help="only the Table Fencing map")
    args = parser.parse_args()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    if args.fencing:
        result = fencing_map(args.views, args.save)
        print(f"fencing_map: first picture in a process {result['first_in_process_ms']} ms CPU; a new board "
              f"median {result['median_ms']} ms, p99 {result['p99_ms']} ms; the same board again "
              f"{result['cached_median_ms']} ms; {result['kib']} KiB (max {result['max_kib']})")
        print(json.dumps({"fencing_map": result}))
        return
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
    results["fencing_map"] = fencing_map(args.views, args.save)
    for name, r in results.items():
        print(f"{name:>12}: median {r['median_ms']} ms CPU, p90 {r['p90_ms']} ms (drawn again: "
              f"{r['warm_median_ms']} ms), {r['kib']} KiB, {r['width_px']} px wide ({r['views']} views)")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
