"""Last Stick's interface (test-only), exported as UI like every game's `cogs/<game>/__init__.py`."""

from tests.engines.sticks_ui.ui import SticksUI

UI = SticksUI()
