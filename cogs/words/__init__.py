"""The interface of Fighting Words (screens and the letter tiles)."""

from __future__ import annotations

from cogs.words.ui import WordsUI

#: Found by `cogs.table.registry.load_ui` (as the engine is by `games.registry.load_game`).
UI = WordsUI()
