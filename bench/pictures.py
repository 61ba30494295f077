#!/usr/bin/env python3
"""What one picture costs: CPU time per render (draw + PNG encoding) and its size, median over
views sampled from random playouts (tests/playout.py), for every picture the games draw; each
view's first drawing (its strings not yet in the text caches) and a second one.

    PYTHONPATH=. python bench/pictures.py [--views 50] [--save /tmp/pictures]
    PYTHONPATH=. python bench/pictures.py --fencing   # only the Table Fencing map (first picture
                                                    # in a process, new boards p50/p99, cached)
    PYTHONPATH=. python bench/pictures.py --kniggits  # only the Kniggits battlefield, 24/36/48 maps

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


# -- Kniggits: the battlefield ------------------------------------------------------------------------
def kniggits_views(size: int, count: int) -> list[dict[str, Any]]:
    """`count` distinct boards of a `size` field: the table's views of whole seeded random
    games (random legal actions, 50-point armies) while kniggits stand on the field, topped up
    with seeded random battles (ten kniggits a side round two fronts, engaged pairs, the last
    move and exchange, potions and obstacles)."""
    import random

    views = kniggits_games(size, count)
    rng = random.Random(size)
    for n in range(count - len(views)):
        mid = rng.randint(8, size - 7)
        front = rng.randint(8, size - 7)
        taken: set[tuple[int, int]] = set()
        ks = []
        for army, dy in (("A", -1), ("B", 1)):
            for i in range(10):
                while True:
                    xy = (min(size, max(1, mid + rng.randint(-6, 6))), min(size, max(1, front + dy * rng.randint(1, 5))))
                    if xy not in taken:
                        break
                taken.add(xy)
                ks.append({"id": f"{army}{i + 1}", "army": army, "kind": "archer" if i == 9 else "normal",
                           "two_swords": i == 8, "pos": list(xy), "facing": None, "heading": "N" if army == "A" else "S",
                           "M": rng.randint(0, 6), "A": rng.randint(0, 12), "D": rng.randint(0, 6),
                           "status": "fled" if rng.random() < 0.1 else "active", "mounted": rng.random() < 0.2,
                           "magic_sword": rng.random() < 0.2, "carrying": None, "hand": None})
        pairs = [[a["id"], b["id"]] for a in ks for b in ks if a["army"] == "A" and b["army"] == "B"
                 and (a["pos"][0] - b["pos"][0]) ** 2 + (a["pos"][1] - b["pos"][1]) ** 2 <= 4]
        mover = ks[rng.randrange(10)]
        x, y = mover["pos"]
        path = [[x, max(1, y - 3)], [x, max(1, y - 2)], [x, max(1, y - 1)], [x, y]]
        ex = pairs[0] if pairs else None
        views.append({
            "phase": "fight", "options": {"preset": "woods"},
            "battlefield": {"width": size, "height": size, "zones": {"A": [1, 6], "B": [size - 5, size]},
                            "obstacles": [[rng.randint(1, size), rng.randint(8, size - 7)] for _ in range(14)],
                            "potions": [{"id": "P1", "pos": [3, size // 2], "kind": "A"}],
                            "flags": []},
            "kniggits": ks, "engaged": pairs,
            "turn": {"round": 1 + n % 30, "rounds": 30, "army": "A"},
            "last_move": {"id": mover["id"], "path": path, "cost": "3"},
            "last_exchange": {"attacker": ex[0], "target": ex[1], "mode": "mutual"} if ex else None,
            "exchange": None, "result": None})
    return views


def kniggits_games(size: int, count: int) -> list[dict[str, Any]]:
    import random

    from games.kniggits.samples import ENGINE

    seen: dict[str, dict[str, Any]] = {}
    seed = 1
    while len(seen) < count and seed < 20:
        chooser = random.Random(seed)
        state = ENGINE.new_game(2, seed, {"size": size, "horses": True, "archers": True, "potions": 4})
        now = 1_000.0
        while ENGINE.outcome(state) is None and len(seen) < count:
            waits = ENGINE.to_act(state)
            seated = [w for w in waits if w.seat is not None]
            if seated:
                wait = chooser.choice(seated)
                actions = ENGINE.legal_actions(state, wait.seat)
                seat, action = wait.seat, chooser.choice(actions) if actions else wait.default
            else:
                seat, action = None, waits[0].default
            now += 2.0
            state, _ = ENGINE.apply(state, seat, action, now)
            view = ENGINE.view(state, None)
            if view["kniggits"]:
                seen.setdefault(json.dumps(view, sort_keys=True), view)
        seed += 1
    return list(seen.values())[:count]


def kniggits_battlefield(size: int, count: int, save: Path | None) -> dict[str, Any]:
    """The battlefield of a `size` field: a process's first picture, new boards (p50, p99;
    static layers warm) and the same boards again (the picture cache)."""
    from cogs.kniggits import render as kniggits_render

    views = kniggits_views(size, count)
    kniggits_render.clear_caches()
    started = time.process_time()
    kniggits_render.battlefield(views[0])
    first = (time.process_time() - started) * 1000
    costs, sizes, cached = [], [], []
    for n, view in enumerate(views[1:], 1):
        started = time.process_time()
        png = kniggits_render.battlefield(view)
        costs.append((time.process_time() - started) * 1000)
        sizes.append(len(png))
        started = time.perf_counter()
        kniggits_render.battlefield(view)
        cached.append((time.perf_counter() - started) * 1000)
        if save is not None and n % max(1, count // 3) == 0:
            (save / f"kniggits-{size}-{n}.png").write_bytes(png)
    costs.sort()
    return {"first_in_process_ms": round(first, 1), "median_ms": round(statistics.median(costs), 2),
            "p99_ms": round(costs[min(len(costs) - 1, int(0.99 * len(costs)))], 2),
            "p90_ms": round(costs[int(0.9 * len(costs))], 2), "warm_median_ms": round(statistics.median(cached), 4),
            "cached_median_ms": round(statistics.median(cached), 4), "kib": round(statistics.median(sizes) / 1024, 1),
            "max_kib": round(max(sizes) / 1024, 1), "views": len(views), "width_px": [kniggits_render.WIDTH]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=50)
    parser.add_argument("--save", type=Path, help="write some of the pictures to this folder")
    parser.add_argument("--fencing", action="store_true", help="only the Table Fencing map")
    parser.add_argument("--kniggits", action="store_true", help="only the Kniggits battlefield (24/36/48 maps)")
    args = parser.parse_args()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    if args.kniggits:
        results = {f"kniggits_{size}": kniggits_battlefield(size, args.views, args.save) for size in (24, 36, 48)}
        for name, r in results.items():
            print(f"{name}: first picture in a process {r['first_in_process_ms']} ms CPU; a new board median "
                  f"{r['median_ms']} ms, p99 {r['p99_ms']} ms; the same board again {r['cached_median_ms']} ms; "
                  f"{r['kib']} KiB (max {r['max_kib']})")
        print(json.dumps(results))
        return
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
