"""The doors to the pictures: each drawing is imported from render.py only when a screen is
sent, so building a screen (and the tests that only read its words) never loads Pillow."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cogs.kniggits.shown import Route, Target
from games.kniggits.schema import Plan, PublicView, SeatView, SightLine


def battlefield_png(view: PublicView) -> bytes:
    from cogs.kniggits import render

    return render.battlefield(view)


def deployment_png(view: SeatView, army: str | None, placements: Mapping[str, Sequence[int]]) -> bytes:
    from cogs.kniggits import render

    return render.deployment(view, army, placements)


def sight_png(view: SeatView, kid: str, targets: Sequence[Target | str]) -> bytes:
    from cogs.kniggits import render

    return render.sight(view, kid, targets)


def reach_png(view: SeatView, kid: str, cells: Sequence[Sequence[int]], routes: Sequence[Route] = ()) -> bytes:
    from cogs.kniggits import render

    return render.reach(view, kid, cells, routes)


def preview_png(view: SeatView, plan: Plan) -> bytes:
    from cogs.kniggits import render

    return render.preview(view, plan)


def sight_targets(sight: Sequence[SightLine] | None) -> list[Target]:
    """The enemies an overlay draws: those in range, green when the line is clear."""
    return [{"id": t["id"], "clear": t["clear"]} for t in sight or [] if t["in_range"]]
