"""Conference / League engine behaviour beyond the spec's scenarios (tests/tarot/test_scenarios.py):
every rule a refusal cites is in the game's rules text, so the table's 📖 button can quote it."""

from __future__ import annotations

import re
from pathlib import Path

from cogs.table.rules import rule_text


def test_every_cited_rule_is_in_the_games_rules_text() -> None:
    cited = {m for path in Path("games/tarot").glob("*.py")
             for m in re.findall(r'rule="([^"]+)"', path.read_text(encoding="utf-8"))}
    assert cited >= {"R4", "R5", "R6", "R7", "R14"}
    for rule in cited:
        text = rule_text("tarot", rule)
        assert text is not None and text.startswith(f"**{rule}."), rule
