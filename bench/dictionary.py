"""Benchmark the Fighting Words dictionary: build time, memory, query latency.

    .venv/bin/python bench/dictionary.py

Goals: query p99 < 3 µs, < 25 MiB, build < 1 s. The last line printed is one JSON object.
"""

from __future__ import annotations

import gc
import json
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.words.dictionary import Lexicon, load_blocklist, load_words

QUERIES = 200_000


def realistic_mix(words: list[str], rng: random.Random) -> list[tuple[str, str]]:
    """What a game asks: mostly fragments of a WIP (valid or a bluff), some word checks."""
    long_words = [w for w in words if len(w) >= 4]
    letters = "EEEEEEEEEEEAAAAAAAAIIIIIIIOOOOOOONNNNNNRRRRRRSSSSSSTTTTTTLLLLLUUUUDDDDCCCMMMPPPBFGHKJQVWXYZ"
    out = []
    for _ in range(QUERIES):
        w = rng.choice(long_words)
        i = rng.randrange(len(w))
        frag = w[i: i + rng.randint(1, 8)]
        roll = rng.random()
        if roll < 0.35:
            out.append(("fragment", frag))
        elif roll < 0.7:  # a bluff: one letter inserted somewhere
            j = rng.randint(0, len(frag))
            out.append(("fragment", frag[:j] + rng.choice(letters) + frag[j:]))
        elif roll < 0.9:
            out.append(("claimable", w if rng.random() < 0.5 else w[:-1]))
        else:
            out.append(("fragment", "".join(rng.choice(letters) for _ in range(rng.randint(2, 7)))))
    return out


def percentile(sorted_ns: list[int], p: float) -> float:
    return sorted_ns[min(len(sorted_ns) - 1, int(p * len(sorted_ns)))] / 1000


def main() -> dict[str, float]:
    words = load_words()
    blocked = load_blocklist()
    gc.collect()
    start = time.perf_counter()
    lex = Lexicon(words, blocked)
    build_s = time.perf_counter() - start
    del lex
    gc.collect()
    del words
    gc.collect()
    tracemalloc.start()
    lex = Lexicon(load_words(), load_blocklist())  # the word strings count too
    gc.collect()
    memory_mib = tracemalloc.get_traced_memory()[0] / 2**20
    tracemalloc.stop()
    mix = realistic_mix(sorted(lex.words4), random.Random(42))
    timings: list[int] = []
    clock = time.perf_counter_ns
    for kind, text in mix:
        ask = lex.fragment if kind == "fragment" else lex.claimable
        t0 = clock()
        ask(text)
        timings.append(clock() - t0)
    timings.sort()
    overhead = min(timings)  # the cost of the clock calls themselves
    result = {
        "build_s": round(build_s, 3),
        "memory_mib": round(memory_mib, 2),
        "query_p50_us": round(percentile(timings, 0.50), 3),
        "query_p99_us": round(percentile(timings, 0.99), 3),
        "clock_floor_us": round(overhead / 1000, 3),
        "suffixes": len(lex._suffixes),
        "words4": len(lex.words4),
        "queries": len(mix),
    }
    print(f"build            {result['build_s']:.3f} s   (goal < 1 s)")
    print(f"memory           {result['memory_mib']:.2f} MiB (goal < 25 MiB; everything the lexicon keeps, tracemalloc)")
    print(f"query p50 / p99  {result['query_p50_us']:.3f} / {result['query_p99_us']:.3f} µs "
          f"(goal p99 < 3 µs; includes ~{result['clock_floor_us']:.3f} µs of clock)")
    print(f"{result['suffixes']} maximal suffixes over {result['words4']} words of 4+ letters")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
