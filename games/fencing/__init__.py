"""Table Fencing: cards, dice, chess pieces on a road map of Ohio (`/fencing`)."""

from __future__ import annotations

from games.fencing.engine import FencingEngine
from games.registry import register

ENGINE = register(FencingEngine())
