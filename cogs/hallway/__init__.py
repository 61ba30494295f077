"""The interface of Two Fat Dudes in a Narrow Hallway (screens and the board picture)."""

from __future__ import annotations

from cogs.hallway.ui import HallwayUI

#: Found by `cogs.table.registry.load_ui` (as the engine is by `games.registry.load_game`).
UI = HallwayUI()
