"""Kniggits: toy knights bought from a budget, moved on a battlefield with obstacles, fighting
secret sword-and-shield gesture duels (`/kniggits`)."""

from __future__ import annotations

from games.kniggits.engine import KniggitsEngine
from games.registry import register

ENGINE = register(KniggitsEngine())
