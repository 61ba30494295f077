"""The computer's army (2.5, K2) and deployment (2.6): what it buys with its share and where
it stands before the battle.

Why these kniggits: with no variant, a kniggit flees once two of its pools are empty, so its
toughness is the sum of its two smallest pools, and every kniggit gets one attack a turn
whatever its size. Four or five balanced kniggits with 6 inches of movement (M=3) are tough
enough to survive an exchange or two, numerous enough to gang up, and quick enough to strike
first. Variants add what pays: an archer when bows are allowed (free shots from afar), a
magic sword (two attacks a turn) or a horse where they are on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from games.kniggits.ai_read import Board, cell
from games.kniggits.schema import ArmyLine, Options

KNIGGIT = 5


def _line(m: int, a: int, d: int, kind: Literal["normal", "archer"] = "normal") -> ArmyLine:
    return {"name": "", "M": m, "A": a, "D": d, "kind": kind}


def _balanced(points: int, count: int, move: int = 3) -> list[ArmyLine]:
    """`count` kniggits sharing `points` (their own cost included): M=`move` (or less when
    poor), the rest split between Attack and Defense, Defense first."""
    out: list[ArmyLine] = []
    for i in range(count):
        budget = points // count + (1 if i < points % count else 0) - KNIGGIT
        m = max(1, min(move, budget - 2))
        rest = budget - m
        d = (rest + 1) // 2
        a = rest - d
        if a < 1:
            a, d = 1, max(1, rest - 1)
        out.append(_line(m, a, d))
    return out


def army(share: int, options: Options) -> list[ArmyLine]:
    """A list that fits `share` points and never runs away (every pool ≥ 1)."""
    spend = share
    special: list[ArmyLine] = []
    if options.get("archers") and spend >= 30:
        special.append(_line(2, 2, 5, "archer"))  # range 10, cost 14
        spend -= 14
    if options.get("magic_swords") and spend >= 28:
        special.append(_line(3, 5, 3))  # two attacks a turn, cost 16
        spend -= 16
    count = max(1, min(spend // 12, 6))
    if spend - count * 12 >= 12:
        count += 1
    return special + _balanced(spend, count) if spend >= 8 else special or _balanced(share, 1)


def same_list(draft: Sequence[Mapping[str, Any]] | None, wanted: Sequence[Mapping[str, Any]]) -> bool:
    def norm(lines: Sequence[Mapping[str, Any]]) -> list[tuple[int, int, int, str]]:
        return [(x["M"], x["A"], x["D"], x.get("kind", "normal")) for x in lines]

    return draft is not None and norm(draft) == norm(wanted)


def placements(board: Board) -> dict[str, list[int]]:
    """A compact block two rows deep behind the front of the zone, centred: close enough to
    support each other, with room in front to meet the enemy on its way."""
    view = board.view
    me = view["me"]
    deploy = me["deploy"]
    army = me["army"]
    low, high = deploy["zone"]
    mine = list(deploy["mine"])
    taken = {cell(xy) for kid, xy in deploy["placements"].items() if kid not in mine}
    blocked = board.obstacles | {cell(f["home"]) for f in view["battlefield"]["flags"]}
    front = high if army == "A" else low
    step = -1 if army == "A" else 1
    rows = [front + step * 2, front + step * 3, front + step * 1, front + step * 4, front, front + step * 5]
    centre2 = board.width + 1
    free = [(x, y) for y in rows if low <= y <= high for x in range(1, board.width + 1)
            if (x, y) not in blocked and (x, y) not in taken]
    free.sort(key=lambda c: (rows.index(c[1]) // 2, abs(2 * c[0] - centre2) // 2 + (c[1] % 2) * 0, c[0], c[1]))
    return {kid: list(xy) for kid, xy in zip(mine, free, strict=False)}
