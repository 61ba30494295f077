"""What a commander's panel offers before a pick is final: army lists and their quick presets,
the deployment form, the move destinations with their numbered routes and the move preview."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from cogs.kniggits.wording import RUN_REASON, xy
from cogs.table.mentions import neutral
from cogs.table.ui import Field
from games.kniggits.schema import Destination, Mover, Options, Plan

#: Longest action JSON that still fits a button's custom_id (100 minus the runtime's prefix).
ACTION_ROOM = 72
OPTIONS_PER_SELECT = 25


def action_fits(action: dict[str, Any]) -> bool:
    return len(json.dumps(action, separators=(",", ":"), sort_keys=True)) <= ACTION_ROOM


def preset_lines(share: int, options: Options) -> list[tuple[str, str]]:
    """Ready-made lists within the share (the engine's own presets), as `lines` text."""
    try:
        from games.kniggits import army
        lists = army.presets(share, {"archers": False, "two_swords": False, **options})
    except Exception:  # a quick start is a convenience, never a reason to fail the panel
        return []
    out = []
    for number, kniggits in enumerate(lists[:2]):
        text = "\n".join(f"{k['M']} {k['A']} {k['D']}" + (" archer" if k["kind"] == "archer" else "")
                         for k in kniggits)
        label = ("Quick: " if number == 0 else "Quick ") + ", ".join(
            f"{k['M']}/{k['A']}/{k['D']}" for k in kniggits[:4]) + ("…" if len(kniggits) > 4 else "")
        out.append((label[:80], text))
    return out


def army_judgement(line: Mapping[str, Any], options: Options) -> str:
    """The engine's own verdict on a draft line (2.5): a warning when it would run away."""
    try:
        from games.kniggits import army
        valid, two_swords, reason = army.judge(line, {"archers": False, "two_swords": False, **options})
    except Exception:
        return ""
    if not valid:
        return f" ⚠️ runs away ({RUN_REASON.get(reason, reason)})"
    return " ⚔⚔ two swords" if two_swords else ""


def draft_text(lines: Sequence[Mapping[str, Any]], options: Options) -> str:
    if not lines:
        return "(empty)"
    out = []
    for n, k in enumerate(lines, 1):
        kind = " archer" if k.get("kind") == "archer" else ""
        name = f"{neutral(k['name'])} " if k.get("name") else ""
        out.append(f"{n}. {name}{k['M']}/{k['A']}/{k['D']}{kind}{army_judgement(k, options)}")
    return "\n".join(out)


ARMY_FIELD = Field("lines", "One kniggit a line: name M A D [archer]",
                   placeholder="Lance 2 2 2\nBow 3 2 4 archer\nTwin 2 6 0 twoswords",
                   max_length=2000, paragraph=True)
DEPLOY_FIELD = Field("lines", "One kniggit a line: id x,y", placeholder="A1 10,3\nA2 12,3",
                     max_length=1000, paragraph=True)


def deploy_example(mine: list[str], zone: list[Any]) -> str:
    """"B1 10,17": the form's example names this seat's own kniggits, in its own rows."""
    row = zone[0] if zone and isinstance(zone[0], int) else 3
    return "\n".join(f"{kid} {10 + 2 * n},{row}" for n, kid in enumerate(mine[:2])) or "A1 10,3"


def deploy_field(mine: list[str], zone: list[Any]) -> Field:
    return dataclasses.replace(DEPLOY_FIELD, placeholder=deploy_example(mine, zone))
TO_FIELD = Field("to", "Destination x,y", placeholder="12,9", max_length=9)
VIA_FIELD = Field("via", "Waypoints (optional), x,y each", placeholder="10,5 11,7", max_length=80,
                  required=False)


def destination_label(d: Destination) -> str:
    tag, cell, cost = d["tag"], xy(d["cell"]), d["cost"]
    if tag == "hold":
        return f"Hold (stay on {cell})"
    if tag == "engage":
        return f"Engage {d['enemy']} → {cell} · {cost} in"
    if tag == "potion":
        return f"Potion {d['item']} → {cell} · {cost} in"
    if tag == "flag":
        return f"Flag {d['item']} → {cell} · {cost} in"
    if tag == "advance":
        return f"Advance → {cell} · {cost} in"
    if tag == "fall_back":
        return f"Fall back → {cell} · {cost} in"
    near = f" (near {d['enemy']})" if d["enemy"] else ""
    return f"{cell} · {cost} in{near}"


def plan_words(plan: Plan) -> str:
    path = plan["path"]
    text = (f"**{plan['id']}**: {xy(path[0] if path else None)} → {xy(path[-1] if path else None)} · "
            f"**{plan['cost']} of {plan['allowance']}** in")
    if len(path) > 2:
        text += f" (via {' '.join(xy(c) for c in path[1:-1])})"
    if plan["engages"]:
        text += f" · engages {', '.join(plan['engages'])}"
    if plan["potions"]:
        text += f" · drinks {', '.join(plan['potions'])}"
    if plan["flag"]:
        held = f", held in the {plan['hand']} hand" if plan["hand"] else ""
        text += f" · flag {plan['flag']}{held}"
    return text


#: The named destinations whose route the reach picture draws, numbered like the select's emoji.
ROUTED = ("engage", "potion", "flag", "advance", "fall_back")
ROUTE_EMOJI = {1: "1️⃣", 2: "2️⃣", 3: "3️⃣", 4: "4️⃣", 5: "5️⃣", 6: "6️⃣", 7: "7️⃣", 8: "8️⃣", 9: "9️⃣"}


def numbered_routes(dests: Sequence[Destination]) -> dict[int, int]:
    """Index in the destination list → route number (1-9), for the named destinations."""
    out: dict[int, int] = {}
    for n, d in enumerate(dests[:OPTIONS_PER_SELECT]):
        if d["tag"] in ROUTED and d["path"] and len(out) < len(ROUTE_EMOJI):
            out[n] = len(out) + 1
    return out


def destination_action(kid: str, d: Destination) -> dict[str, Any]:
    """A destination moves at once (its route is drawn before the pick; Undo takes it back).
    A flag goes through the preview, where the hand that holds it is chosen (V7)."""
    if d["tag"] == "hold":
        return {"type": "hold", "id": kid}
    if d["tag"] == "flag":
        return {"type": "plan", "id": kid, "to": list(d["cell"])}
    return {"type": "move", "id": kid, "to": list(d["cell"])}


def mover_label(m: Mover) -> str:
    extra = " · pinned" if m["pinned"] else (" · holding" if m["held"] else "")
    return f"{m['id']} · {m['M']}/{m['A']}/{m['D']} · {xy(m['pos'])} · {m['allowance']} in{extra}"

