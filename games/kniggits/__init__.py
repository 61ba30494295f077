"""Kniggits: toy knights bought from a budget, moved on a battlefield with obstacles, fighting
secret sword-and-shield gesture duels (`/kniggits`)."""

from __future__ import annotations

from games.kniggits.engine import KniggitsEngine

#: Found by `games.registry.load_game` (with POLICY in ai.py, UI in cogs/kniggits/__init__.py).
ENGINE = KniggitsEngine()
