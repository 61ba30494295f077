"""The interface of the test-only Tokens game (a hand by DM, a Play select)."""

from __future__ import annotations

from typing import Any

from cogs.table.ui import Button, Card, Choice, GameUI, Lookup, Param, Screen, Select, TableInfo


def peek(view: dict[str, Any], info: TableInfo, options: dict[str, Any]) -> Screen:
    """`/tokens peek [count] [who]`: the caller's own first tokens, as words and a picture."""
    shown = view["hand"][:options.get("count", len(view["hand"]))]
    values = " ".join(str(t["value"]) for t in shown)
    asked = f" (asked about {options['who']})" if "who" in options else ""
    return Screen(Card(title="Your tokens", description=f"{values or '(none)'}{asked}"),
                  image=lambda: picture(values), image_name="peek.png")


def picture(text: str) -> bytes:
    from io import BytesIO

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (200, 40), "white")
    ImageDraw.Draw(image).text((5, 12), text or "-", fill="black")
    out = BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def player_names(view: dict[str, Any], seat: int, info: TableInfo) -> list[tuple[str, str]]:
    return [(s.name, str(s.seat)) for s in info.seats if s.seat != seat]


class TokensUI(GameUI):
    name = "tokens"
    rules = "Play your hidden tokens one at a time. When every hand is empty, the highest total wins."
    lookups = (Lookup("peek", "Your own tokens, as a picture (only you see it)", peek, private=True,
                      params=(Param("count", "How many", integer=True, minimum=1, maximum=9, required=False),
                              Param("who", "Another player", suggest=player_names, required=False))),)

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


UI = TokensUI()
