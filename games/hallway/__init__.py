"""Two Fat Dudes in a Narrow Hallway: roll, bump bellies, haggle, squeeze past, race out."""

from __future__ import annotations

from games.hallway.engine import HallwayEngine
from games.registry import register

ENGINE = register(HallwayEngine())
