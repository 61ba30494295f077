"""Typed commands (`/fencing move`, `hose`, `quickswitch`, `hat`) and the `map` lookup, with
the suggestions their parameters offer."""

from __future__ import annotations

from typing import Any

from cogs.fencing import render
from cogs.fencing.table import board_field
from cogs.fencing.table_controls import send
from cogs.fencing.wording import COLOUR, PIECE_ICONS, PIECE_NAMES, piece_text, route_words, town_text
from cogs.table.ui import Card, Lookup, Param, Screen, Shortcut, TableInfo, press
from games.fencing import schema
from games.fencing.region import load
from games.fencing.schema import PublicView


# ----- typed commands ----------------------------------------------------------------------
def move_command(options: dict[str, Any]) -> dict[str, Any]:
    """`/fencing move piece to [via] [offroad]` as the engine's move action (rule 19): without
    `via` the default road path, without `offroad` a road move. A typed mistake is the engine's
    to judge (rule 24 penalises it), so nothing is refused here."""
    to = str(options.get("to") or "").strip().upper()
    action: schema.Move = {"type": "move", "piece": str(options.get("piece") or ""), "to": to,
                           "offroad": str(options.get("offroad") or "").strip().lower() in ("true", "yes", "on")}
    if "via" in options:
        raw = str(options.get("via") or "")
        towns = [t.strip().upper() for t in raw.replace(";", ",").replace(" ", ",").split(",") if t.strip()]
        if towns and towns[0] == "VIA":
            towns = towns[1:]
        if towns and towns[-1] == to:
            towns = towns[:-1]
        action["via"] = towns
    return send(action)


def hose_command(options: dict[str, Any]) -> dict[str, Any]:
    """`/fencing hose target`: the target's number on the score sheet (the autocomplete offers
    names); anything else goes to the engine as no one, which refuses it (rule 12)."""
    raw = str(options.get("target") or "").strip()
    return send({"type": "hose", "target": int(raw) - 1 if raw in ("1", "2", "3") else None})


def hose_hints(view: PublicView, seat: int | None, info: TableInfo) -> list[tuple[str, str]]:
    """The other players by name (the value is their number on the score sheet)."""
    return [(f"{info.name_of(s)} (player {s + 1})", str(s + 1)) for s in range(len(view["players"])) if s != seat]


def destination_hints(view: PublicView) -> list[tuple[str, str]]:
    menu = view.get("moves")
    return [(f"{town_text(e['to'], view['region'])} — {e['km']} km", e["to"])
            for e in (menu["destinations"] if menu else []) if e["to"] is not None]


def via_hints(view: PublicView) -> list[tuple[str, str]]:
    """Every road path through other towns on the move menu, as `via` values."""
    menu = view.get("moves")
    out: list[tuple[str, str]] = []
    for entry in menu["destinations"] if menu else []:
        for route in entry["routes"]:
            if route["via"] and not route["offroad"]:
                value = ",".join(route["via"])
                out.append((f"{value} → {entry['to']} ({route_words(route, view['region'])})", value))
    return out


def map_card(view: PublicView, info: TableInfo) -> Card:
    """The board as text: every piece, the attacked one, the last move and the move menu."""
    region = view["region"]
    lines = [board_field(view)[1]]
    last = (view.get("last_move") or (view.get("streak") or {}).get("last_move"))
    if last:
        lines.append(f"Last move: {piece_text(last['piece'])} {last['from']} → {last['to']} "
                     f"({'off-road' if last.get('offroad') else 'via ' + ', '.join(last['route'])}, {last['km']} km)")
    menu = view.get("moves")
    if menu:
        options = [f"{e['to']} {e['km']} km" + (f" (+{e['penalty']} penalty)" if e["penalty"] else "")
                   for e in menu["destinations"] if e["to"] is not None]
        lines.append(f"{piece_text(menu['piece'])} may go to: " + (", ".join(options) or "nowhere (stay)"))
    lines.append(f"Roads: {view['difficulty']} · the thread: 69 km · pollution: Lake Erie.")
    return Card(f"🗺️ The map of {load(region).name}", "\n".join(lines)[:4096], colour=COLOUR)


def map_screen(view: PublicView, info: TableInfo) -> Screen:
    """`/fencing map`: the map's picture (towns, roads by class, pieces, Lake Erie) with the
    text card, both from the public view."""
    return Screen(map_card(view, info), image=lambda: render.ohio_map(view), image_name="ohio.png")


LOOKUPS: tuple[Lookup, ...] = (
    Lookup("map", "The map of Ohio: where the pieces stand and where the attacked one may go",
           lambda view, info: map_screen(view, info)),
)

SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("move", "Move the attacked piece (you have control)", lambda o: move_command(o), (
        Param("piece", "The attacked piece", choices={p: f"{PIECE_ICONS[p]} {PIECE_NAMES[p]} ({p})"
                                                      for p in PIECE_NAMES}),
        Param("to", "The destination town (its id, e.g. HEB)", suggest=lambda view, seat: destination_hints(view)),
        Param("via", "Towns passed on the way, in order, comma-separated (default: the shortest road)",
              suggest=lambda view, seat: via_hints(view), required=False),
        Param("offroad", "true: the straight line off the road (default false: by road)",
              choices={"true": "true — the straight line", "false": "false — by road"}, required=False),
    )),
    Shortcut("hose", "Hose a player (you hold the purple ball)", lambda o: hose_command(o), (
        Param("target", "Who (start typing their name)", suggest=lambda view, seat, info: hose_hints(
            view, seat, info)),)),
    Shortcut("quickswitch", "Call a quick-switch (you hold the purple ball)", press("quickswitch")),
    Shortcut("hat", "Keep your silly hat on after the trick, or take it off", lambda o: send({
        "type": "hat", "keep": o["keep"] == "keep"}), (
        Param("keep", "keep it on, or off at the trick's end", choices={"keep": "keep", "off": "off"}),)),
)
