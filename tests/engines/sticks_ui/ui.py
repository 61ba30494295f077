"""Last Stick's table: the row as a picture and a count, whose turn, and three buttons any
seat may press (the runtime sends the press as the presser's seat; the engine refuses
anyone whose turn it is not). Nothing is private, so there is no private screen."""

from __future__ import annotations

from typing import Any

from cogs.table.ui import Button, Card, Control, GameUI, Screen, TableInfo
from tests.engines.sticks.engine import MOST
from tests.engines.sticks.schema import PublicView, SeatView
from tests.engines.sticks_ui.events import EVENT_WORDS, last_stick_reason
from tests.engines.sticks_ui.render import picture


class SticksUI(GameUI[PublicView, SeatView]):
    name = "sticks"
    rules = ("Take 1, 2 or 3 sticks in turn. Whoever takes the **last** stick loses. "
             "Miss a turn and the clock takes one for you.")

    def table(self, view: PublicView, info: TableInfo) -> Screen:
        last = view["last"]
        taken = last["count"] if last else 0
        lines = [f"**{view['sticks']}** sticks left."]
        if last is not None:
            lines.append(f"{info.name_of(last['seat'])} took {last['count']}.")
        controls: list[Control] = []
        if view["loser"] is None:
            lines.append(f"{info.name_of(view['turn'])} to take 1, 2 or 3.")
            controls = [Button(f"Take {n}", {"type": "take", "count": n}, style="primary")
                        for n in range(1, min(MOST, view["sticks"]) + 1)]
        else:
            lines.append(f"{info.name_of(view['loser'])} took the last stick.")
        taken_by = "\n".join(f"{info.name_of(seat)}: {count}" for seat, count in enumerate(view["taken"]))
        return Screen(Card(title="Last Stick", description="\n".join(lines), fields=[("Taken", taken_by, False)]),
                      image=lambda: picture(view["sticks"], taken), image_name="sticks.png", controls=controls)

    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        words = EVENT_WORDS.get(event["type"])
        return words(event["data"], info) if words else super().event_line(event, info)

    def result_score(self, score: float) -> str:
        return f"{score:g} sticks"

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        if outcome.get("reason") == "last_stick":
            return last_stick_reason(outcome["detail"], info)
        return super().result_reason(outcome, info)
