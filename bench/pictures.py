#!/usr/bin/env python3
"""What each picture costs: CPU time to draw it and to encode it (the one palette PNG encoder,
`cogs.table.pictures.png`), its size and width, for every picture of all five games, drawn
the way the bot draws them: each game's UI screens (the table's and every seat's private
one: hands, the Kniggits reach, sight, preview and deployment pictures) of states sampled
from seeded random playouts (tests/playout.py).

    .venv/bin/python bench/pictures.py [--views 40] [--rounds 5] [--save /tmp/pictures]
    .venv/bin/python bench/pictures.py --game tarot,kniggits
    .venv/bin/python bench/pictures.py --fencing   # only the Table Fencing map (first picture
                                                   # in a process, new boards p50/p99, cached)
    .venv/bin/python bench/pictures.py --kniggits  # only the Kniggits battlefield, 24/36/48 maps

A new picture is what it costs the bot: every whole-picture cache of the game's render module
(its `lru_cache`d functions returning PNG bytes) is emptied before each drawing, while the
static layers, card and tile sprites and text caches stay warm, as in a process that has been
running a while: as many other pictures of the same kind (from the same playouts, between the
measured ones) are drawn first, untimed. Each picture is drawn `--rounds` times and its
median taken (the machine is noisy); the line per picture then gives the median and p90 over
the pictures of draw, encode and their sum, against the `TARGET_MS` target (PASS when the
median sum is under it). That median is of a picture whose strings the text caches already
hold (its own earlier drawings); the bot draws each picture once, with strings (a round, a
score, a note) it never drew before: "first p50/p90" (`first_median_ms`, `first_p90_ms`, and
`first_draw_median_ms`, `first_encode_median_ms`) is each picture's first drawing, the text of
the pictures before it warm. Those pictures are a sample, a few of each game, so a game's new
names weigh more in them than in the bot, which draws every picture of a game: "played p50/p90"
(`played_median_ms`, `played_p90_ms`) draws every picture of `--played` whole games once, in the
bot's order (one per picture key), after as many other games: what the bot pays a picture
(`played_mean_ms` too: the CPU a game's pictures cost is their mean). In the bot, the rest of a
press (discord.py, JSON, the database) runs between two pictures and leaves little of them in
the processor's caches: with `--cold`, "cold p50/mean" (`cold_median_ms`, `cold_mean_ms`)
draws the pictures of as many other games, a 64 MiB buffer read before each: about what the bot
pays (tarot's hands and tricks 0.46-0.49 ms here, 0.48 ms a picture in bench/e2e.py at 100
games; 0.15 and 0.13 ms warm). The last line is one JSON object {game/picture: {...}}.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogs.table import pictures  # noqa: E402
from cogs.table.present import picture_digest, view_digest  # noqa: E402
from cogs.table.registry import load_builtin_uis  # noqa: E402
from cogs.table.ui import Seat, TableInfo  # noqa: E402
from games.registry import load_builtin  # noqa: E402
from tests.playout import random_playout  # noqa: E402

#: Draw + encode of a typical picture (issue 21).
TARGET_MS = 1.5
NAMES = ("Alice the Bold", "Bob", "Carol", "Dmitri")
KNIGGITS = {"horses": True, "magic_swords": True, "double_defence": True, "two_swords": True,
            "archers": True, "potions": 4, "scenario": "flag", "budget": 60}
#: game -> (players, the options of the playouts, taken in turn)
GAMES: dict[str, tuple[int, list[dict[str, Any]]]] = {
    "hallway": (2, [{}]),
    "words": (3, [{}]),
    "tarot": (4, [{}]),
    "fencing": (3, [{}]),
    "kniggits": (2, [{"size": 24, **KNIGGITS}, {"size": 36, **KNIGGITS}]),
}
Picture = Callable[[], bytes]


def collect(game: str, count: int) -> dict[str, list[Picture]]:
    """Up to `count` distinct pictures of each kind ("table hallway.png", "private hand.png" …),
    spread evenly over the states of as many seeded random playouts as it takes; measured
    pictures at even places, those that warm the caches at odd ones."""
    engine, ui = load_builtin()[game], load_builtin_uis()[game]
    players, option_sets = GAMES[game]
    found: dict[str, dict[str, Picture]] = {}
    for seed in range(1, 41):
        # each game its own players (strings with their names miss the text caches, as in a bot)
        info = TableInfo(seed, [Seat(s, 100 + s, f"{NAMES[s]} {seed}") for s in range(players)])
        run = random_playout(engine, players, seed, option_sets[seed % len(option_sets)])
        for state in run.states:
            for seat in (None, *range(players)):
                view = engine.view(state, seat)
                screen = ui.table(view, info) if seat is None else ui.private(view, seat, info)
                if screen is None or screen.image is None:
                    continue
                kind = f"{'table' if seat is None else 'private'} {screen.image_name}"
                found.setdefault(kind, {}).setdefault(view_digest(ui, view, info, seat), screen.image)
        if seed >= 3 and all(len(p) >= 6 * count for p in found.values()):
            break
    out = {}
    for kind, drawn in sorted(found.items()):
        every = list(drawn.values())
        step = max(1, len(every) // (2 * count))
        out[kind] = every[::step][:2 * count]
    return out


def picture_caches(game: str) -> list[Any]:
    """The render module's whole-picture caches: its lru_cache'd functions that return bytes."""
    module = importlib.import_module(f"cogs.{game}.render")
    return [f for f in vars(module).values()
            if hasattr(f, "cache_clear") and getattr(f, "__wrapped__", None) is not None
            and f.__wrapped__.__annotations__.get("return") in ("bytes", bytes)]


class Encoder:
    """`pictures.png`, timed: the render modules call it by attribute, so patching it counts
    the encoding of each picture apart from its drawing."""

    def __init__(self) -> None:
        self.real = pictures.png
        self.spent = 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> bytes:
        started = time.process_time()
        try:
            return self.real(*args, **kwargs)
        finally:
            self.spent += time.process_time() - started


def draw_once(picture: Picture, caches: list[Any], encoder: Encoder) -> tuple[float, float, bytes]:
    """(draw ms, encode ms, png) of one new picture."""
    for cached in caches:
        cached.cache_clear()
    encoder.spent = 0.0
    started = time.process_time()
    png = picture()
    total = time.process_time() - started
    return (total - encoder.spent) * 1000, encoder.spent * 1000, png


def quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return round(statistics.median(ordered), 3), round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 3)


def measure(game: str, kind: str, drawn: list[Picture], rounds: int, save: Path | None) -> dict[str, Any]:
    caches, encoder = picture_caches(game), Encoder()
    pictures.png = encoder
    try:
        for picture in drawn[1::2]:  # warm: fonts, static layers, sprites, the strings of other pictures
            draw_once(picture, caches, encoder)
        measured = drawn[::2]
        draws, encodes, totals, sizes, widths = [], [], [], [], set()
        firsts: list[tuple[float, float]] = []
        for n, picture in enumerate(measured):
            runs = [draw_once(picture, caches, encoder) for _ in range(rounds)]
            firsts.append(runs[0][:2])
            draws.append(statistics.median(r[0] for r in runs))
            encodes.append(statistics.median(r[1] for r in runs))
            totals.append(statistics.median(r[0] + r[1] for r in runs))
            png = runs[0][2]
            sizes.append(len(png))
            widths.add(int.from_bytes(png[16:20], "big"))  # the PNG's IHDR width
            if save is not None and n % max(1, len(measured) // 3) == 0:
                (save / f"{game}-{kind.split()[0]}-{kind.split()[1].removesuffix('.png')}-{n}.png").write_bytes(png)
    finally:
        pictures.png = encoder.real
    (draw_p50, draw_p90), (enc_p50, enc_p90), (p50, p90) = quantiles(draws), quantiles(encodes), quantiles(totals)
    (first_draw, _), (first_encode, _), (first_p50, first_p90) = (
        quantiles([f[0] for f in firsts]), quantiles([f[1] for f in firsts]), quantiles([sum(f) for f in firsts]))
    return {"draw_median_ms": draw_p50, "draw_p90_ms": draw_p90, "encode_median_ms": enc_p50,
            "encode_p90_ms": enc_p90, "median_ms": p50, "p90_ms": p90, "first_draw_median_ms": first_draw,
            "first_encode_median_ms": first_encode, "first_median_ms": first_p50, "first_p90_ms": first_p90,
            "kib": round(statistics.median(sizes) / 1024, 1),
            "width_px": sorted(widths), "pictures": len(measured), "target_ms": TARGET_MS, "pass": p50 < TARGET_MS}


def in_play(game: str, seeds: range, limit: int) -> list[tuple[str, Picture]]:
    """Every picture the bot would draw in whole seeded games, in the order it draws them: each
    screen's picture once per picture key (`picture_digest`, as the bot keeps them), at most
    `limit` a game."""
    engine, ui = load_builtin()[game], load_builtin_uis()[game]
    players, option_sets = GAMES[game]
    out: list[tuple[str, Picture]] = []
    for seed in seeds:
        info = TableInfo(seed, [Seat(s, 100 + s, f"{NAMES[s]} {seed}") for s in range(players)])
        seen: set[str] = set()
        for state in random_playout(engine, players, seed, option_sets[seed % len(option_sets)]).states:
            for seat in (None, *range(players)):
                view = engine.view(state, seat)
                screen = ui.table(view, info) if seat is None else ui.private(view, seat, info)
                if screen is None or screen.image is None or len(seen) >= limit:
                    continue
                key = picture_digest(ui, screen, view, info, seat)
                if key not in seen:
                    seen.add(key)
                    out.append((f"{'table' if seat is None else 'private'} {screen.image_name}", screen.image))
    return out


#: Read before each cold picture: more than the processor's caches hold.
EVICT_BYTES = 64 << 20


def played(game: str, games: int, limit: int = 150, *, cold: bool = False) -> dict[str, list[float]]:
    """Draw + encode ms of each picture of `games` whole games drawn once in the bot's order (a
    game's names and numbers new to the text caches where they first appear, its earlier
    pictures' text warm, as in the bot), after as many other games warmed them. `cold`: with
    the processor's caches evicted before each picture (a buffer bigger than them read), and
    other games (those of the warm pass would find their bands kept)."""
    caches = picture_caches(game)
    first = 301 if cold else 101
    for _, picture in in_play(game, range(first, first + games), limit):
        for cached in caches:
            cached.cache_clear()
        picture()
    costs: dict[str, list[float]] = {}
    evict = bytes(b"\1" * EVICT_BYTES) if cold else b""
    for kind, picture in in_play(game, range(first + 100, first + 100 + games), limit):
        for cached in caches:
            cached.cache_clear()
        evict.count(0)  # reads every byte
        started = time.process_time()
        picture()
        costs.setdefault(kind, []).append((time.process_time() - started) * 1000)
    return costs


def every_picture(games: list[str], count: int, rounds: int, save: Path | None, played_games: int,
                  cold: bool = False) -> None:
    results = {}
    print(f"{'picture':<34} {'n':>3} {'draw p50/p90':>13} {'encode p50/p90':>15} {'sum p50/p90':>13} "
          f"{'first p50/p90':>13} {'played p50/p90':>14} {'cold p50/mean' if cold else '':>14} {'KiB':>6} "
          f"{'px':>10}  < {TARGET_MS} ms")
    for game in games:
        in_order = played(game, played_games) if played_games else {}
        in_cold = played(game, played_games, cold=True) if played_games and cold else {}
        for kind, drawn in collect(game, count).items():
            r = results[f"{game} {kind}"] = measure(game, kind, drawn, rounds, save)
            r["played_median_ms"], r["played_p90_ms"] = quantiles(in_order[kind]) if kind in in_order else (None, None)
            r["played_mean_ms"] = round(statistics.mean(in_order[kind]), 3) if kind in in_order else None
            r["played_pictures"] = len(in_order.get(kind, []))
            shown = f"{r['played_median_ms']:>6.2f}/{r['played_p90_ms']:<7.2f}" if kind in in_order else f"{'-':>14}"
            if kind in in_cold:
                r["cold_median_ms"], _ = quantiles(in_cold[kind])
                r["cold_mean_ms"] = round(statistics.mean(in_cold[kind]), 3)
                shown += f" {r['cold_median_ms']:>6.2f}/{r['cold_mean_ms']:<7.2f}"
            elif cold:
                shown += f" {'-':>14}"
            widths = "/".join(str(w) for w in r["width_px"]) if len(r["width_px"]) < 3 else \
                f"{r['width_px'][0]}-{r['width_px'][-1]}"
            print(f"{game + ' ' + kind:<34} {r['pictures']:>3} {r['draw_median_ms']:>6.2f}/{r['draw_p90_ms']:<6.2f} "
                  f"{r['encode_median_ms']:>7.2f}/{r['encode_p90_ms']:<7.2f} {r['median_ms']:>6.2f}/{r['p90_ms']:<6.2f} "
                  f"{r['first_median_ms']:>6.2f}/{r['first_p90_ms']:<6.2f} {shown} {r['kib']:>6} {widths:>10}  {'PASS' if r['pass'] else 'FAIL'}", flush=True)
    print(json.dumps(results))


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
    parser.add_argument("--views", type=int, default=40, help="distinct pictures of each kind")
    parser.add_argument("--rounds", type=int, default=5, help="drawings of each picture (its median is taken)")
    parser.add_argument("--game", default=",".join(GAMES), help="games to measure, comma-separated")
    parser.add_argument("--save", type=Path, help="write some of the pictures to this folder")
    parser.add_argument("--played", type=int, default=6,
                        help="whole games drawn in the bot's order for the played columns (0: none)")
    parser.add_argument("--cold", action="store_true",
                        help="the played pictures again, the processor's caches evicted before each")
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
    games = [g.strip() for g in args.game.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        parser.error(f"no game {unknown[0]!r} (one of {', '.join(GAMES)})")
    every_picture(games, args.views, args.rounds, args.save, args.played, args.cold)


if __name__ == "__main__":
    main()
