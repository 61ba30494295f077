"""Kniggits on Discord: the battlefield on the table, each commander's panel in private.

Drawn only from engine views; the cog decides no rule. The table (public view) shows the
battlefield picture, both armies with their players' names and rosters, the last move and
the last exchange in words, and the phase's buttons (map accept / re-roll, rock-paper-
scissors, Done, End turn). Its hand button is relabelled after what every commander should
look at now ("My army", "Move", "Attack", "Choose gesture"), so pressing it reveals nothing.

A seat's private screen (DM, or the ephemeral panel behind that button) holds what only it
may do: the army list (a multi-line form), the deployment draft with its preview picture,
the move panel (kniggit select, destination select from the engine's list, "Other cell…"
form, preview picture, Confirm / Change), facing selects (four a message), the attack
select (every legal pair, in pages of 25) and the gesture panel (only the legal heights).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from cogs.table.mentions import neutral
from cogs.table.ui import (
    Button,
    Card,
    Choice,
    Control,
    Field,
    FormButton,
    GameUI,
    Lookup,
    Param,
    Screen,
    Select,
    Shortcut,
    TableInfo,
    press,
)
from cogs.table.wording import number as shown_number
from cogs.table.wording import plural

COLOUR = 0x8D6E63
ARMIES = ("A", "B")
ICON = {"A": "🟧", "B": "🟦"}  # the pictures draw A orange, B blue
HEIGHTS = ("high", "mid", "low")
HEIGHT_WORD = {"high": "High", "mid": "Mid", "low": "Low"}
HEIGHT_EMOJI = {"high": "👍", "mid": "👉", "low": "🤙"}
POOL_WORD = {"M": "Movement", "A": "Attack", "D": "Defense"}
SHAPE_EMOJI = {"rock": "✊", "paper": "✋", "scissors": "✌️"}
#: The engine's re-roll limit (prelude.MAX_REROLLS); read lazily so a missing engine never breaks import.
MAX_REROLLS_DEFAULT = 5
#: Longest action JSON that still fits a button's custom_id (100 minus the runtime's prefix).
ACTION_ROOM = 72
FACINGS_PER_MESSAGE = 4
OPTIONS_PER_SELECT = 25

RULES = """\
**Kniggits** — rock-paper-scissors meets sword and shield. Two armies (A and B, one or two \
players each) of toy knights fight on a grid battlefield (1 cell = 1 inch; A's home row is at \
the bottom, B's at the top).

**Setup:** the captains accept the map (or re-roll it). Each player buys kniggits in secret \
from their share of the budget: a kniggit costs 5, each token 1 — **M**ovement, **A**ttack, \
**D**efense; every kniggit needs at least one of each or it runs away. Armies are revealed \
together, then deployed in secret within 6 inches of your edge. The captains throw \
rock-paper-scissors (best of three) for the first turn.

**A turn:** (1) **move** each kniggit up to 2 inches per M token (max 12; a crawl of 2 at M=0). \
Coming within 2 inches of an enemy engages it and ends that move; a kniggit that starts \
engaged may only step away. (2) The other army **turns** its engaged kniggits to face attackers. \
(3) **Fight:** each engaged kniggit facing an enemy may attack it.

**An exchange** is a secret, simultaneous gesture: the attacker picks a sword height and, if \
the target faces it and strikes back, a shield height too; the target picks a shield (and a \
sword when it strikes back). A sword at a height the other side does not guard removes a token: \
**High** an Attack token, **Mid** Defense, **Low** Movement. A missing pick is a fumble. A \
kniggit left with one kind of token flees and runs home. Win when every enemy is fleeing or \
gone; after the turn limit, the stronger army (5+M+A+D of active kniggits) wins.

**Advanced options:** horses (M≥5: faster; foot soldiers cannot strike High at riders), magic \
swords (A≥5: two attacks), double defence (D≥5: guard two heights), two swords (D=0, A≥5), \
archers (shoot at 2 inches per D token, clear sight, not after moving), potions (+5 tokens), \
capture the flag.

