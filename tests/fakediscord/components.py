"""Walking Discord component trees (action rows, V2 containers/sections, modal labels)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

BUTTON, STRING_SELECT, TEXT_INPUT = 2, 3, 4
SELECT_TYPES = (3, 5, 6, 7, 8)
ACTION_ROW, SECTION, TEXT_DISPLAY, CONTAINER, LABEL = 1, 9, 10, 17, 18


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a tree, depth first (rows, sections, containers and labels are walked)."""
    for comp in components:
        yield comp
        if "components" in comp:
            yield from iter_components(comp["components"])
        if "component" in comp:
            yield from iter_components([comp["component"]])
        if comp.get("type") == SECTION and "accessory" in comp:
            yield from iter_components([comp["accessory"]])


def assign_ids(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Number components without an `id` (Discord fills them in, 1-based, depth first)."""
    used = {c["id"] for c in iter_components(components) if isinstance(c.get("id"), int)}
    counter = 1
    for comp in iter_components(components):
        if comp.get("id") is None:
            while counter in used:
                counter += 1
            comp["id"] = counter
            used.add(counter)
    return components
