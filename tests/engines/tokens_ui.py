"""The interface of the test-only Tokens game (a hand by DM, a Play select)."""

from __future__ import annotations

from typing import Any

from cogs.table.ui import Button, Card, Choice, GameUI, Screen, Select, TableInfo


class TokensUI(GameUI):
    name = "tokens"
    rules = "Play your hidden tokens one at a time. When every hand is empty, the highest total wins."

    def table(self, view: dict[str, Any], info: TableInfo) -> Screen:
        pile = " ".join(f"{t['value']}" for t in view["pile"]) or "—"
        scores = "\n".join(
            f"{info.name_of(seat)}: {score} ({view['hand_sizes'][seat]} left)"
            for seat, score in enumerate(view["scores"])
        )
        return Screen(Card(title="Tokens", description=f"Pile: {pile}",
                           fields=[("Scores", scores, False)]))

    def private(self, view: dict[str, Any], seat: int, info: TableInfo) -> Screen | None:
        hand = view["hand"]
        text = " ".join(f"[{t['value']}]" for t in hand) or "(empty)"
        controls: list[Any] = []
        if hand and view["turn"] == seat:
            controls.append(Select("Play a token", [
                Choice(f"Play {t['value']}", {"type": "play", "token": t["id"]}) for t in hand
            ]))
            controls.append(Button(f"Play {hand[0]['value']}", {"type": "play", "token": hand[0]["id"]},
                                   style="primary"))
        return Screen(Card(title="Your tokens", description=text), controls=controls)

    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        data = event["data"]
        if event["type"] == "played":
            return f"{info.name_of(data['seat'])} played a {data['value']}."
        return super().event_line(event, info)
