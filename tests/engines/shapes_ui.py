"""The interface of the test-only Shapes game: enough screens to play it through the fake
Discord (buttons on the table, names in every line)."""

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


UI = ShapesUI()
