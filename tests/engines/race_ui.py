"""The interface of the test-only Race game: a Press! button on the table, names in every line."""

from __future__ import annotations

from typing import Any

from cogs.table.ui import Button, Card, GameUI, Screen, TableInfo


class RaceUI(GameUI):
    name = "race"
    rules = "Wait for GO!, then press first."

    def table(self, view: dict[str, Any], info: TableInfo) -> Screen:
        score = " · ".join(f"{info.name_of(s)} {p}" for s, p in enumerate(view["points"]))
        controls = [Button("Press!", {"type": "press"}, "danger", "🔔")] if view["phase"] == "race" else []
        title = "GO!" if view["phase"] == "race" else f"Race — round {view['round']}: get ready…"
        return Screen(Card(title=title, description=score), controls=controls)

    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        data = event["data"]
        if event["type"] == "go":
            return "GO!"
        if event["type"] == "press":
            return f"{info.name_of(data['seat'])} pressed."
        if event["type"] == "round":
            return "Nobody pressed." if data["winner"] is None else f"{info.name_of(data['winner'])} was fastest."
        return super().event_line(event, info)


UI = RaceUI()
