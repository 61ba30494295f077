"""The doors to the pictures: each drawing is imported from render.py only when a screen is
sent, so building a screen (and the tests that only read its words) never loads Pillow."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def battlefield_png(view: dict[str, Any]) -> bytes:
    from cogs.kniggits import render

    return render.battlefield(view)


def deployment_png(view: dict[str, Any], army: str | None, placements: dict[str, Any]) -> bytes:
    from cogs.kniggits import render

    return render.deployment(view, army, placements)


def sight_png(view: dict[str, Any], kid: str, targets: list[Any]) -> bytes:
    from cogs.kniggits import render

    return render.sight(view, kid, targets)


def reach_png(view: dict[str, Any], kid: str, cells: list[list[int]], routes: Sequence[Any] = ()) -> bytes:
    from cogs.kniggits import render

    return render.reach(view, kid, cells, routes)


def preview_png(view: dict[str, Any], plan: dict[str, Any]) -> bytes:
    from cogs.kniggits import render

    return render.preview(view, plan)


def sight_targets(sight: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The enemies an overlay draws: those in range, green when the line is clear."""
    return [{"id": t["id"], "clear": bool(t.get("clear"))} for t in sight or [] if t.get("in_range")]
