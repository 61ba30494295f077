"""The doors to the pictures: each drawing is imported from render.py only when a screen is
sent, so building a screen (and the tests that only read its words) never loads Pillow."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from games.kniggits.schema import PublicView, SeatView


def battlefield_png(view: PublicView) -> bytes:
    from cogs.kniggits import render

    return render.battlefield(cast(dict[str, Any], view))  # render.py reads plain JSON (not typed yet)


def deployment_png(view: SeatView, army: str | None, placements: dict[str, Any]) -> bytes:
    from cogs.kniggits import render

    return render.deployment(cast(dict[str, Any], view), army, placements)


def sight_png(view: SeatView, kid: str, targets: list[Any]) -> bytes:
    from cogs.kniggits import render

    return render.sight(cast(dict[str, Any], view), kid, targets)


def reach_png(view: SeatView, kid: str, cells: list[list[int]], routes: Sequence[Any] = ()) -> bytes:
    from cogs.kniggits import render

    return render.reach(cast(dict[str, Any], view), kid, cells, routes)


def preview_png(view: SeatView, plan: Mapping[str, Any]) -> bytes:
    from cogs.kniggits import render

    return render.preview(cast(dict[str, Any], view), cast(dict[str, Any], plan))


def sight_targets(sight: Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    """The enemies an overlay draws: those in range, green when the line is clear."""
    return [{"id": t["id"], "clear": bool(t.get("clear"))} for t in sight or [] if t.get("in_range")]
