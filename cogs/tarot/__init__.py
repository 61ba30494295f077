"""Conference / League: the interface (pictures)."""

from __future__ import annotations

from cogs.tarot.ui import TarotUI

#: Found by `cogs.table.registry.load_ui` (as the engine is by `games.registry.load_game`).
UI = TarotUI()
