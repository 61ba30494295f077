"""Last Stick, the sixth game, test-only: proof that docs/engines.md's checklist suffices."""

from tests.engines.sticks.engine import SticksEngine

ENGINE = SticksEngine()
