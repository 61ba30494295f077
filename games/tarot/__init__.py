"""Conference / League: tarot trick-taking for two partnerships (`/tarot`)."""

from __future__ import annotations

from games.tarot.engine import TarotEngine

#: Found by `games.registry.load_game` (with POLICY in ai.py, UI in cogs/tarot/__init__.py).
ENGINE = TarotEngine()
