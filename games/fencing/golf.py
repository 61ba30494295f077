"""Golf-ball chance (rule 11): whether the third player rules a throw wild.

*Decision (spec):* wildness is random, because a human judge with a free penalty button
would always press it. The d6 is rolled at the throw and shown at once, so no future roll
is ever stored.
"""

from __future__ import annotations

from games.core import State
from games.fencing.state import die


def wild_roll(state: State) -> bool:
    return die(state, "wild") == 1
