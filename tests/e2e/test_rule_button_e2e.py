"""A refusal cites the rule it applies and offers that rule's text, from the game's own rules."""

from __future__ import annotations

from typing import Any

from cogs.table.rules import rule_text
from tests.e2e.test_pings_e2e import start_hallway
from tests.fakediscord import FakeDiscord


async def test_a_refusal_ends_with_its_rule_and_the_button_shows_it(fake_discord: FakeDiscord, bot: Any) -> None:
    thread, alice, _bob = await start_hallway(fake_discord)
    table = next(m for m in thread.history() if m.embeds and "Hallway" in str(m.embeds[0].get("title")))
    await alice.click(table, "Roll")
    again = await alice.click(table, "Roll")
    assert again.ephemeral and again.content.startswith("You already rolled")
    assert again.content.endswith("(rule 2)")
    shown = await alice.click(again.message, "Rule 2")
    assert shown.ephemeral
    assert "roll the d4" in shown.text() and "rule 2" in shown.text()


def test_rule_texts_come_from_the_games_own_rules() -> None:
    assert rule_text("hallway", "2").startswith("2. Both players roll the d4.")
    assert rule_text("hallway", "99") is None
    assert rule_text("hallway", "2; DROP TABLE") is None
    assert rule_text("words", "4").startswith("4. 2–6 players.")
