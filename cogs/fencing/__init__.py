"""Table Fencing: the interface (screens and the map of Ohio)."""

from __future__ import annotations

from cogs.fencing.ui import FencingUI

#: Found by `cogs.table.registry.load_ui` (as the engine is by `games.registry.load_game`).
UI = FencingUI()
