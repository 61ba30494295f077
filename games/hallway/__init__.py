"""Two Fat Dudes in a Narrow Hallway: roll, bump bellies, haggle, squeeze past, race out."""

from __future__ import annotations

from games.hallway.engine import HallwayEngine

#: Found by `games.registry.load_game` (with POLICY in ai.py, UI in cogs/hallway/__init__.py).
ENGINE = HallwayEngine()
