"""Typed shortcuts (`/kniggits move`, `attack`, …) and lookups (`roster`, and the private
`reach` and `los` overlays), with the suggestions their parameters offer."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from cogs.kniggits.drafts import mover_label
from cogs.kniggits.gestures import attack_label
from cogs.kniggits.images import reach_png, sight_png, sight_targets
from cogs.kniggits.wording import (
    ARMIES,
    COLOUR,
    ICON,
    army_names,
    kniggit_map,
    roster,
    status_line,
    tokens,
    xy,
)
from cogs.table.ui import Card, Lookup, Param, Screen, Shortcut, TableInfo, press
from cogs.table.wording import plural
from games.kniggits.schema import PublicView, SeatView


def own_ids(view: SeatView, seat: int) -> list[tuple[str, str]]:
    me = view["me"]
    movers = me.get("movers")
    if movers:
        return [(mover_label(m), m["id"]) for m in movers]
    return [(f"{k['id']} · {tokens(k)} · {xy(k['pos'])}", k["id"])
            for k in view["kniggits"] if k["owner"] == seat and k["status"] == "active"]


def attack_targets(view: SeatView, seat: int) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for o in view["me"].get("attacks") or []:
        seen.setdefault(o["target"], f"{o['target']} (from {o['attacker']})")
    facing = [(f"{e} (for {f['id']})", e) for f in view["me"].get("facings") or [] for e in f["enemies"]]
    return [(label, kid) for kid, label in seen.items()] + facing


def attackers(view: SeatView, seat: int) -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for o in view["me"].get("attacks") or []:
        found.setdefault(o["attacker"], attack_label(o))
    return [(label, kid) for kid, label in found.items()]


def split_destination(text: str) -> tuple[str, str]:
    """`12,9 via 10,5 11,7` → ("12,9", "10,5 11,7"): the slash command's one field."""
    head, _, via = str(text).partition("via")
    return head.strip(), via.strip()


def move_action(o: dict[str, Any]) -> dict[str, Any]:
    to, via = split_destination(o["to"])
    action: dict[str, Any] = {"type": "move", "id": str(o["id"]).strip().upper(), "to": to}
    if via:
        action["via"] = via
    return action


