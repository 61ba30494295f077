"""The table screen: the battlefield picture, both armies, the last move and exchange, and the
phase's public buttons (map accept / re-roll, rock-paper-scissors, Done, End turn)."""

from __future__ import annotations

from functools import partial

from cogs.kniggits.images import battlefield_png
from cogs.kniggits.wording import (
    ARMIES,
    COLOUR,
    ICON,
    SHAPE_EMOJI,
    army_label,
    army_names,
    exchange_words,
    move_words,
    options_line,
    roster,
    status_line,
)
from cogs.table.ui import Button, Card, Control, Screen, TableInfo
from games.kniggits.schema import PublicView

#: The engine's re-roll limit (prelude.MAX_REROLLS); read lazily so a missing engine never breaks import.
MAX_REROLLS_DEFAULT = 5

PHASE_TITLE = {
    "map": "the battlefield", "build": "buying armies", "deploy": "deployment",
    "rps": "who goes first?", "move": "move", "facing": "facings", "turning": "turning",
    "fight": "fight", "exchange": "exchange", "over": "battle over",
}

#: What the table's hand button reads in each phase: what every commander looks at now.
HAND_LABEL = {
    "map": "My army", "build": "My army", "deploy": "My deployment", "rps": "My panel",
    "move": "Move", "facing": "Set facings", "turning": "Turn to face", "fight": "Attack",
    "exchange": "Choose gesture", "over": "My panel",
}


def table_controls(view: PublicView) -> list[Control]:
    phase = view["phase"]
    if phase == "map":
        out: list[Control] = [Button("Accept map", {"type": "accept"}, "success", "✅")]
        if view["map"]["rolls"] < max_rerolls():
            out.append(Button("Re-roll map", {"type": "reroll"}, "secondary", "🎲"))
        return out
    if phase == "rps":
        return [Button(shape.capitalize(), {"type": "throw", "shape": shape}, "primary", emoji)
                for shape, emoji in SHAPE_EMOJI.items()]
    if phase == "move":
        return [Button("Done moving", {"type": "done"}, "success", "✅")]
    if phase in ("facing", "turning"):
        return [Button("Done turning", {"type": "done"}, "success", "✅")]
    if phase == "fight":
        return [Button("End turn", {"type": "end_turn"}, "danger", "🛑")]
    return []


def max_rerolls() -> int:
    try:
        from games.kniggits import prelude
    except ImportError:  # pragma: no cover - the engine ships with the cog
        return MAX_REROLLS_DEFAULT
    return int(getattr(prelude, "MAX_REROLLS", MAX_REROLLS_DEFAULT))


def table_screen(view: PublicView, info: TableInfo) -> Screen:
    """The public battlefield: both armies, what the battle waits for, the last move and exchange."""
    phase = view["phase"]
    turn = view["turn"]
    title = f"⚔️ Kniggits — {PHASE_TITLE.get(phase, phase)}"
    if turn and phase not in ("over",):
        title = (f"⚔️ Kniggits — round {turn['round']} of {turn['rounds']} · "
                 f"Army {turn['army']} · {PHASE_TITLE.get(phase, phase)}")
    lines = [" · ".join(f"{army_label(view, a, info)}" for a in ARMIES), options_line(view), "",
             status_line(view, info)]
    if view["claimable"]:
        lines.append(f"💤 Army {view['claimable']} sat out three turns: its opponents may claim a forfeit "
                     "(in their panel).")
    fields: list[tuple[str, str, bool]] = []
    if view["revealed"] or view["kniggits"]:
        for army in ARMIES:
            fields.append((f"{ICON[army]} Army {army} — {army_names(view, army, info)}"[:256],
                           roster(view, army)[:1024], True))
    last_move, last_exchange = view["last_move"], view["last_exchange"]
    if last_move:
        fields.append(("Last move", move_words(view, last_move, info)[:1024], False))
    if last_exchange:
        fields.append(("Last exchange", exchange_words(view, last_exchange, info)[:1024], False))
    rps = view["rps"]
    if rps and rps["throws"] and phase == "rps":
        fields.append(("Throws", " · ".join(
            f"A {t['A']} vs B {t['B']}" + (f" → {t['winner']}" if t["winner"] else " → again")
            for t in rps["throws"])[:1024], False))
    card = Card(title=title[:256], description="\n".join(lines)[:4096], fields=fields, colour=COLOUR,
                footer="M/A/D = Movement/Attack/Defense tokens · → the enemy it faces · ⚑ fled")
    return Screen(card, image=partial(battlefield_png, view), image_name="battlefield.png",
                  controls=table_controls(view), hand_label=HAND_LABEL.get(phase))
