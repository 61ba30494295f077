"""Conference / League: tarot trick-taking for two partnerships (`/tarot`)."""

from __future__ import annotations

from games.registry import register
from games.tarot.engine import TarotEngine

ENGINE = register(TarotEngine())
