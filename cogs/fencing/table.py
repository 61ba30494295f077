"""The table screen: the score sheet (a field per player, the trick, penalties owed, the
board) under the status, with the map picture and the prompt's controls."""

from __future__ import annotations

from cogs.fencing import render
from cogs.fencing.table_controls import controls
from cogs.fencing.wording import (
    COLOUR,
    RESULT_WORDS,
    RULE_CAUSES,
    cards_line,
    num,
    piece_long,
    piece_text,
    status,
    town_text,
)
from cogs.table.ui import Card, Screen, TableInfo
from cogs.table.wording import plural
from games.fencing.schema import PublicView, StepView, TrickView


# ----- the score sheet --------------------------------------------------------------------
def player_field(view: PublicView, seat: int, info: TableInfo) -> tuple[str, str, bool]:
    p = view["players"][seat]
    marks = []
    if view["start"] == seat:
        marks.append("Start")
    if view.get("champion") == seat:
        marks.append("👑 champion")
    title = f"{seat + 1}. {info.name_of(seat)}" + (f" ({', '.join(marks)})" if marks else "")
    lines = [f"**{num(p['score'])}** {'point' if abs(p['score']) == 1 else 'points'} · 🏆 "
             f"{plural(p['bumpers_won'], 'bumper')} won",
             f"🍫 {p['chocolate']} chocolate"]
    gear = []
    if view["yellow"]["holder"] == seat:
        gear.append("🟡 yellow")
    if view["purple"] == seat:
        gear.append("🟣 purple")
    if view["control"] == seat:
        gear.append("🩷 control")
    if view["mitt"] == seat:
        gear.append("🧤 mitt")
    if p["hat_on"]:
        gear.append("🎩 hat" + (" (kept)" if p["hat_keep"] else ""))
    if gear:
        lines.append(" · ".join(gear))
    if p["butt_kicks"]:
        lines.append(f"🥾 × {p['butt_kicks']}")
    if p["bumper_scores"]:
        lines.append("earlier bumpers: " + ", ".join(plural(s, "point") for s in p["bumper_scores"]))
    return (title[:256], "\n".join(lines), True)


def board_field(view: PublicView) -> tuple[str, str, bool]:
    region = view["region"]
    attacked = view["attacked"]
    rows = []
    for piece, where in view["pieces"].items():
        line = f"{piece_text(piece)} on {town_text(where['town'], region)}"
        if where["offroad"]:
            line += " · off-road"
        if piece == attacked:
            line = f"**{line}** 🎯"
        rows.append(line)
    boxed = view["yellow"]["boxed_until"]
    if boxed is not None:
        rows.append(f"🟡 yellow ball in the penalty box until trick {boxed}")
    return ("Board", "\n".join(rows), False)


def step_line(step: StepView, info: TableInfo) -> str:
    cards = step.get("cards") or []
    result = RESULT_WORDS.get(step.get("result", ""), step.get("result", ""))
    if step.get("kind") == "thrust":
        head = f"Thrust: {cards_line(cards, info)}"
    else:
        head = f"War (level {step.get('level', 1)}): {cards_line(cards, info)}"
    if step.get("winner") is not None:
        return f"{head} — {info.name_of(step['winner'])}: {result}"
    return f"{head} — {result}"


def trick_field(trick: TrickView, info: TableInfo, label: str) -> tuple[str, str, bool]:
    lines = [step_line(step, info) for step in trick.get("steps") or []][-6:]
    build = trick.get("build")
    if trick.get("winner") is not None and build:
        dice = " ".join(f"🎲{d}" for d in build["dice"])
        mult = f" × {build['mult']}" if build["mult"] != 1 else ""
        lines.append(f"→ **{info.name_of(trick['winner'])}** builds {dice}{mult} = {build['total']}")
    used = [w for w, flag in (("quick-switch", trick.get("qs_used")), ("hose", trick.get("hose_used"))) if flag]
    if used:
        lines.append("Used this trick: " + ", ".join(used))
    attacked = trick.get("attacked")
    name = f"{label} {trick.get('no', '?')}" + (f" · attacking {piece_text(attacked)}" if attacked else "")
    return (name, "\n".join(lines) or "No cards yet.", False)


def penalties_field(view: PublicView, info: TableInfo) -> tuple[str, str, bool] | None:
    owed = view["penalties"]
    if not owed:
        return None
    lines = [f"{info.name_of(p['seat'])}: rule {p['reason']} ({RULE_CAUSES.get(p['reason'], 'penalty')})"
             + (f", {p['queued']} more queued" if p["queued"] else "") for p in owed]
    return ("Penalties owed: 🍫 eat or ⬇️ slide 1", "\n".join(lines), False)


def table_screen(view: PublicView, info: TableInfo) -> Screen:
    """The one public screen: everything is on the table, nobody holds a secret."""
    if view["bumper_no"]:
        title = f"🤺 Table Fencing — bumper {view['bumper_no']}"
        if view["trick_no"]:
            title += f" · trick {view['trick_no']}"
    else:
        title = "🤺 Table Fencing — getting ready"
    lines = [status(view, info)]
    if view["attacked"]:
        where = view["pieces"][view["attacked"]]["town"]
        lines.append(f"🎯 Attacked: **{piece_long(view['attacked'])}** on {town_text(where, view['region'])}")
    fields = [player_field(view, s, info) for s in range(len(view["players"]))]
    trick = view.get("trick") or view.get("last_trick")
    if trick:
        fields.append(trick_field(trick, info, "Trick" if view.get("trick") else "Last trick"))
    owed = penalties_field(view, info)
    if owed:
        fields.append(owed)
    fields.append(board_field(view))
    direction = "clockwise" if view["direction"] == "cw" else "counter-clockwise"
    options = view.get("options") or {}
    footer = (f"{view['region'].title()} · {view['difficulty']} · {direction} · "
              f"off-road {options.get('offroad', 'on')} · duels: {options.get('duel_mode', 'sleeper')}")
    card = Card(title=title, description="\n".join(lines)[:4096], fields=fields, colour=COLOUR, footer=footer)
    return Screen(card, image=lambda: render.ohio_map(view), image_name="ohio.png",
                  controls=controls(view, info))
