"""Interfaces of the test-only Shapes and Race games: enough screens to play them through
the fake Discord (buttons on the table, names in every line)."""

from __future__ import annotations

from typing import Any

from cogs.table.ui import Button, Card, GameUI, Screen, TableInfo

EMOJI = {"rock": "🪨", "paper": "📄", "scissors": "✂️"}


class ShapesUI(GameUI):
    name = "shapes"
    rules = "Throw rock, paper or scissors in secret; both throws are shown together."

    def table(self, view: dict[str, Any], info: TableInfo) -> Screen:
        throw = view["throw"]
        status = "\n".join(f"{info.name_of(s)}: {'✔ chosen' if s in throw['chosen'] else '…'}"
                           for s in throw["seats"])
        score = " · ".join(f"{info.name_of(s)} {w}" for s, w in enumerate(view["wins"]))
        return Screen(Card(title=f"Shapes — round {view['round']}", description=f"{score}\n{status}"),
                      controls=[Button(s.title(), {"type": "throw", "shape": s}, emoji=e) for s, e in EMOJI.items()])

    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        data = event["data"]
        if event["type"] == "chose":
            return f"{info.name_of(data['seat'])} chose."
        if event["type"] == "reveal":
            a, b = data["picks"]
            won = "a draw" if data["winner"] is None else f"{info.name_of(data['winner'])} wins the round"
            return f"{info.name_of(0)} {a}, {info.name_of(1)} {b}: {won}."
        return super().event_line(event, info)


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
