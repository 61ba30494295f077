"""Table Fencing: cards, dice, chess pieces on a road map of Ohio (`/fencing`)."""

from __future__ import annotations

from games.fencing.engine import FencingEngine

#: Found by `games.registry.load_game` (with POLICY in ai.py, UI in cogs/fencing/__init__.py).
ENGINE = FencingEngine()
