"""The interface of the test-only Pairs game: the hands on the table and a two-pick menu for
the seat in turn; partners confer unless the lobby turned it off."""

from __future__ import annotations

from typing import Any

from cogs.table.ui import Card, Choice, GameUI, Screen, Select, TableInfo


class PairsUI(GameUI):
    name = "pairs"
    rules = "Teams A (seats 1-2) and B (seats 3-4). Twice each, in turn, discard two of your cards; higher total wins."

    def table(self, view: dict[str, Any], info: TableInfo) -> Screen:
        hands = "\n".join(f"{info.name_of(s)} (Team {'AB'[s // 2]}): {' '.join(h) or '—'}"
                          for s, h in enumerate(view["hands"]))
        a, b = view["totals"]
        controls: list[Any] = []
        if view["turn"] is not None:
            hand = view["hands"][view["turn"]]
            controls.append(Select("Discard two cards", [
                Choice(card, {"type": "discard", "cards": [card]}) for card in hand], pick=2, gather="cards"))
        return Screen(Card(title="Pairs", description=f"Team A {a} · Team B {b}\n{hands}"), controls=controls)

    def team_chat(self, options: dict[str, Any]) -> bool:
        return bool(options.get("confer", True))

    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        data = event["data"]
        if event["type"] == "discarded":
            return f"{info.name_of(data['seat'])} discarded {' and '.join(data['cards'])}."
        return super().event_line(event, info)

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        if outcome.get("reason") == "totals":
            scores = outcome.get("scores") or [0, 0, 0, 0]
            return f"Team A {scores[0]:g}, Team B {scores[2]:g}."
        return super().result_reason(outcome, info)


UI = PairsUI()