**How:** the battlefield picture is on the table. Your own panel comes by DM (or the table's \
button: **My army**, **Move**, **Attack**, **Choose gesture**…). Typed shortcuts: \
`/kniggits army`, `deploy`, `move`, `undo`, `face`, `done`, `attack`, `shoot`, `concede`; \
to look: `board`, `roster`, and (only to you) `reach id` and `los id`. Left-handed? Say so in your army \
panel: the gesture panel then reads "Left hand — sword".
"""

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


# ----- names --------------------------------------------------------------------------
def seats_of(view: dict[str, Any], army: str) -> list[int]:
    info = (view.get("armies") or {}).get(army) or {}
    return list(info.get("seats") or [])


def army_names(view: dict[str, Any], army: str, info: TableInfo) -> str:
    names = [info.name_of(s) for s in seats_of(view, army)]
    return " & ".join(names) if names else "nobody"


def army_label(view: dict[str, Any], army: str | None, info: TableInfo) -> str:
    """`🟦 Army A (Alice & Carol)`."""
    if army is None:
        return "nobody"
    return f"{ICON.get(army, '')} Army {army} ({army_names(view, army, info)})"


def army_of_seat(view: dict[str, Any], seat: int) -> str | None:
    return next((a for a in ARMIES if seat in seats_of(view, a)), None)


def kniggit_map(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {k["id"]: k for k in view.get("kniggits") or []}


def owner_of(view: dict[str, Any], kid: str) -> int | None:
    k = kniggit_map(view).get(kid)
    if k is not None:
        return int(k["owner"])
    for bought in ((view.get("revealed") or {}).get(kid[:1]) or []):
        if bought["id"] == kid:
            return int(bought["owner"])
    return None


def whose(view: dict[str, Any], kid: str, info: TableInfo) -> str:
    """`Alice's A1` (the id alone when its commander is not known yet)."""
    owner = owner_of(view, kid)
    return f"{info.name_of(owner)}'s {kid}" if owner is not None else kid


def tokens(k: dict[str, Any]) -> str:
    return f"{k['M']}/{k['A']}/{k['D']}"


def xy(cell: Sequence[int] | None) -> str:
    return f"{cell[0]},{cell[1]}" if cell else "—"


def id_number(kid: str) -> int:
    digits = "".join(ch for ch in kid[1:] if ch.isdigit())
    return int(digits) if digits else 0


# ----- the table ------------------------------------------------------------------------
def kniggit_line(k: dict[str, Any]) -> str:
    """`A1 3/2/2 · 12,9 ⚔B2` with its marks: fled, gone, horse, magic sword, bow, flag."""
    marks = []
    if k["status"] == "fled":
        marks.append("⚑ fled")
    elif k["status"] == "gone":
        marks.append("gone")
    if k.get("mounted"):
        marks.append("🐎")
    if k.get("magic_sword"):
        marks.append("★")
    if k.get("kind") == "archer":
        marks.append("🏹")
    if k.get("two_swords"):
        marks.append("⚔⚔")
    if k.get("carrying"):
        marks.append(f"⚑{k['carrying']} ({k.get('hand') or 'sword'} hand)")
    where = "" if k["status"] == "gone" else f" · {xy(k['pos'])}"
    facing = f" → {k['facing']}" if k.get("facing") and k["status"] == "active" else ""
    name = f" “{neutral(k['name'])}”" if k.get("name") else ""
    return f"`{k['id']}`{name} {tokens(k)}{where}{facing}" + (" " + " ".join(marks) if marks else "")


def roster(view: dict[str, Any], army: str) -> str:
    deployed = [k for k in view.get("kniggits") or [] if k["army"] == army]
    if deployed:
        return "\n".join(kniggit_line(k) for k in sorted(deployed, key=lambda k: id_number(k["id"])))
    bought = ((view.get("revealed") or {}).get(army)) or []
    if bought:
        return "\n".join(purchase_line(p) for p in bought)
    return "(not revealed yet)"


def purchase_line(p: dict[str, Any]) -> str:
    kind = " 🏹" if p.get("kind") == "archer" else (" ⚔⚔" if p.get("two_swords") else "")
    name = f" “{neutral(p['name'])}”" if p.get("name") else ""
    ran = "" if p.get("valid", True) else f" — ran away ({RUN_REASON.get(p.get('reason', ''), p.get('reason', ''))})"
    return f"`{p['id']}`{name} {tokens(p)}{kind}{ran}"


RUN_REASON = {"missing_token": "needs one token of each kind", "archers_off": "archers are off",
              "two_swords_off": "two swords are off"}


def locks(view: dict[str, Any], round_: dict[str, Any] | None, info: TableInfo) -> str:
    """🔒 per participant who locked, ⏳ for the rest. Only that: the table must not change
    with a pending pick, and a commitment does (each participant sees their own in their panel;
    the reveal publishes every pick with its nonce)."""
    if not round_:
        return ""
    chosen = set(round_.get("chosen") or [])
    parts = []
    for seat in round_.get("seats") or []:
        mark = "🔒" if seat in chosen else "⏳"
        parts.append(f"{mark} {info.name_of(seat)}")
    return " · ".join(parts)


def own_commitment(round_: dict[str, Any] | None, seat: int) -> str:
    """`sha256(pick:nonce)` of this seat's own locked pick, to check against the reveal."""
    commitment = ((round_ or {}).get("commitments") or {}).get(str(seat))
    return f"Your sealed pick: sha256 `{commitment}` (the reveal shows its nonce)." if commitment else ""


def exchange_head(view: dict[str, Any], ex: dict[str, Any], info: TableInfo) -> str:
    """`Alice's A1 attacks Bob's B2 — B2 may strike back`."""
    a, t = ex["attacker"], ex["target"]
    if ex["mode"] == "shot":
        tail = f"{t} may only guard"
    elif ex["mode"] == "mutual":
        tail = f"{t} may strike back"
    else:
        tail = f"{t} may only guard"
    verb = "shoots at" if ex["mode"] == "shot" else "attacks"
    return f"⚔️ **{whose(view, a, info)} {verb} {whose(view, t, info)}** — {tail}"


def gesture_words(g: dict[str, Any] | None) -> str:
    if not g:
        return "no pick"
    parts = []
    if g.get("double"):
        guards = [HEIGHT_WORD.get(h, "?") for h in (g.get("sword"), g.get("shield")) if h]
        return "guards with both: " + (" + ".join(guards) or "nothing")
    if g.get("swords"):
        parts.append("swords " + " + ".join(HEIGHT_WORD.get(h, "—") if h else "—" for h in g["swords"]))
    elif g.get("sword"):
        parts.append(f"sword {HEIGHT_WORD[g['sword']]}")
    if g.get("shield"):
        parts.append(f"shield {HEIGHT_WORD[g['shield']]}")
    return ", ".join(parts) or "no pick"


def exchange_words(view: dict[str, Any], ex: dict[str, Any], info: TableInfo) -> str:
    """The reveal: both sides' gestures, fumbles, hits, flights."""
    a, t = ex["attacker"], ex["target"]
    verb = "shot at" if ex["mode"] == "shot" else "attacked"
    gestures = ex.get("gestures") or {}
    lines = [f"#{ex['number']}: {whose(view, a, info)} {verb} {whose(view, t, info)}.",
             f"{a}: {gesture_words(gestures.get(a))} · {t}: {gesture_words(gestures.get(t))}"]
    lines += fumble_words(ex)
    lines.append(hits_words(ex))
    for kid in ex.get("dismounted") or []:
        lines.append(f"🐎 {kid} loses its horse.")
    for kid in ex.get("fled") or []:
        lines.append(f"⚑ {kid} flees!")
    nonces = (ex.get("round") or {}).get("nonces") or {}
    if nonces:
        lines.append("nonces: " + " · ".join(f"{info.name_of(int(s))} `{n}`" for s, n in sorted(nonces.items())))
    return "\n".join(lines)


HAND_EMPTY = {"sword": "no strike", "shield": "no guard"}


def fumble_words(ex: dict[str, Any]) -> list[str]:
    """K16's missing hands: "time ran out" only for a side the timer locked; a side its player
    locked with a hand left empty is told as that (they chose it, after being asked)."""
    timed_out = set(ex.get("timed_out") or [])
    out = []
    for kid, hands in sorted((ex.get("fumbled") or {}).items()):
        if kid in timed_out or "timed_out" not in ex:  # a reveal stored before locks were told apart
            out.append(f"{kid} fumbled its {' and '.join(hands)} (time ran out).")
        else:
            out.append(f"{kid} was locked with no {' and no '.join(hands)} "
                       f"({', '.join(HAND_EMPTY.get(h, h) for h in hands)}).")
    return out


def hits_words(ex: dict[str, Any]) -> str:
    hits = ex.get("hits") or []
    if not hits:
        return "No hit: every strike was guarded or missed."
    after = ex.get("tokens") or {}
    said = [f"{h['id']} loses {plural(h['lost'], POOL_WORD[h['pool']] + ' token')}" for h in hits]
    now = ", ".join(f"{kid} now {'/'.join(str(n) for n in t)}" for kid, t in sorted(after.items()))
    return "; ".join(said) + f" ({now})."


def move_words(view: dict[str, Any], move: dict[str, Any], info: TableInfo) -> str:
    path = move.get("path") or []
    text = f"{whose(view, move['id'], info)} moved {move.get('cost', '?')} in from {xy(path[0] if path else None)} to " \
           f"{xy(path[-1] if path else None)}"
    if move.get("engaged"):
        text += f" and engaged {', '.join(move['engaged'])}"
    if move.get("potions"):
        text += f", drinking {', '.join(move['potions'])}"
    if move.get("flag"):
        text += f", flag {move['flag']}"
    return text + "."


def status_line(view: dict[str, Any], info: TableInfo) -> str:
    """What the battle waits for, with names: whoever must act is told so."""
    phase = view["phase"]
    awaited = [info.name_of(s) for s in view.get("awaited") or []]
    who = ", ".join(f"**{n}**" for n in awaited) or "nobody"
    if phase == "map":
        accepted = view.get("map", {}).get("accepted", {})
        done = [f"{ICON[a]} Army {a} {'✅ accepted' if accepted.get(a) else '⏳ deciding'}" for a in ARMIES]
        return f"🗺️ The captains accept this map or re-roll it ({' · '.join(done)}). Waiting for {who}."
    if phase == "build":
        return (f"🛒 Each player buys kniggits in secret (press **My army**). "
                f"{locks(view, view.get('build'), info)}")
    if phase == "deploy":
        return (f"📍 Each army places its kniggits in secret in its zone (press **My deployment**). "
                f"{locks(view, view.get('deploy'), info)}")
    if phase == "rps":
        rps = view.get("rps") or {}
        score = rps.get("score") or {}
        text = (f"✊✋✌️ Rock-paper-scissors, best of three, for the first turn: "
                f"A {score.get('A', 0)} – B {score.get('B', 0)}. The captains throw: {who}.")
        if rps.get("open"):
            text += f"\n{locks(view, rps['open'], info)}"
        return text
    turn = view.get("turn") or {}
    army = turn.get("army")
    if phase == "move":
        return f"🏃 {army_label(view, army, info)} moves: press **Move**, then **Done**. Waiting for {who}."
    if phase == "facing":
        return f"🧭 {army_label(view, army, info)} chooses which enemy each engaged kniggit faces. Waiting for {who}."
    if phase == "turning":
        other = "B" if army == "A" else "A"
        return (f"🔄 {army_label(view, other, info)} may turn its engaged kniggits to face their attackers "
                f"(**Turn to face**, then Done). Waiting for {who}.")
    if phase == "fight":
        return f"🗡️ {army_label(view, army, info)} fights: press **Attack** to pick one, or **End turn**. Waiting for {who}."
    if phase == "exchange":
        ex = view.get("exchange") or {}
        return (f"{exchange_head(view, ex, info)}\nBoth pick their gestures in secret (**Choose gesture**).\n"
                f"{locks(view, ex.get('round'), info)}")
    if phase == "over":
        result = view.get("result") or {}
        winner = result.get("winner")
        if winner is None:
            return "🏁 The battle is over: a draw."
        return f"🏁 {army_label(view, winner, info)} wins the battle."
    return ""


def options_line(view: dict[str, Any]) -> str:
    o = view.get("options") or {}
    on = [name for key, name in (("horses", "horses"), ("magic_swords", "magic swords"),
                                 ("double_defence", "double defence"), ("two_swords", "two swords"),
                                 ("archers", "archers")) if o.get(key)]
    if o.get("potions"):
        on.append(f"{o['potions']} potions")
    if o.get("scenario") == "flag":
        on.append("capture the flag")
    size = o.get("size", "?")
    return (f"{size}×{size} in · {o.get('budget', '?')} points an army · {o.get('preset', '')} map"
            + (f" · {', '.join(on)}" if on else " · basic rules"))


def table_controls(view: dict[str, Any]) -> list[Control]:
    phase = view["phase"]
    if phase == "map":
        out: list[Control] = [Button("Accept map", {"type": "accept"}, "success", "✅")]
        if view.get("map", {}).get("rolls", 0) < max_rerolls():
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


def battlefield_png(view: dict[str, Any]) -> bytes:
    from cogs.kniggits import render

    return render.battlefield(view)


# ----- the private panel ----------------------------------------------------------------
def action_fits(action: dict[str, Any]) -> bool:
    return len(json.dumps(action, separators=(",", ":"), sort_keys=True)) <= ACTION_ROOM


def preset_lines(share: int, options: dict[str, Any]) -> list[tuple[str, str]]:
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


def army_judgement(line: dict[str, Any], options: dict[str, Any]) -> str:
    """The engine's own verdict on a draft line (2.5): a warning when it would run away."""
    try:
        from games.kniggits import army
        valid, two_swords, reason = army.judge(line, {"archers": False, "two_swords": False, **options})
    except Exception:
        return ""
    if not valid:
        return f" ⚠️ runs away ({RUN_REASON.get(reason, reason)})"
    return " ⚔⚔ two swords" if two_swords else ""


def draft_text(lines: list[dict[str, Any]], options: dict[str, Any]) -> str:
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


def destination_label(d: dict[str, Any]) -> str:
    tag, cell, cost = d["tag"], xy(d["cell"]), d.get("cost", "?")
    if tag == "hold":
        return f"Hold (stay on {cell})"
    if tag == "engage":
        return f"Engage {d.get('enemy')} → {cell} · {cost} in"
    if tag == "potion":
        return f"Potion {d.get('item')} → {cell} · {cost} in"
    if tag == "flag":
        return f"Flag {d.get('item')} → {cell} · {cost} in"
    if tag == "advance":
        return f"Advance → {cell} · {cost} in"
    if tag == "fall_back":
        return f"Fall back → {cell} · {cost} in"
    near = f" (near {d['enemy']})" if d.get("enemy") else ""
    return f"{cell} · {cost} in{near}"


def plan_words(plan: dict[str, Any]) -> str:
    path = plan.get("path") or []
    text = (f"**{plan['id']}**: {xy(path[0] if path else None)} → {xy(path[-1] if path else None)} · "
            f"**{plan.get('cost', '?')} of {plan.get('allowance', '?')}** in")
    if len(path) > 2:
        text += f" (via {' '.join(xy(c) for c in path[1:-1])})"
    if plan.get("engages"):
        text += f" · engages {', '.join(plan['engages'])}"
    if plan.get("potions"):
        text += f" · drinks {', '.join(plan['potions'])}"
    if plan.get("flag"):
        held = f", held in the {plan['hand']} hand" if plan.get("hand") else ""
        text += f" · flag {plan['flag']}{held}"
    return text


#: The named destinations whose route the reach picture draws, numbered like the select's emoji.
ROUTED = ("engage", "potion", "flag", "advance", "fall_back")
ROUTE_EMOJI = {1: "1️⃣", 2: "2️⃣", 3: "3️⃣", 4: "4️⃣", 5: "5️⃣", 6: "6️⃣", 7: "7️⃣", 8: "8️⃣", 9: "9️⃣"}


def numbered_routes(dests: list[dict[str, Any]]) -> dict[int, int]:
    """Index in the destination list → route number (1-9), for the named destinations."""
    out: dict[int, int] = {}
    for n, d in enumerate(dests[:OPTIONS_PER_SELECT]):
        if d["tag"] in ROUTED and d.get("path") and len(out) < len(ROUTE_EMOJI):
            out[n] = len(out) + 1
    return out


def destination_action(kid: str, d: dict[str, Any]) -> dict[str, Any]:
    """A destination moves at once (its route is drawn before the pick; Undo takes it back).
    A flag goes through the preview, where the hand that holds it is chosen (V7)."""
    if d["tag"] == "hold":
        return {"type": "hold", "id": kid}
    if d["tag"] == "flag":
        return {"type": "plan", "id": kid, "to": list(d["cell"])}
    return {"type": "move", "id": kid, "to": list(d["cell"])}


def mover_label(m: dict[str, Any]) -> str:
    extra = " · pinned" if m.get("pinned") else (" · holding" if m.get("held") else "")
    return f"{m['id']} · {m['M']}/{m['A']}/{m['D']} · {xy(m['pos'])} · {m['allowance']} in{extra}"


class KniggitsUI(GameUI):
    name = "kniggits"
    rules = RULES
    colour = COLOUR
    private_noun = "commander's panel"  # an army, a deployment, moves and gestures: no hand of cards
    hand_button = "✋"

    # ----- the table ----------------------------------------------------------------
    def table(self, view: dict[str, Any], info: TableInfo) -> Screen:
        phase = view["phase"]
        turn = view.get("turn")
        title = f"⚔️ Kniggits — {PHASE_TITLE.get(phase, phase)}"
        if turn and phase not in ("over",):
            title = (f"⚔️ Kniggits — round {turn['round']} of {turn['rounds']} · "
                     f"Army {turn['army']} · {PHASE_TITLE.get(phase, phase)}")
        lines = [" · ".join(f"{army_label(view, a, info)}" for a in ARMIES), options_line(view), "",
                 status_line(view, info)]
        if view.get("claimable"):
            lines.append(f"💤 Army {view['claimable']} sat out three turns: its opponents may claim a forfeit "
                         "(in their panel).")
        fields: list[tuple[str, str, bool]] = []
        if view.get("revealed") or view.get("kniggits"):
            for army in ARMIES:
                fields.append((f"{ICON[army]} Army {army} — {army_names(view, army, info)}"[:256],
                               roster(view, army)[:1024], True))
        if view.get("last_move"):
            fields.append(("Last move", move_words(view, view["last_move"], info)[:1024], False))
        if view.get("last_exchange"):
            fields.append(("Last exchange", exchange_words(view, view["last_exchange"], info)[:1024], False))
        rps = view.get("rps")
        if rps and rps.get("throws") and phase == "rps":
            fields.append(("Throws", " · ".join(
                f"A {t['A']} vs B {t['B']}" + (f" → {t['winner']}" if t.get("winner") else " → again")
                for t in rps["throws"])[:1024], False))
        card = Card(title=title[:256], description="\n".join(lines)[:4096], fields=fields, colour=COLOUR,
                    footer="M/A/D = Movement/Attack/Defense tokens · → the enemy it faces · ⚑ fled")
        return Screen(card, image=partial(battlefield_png, view), image_name="battlefield.png",
                      controls=table_controls(view), hand_label=HAND_LABEL.get(phase))

    # ----- a commander's panel ------------------------------------------------------
    def private(self, view: dict[str, Any], seat: int, info: TableInfo) -> Screen | None:
        me = view.get("me")
        if not me:
            return None
        army = me.get("army", "?")
        mates = [info.name_of(s) for s in seats_of(view, army) if s != seat]
        head = f"{ICON.get(army, '')} **Army {army}**" + (" · captain" if me.get("captain") else "") + \
            (f" · with {' & '.join(mates)}" if mates else "")
        panel = Panel(view, me, seat, info)
        panel.build()
        lines = [head, "", *panel.lines]
        title = f"⚔️ Kniggits — {info.name_of(seat)}'s panel"
        card = Card(title=title[:256], description="\n".join(lines)[:4096], fields=panel.fields, colour=COLOUR)
        return Screen(card, image=panel.image, image_name=panel.image_name, controls=panel.controls)

    # ----- words --------------------------------------------------------------------
    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        kind = event.get("type") or ""
        data = event.get("data") or {}
        words = EVENT_WORDS.get(kind)
        if words is None:
            return super().event_line(event, info)
        line = words(data, info)
        if data.get("timeout"):
            line = f"⏰ {line}"
        return line

    def result_score(self, score: float) -> str:
        """Kniggits scores an army's strength, Σ(5+M+A+D) over its active kniggits (K17), not points."""
        return f"army strength {shown_number(score)}"

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        detail = outcome.get("detail") or {}
        reason = outcome.get("reason") or ""
        teams = outcome.get("teams") or []

        def army_named(letter: str | None) -> str:
            if letter not in ARMIES:
                return "nobody"
            index = ARMIES.index(letter)
            seats = teams[index] if index < len(teams) else []
            names = " & ".join(info.name_of(s) for s in seats)
            return f"Army {letter}" + (f" ({names})" if names else "")

        winner = detail.get("winner")
        loser = None if winner is None else ("B" if winner == "A" else "A")
        strength = detail.get("strength") or {}
        if reason == "forfeit":
            return f"{info.name_of(detail.get('seat'))} left the battle: their army loses."
        if reason == "concede":
            return f"{info.name_of(detail.get('seat'))} conceded: {army_named(winner)} wins."
        if reason == "forfeit_claim":
            return (f"Army {detail.get('idle', loser)} sat out three turns and {info.name_of(detail.get('seat'))} "
                    f"claimed the forfeit: {army_named(winner)} wins.")
        if reason == "no_army":
            if winner is None:
                return "Neither army had a single valid kniggit: a draw."
            return f"{army_named(loser)} had no valid kniggit at the reveal: {army_named(winner)} wins."
        if reason == "flag":
            return f"{army_named(winner)} carried the enemy flag home with {detail.get('carrier', 'a kniggit')} and wins."
        if reason == "on_points":
            score = f"strength A {strength.get('A', '?')} – B {strength.get('B', '?')}"
            if winner is None:
                return f"The turn limit ended the battle level: a draw ({score})."
            return f"{army_named(winner)} wins on strength after the turn limit ({score})."
        if reason == "annihilation":
            if winner is None:
                return "Both armies' last kniggits fled in the same exchange: a draw."
            return f"Every kniggit of {army_named(loser)} fled or left the field: {army_named(winner)} wins."
        return super().result_reason(outcome, info)

    lookups: Sequence[Lookup] = ()
    shortcuts: Sequence[Shortcut] = ()


# ----- the private panel, phase by phase -----------------------------------------------------
class Panel:
    """What one seat sees and may do now, built from its view (`me`) alone."""

    def __init__(self, view: dict[str, Any], me: dict[str, Any], seat: int, info: TableInfo) -> None:
        self.view, self.me, self.seat, self.info = view, me, seat, info
        self.lines: list[str] = []
        self.fields: list[tuple[str, str, bool]] = []
        self.controls: list[Control] = []
        self.image: Callable[[], bytes] | None = None
        self.image_name = "panel.png"

    def build(self) -> None:
        phase = self.view["phase"]
        step = getattr(self, f"_{phase}", None)
        if step is not None:
            step()
        if self.me.get("can_claim"):
            self.lines.append("💤 The other army sat out three turns: you may claim the forfeit.")
            self.controls.append(Button("Claim forfeit", {"type": "claim_forfeit"}, "danger", "🏳️"))
        if not self.lines:
            self.lines.append("Nothing for you to do right now.")

    @property
    def awaited(self) -> bool:
        return self.seat in (self.view.get("awaited") or [])

    # -- before the battle --
    def _map(self) -> None:
        if self.me.get("captain"):
            accepted = self.view.get("map", {}).get("accepted", {}).get(self.me.get("army"))
            self.lines.append("✅ Your army accepted this map." if accepted else
                              "🗺️ You are captain: accept the map on the table, or re-roll it.")
        else:
            self.lines.append("🗺️ Your captain accepts the map on the table.")

    def _build(self) -> None:
        me, options = self.me, self.view.get("options") or {}
        self.lines.append(f"🛒 **Buy your kniggits** — {me.get('build_cost', 0)} of {me.get('share', '?')} points "
                          "spent (a kniggit 5, a token 1).")
        self.fields.append(("Your list", draft_text(me.get("draft") or [], options)[:1024], False))
        for mate, lines in sorted((me.get("team_drafts") or {}).items()):
            self.fields.append((f"{self.info.name_of(int(mate))}'s list", draft_text(lines, options)[:1024], False))
        self.controls.append(handed_button(left_handed(self.view, self.seat)))
        if me.get("locked"):
            self.lines.append("🔒 Locked. The armies are revealed once everyone has locked.")
            return
        self.lines.append("Write the list (one kniggit a line: `name M A D`, add `archer` for a bow), "
                          "or take a quick list; then **Lock**.")
        self.controls.append(FormButton("Write my army", "Your army: name M A D [archer]", [ARMY_FIELD],
                                        {"type": "army"}, "primary", "📝"))
        for label, text in preset_lines(int(me.get("share") or 0), options):
            action = {"type": "army", "lines": text}
            if action_fits(action):
                self.controls.append(Button(label, action, "secondary", "⚡"))
        if me.get("draft"):
            self.controls.append(Button("Lock my army", {"type": "lock"}, "success", "🔒"))

    def _deploy(self) -> None:
        me = self.me
        deploy = me.get("deploy") or {}
        placements = deploy.get("placements") or {}
        mine = deploy.get("mine") or []
        zone = deploy.get("zone") or ["?", "?"]
        self.lines.append(f"📍 **Deploy in secret** in rows {zone[0]}–{zone[1]}. Your kniggits: "
                          + (", ".join(f"{kid} → {xy(placements.get(kid))}" for kid in mine) or "none"))
        others = {k: v for k, v in placements.items() if k not in mine}
        if others:
            self.lines.append("Teammates: " + ", ".join(f"{k} → {xy(v)}" for k, v in sorted(others.items())))
        self.image, self.image_name = partial(deployment_png, self.view, me.get("army"), placements), "deployment.png"
        if me.get("locked"):
            self.lines.append("🔒 Locked. Both deployments are revealed together.")
            return
        if mine:
            example = deploy_example(mine, zone).splitlines()[0]
            self.lines.append(f"Pick a preset (back rows or front rows) or place each: `{example}`. Then **Lock**.")
            self.controls += [
                Button("Back rows", {"type": "deploy", "preset": "back"}, "secondary", "⬇️"),
                Button("Front rows", {"type": "deploy", "preset": "front"}, "secondary", "⬆️"),
                FormButton("Place kniggits…", "Deployment: id x,y", [deploy_field(mine, zone)], {"type": "deploy"},
                           "primary", "📝"),
            ]
        self.controls.append(Button("Lock deployment", {"type": "lock"}, "success", "🔒"))

    def _rps(self) -> None:
        me = self.me
        if not me.get("captain"):
            self.lines.append("✊ Your captain throws rock-paper-scissors for the first turn.")
            return
        if me.get("locked"):
            pick = me.get("rps_pick")
            self.lines.append(f"🔒 You threw {pick}. Waiting for the other captain." if pick else "🔒 Thrown.")
            sealed = own_commitment((self.view.get("rps") or {}).get("open"), self.seat)
            if sealed:
                self.lines.append(sealed)
            return
        self.lines.append("✊✋✌️ **Throw** for the first turn (best of three):")
        self.controls += [Button(shape.capitalize(), {"type": "throw", "shape": shape}, "primary", emoji)
                          for shape, emoji in SHAPE_EMOJI.items()]

    # -- the battle --
    def _turn_header(self) -> None:
        turn = self.view.get("turn") or {}
        mine = [k for k in self.view.get("kniggits") or [] if k["owner"] == self.seat]
        if mine:
            self.fields.append(("Your kniggits", "\n".join(kniggit_line(k) for k in mine)[:1024], False))
        if turn:
            self.lines.append(f"Round {turn['round']} of {turn['rounds']} · Army {turn['army']}'s turn.")

    def _move(self) -> None:
        self._turn_header()
        me = self.me
        if "movers" not in me:
            self.lines.append("🏃 The other army is moving." if self.view["turn"]["army"] != me.get("army")
                              else "✅ You are done moving; waiting for your teammate.")
            return
        movers = me.get("movers") or []
        cursor, plan = me.get("cursor"), me.get("plan")
        self.lines.append("🔔 **Your move.** Pick a kniggit, then where it goes: it moves at once, along the "
                          "route the picture draws (⏪ **Undo** takes it back). **Done moving** when finished "
                          "(unmoved kniggits hold).")
        if movers:
            choices = [Choice(mover_label(m)[:100], {"type": "select", "id": m["id"]},
                              emoji="▶️" if m["id"] == cursor else None, default=m["id"] == cursor)
                       for m in movers[:OPTIONS_PER_SELECT]]
            self.controls.append(Select("Kniggit to move", choices))
        finished = all(m.get("held") for m in movers)  # the last panel used offers the turn's Done
        if finished:
            self.lines.append("✅ Every kniggit of yours has moved or holds: press **Done moving** below.")
        if plan:
            self.lines.append("🔍 Preview: " + plan_words(plan))
            self.image, self.image_name = partial(preview_png, self.view, plan), "preview.png"
            self.controls.append(Button("Confirm move", {"type": "confirm"}, "success", "✅"))
            self.controls.append(Button("Change", {"type": "cancel"}, "secondary", "↩️"))
            if plan.get("flag") and plan.get("hand"):
                other = "shield" if plan["hand"] == "sword" else "sword"
                self.controls.append(Button(f"Hold flag in {other} hand", {"type": "hand", "hand": other},
                                            "secondary", "⚑"))
        elif cursor:
            dests = me.get("destinations") or []
            routes = numbered_routes(dests)
            self._reach_picture(cursor, routes)
            choices = []
            for n, d in enumerate(dests[:OPTIONS_PER_SELECT]):
                choices.append(Choice(destination_label(d)[:100], destination_action(cursor, d),
                                      emoji=ROUTE_EMOJI[routes[n]] if n in routes else None))
            if choices:
                self.controls.append(Select(f"Where does {cursor} go?", choices))
            if any(d["tag"] != "hold" for d in dests):  # a pinned kniggit has nowhere to type
                self.controls.append(FormButton("Other cell…", f"Move {cursor}: destination", [TO_FIELD, VIA_FIELD],
                                                {"type": "plan", "id": cursor}, "secondary", "🎯"))
        if me.get("can_undo"):
            self.controls.append(Button("Undo last move", {"type": "undo"}, "secondary", "⏪"))
        self.controls.append(Button("Done moving", {"type": "done"}, "success" if finished else "primary", "🏁"))

    def _reach_picture(self, cursor: str, routes: dict[int, int]) -> None:
        """The selected kniggit's reach (the engine's cells) as the panel's picture, with the
        numbered routes of the named destinations (a pick moves at once, so the route is shown
        first), and an archer's targets from where it stands (shooting needs it to stay put)."""
        cells = self.me.get("reach")
        if cells is None:
            return
        if cells:
            dests = self.me.get("destinations") or []
            drawn = [[number, dests[n].get("path") or []] for n, number in sorted(routes.items())]
            self.lines.append(f"🟩 The picture tints the {plural(len(cells), 'cell')} **{cursor}** can reach "
                              "this turn" + (" and draws the numbered routes (1️⃣ … in the list)." if drawn else "."))
            self.image, self.image_name = partial(reach_png, self.view, cursor, cells, drawn), "reach.png"
        else:
            self.lines.append(f"**{cursor}** cannot move this turn: it may only hold.")
        sight = self.me.get("sight")
        if sight is not None:
            can = [t["id"] for t in sight if t.get("clear") and t.get("in_range")]
            self.lines.append(f"🏹 If it stays, {cursor} can shoot " + (", ".join(can) if can else "nobody")
                              + " in the fight (`/kniggits los`).")

    def _facing_selects(self, verb: str) -> None:
        facings = sorted(self.me.get("facings") or [],
                         key=lambda f: (f.get("current") in f["enemies"], id_number(f["id"])))
        shown = facings[:FACINGS_PER_MESSAGE]
        for f in shown:
            choices = [Choice(f"{f['id']} faces {e}" + (" (now)" if e == f.get("current") else "")
                              + (" · default" if e == f.get("default") else ""),
                              {"type": "face", "id": f["id"], "target": e}) for e in f["enemies"][:OPTIONS_PER_SELECT]]
            current = f.get("current") if f.get("current") in f["enemies"] else None
            self.controls.append(Select(f"{f['id']} {verb}" + (f" (now {current})" if current else ""), choices))
        if len(facings) > len(shown):
            self.lines.append(f"{len(facings) - len(shown)} more after these (or `/kniggits face`).")

    def _facing(self) -> None:
        self._turn_header()
        if not self.me.get("facings"):
            self.lines.append("🧭 The attacking army chooses its facings.")
            return
        self.lines.append("🔔 **Choose which enemy each engaged kniggit faces** (it attacks only that one), "
                          "then **Done turning**.")
        self._facing_selects("faces…")
        if self.awaited:
            self.controls.append(Button("Done turning", {"type": "done"}, "success", "✅"))

    def _turning(self) -> None:
        self._turn_header()
        if not self.me.get("facings") or not self.awaited:
            self.lines.append("🔄 The defending army may turn its kniggits to face their attackers.")
            return
        self.lines.append("🔔 **Turn to face**: your engaged kniggits may face any engaged enemy "
                          "(facing an attacker lets you strike back). Then **Done turning**.")
        self._facing_selects("turns to…")
        self.controls.append(Button("Done turning", {"type": "done"}, "success", "✅"))

    def _fight(self) -> None:
        self._turn_header()
        attacks = self.me.get("attacks") or []
        if not self.awaited:
            self.lines.append("🗡️ The other army is fighting." if self.view["turn"]["army"] != self.me.get("army")
                              else "✅ You ended your turn.")
            return
        self.lines.append("🔔 **Fight!** Pick an attack (→ melee, ⇢ arrow), or **End turn**.")
        pages = [attacks[i:i + OPTIONS_PER_SELECT] for i in range(0, len(attacks), OPTIONS_PER_SELECT)][:4]
        shots = [o for o in attacks if o["mode"] == "shot"]
        if shots:  # an archer's sight: who it can hit from where it stands
            archer = shots[0]["attacker"]
            targets: list[Any] = sight_targets((self.me.get("sights") or {}).get(archer)) or [
                o["target"] for o in shots if o["attacker"] == archer]
            self.image, self.image_name = partial(sight_png, self.view, archer, targets), "sight.png"
        for n, page in enumerate(pages, 1):
            choices = [Choice(attack_label(o), dict(o["action"])) for o in page]
            name = "Attack" + (f" ({n}/{len(pages)})" if len(pages) > 1 else "")
            self.controls.append(Select(name, choices))
        if not attacks:
            self.lines.append("No kniggit of yours can attack now.")
        self.controls.append(Button("End turn", {"type": "end_turn"}, "danger", "🛑"))

    def _exchange(self) -> None:
        self._turn_header()
        ex = self.view.get("exchange") or {}
        self.lines.append(exchange_head(self.view, ex, self.info))
        g = self.me.get("gesture")
        if not g:
            self.lines.append("🙅 **Not your fight** — only the two kniggits' commanders pick gestures. "
                              "Wait for the reveal.")
            return
        draft = g.get("draft") or {}
        role = "attacks" if g["role"] == "attacker" else "is attacked"
        self.lines.append(f"Your **{g['id']}** {role}. Your pick so far: {gesture_words(draft)}.")
        if g.get("locked"):
            self.lines.append("🔒 Locked. Waiting for the other side; both are revealed together.")
            sealed = own_commitment(ex.get("round"), self.seat)
            if sealed:
                self.lines.append(sealed)
            return
        self.lines.append("Pick in secret (you may change it until you lock; a missing hand fumbles).")
        missing = missing_hands(g)
        if missing and draft.get("asked"):
            hands = " and no ".join(missing)
            self.lines.append(f"⚠️ **Lock with no {hands}?** That hand does nothing this exchange: pick it "
                              f"above, or press **Lock with no {hands}**.")
        self.controls += gesture_controls(g, left=left_handed(self.view, self.seat))

    def _over(self) -> None:
        self.lines.append("🏁 The battle is over.")


def attack_label(o: dict[str, Any]) -> str:
    if o["mode"] == "shot":
        return f"{o['attacker']} ⇢ {o['target']} · shot"
    return f"{o['attacker']} → {o['target']} · {'mutual' if o['mode'] == 'mutual' else 'one-sided'}"


def left_handed(view: dict[str, Any], seat: int) -> bool:
    hands = view.get("left_handed") or []
    return bool(hands[seat]) if 0 <= seat < len(hands) else False


def handed_button(left: bool) -> Button:
    """§4: the player says which hand holds the sword; it only relabels the gesture panel."""
    if left:
        return Button("I'm right-handed", {"type": "handed", "left": False}, "secondary", "✋")
    return Button("I'm left-handed", {"type": "handed", "left": True}, "secondary", "✋")


def missing_hands(g: dict[str, Any]) -> list[str]:
    """The hands the seat's draft leaves empty (K16: they fumble): "sword", "shield"."""
    draft = g.get("draft") or {}
    if draft.get("double"):
        return [hand for hand, key in (("guard", "sword"), ("shield", "shield")) if draft.get(key) is None]
    out = []
    if (g.get("swords", 0) == 2 and not all(draft.get("swords") or [None, None])) or (g.get("swords", 0) == 1 and draft.get("sword") is None):
        out.append("sword")
    if g.get("shield") and draft.get("shield") is None:
        out.append("shield")
    return out


def lock_button(g: dict[str, Any], row: int | None) -> Button:
    """Lock; with a hand left empty the first press only asks ("Lock with no shield?", a note
    in the seat's draft) and the button then locks as it is."""
    missing = missing_hands(g)
    if not missing:
        return Button("Lock gesture", {"type": "lock"}, "success", "🔒", row=row)
    if not (g.get("draft") or {}).get("asked"):
        return Button("Lock gesture", {"type": "gesture", "asked": True}, "success", "🔒", row=row)
    return Button(f"Lock with no {' and no '.join(missing)}", {"type": "lock"}, "danger", "🔒", row=row)


def pair_select(g: dict[str, Any], sword_word: str, shield_word: str) -> Select:
    """A side with one sword and a shield picks both at once (then Lock: two presses)."""
    draft = g.get("draft") or {}
    choices = [Choice(f"{sword_word} {HEIGHT_WORD[s]} + {shield_word.lower()} {HEIGHT_WORD[h]}",
                      {"type": "gesture", "sword": s, "shield": h}, emoji=HEIGHT_EMOJI[s],
                      default=draft.get("sword") == s and draft.get("shield") == h)
               for s in g.get("sword_heights") or [] for h in HEIGHTS]
    now = (f" (now {HEIGHT_WORD[draft['sword']]} + {HEIGHT_WORD[draft['shield']]})"
           if draft.get("sword") and draft.get("shield") else "")
    return Select(f"Sword + shield…{now}", choices, row=0)


def swords_select(g: dict[str, Any]) -> Select:
    """Two swords (V4) pick both heights at once; the order of the two makes no difference."""
    allowed = [h for h in HEIGHTS if h in (g.get("sword_heights") or [])]
    current = [h for h in (g.get("draft") or {}).get("swords") or [] if h]
    choices = [Choice(f"Swords {HEIGHT_WORD[a]} + {HEIGHT_WORD[b]}", {"type": "gesture", "swords": [a, b]},
                      emoji=HEIGHT_EMOJI[a], default=sorted(current) == sorted([a, b]))
               for i, a in enumerate(allowed) for b in allowed[i:]]
    now = f" (now {' + '.join(HEIGHT_WORD[h] for h in current)})" if len(current) == 2 else ""
    return Select(f"Swords…{now}", choices)


def gesture_controls(g: dict[str, Any], *, left: bool = False) -> list[Control]:
    """Only the heights this side may pick now (the engine lists them): one select of the
    sword + shield pair (or of both swords), the sword and shield rows to change one hand,
    the double-guard toggle, Lock. A left-handed player's read "Left hand — sword High" and
    "Right hand — shield High" (§4: named controls, so no rule changes)."""
    sword_word, shield_word = ("Left hand — sword", "Right hand — shield") if left else ("Sword", "Shield")
    draft = g.get("draft") or {}
    double = bool(draft.get("double"))
    out: list[Control] = []
    two = g.get("swords", 0) == 2 and not double
    pair = g.get("swords", 0) == 1 and bool(g.get("shield")) and not double
    rows: tuple[int | None, ...] = (None, None, None) if two else ((1, 2, 3) if pair else (0, 1, 2))
    if pair:
        out.append(pair_select(g, sword_word, shield_word))
    if two:
        out.append(swords_select(g))
    elif g.get("swords", 0) == 1 or double:
        allowed = list(HEIGHTS) if double else list(g.get("sword_heights") or [])
        label = "Guard 2" if double else sword_word
        for h in allowed:
            if double and draft.get("shield") == h:
                continue
            chosen = draft.get("sword") == h
            out.append(Button(f"{label} {HEIGHT_WORD[h]}", {"type": "gesture", "sword": h},
                              "success" if chosen else "primary", HEIGHT_EMOJI[h], row=rows[0]))
    if g.get("shield"):
        for h in HEIGHTS:
            if double and draft.get("sword") == h:
                continue
            chosen = draft.get("shield") == h
            out.append(Button(f"{shield_word} {HEIGHT_WORD[h]}", {"type": "gesture", "shield": h},
                              "success" if chosen else "secondary", "🛡️", row=rows[1]))
    if g.get("double"):
        sword = draft.get("sword")
        if double:
            # back to one hand: only when the sword pick is still a legal strike
            if g.get("swords", 0) == 0 or sword is None or sword in (g.get("sword_heights") or []):
                out.append(Button("Guard with both: ON", {"type": "gesture", "double": False}, "success", "🛡️",
                                  row=rows[2]))
        elif sword is None or sword != draft.get("shield"):
            out.append(Button("Guard with both: off", {"type": "gesture", "double": True}, "secondary", "🛡️",
                              row=rows[2]))
    out.append(lock_button(g, rows[2]))
    return out


def deployment_png(view: dict[str, Any], army: str | None, placements: dict[str, Any]) -> bytes:
    from cogs.kniggits import render

    return render.deployment(view, army, placements)


def sight_png(view: dict[str, Any], kid: str, targets: list[Any]) -> bytes:
    from cogs.kniggits import render

    return render.sight(view, kid, targets)


def reach_png(view: dict[str, Any], kid: str, cells: list[list[int]], routes: Sequence[Any] = ()) -> bytes:
    from cogs.kniggits import render

    return render.reach(view, kid, cells, routes)


def preview_png(view: dict[str, Any], plan: dict[str, Any]) -> bytes:
    from cogs.kniggits import render

    return render.preview(view, plan)


# ----- the log: one line per engine event -----------------------------------------------------
def _name(info: TableInfo, seat: Any) -> str:
    return info.name_of(seat if isinstance(seat, int) else None)


def _kid(data: dict[str, Any], info: TableInfo, key: str = "id", owner: str = "owner") -> str:
    """`Alice's A1`: the kniggit's commander (its `owner` field; the acting seat when the
    event names no owner), or the id alone."""
    seat = data.get(owner, data.get("seat") if key == "id" else None)
    kid = str(data.get(key, "?"))
    return f"{_name(info, seat)}'s {kid}" if isinstance(seat, int) and not isinstance(seat, bool) else kid


def _owned(data: dict[str, Any], info: TableInfo, kid: Any) -> str:
    """A kniggit named in an exchange, with its commander from the event's `owners` map."""
    seat = (data.get("owners") or {}).get(str(kid))
    return f"{_name(info, seat)}'s {kid}" if isinstance(seat, int) else str(kid)


def _moved(d: dict[str, Any], info: TableInfo) -> str:
    path = d.get("path") or []
    line = f"🏃 {_kid(d, info)} moves {d.get('cost', '?')} in to {xy(path[-1] if path else None)}"
    if d.get("engaged"):
        line += f" and engages {', '.join(d['engaged'])}"
    return line + "."


def _rps(d: dict[str, Any], info: TableInfo) -> str:
    score = d.get("score") or {}
    won = f"Army {d['winner']} takes it" if d.get("winner") else "no winner, throw again"
    return (f"✊ Rock-paper-scissors: A {d.get('A')} vs B {d.get('B')} — {won} "
            f"(A {score.get('A', 0)} – B {score.get('B', 0)}).")


def _revealed(d: dict[str, Any], info: TableInfo) -> str:
    parts = []
    for army in ARMIES:
        bought = d.get(army) or []
        valid = [p for p in bought if p.get("valid", True)]
        ran = len(bought) - len(valid)
        parts.append(f"Army {army}: {plural(len(valid), 'kniggit')}" + (f" ({ran} ran away)" if ran else ""))
    return "🛡️ The armies are revealed — " + "; ".join(parts) + "."


def _exchange(d: dict[str, Any], info: TableInfo) -> str:
    a, t = d.get("attacker"), d.get("target")
    g = d.get("gestures") or {}
    return (f"🔓 Reveal #{d.get('number')}: {_owned(d, info, a)} {gesture_words(g.get(a))}; "
            f"{_owned(d, info, t)} {gesture_words(g.get(t))}. {hits_words(d)}")


def _attack(d: dict[str, Any], info: TableInfo) -> str:
    seats = d.get("seats") or []
    t = d.get("target")
    d = {"attacker_owner": seats[0] if seats else None, "target_owner": seats[1] if len(seats) > 1 else None, **d}
    who_a, who_t = _kid(d, info, "attacker", "attacker_owner"), _kid(d, info, "target", "target_owner")
    if d.get("mode") == "shot":
        return f"🏹 {who_a} shoots at {who_t} — {t} may only guard."
    tail = f"{t} may strike back" if d.get("mode") == "mutual" else f"{t} may only guard"
    return f"⚔️ {who_a} attacks {who_t} — {tail}."


def _phase(d: dict[str, Any], info: TableInfo) -> str:
    phase = d.get("phase")
    army = d.get("army")
    words = {"build": "🛒 Buy your armies in secret.", "deploy": "📍 Deploy in secret.",
             "rps": "✊ Rock-paper-scissors for the first turn.",
             "facing": f"🧭 Army {army} chooses facings.", "turning": f"🔄 Army {army} may turn to face attackers.",
             "fight": f"🗡️ Army {army} fights."}
    return words.get(phase, f"Phase: {phase}.")


def _done(d: dict[str, Any], info: TableInfo) -> str:
    what = {"move": "is done moving", "turning": "is done turning", "fight": "ends the turn"}
    return f"{_name(info, d.get('seat'))} {what.get(d.get('phase', ''), 'is done')}."


def _victory(d: dict[str, Any], info: TableInfo) -> str:
    winner = d.get("winner")
    reason = str(d.get("reason", "")).replace("_", " ")
    return f"🏁 Army {winner} wins ({reason})." if winner else f"🏁 The battle ends in a draw ({reason})."


EVENT_WORDS: dict[str, Callable[[dict[str, Any], TableInfo], str]] = {
    "map": lambda d, info: f"🎲 {_name(info, d.get('seat'))} re-rolls the map (re-roll {d.get('rolls')}).",
    "map_accepted": lambda d, info: f"✅ {_name(info, d.get('seat'))} accepts the map for Army {d.get('army')}.",
    "phase": _phase,
    "army_locked": lambda d, info: f"🔒 {_name(info, d.get('seat'))} locked their army.",
    "reveal_armies": _revealed,
    "deploy_locked": lambda d, info: f"🔒 {_name(info, d.get('seat'))} locked their deployment.",
    "deployed": lambda d, info: f"📍 Both deployments are revealed: {plural(len(d.get('kniggits') or {}), 'kniggit')} "
                                "take the field.",
    "thrown": lambda d, info: f"🔒 {_name(info, d.get('seat'))} has thrown.",
    "rps": _rps,
    "rps_won": lambda d, info: (f"🎉 Army {d.get('army')} moves first"
                                + (" (decided by lot after three double misses)." if d.get("by_lot") else ".")),
    "turn": lambda d, info: f"— Round {d.get('round')}: Army {d.get('army')}'s turn —",
    "turn_end": lambda d, info: f"Army {d.get('army')}'s turn ends.",
    "moved": _moved,
    "held": lambda d, info: f"{_kid(d, info)} holds its ground.",
    "undone": lambda d, info: f"⏪ {_kid(d, info)} goes back to {xy(d.get('pos'))} (move undone).",
    "done": _done,
    "faced": lambda d, info: (f"🧭 {_kid(d, info)} faces {_kid(d, info, 'target', 'target_owner')}"
                              + (" (by default)." if d.get("default") else ".")),
    "attack": _attack,
    "locked": lambda d, info: f"🔒 {_name(info, d.get('seat'))} locked their gesture.",
    "exchange": _exchange,
    "dismounted": lambda d, info: f"🐎 {_kid(d, info)} loses its horse and fights on foot.",
    "fled": lambda d, info: f"⚑ {_kid(d, info)} flees ({'/'.join(str(n) for n in d.get('tokens') or [])} left)!",
    "run": lambda d, info: (f"🏃 {_kid(d, info)} runs for home" + (" and leaves the field." if d.get("gone") else ".")),
    "gone": lambda d, info: f"{_kid(d, info)} has left the battlefield.",
    "potion": lambda d, info: f"🧪 {_kid(d, info)} drinks potion {d.get('potion')}: +5 {POOL_WORD.get(d.get('kind', ''), '')} "
                              f"({'/'.join(str(n) for n in d.get('tokens') or [])}).",
    "flag_taken": lambda d, info: f"⚑ {_kid(d, info)} takes flag {d.get('flag')} in its {d.get('hand')} hand!",
    "flag_home": lambda d, info: f"⚑ {_kid(d, info)} sends flag {d.get('flag')} home.",
    "flag_dropped": lambda d, info: f"⚑ {_kid(d, info)} drops flag {d.get('flag')} at {xy(d.get('pos'))}.",
    "handed": lambda d, info: (f"✋ {_name(info, d.get('seat'))} plays "
                               f"{'left' if d.get('left') else 'right'}-handed."),
    "afk": lambda d, info: (f"💤 {_name(info, d.get('seat'))} sat out {d.get('turns')} of Army {d.get('army')}'s "
                            "turns in a row: the other army may claim a forfeit."),
    "concede": lambda d, info: f"🏳️ {_name(info, d.get('seat'))} concedes for Army {d.get('army')}.",
    "victory": _victory,
}


# ----- typed shortcuts ---------------------------------------------------------------------------
def own_ids(view: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    me = view.get("me") or {}
    movers = me.get("movers")
    if movers:
        return [(mover_label(m), m["id"]) for m in movers]
    return [(f"{k['id']} · {tokens(k)} · {xy(k['pos'])}", k["id"])
            for k in view.get("kniggits") or [] if k["owner"] == seat and k["status"] == "active"]


def attack_targets(view: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for o in (view.get("me") or {}).get("attacks") or []:
        seen.setdefault(o["target"], f"{o['target']} (from {o['attacker']})")
    facing = [(f"{e} (for {f['id']})", e) for f in (view.get("me") or {}).get("facings") or [] for e in f["enemies"]]
    return [(label, kid) for kid, label in seen.items()] + facing


def attackers(view: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for o in (view.get("me") or {}).get("attacks") or []:
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


def board_card(view: dict[str, Any], info: TableInfo) -> Card:
    """`/kniggits roster`: both armies, token by token (a text twin of the picture)."""
    fields = [(f"{ICON[a]} Army {a} — {army_names(view, a, info)}"[:256], roster(view, a)[:1024], False)
              for a in ARMIES]
    return Card("Kniggits — the armies", status_line(view, info)[:4096], fields=fields, colour=COLOUR)


# ----- private overlays: /kniggits reach and /kniggits los ---------------------------------------
def sight_targets(sight: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The enemies an overlay draws: those in range, green when the line is clear."""
    return [{"id": t["id"], "clear": bool(t.get("clear"))} for t in sight or [] if t.get("in_range")]


def overlay_card(title: str, words: str) -> Card:
    return Card(title[:256], words[:4096], colour=COLOUR)


def not_yours(view: dict[str, Any], kid: str) -> str | None:
    """Why this caller gets no overlay of `kid` (an unknown id, or another commander's)."""
    me = view.get("me") or {}
    if not view.get("kniggits"):
        return "No kniggit is on the field yet: overlays come once the armies are deployed."
    k = kniggit_map(view).get(kid)
    if k is None:
        return f"There is no kniggit `{kid}` on the field."
    if k["owner"] != me.get("seat"):
        return f"`{kid}` is not yours: overlays are drawn only for your own kniggits."
    if k["status"] != "active":
        return f"`{kid}` has {'fled' if k['status'] == 'fled' else 'left the field'}."
    return None


def reach_screen(view: dict[str, Any], info: TableInfo, options: dict[str, Any]) -> Card | Screen:
    """The engine's reach of the kniggit selected in the caller's move panel (`me.reach`):
    the view holds it for that one kniggit only, so another asks to be selected first."""
    me = view.get("me") or {}
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


def los_screen(view: dict[str, Any], info: TableInfo, options: dict[str, Any]) -> Card | Screen:
    """An archer's lines of sight from the caller's own view (`me.sights`): who it can shoot,
    who stands in range behind cover, who is out of range."""
    me = view.get("me") or {}
    kid = str(options.get("id", "")).strip().upper()
    title = f"🏹 Kniggits — {kid} line of sight"
    refusal = not_yours(view, kid)
    if refusal:
        return overlay_card(title, refusal)
    if not (view.get("options") or {}).get("archers"):
        return overlay_card(title, "Archers are off in this battle.")
    if kniggit_map(view)[kid].get("kind") != "archer":
        return overlay_card(title, f"`{kid}` is no archer: only archers shoot.")
    sight = (me.get("sights") or {}).get(kid)
    if sight is None:
        return overlay_card(title, f"`{kid}` cannot shoot now: an archer shoots once a turn, only if it has "
                                   "not moved, holds an Attack and a Defense token and carries no flag.")
    clear = [t["id"] for t in sight if t.get("clear") and t.get("in_range")]
    covered = [t["id"] for t in sight if t.get("in_range") and not t.get("clear")]
    far = [t["id"] for t in sight if not t.get("in_range")]
    lines = [f"✅ Can shoot: {', '.join(clear) or 'nobody'}"]
    if covered:
        lines.append(f"🚫 In range, line blocked: {', '.join(covered)}")
    if far:
        lines.append(f"📏 Out of range: {', '.join(far)}")
    return Screen(overlay_card(title, "\n".join(lines)), image=partial(sight_png, view, kid, sight_targets(sight)),
                  image_name="sight.png")


def reach_ids(view: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    """The caller's kniggits still to move (the selected one first)."""
    me = view.get("me") or {}
    cursor = me.get("cursor")
    movers = sorted(me.get("movers") or [], key=lambda m: m["id"] != cursor)
    return [(mover_label(m) + (" · selected" if m["id"] == cursor else ""), m["id"]) for m in movers]


def archer_ids(view: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    return [(f"{k['id']} · {tokens(k)} · {xy(k['pos'])}" + (" · can shoot" if k["id"] in
             ((view.get("me") or {}).get("sights") or {}) else ""), k["id"])
            for k in view.get("kniggits") or []
            if k["owner"] == seat and k["status"] == "active" and k.get("kind") == "archer"]


ID_PARAM = Param("id", "Your kniggit (start typing)", suggest=own_ids)
KniggitsUI.shortcuts = (
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
KniggitsUI.lookups = (
    Lookup("roster", "Both armies token by token (only to you)", board_card),
    Lookup("reach", "Where your kniggit can move this turn (a picture, only to you)", reach_screen,
           params=(Param("id", "Your kniggit (start typing)", suggest=reach_ids),), private=True),
    Lookup("los", "Your archer's lines of sight and range (a picture, only to you)", los_screen,
           params=(Param("id", "Your archer (start typing)", suggest=archer_ids),), private=True),
)
