"""Fighting Words: build a word one letter at a time, bluff, challenge, steal."""

from __future__ import annotations

from games.registry import register
from games.words.engine import WordsEngine

ENGINE = register(WordsEngine())
