"""Conference / League engine behaviour beyond the spec's scenarios (tests/tarot/test_scenarios.py):
every rule a refusal cites is in the game's rules text, so the table's 📖 button can quote it;
a seat's view lists its cards in hand order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogs.table.rules import rule_text
from games.tarot import ENGINE


def test_every_cited_rule_is_in_the_games_rules_text() -> None:
    cited = {m for path in Path("games/tarot").glob("*.py")
             for m in re.findall(r'rule="([^"]+)"', path.read_text(encoding="utf-8"))}
    assert cited >= {"R4", "R5", "R6", "R7", "R14"}
    for rule in cited:
        text = rule_text("tarot", rule)
        assert text is not None and text.startswith(f"**{rule}."), rule


@pytest.mark.parametrize("seed", range(3))
def test_a_seats_hand_and_playable_cards_are_listed_in_hand_order(seed: int) -> None:
    from games.tarot.cards import sort_hand
    from games.tarot.views import legal_for
    from tests.playout import random_playout

    for state in random_playout(ENGINE, 4, seed).states[::3]:
        for seat in range(4):
            view = ENGINE.view(state, seat)
            assert view["hand"] == sort_hand(state["hand"]["hands"][seat])
            assert view["legal"] == sort_hand(view["legal"]) and view["as_led"] == sort_hand(view["as_led"])
            assert set(view["as_led"]) <= set(view["legal"])
            if view["legal"] and not view["nominate"]:
                assert set(view["legal"]) == set(legal_for(state["hand"], seat))
