"""Kniggits battlefields (spec 2.3, V6, V7): generated, mirrored, fairly spaced maps.

Every draw comes from the game's `Rng`, so a seed and the options give the same map; a
failed attempt simply draws again from the same sequence.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.core import Rng
from games.kniggits.geometry import DIRECTIONS, Cell

PRESETS = ("open", "woods", "ruins")
POTION_KINDS = ("M", "A", "D")
ZONE_DEPTH = 6  # deployment rows: A y ≤ 6, B y ≥ H − 5 (2.6)
POTION_SPACING2 = 9  # potions at least 3 inches apart (V6)
_PIECE_TRIES = 60
_MAP_TRIES = 200


def mirror(cell: Cell, width: int, height: int) -> Cell:
    """The 180° turn about the map's centre: what is fair for A is fair for B."""
    return (width + 1 - cell[0], height + 1 - cell[1])


def flag_homes(width: int, height: int) -> tuple[Cell, Cell]:
    """The flags' home cells (V7): A's near the middle of row 3, B's its mirror."""
    a_home = ((width + 1) // 2, 3)
    return a_home, mirror(a_home, width, height)


def obstacle_groups(cells: Iterable[Cell]) -> list[set[Cell]]:
    """Cells merged into obstacles: 8-adjacent cells touch, so they are one obstacle (2.3)."""
    remaining = set(cells)
    groups = []
    for seed in sorted(remaining):
        if seed not in remaining:
            continue
        group = {seed}
        remaining.discard(seed)
        frontier = [seed]
        while frontier:
            x, y = frontier.pop()
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    near = (x + dx, y + dy)
                    if near in remaining:
                        remaining.discard(near)
                        group.add(near)
                        frontier.append(near)
        groups.append(group)
    return groups


def spacing_ok(cells: Iterable[Cell]) -> bool:
    """Spacing rule (2.3): cells of different obstacles have a gap of at least 2 inches.

    A gap below 2 (squared gap < 4) needs |dx| ≤ 2 and |dy| ≤ 2, and cells closer than that
    touch; so it is enough to look two cells around each one.
    """
    label: dict[Cell, int] = {}
    for number, group in enumerate(obstacle_groups(cells)):
        for cell in group:
            label[cell] = number
    for (x, y), own in label.items():
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                other = label.get((x + dx, y + dy))
                if other is not None and other != own:
                    return False
    return True


def free_cells_connected(width: int, height: int, obstacles: set[Cell] | frozenset[Cell]) -> bool:
    """Can a kniggit walk (K6 steps, corner rule) from every free cell to every other?"""
    free = {(x, y) for x in range(1, width + 1) for y in range(1, height + 1)} - set(obstacles)
    if not free:
        return True
    start = min(free)
    seen = {start}
    frontier = [start]
    while frontier:
        x, y = frontier.pop()
        for _name, dx, dy in DIRECTIONS:
            nxt = (x + dx, y + dy)
            if nxt not in free or nxt in seen:
                continue
            if dx and dy and ((x + dx, y) in obstacles or (x, y + dy) in obstacles):
                continue
            seen.add(nxt)
            frontier.append(nxt)
    return len(seen) == len(free)


def _piece_sizes(rng: Rng, preset: str) -> list[tuple[int, int]]:
    """The (width, height) of one of each mirrored pair of pieces."""
    if preset == "woods":
        pairs = rng.randint(6, 8)  # 12–16 pieces
        return [(rng.randint(1, 2), rng.randint(1, 2)) for _ in range(pairs)]
    if preset == "ruins":
        sizes = []
        for _ in range(3):  # 6 walls
            length, thickness = rng.randint(3, 6), rng.randint(1, 2)
            sizes.append((length, thickness) if rng.randint(0, 1) else (thickness, length))
        return sizes
    return []


def _place_obstacles(rng: Rng, width: int, height: int, preset: str, keep_clear: set[Cell]) -> set[Cell] | None:
    """One attempt: each piece with its mirror where the spacing rule still holds."""
    obstacles: set[Cell] = set()
    low, high = ZONE_DEPTH + 1, height - ZONE_DEPTH  # rows outside both deployment zones
    for piece_w, piece_h in _piece_sizes(rng, preset):
        for _try in range(_PIECE_TRIES):
            x0 = rng.randint(1, width - piece_w + 1)
            y0 = rng.randint(low, high - piece_h + 1)
            piece = {(x0 + i, y0 + j) for i in range(piece_w) for j in range(piece_h)}
            piece |= {mirror(c, width, height) for c in piece}
            if piece & keep_clear or piece & obstacles:
                continue  # a new piece may touch an old one (they merge) but not sit on it
            if spacing_ok(obstacles | piece):
                obstacles |= piece
                break
        else:
            return None
    if obstacles and not free_cells_connected(width, height, obstacles):
        return None
    return obstacles


def _place_potions(rng: Rng, width: int, height: int, count: int, obstacles: set[Cell]) -> list[dict[str, Any]] | None:
    """Mirrored pairs of one random kind each in rows 10…H−9, 3 inches apart (V6)."""
    potions: list[dict[str, Any]] = []
    placed: list[Cell] = []
    for _pair in range(count // 2):
        kind = rng.choice(list(POTION_KINDS))
        for _try in range(_PIECE_TRIES):
            cell = (rng.randint(1, width), rng.randint(10, height - 9))
            twin = mirror(cell, width, height)
            pair = [cell, twin]
            if any(c in obstacles for c in pair):
                continue
            if _d2(cell, twin) < POTION_SPACING2:
                continue
            if any(_d2(c, p) < POTION_SPACING2 for c in pair for p in placed):
                continue
            placed += pair
            for c in pair:
                potions.append({"id": f"P{len(potions) + 1}", "pos": [c[0], c[1]], "kind": kind})
            break
        else:
            return None
    return potions


def _d2(a: Cell, b: Cell) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def generate(
    rng: Rng, width: int, height: int, preset: str, *, potions: int = 0, flags: bool = False
) -> dict[str, Any]:
    """A fair battlefield as JSON: obstacles (sorted), potions and flags.

    Obstacles stay out of both deployment zones (which also holds the flags) and off the
    potions; potions go on free cells after the obstacles, so the two never meet.
    """
    if preset not in PRESETS:
        raise ValueError(f"unknown map preset {preset!r}")
    if potions not in (0, 2, 4, 6):
        raise ValueError("potions come in 0, 2, 4 or 6")
    homes = flag_homes(width, height)
    keep_clear = set(homes) if flags else set()
    for _attempt in range(_MAP_TRIES):
        obstacles = _place_obstacles(rng, width, height, preset, keep_clear)
        if obstacles is None:
            continue
        placed = _place_potions(rng, width, height, potions, obstacles)
        if placed is None:
            continue
        return {
            "obstacles": [[x, y] for x, y in sorted(obstacles)],
            "potions": placed,
            "flags": [
                {"army": "A", "home": [homes[0][0], homes[0][1]]},
                {"army": "B", "home": [homes[1][0], homes[1][1]]},
            ]
            if flags
            else [],
        }
    raise RuntimeError(f"no {preset} map of {width}×{height} after {_MAP_TRIES} attempts")
