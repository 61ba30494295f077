"""Each prompt's controls on the table message, from the engine's own options: the table
shares them and the engine judges who pressed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.fencing.wording import MAX_CHOICES, PIECE_NAMES, names, piece_text, route_words, town_text
from cogs.table.ui import Button, Choice, Control, Field, FormButton, Select, TableInfo
from games.fencing import schema
from games.fencing.schema import PromptView, PublicView, RouteView


# ----- controls ------------------------------------------------------------------------------
def send(action: schema.Action | schema.InsultForm) -> dict[str, Any]:
    """An action checked against the schema, as the plain JSON a control carries."""
    return dict(action)


def controls(view: PublicView, info: TableInfo) -> list[Control]:
    if view["over"]:
        return []
    prompt = view["prompt"]
    kind = prompt["kind"]
    build = PROMPT_CONTROLS.get(kind)
    out: list[Control] = list(build(view, prompt, info)) if build is not None else []
    if view["penalties"]:
        payers = [p["seat"] for p in view["penalties"]]
        who = names(payers, info)
        out.append(Button(f"Eat chocolate ({who})"[:80], send({"type": "pay", "how": "chocolate"}), "success", "🍫",
                          row=3))
        out.append(Button(f"Slide 1 point ({who})"[:80], send({"type": "pay", "how": "slide"}), "secondary", "⬇️",
                          row=3))
    return out


def game_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    return [Button("GAME!", send({"type": "game"}), "success", "🤺", row=0)]


def gun_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    return [Button("Fire the starting gun", send({"type": "fire"}), "danger", "🔫", row=0)]


def stamp_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    return [Button("Stamp the score sheet", send({"type": "stamp"}), "primary", "📝", row=0)]


def attack_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    region = view["region"]
    choices = [Choice(f"{piece_text(piece)} {PIECE_NAMES[piece]}"[:100],
                      send({"type": "attack", "piece": piece}),
                      description=f"on {town_text(view['pieces'][piece]['town'], region)}"[:100])
               for piece in view["attack_choices"]]
    first = prompt["kind"] == "first_attack"
    return [Select("Pick the first piece to attack…" if first else "Call the next piece to attack…",
                   choices[:MAX_CHOICES], row=1)] if choices else []


def thrust_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    return [Button("Thrust!", send({"type": "thrust"}), "danger", "🤺", row=0)]


def hat_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    return [Button("Don hat!", send({"type": "don"}), "danger", "🎩", row=0)] if prompt.get("seats") else []


def golf_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    out: list[Control] = []
    if prompt.get("qs_available"):
        out.append(Button("Quick-switch!", send({"type": "quickswitch"}), "primary", "🔄", row=0))
    for target in prompt.get("hose_targets") or []:
        out.append(Button(f"Hose {info.name_of(target)}"[:80], send({"type": "hose", "target": target}),
                          "secondary", "🌊", row=0))
    out.append(Button("Done", send({"type": "done"}), "success", "✅", row=0))
    return out


def catch_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    if not prompt.get("open"):
        return []
    return [Button(f"Catch! ({info.name_of(prompt['receiver'])})"[:80], send({"type": "catch"}), "success", "🫴",
                   row=0)]


def handout_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    holder = prompt["holder"]
    others = [s for s in range(3) if s != holder]
    choices = [Choice(f"🟡 yellow to {info.name_of(y)}, 🟣 purple to {info.name_of(p)}"[:100],
                      send({"type": "handout", "yellow": y}))
               for y, p in ((others[0], others[1]), (others[1], others[0]))]
    return [Select(f"{info.name_of(holder)}: hand out both golf balls…"[:150], choices, row=1)]


INSULT = Field("text", "Your insult (up to 200 characters)", placeholder="You fight like a dairy farmer!",
               max_length=200)


def duel_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    duel = prompt["duel"]
    stage = duel["stage"]
    if stage == "insult":
        out: list[Control] = []
        if set(prompt.get("seats") or []) & set(duel["seats"]):
            out.append(FormButton("Insult", "Insult your opponent", [INSULT], send({"type": "insult"}),
                                  "danger", "🗯️", row=0))
            out.append(Button("Skip", send({"type": "insult", "text": ""}), "secondary", "🤐", row=0))
        applauding = duel["third"] in (prompt.get("seats") or [])  # only while the engine awaits them
        for i, seat in enumerate(duel["seats"]):
            if applauding and duel["insults"][i] and not duel["applauded"][i]:
                out.append(Button(f"Applaud {info.name_of(seat)}"[:80],
                                  send({"type": "applaud", "who": seat}),
                                  "secondary", "👏", row=0))
        return out
    if stage == "count":
        return [Button("Count: 1, 2, 3 — THROW!", send({"type": "count"}), "primary", "📣", row=0)]
    return [Button("Snap back!", send({"type": "snap"}), "danger", "🪀", row=0)] if prompt.get("seats") else []


def move_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    menu = view.get("moves")
    if not menu:
        return []
    region = view["region"]
    piece, origin = menu["piece"], menu["origin"]
    destinations: list[Choice] = []
    others: list[Choice] = []
    for entry in menu["destinations"]:
        if entry["to"] is None:
            destinations.append(Choice(f"Stay on {origin}"[:100], send({"type": "stay"}), "the piece does not move",
                                       "🛑"))
            continue
        routes = entry["routes"]
        default = next((r for r in routes if r["default"]), routes[0])
        cost = f"{entry['km']} km" + (f" · {entry['penalty']} penalty" if entry["penalty"] else "")
        destinations.append(Choice(f"{town_text(entry['to'], region)} — {cost}"[:100],
                                   move_action(piece, entry["to"], default),
                                   route_words(default, region)[:100]))
        for route in routes:
            if route is not default:
                others.append(Choice(f"{entry['to']}: {route_words(route, region)}"[:100],
                                     move_action(piece, entry["to"], route)))
    out: list[Control] = [Select(f"Move {piece} from {origin} to… (or Stay)"[:150], destinations[:MAX_CHOICES], row=1)]
    if others:
        out.append(Select("…or pick another route"[:150], others[:MAX_CHOICES], row=2))
    return out


def move_action(piece: str, to: str, route: RouteView) -> dict[str, Any]:
    """The engine's own move action for one listed route (as `legal_actions` lists it)."""
    return send({"type": "move", "piece": piece, "to": to, "via": list(route["via"]),
                 "offroad": bool(route["offroad"])})


