"""Fighting Words: build a word one letter at a time, bluff, challenge, steal."""

from __future__ import annotations

from games.words.engine import WordsEngine

#: Found by `games.registry.load_game` (with POLICY in ai.py, UI in cogs/words/__init__.py).
ENGINE = WordsEngine()
