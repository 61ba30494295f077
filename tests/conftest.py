from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from cogs.table.registry import register_ui
from games.registry import load_builtin, register
from tests.engines.duel_uis import RaceUI, ShapesUI
from tests.engines.pairs import ENGINE as PAIRS
from tests.engines.pairs_ui import PairsUI
from tests.engines.race import ENGINE as RACE
from tests.engines.shapes import ENGINE as SHAPES
from tests.engines.tokens import ENGINE as TOKENS
from tests.engines.tokens_ui import TokensUI

# CI plays the same examples on every run (a landing must not hang on a lucky draw); the
# thorough profile explores fresh ones each time
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

for engine in (TOKENS, SHAPES, RACE, PAIRS):
    register(engine)
for ui in (TokensUI(), ShapesUI(), RaceUI(), PairsUI()):
    register_ui(ui)
load_builtin()