def anthem_controls(view: PublicView, prompt: PromptView, info: TableInfo) -> list[Control]:
    waiting = prompt.get("seats") or []
    parts = prompt.get("parts") or [[], [], []]
    reader = prompt.get("reader")
    out: list[Control] = []
    if any(s != reader and "noise" not in parts[s] for s in waiting):
        out.append(Button("Noise", send({"type": "anthem", "part": "noise"}), "secondary", "📯", row=0))
    if reader is not None and reader in waiting and "lyrics" not in parts[reader]:
        out.append(Button("Lyrics", send({"type": "anthem", "part": "lyrics"}), "secondary", "📖", row=0))
    if any("hat" not in parts[s] for s in waiting):
        out.append(Button("Hat (optional)", send({"type": "anthem", "part": "hat"}), "secondary", "🎩", row=0))
    if waiting:
        out.append(Button("Hail to the fish!", send({"type": "anthem", "part": "hail"}), "success", "🐟",
                          row=0))
    return out


PromptControls = Callable[[PublicView, PromptView, TableInfo], list[Control]]
PROMPT_CONTROLS: dict[str, PromptControls] = {
    "game": game_controls, "gun": gun_controls, "stamp": stamp_controls, "first_attack": attack_controls,
    "attack": attack_controls, "thrust": thrust_controls, "hat": hat_controls, "golf": golf_controls,
    "catch": catch_controls, "handout": handout_controls, "duel": duel_controls, "move": move_controls,
    "anthem": anthem_controls,
}


