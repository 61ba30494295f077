"""Kniggits on Discord: the battlefield picture and the panels."""

from __future__ import annotations

from cogs.kniggits.ui import KniggitsUI

#: Found by `cogs.table.registry.load_ui` (as the engine is by `games.registry.load_game`).
UI = KniggitsUI()