def upper_ids(kind: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda o: {"type": kind, **{k: str(v).strip().upper() for k, v in o.items()}}


def board_card(view: PublicView, info: TableInfo) -> Card:
    """`/kniggits roster`: both armies, token by token (a text twin of the picture)."""
    fields = [(f"{ICON[a]} Army {a} — {army_names(view, a, info)}"[:256], roster(view, a)[:1024], False)
              for a in ARMIES]
    return Card("Kniggits — the armies", status_line(view, info)[:4096], fields=fields, colour=COLOUR)


# ----- private overlays: /kniggits reach and /kniggits los ---------------------------------------
def overlay_card(title: str, words: str) -> Card:
    return Card(title[:256], words[:4096], colour=COLOUR)


def not_yours(view: SeatView, kid: str) -> str | None:
    """Why this caller gets no overlay of `kid` (an unknown id, or another commander's)."""
    me = view["me"]
    if not view["kniggits"]:
        return "No kniggit is on the field yet: overlays come once the armies are deployed."
    k = kniggit_map(view).get(kid)
    if k is None:
        return f"There is no kniggit `{kid}` on the field."
    if k["owner"] != me["seat"]:
        return f"`{kid}` is not yours: overlays are drawn only for your own kniggits."
    if k["status"] != "active":
        return f"`{kid}` has {'fled' if k['status'] == 'fled' else 'left the field'}."
    return None


def reach_screen(view: SeatView, info: TableInfo, options: dict[str, Any]) -> Card | Screen:
    """The engine's reach of the kniggit selected in the caller's move panel (`me.reach`):
    the view holds it for that one kniggit only, so another asks to be selected first."""
    me = view["me"]
    kid = str(options.get("id", "")).strip().upper()
    title = f"🟩 Kniggits — {kid} reach"
    refusal = not_yours(view, kid)
    if refusal:
        return overlay_card(title, refusal)
    if "movers" not in me:
        return overlay_card(title, "Reach is drawn while your army moves (and you are not done moving).")
    if kid not in {m["id"] for m in me.get("movers") or []}:
        return overlay_card(title, f"`{kid}` has moved already this turn.")
    cursor = me.get("cursor")
    if cursor != kid or me.get("reach") is None:
        return overlay_card(title, f"Your move panel has **{cursor}** selected, and reach is worked out for the "
                                   f"selected kniggit: pick **{kid}** in *Kniggit to move* (press **Move**), "
                                   f"then ask again.")
    cells = list(me.get("reach") or [])
    words = (f"**{kid}** can reach {plural(len(cells), 'cell')} this turn (tinted)." if cells
             else f"**{kid}** cannot move this turn: it may only hold.")
    return Screen(overlay_card(title, words), image=partial(reach_png, view, kid, cells), image_name="reach.png")


def los_screen(view: SeatView, info: TableInfo, options: dict[str, Any]) -> Card | Screen:
    """An archer's lines of sight from the caller's own view (`me.sights`): who it can shoot,
    who stands in range behind cover, who is out of range."""
    me = view["me"]
    kid = str(options.get("id", "")).strip().upper()
    title = f"🏹 Kniggits — {kid} line of sight"
    refusal = not_yours(view, kid)
    if refusal:
        return overlay_card(title, refusal)
    if not view["options"].get("archers"):
        return overlay_card(title, "Archers are off in this battle.")
    if kniggit_map(view)[kid]["kind"] != "archer":
        return overlay_card(title, f"`{kid}` is no archer: only archers shoot.")
    sight = (me.get("sights") or {}).get(kid)
    if sight is None:
        return overlay_card(title, f"`{kid}` cannot shoot now: an archer shoots once a turn, only if it has "
                                   "not moved, holds an Attack and a Defense token and carries no flag.")
    clear = [t["id"] for t in sight if t["clear"] and t["in_range"]]
    covered = [t["id"] for t in sight if t["in_range"] and not t["clear"]]
    far = [t["id"] for t in sight if not t["in_range"]]
    lines = [f"✅ Can shoot: {', '.join(clear) or 'nobody'}"]
    if covered:
        lines.append(f"🚫 In range, line blocked: {', '.join(covered)}")
    if far:
        lines.append(f"📏 Out of range: {', '.join(far)}")
    return Screen(overlay_card(title, "\n".join(lines)), image=partial(sight_png, view, kid, sight_targets(sight)),
                  image_name="sight.png")


def reach_ids(view: SeatView, seat: int) -> list[tuple[str, str]]:
    """The caller's kniggits still to move (the selected one first)."""
    me = view["me"]
    cursor = me.get("cursor")
    movers = sorted(me.get("movers") or [], key=lambda m: m["id"] != cursor)
    return [(mover_label(m) + (" · selected" if m["id"] == cursor else ""), m["id"]) for m in movers]


def archer_ids(view: SeatView, seat: int) -> list[tuple[str, str]]:
    return [(f"{k['id']} · {tokens(k)} · {xy(k['pos'])}" + (" · can shoot" if k["id"] in
             (view["me"].get("sights") or {}) else ""), k["id"])
            for k in view["kniggits"]
            if k["owner"] == seat and k["status"] == "active" and k["kind"] == "archer"]


ID_PARAM = Param("id", "Your kniggit (start typing)", suggest=own_ids)
SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("army", "Buy your army: lines `name M A D [archer]`, separated by ;", lambda o: {
        "type": "army", "lines": str(o["lines"]).replace(";", "\n")},
             (Param("lines", "e.g. Lance 2 2 2; Bow 3 2 4 archer"),)),
    Shortcut("deploy", "Place kniggits: `A1 10,3; A2 12,3` (or back / front)", lambda o: (
        {"type": "deploy", "preset": str(o["lines"]).strip().lower()}
        if str(o["lines"]).strip().lower() in ("back", "front")
        else {"type": "deploy", "lines": str(o["lines"]).replace(";", "\n")}),
             (Param("lines", "e.g. A1 10,3; A2 12,3 — or back / front"),)),
    Shortcut("move", "Move a kniggit: to x,y (optionally `via x,y x,y`)", move_action,
             (ID_PARAM, Param("to", "Destination x,y, e.g. 12,9 or `12,9 via 10,5`"))),
    Shortcut("undo", "Undo your army's latest move this phase", press("undo")),
    Shortcut("face", "Turn a kniggit to face an engaged enemy", upper_ids("face"),
             (ID_PARAM, Param("target", "The enemy it faces", suggest=attack_targets))),
    Shortcut("done", "Done with this phase (moving or turning)", press("done")),
    Shortcut("attack", "Attack with a kniggit", upper_ids("attack"),
             (Param("id", "Your attacker", suggest=attackers), Param("target", "Its target", suggest=attack_targets))),
    Shortcut("shoot", "Shoot with an archer", upper_ids("shoot"),
             (Param("id", "Your archer", suggest=attackers), Param("target", "Its target", suggest=attack_targets))),
    Shortcut("concede", "Concede the battle for your whole army", press("concede")),
)
LOOKUPS: tuple[Lookup, ...] = (
    Lookup("roster", "Both armies token by token (only to you)", board_card),
    Lookup("reach", "Where your kniggit can move this turn (a picture, only to you)", reach_screen,
           params=(Param("id", "Your kniggit (start typing)", suggest=reach_ids),), private=True),
    Lookup("los", "Your archer's lines of sight and range (a picture, only to you)", los_screen,
           params=(Param("id", "Your archer (start typing)", suggest=archer_ids),), private=True),
)
