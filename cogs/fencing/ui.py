"""Table Fencing as one public screen (spec §4): nobody holds a secret, so the score sheet, the
map and every prompt's controls are on the table message.

Drawn only from the public view; every option comes from the engine (the move menu, the
attack choices, the golf window's targets). Controls are shared by the whole table and the
engine judges who pressed: anyone but the acting player gets its short "not your call".
The Move prompt is two selects on one message, so it needs no state of its own: a
destination (with Stay) moves along that town's default route (rule 19), and the route
select lists every other way (the longer road paths and the off-road line).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import cache
from typing import Any

from cogs.fencing import render
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
from cogs.table.wording import plural
from games.fencing.region import load

COLOUR = 0xB03A2E
MAX_CHOICES = 25
ANTHEM = ("*Thread to Springfield, cards to the lake, / we thrust, we parry, for glory's sake; / "
          "the hats are on and the chocolate's gone — / Hail to the fish!*")

RULES = """\
**Table Fencing** — three players; two bumpers (rounds) win the game. A bumper goes to the \
first to **build 50** points, or at once to whoever makes a **theme**.

**Start:** everyone presses **GAME!**, a non-Start player fires the 🔫 gun and everyone \
stamps the score sheet. Chocolate is handed out (2 each, plus at most 1 carried over) and \
the golf balls go by green die (highest 🟡 yellow, next 🟣 purple). The Start picks the \
first piece to attack.

**The trick:** the Start presses **Thrust**: everyone turns their top card (A low … K). \
The high card wins control and builds 1 die. A pair is a **trump**: the pair draw again in \
a war and the third player **parries** (an ace, or more than both war cards together, wins \
for the parrier). Another pair deepens the trump (×2, ×3…). Warriors roll 2 dice × level, \
a parry 3 dice × level.

**Three alike:** 🎩 **Don hat!** The last bare head to press pays a penalty (a hat already \
on pays at once; missing the 10 s pays too). Then the step is redrawn.

**Golf balls:** after the cards, the purple holder may **Quick-switch** (the balls fly \
between purple and yellow: **Catch** them!) or **Hose** someone (green dice; lose and you \
pay). On a trump trick yellow builds 2 and purple slides 2. Whoever holds both hands them out.

**Control:** the trick winner takes control (the pinkie ball); the old controller takes \
the mitt. If the new controller held the mitt they must **Catch** the pinkie. The \
controller **moves** the attacked piece (or stays) along the roads of the difficulty, at \
most 69 km (the thread, Columbus–Springfield), onto an empty town; **off-road** (a \
straight line) costs a penalty unless the piece is already off-road. Then they **call** \
the next piece to attack.

**Theme:** two moves in a row by the same controller, a black and a white piece, whose \
routes share a town: the bumper is won.

**Penalty:** eat a 🍫 chocolate or slide ⬇️ 1 point (no chocolate: slide). A typed \
command that breaks a rule is a **miscue**: a penalty, and a second one in a trick earns \
a 🥾.

**Yo-yo duel** (dice ties): insults, the third player counts, both **Snap back**: the \
longest sleeper that still comes back wins.

**End of a bumper:** the anthem (📯 📖 🎩 🐟 *Hail to the fish!*), the closing stamps, and \
the Start moves on. Two bumpers win the game and the region's championship.

**Commands:** `/fencing move`, `/fencing hose`, `/fencing quickswitch`, `/fencing hat`, \
`/fencing map`; `/fencing board` shows the table with its map.
"""

PIECE_NAMES = {"BK": "Black King", "WR": "White Rook", "BN": "Black Knight", "WN": "White Knight",
               "WB": "White Bishop"}
PIECE_ICONS = {"BK": "♚", "WR": "♖", "BN": "♞", "WN": "♘", "WB": "♗"}
SUIT_ICONS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
BALL_WORDS = {"yellow": "🟡 yellow ball", "purple": "🟣 purple ball", "pinkie": "🩷 pinkie ball"}
DUEL_PURPOSES = {"golf_top": "the yellow ball", "golf_low": "the purple ball", "hose": "the hose"}
RESULT_WORDS = {"high": "high card", "trump": "a trump!", "triple": "three alike!", "parry": "parried!",
                "war_win": "won the war"}
ANTHEM_PARTS = {"noise": ("📯", "Noise"), "lyrics": ("📖", "Lyrics"), "hat": ("🎩", "Hat"),
                "hail": ("🐟", "Hail to the fish!")}
PROMPT_NAMES = {"game": "GAME!", "gun": "the gun", "stamp": "the stamp", "first_attack": "the first attack",
                "thrust": "Thrust", "hat": "the hat race", "golf": "the golf window", "catch": "the catch",
                "handout": "the handout", "duel": "the duel", "move": "the move", "attack": "the attack call",
                "anthem": "the anthem", "penalty": "the penalty"}
RULE_CAUSES = {"9": "hat", "11": "golf throw", "12": "hose", "14": "purple ball", "15": "dropped pinkie",
               "18": "off-road", "23": "penalty", "24": "miscue"}


# ----- small words ---------------------------------------------------------------------------
def card_text(card: str | None) -> str:
    """"10♠" for "10S"; "—" when the seat drew nothing in that step."""
    if not card:
        return "—"
    return f"{card[:-1]}{SUIT_ICONS.get(card[-1], card[-1])}"


def piece_text(piece: str | None) -> str:
    if not piece:
        return "no piece"
    return f"{PIECE_ICONS.get(piece, '')}{piece}"


def piece_long(piece: str) -> str:
    return f"{PIECE_ICONS.get(piece, '')} {PIECE_NAMES.get(piece, piece)} ({piece})"


@cache
def town_names(region: str) -> dict[str, str]:
    return {town: data["name"] for town, data in load(region).towns.items()}


def town_text(town: str | None, region: str = "ohio") -> str:
    if town is None:
        return "?"
    return f"{town} ({town_names(region).get(town, town)})"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def num(n: int) -> str:
    return str(n) if n >= 0 else f"−{-n}"


def names(seats: list[int], info: TableInfo) -> str:
    shown = [info.name_of(s) for s in seats]
    if len(shown) <= 1:
        return "".join(shown) or "nobody"
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def seconds(ms_value: int | None) -> str:
    if ms_value is None:
        return "?"
    return f"{ms_value / 1000:.3f}".rstrip("0").rstrip(".") + " s"


def cards_line(cards: list[str | None], info: TableInfo) -> str:
    return " · ".join(f"{info.name_of(s)} {card_text(c)}" for s, c in enumerate(cards) if c)


def route_words(route: dict[str, Any], region: str = "ohio") -> str:
    """"via HEB, 43 km" / "off-road, 61 km, 1 penalty"."""
    if route.get("offroad"):
        cost = f", {route['penalty']} penalty" if route.get("penalty") else ", already off-road: free"
        return f"off-road straight line, {route['km']} km{cost}"
    via = route.get("via") or []
    return (f"via {', '.join(via)}, " if via else "direct road, ") + f"{route['km']} km"


# ----- the score sheet --------------------------------------------------------------------
def player_field(view: dict[str, Any], seat: int, info: TableInfo) -> tuple[str, str, bool]:
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


def board_field(view: dict[str, Any]) -> tuple[str, str, bool]:
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


def step_line(step: dict[str, Any], info: TableInfo) -> str:
    cards = step.get("cards") or []
    result = RESULT_WORDS.get(step.get("result", ""), step.get("result", ""))
    if step.get("kind") == "thrust":
        head = f"Thrust: {cards_line(cards, info)}"
    else:
        head = f"War (level {step.get('level', 1)}): {cards_line(cards, info)}"
    if step.get("winner") is not None:
        return f"{head} — {info.name_of(step['winner'])}: {result}"
    return f"{head} — {result}"


def trick_field(trick: dict[str, Any], info: TableInfo, label: str) -> tuple[str, str, bool]:
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


def penalties_field(view: dict[str, Any], info: TableInfo) -> tuple[str, str, bool] | None:
    owed = view["penalties"]
    if not owed:
        return None
    lines = [f"{info.name_of(p['seat'])}: rule {p['reason']} ({RULE_CAUSES.get(p['reason'], 'penalty')})"
             + (f", {p['queued']} more queued" if p["queued"] else "") for p in owed]
    return ("Penalties owed: 🍫 eat or ⬇️ slide 1", "\n".join(lines), False)


# ----- what the table is waiting for ---------------------------------------------------------
def status(view: dict[str, Any], info: TableInfo) -> str:
    prompt = view["prompt"]
    kind = prompt["kind"]
    waiting = names(prompt.get("seats") or [], info)
    if kind == "game":
        return f"Press **GAME!** to begin — waiting for {waiting}."
    if kind == "gun":
        return f"🔫 {waiting} may fire the starting gun (never the Start)."
    if kind == "stamp":
        which = "opening" if prompt.get("which") == "open" else "closing"
        return f"📝 Stamp the score sheet ({which} stamp) — waiting for {waiting}."
    if kind == "first_attack":
        return f"🎯 {info.name_of(view['start'])}, the Start, picks the first piece to attack."
    if kind == "thrust":
        return f"🤺 {info.name_of(view['start'])} calls **Thrust!**"
    if kind == "hat":
        pressed = prompt.get("presses") or {}
        done = [f"{info.name_of(int(s))} ✔ {seconds(t)}" for s, t in sorted(pressed.items(), key=lambda kv: kv[1])]
        text = f"🎩 **Three alike! Don hat!** The last bare head pays. Still bare: {waiting}."
        return text + (" Donned: " + ", ".join(done) + "." if done else "")
    if kind == "golf":
        holder = info.name_of(prompt["holder"])
        options = []
        if prompt.get("qs_available"):
            options.append("Quick-switch")
        if prompt.get("hose_targets"):
            options.append("Hose")
        options.append("Done")
        return f"⛳ Golf window: {holder} (🟣) may {' / '.join(options)}."
    if kind == "catch":
        ball = BALL_WORDS.get(prompt["ball"], prompt["ball"])
        thrower, receiver = info.name_of(prompt["thrower"]), info.name_of(prompt["receiver"])
        if prompt.get("open"):
            return f"🫴 **Catch!** {receiver}, catch the {ball} from {thrower}!"
        call = "Catch!" if prompt.get("purpose") == "pinkie" else "Incoming!"
        return f"🏐 {thrower} throws the {ball} to {receiver}… *{call}* Get ready to press **Catch**."
    if kind == "handout":
        return f"🟡🟣 {info.name_of(prompt['holder'])} holds both golf balls and must hand them out."
    if kind == "duel":
        return duel_status(prompt, info)
    if kind == "tally":
        return "🧮 The tally waits until every penalty is paid."
    if kind == "move":
        menu = view.get("moves") or {}
        origin = menu.get("origin") or view["pieces"].get(prompt.get("piece") or "", {}).get("town")
        return (f"🚗 {info.name_of(view['control'])} moves {piece_long(prompt.get('piece') or '')} from "
                f"{town_text(origin, view['region'])} — or stays.")
    if kind == "attack":
        return f"🎯 {info.name_of(view['control'])} calls the next piece to attack."
    if kind == "end":
        return "🏁 The bumper is over: the anthem waits until every penalty is paid."
    if kind == "anthem":
        return anthem_status(view, prompt, info)
    if kind == "over":
        if view.get("winner") is not None:
            return f"🏆 **{info.name_of(view['winner'])}** is the champion of the region!"
        return "The game is over."
    return ""


def duel_status(prompt: dict[str, Any], info: TableInfo) -> str:
    duel = prompt["duel"]
    a, b = duel["seats"]
    head = (f"🪀 **Yo-yo duel** for {DUEL_PURPOSES.get(prompt.get('purpose', ''), 'a tie')}: "
            f"{info.name_of(a)} vs {info.name_of(b)}.")
    stage = duel["stage"]
    if stage == "insult":
        said = []
        for i, seat in enumerate(duel["seats"]):
            if duel["insults"][i]:
                clap = " 👏" if duel["applauded"][i] else ""
                said.append(f"{info.name_of(seat)}: “{neutral(duel['insults'][i])}”{clap}")
            elif duel["skipped"][i]:
                said.append(f"{info.name_of(seat)} says nothing.")
        text = f"{head} Insults first (or Skip); {info.name_of(duel['third'])} may applaud."
        return text + ("\n" + "\n".join(said) if said else "")
    if stage == "count":
        return f"{head} {info.name_of(duel['third'])}, press **Count** to start the throw."
    snapped = [f"{info.name_of(s)} {'✔ snapped' if duel['snapped'][i] else '… spinning'}"
               for i, s in enumerate(duel["seats"])]
    return f"{head} 1, 2, 3 — THROW! **Snap back** as late as you dare: " + " · ".join(snapped)


def anthem_status(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> str:
    reader = prompt.get("reader")
    who_reads = info.name_of(reader) if reader is not None else "the bot"
    parts = prompt.get("parts") or [[], [], []]
    lines = [f"🎺 **The anthem!** Noise makers out; {who_reads} reads the lyrics.", ANTHEM]
    lines.append(" · ".join(f"{info.name_of(s)} " + ("".join(ANTHEM_PARTS[p][0] for p in parts[s]) or "…")
                            for s in range(len(parts))))
    return "\n".join(lines)


# ----- controls ------------------------------------------------------------------------------
def controls(view: dict[str, Any], info: TableInfo) -> list[Control]:
    if view["over"]:
        return []
    prompt = view["prompt"]
    kind = prompt["kind"]
    out: list[Control] = list(PROMPT_CONTROLS.get(kind, lambda v, p, i: [])(view, prompt, info))
    if view["penalties"]:
        payers = [p["seat"] for p in view["penalties"]]
        who = names(payers, info)
        out.append(Button(f"Eat chocolate ({who})"[:80], {"type": "pay", "how": "chocolate"}, "success", "🍫", row=3))
        out.append(Button(f"Slide 1 point ({who})"[:80], {"type": "pay", "how": "slide"}, "secondary", "⬇️", row=3))
    return out


def game_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    return [Button("GAME!", {"type": "game"}, "success", "🤺", row=0)]


def gun_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    return [Button("Fire the starting gun", {"type": "fire"}, "danger", "🔫", row=0)]


def stamp_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    return [Button("Stamp the score sheet", {"type": "stamp"}, "primary", "📝", row=0)]


def attack_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    region = view["region"]
    choices = [Choice(f"{piece_text(piece)} {PIECE_NAMES[piece]}"[:100], {"type": "attack", "piece": piece},
                      description=f"on {town_text(view['pieces'][piece]['town'], region)}"[:100])
               for piece in view["attack_choices"]]
    first = prompt["kind"] == "first_attack"
    return [Select("Pick the first piece to attack…" if first else "Call the next piece to attack…",
                   choices[:MAX_CHOICES], row=1)] if choices else []


def thrust_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    return [Button("Thrust!", {"type": "thrust"}, "danger", "🤺", row=0)]


def hat_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    return [Button("Don hat!", {"type": "don"}, "danger", "🎩", row=0)] if prompt.get("seats") else []


def golf_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    out: list[Control] = []
    if prompt.get("qs_available"):
        out.append(Button("Quick-switch!", {"type": "quickswitch"}, "primary", "🔄", row=0))
    for target in prompt.get("hose_targets") or []:
        out.append(Button(f"Hose {info.name_of(target)}"[:80], {"type": "hose", "target": target}, "secondary",
                          "🌊", row=0))
    out.append(Button("Done", {"type": "done"}, "success", "✅", row=0))
    return out


def catch_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    if not prompt.get("open"):
        return []
    return [Button(f"Catch! ({info.name_of(prompt['receiver'])})"[:80], {"type": "catch"}, "success", "🫴", row=0)]


def handout_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    holder = prompt["holder"]
    others = [s for s in range(3) if s != holder]
    choices = [Choice(f"🟡 yellow to {info.name_of(y)}, 🟣 purple to {info.name_of(p)}"[:100],
                      {"type": "handout", "yellow": y})
               for y, p in ((others[0], others[1]), (others[1], others[0]))]
    return [Select(f"{info.name_of(holder)}: hand out both golf balls…"[:150], choices, row=1)]


INSULT = Field("text", "Your insult (up to 200 characters)", placeholder="You fight like a dairy farmer!",
               max_length=200)


def duel_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    duel = prompt["duel"]
    stage = duel["stage"]
    if stage == "insult":
        out: list[Control] = []
        if set(prompt.get("seats") or []) & set(duel["seats"]):
            out.append(FormButton("Insult", "Insult your opponent", [INSULT], {"type": "insult"}, "danger",
                                  "🗯️", row=0))
            out.append(Button("Skip", {"type": "insult", "text": ""}, "secondary", "🤐", row=0))
        applauding = duel["third"] in (prompt.get("seats") or [])  # only while the engine awaits them
        for i, seat in enumerate(duel["seats"]):
            if applauding and duel["insults"][i] and not duel["applauded"][i]:
                out.append(Button(f"Applaud {info.name_of(seat)}"[:80], {"type": "applaud", "who": seat},
                                  "secondary", "👏", row=0))
        return out
    if stage == "count":
        return [Button("Count: 1, 2, 3 — THROW!", {"type": "count"}, "primary", "📣", row=0)]
    return [Button("Snap back!", {"type": "snap"}, "danger", "🪀", row=0)] if prompt.get("seats") else []


def move_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    menu = view.get("moves")
    if not menu:
        return []
    region = view["region"]
    piece, origin = menu["piece"], menu["origin"]
    destinations: list[Choice] = []
    others: list[Choice] = []
    for entry in menu["destinations"]:
        if entry["to"] is None:
            destinations.append(Choice(f"Stay on {origin}"[:100], {"type": "stay"}, "the piece does not move", "🛑"))
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


def move_action(piece: str, to: str, route: dict[str, Any]) -> dict[str, Any]:
    """The engine's own move action for one listed route (as `legal_actions` lists it)."""
    return {"type": "move", "piece": piece, "to": to, "via": list(route["via"]), "offroad": bool(route["offroad"])}


def anthem_controls(view: dict[str, Any], prompt: dict[str, Any], info: TableInfo) -> list[Control]:
    waiting = prompt.get("seats") or []
    parts = prompt.get("parts") or [[], [], []]
    reader = prompt.get("reader")
    out: list[Control] = []
    if any(s != reader and "noise" not in parts[s] for s in waiting):
        out.append(Button("Noise", {"type": "anthem", "part": "noise"}, "secondary", "📯", row=0))
    if reader is not None and reader in waiting and "lyrics" not in parts[reader]:
        out.append(Button("Lyrics", {"type": "anthem", "part": "lyrics"}, "secondary", "📖", row=0))
    if any("hat" not in parts[s] for s in waiting):
        out.append(Button("Hat (optional)", {"type": "anthem", "part": "hat"}, "secondary", "🎩", row=0))
    if waiting:
        out.append(Button("Hail to the fish!", {"type": "anthem", "part": "hail"}, "success", "🐟", row=0))
    return out


PromptControls = Callable[[dict[str, Any], dict[str, Any], TableInfo], list[Control]]
PROMPT_CONTROLS: dict[str, PromptControls] = {
    "game": game_controls, "gun": gun_controls, "stamp": stamp_controls, "first_attack": attack_controls,
    "attack": attack_controls, "thrust": thrust_controls, "hat": hat_controls, "golf": golf_controls,
    "catch": catch_controls, "handout": handout_controls, "duel": duel_controls, "move": move_controls,
    "anthem": anthem_controls,
}


# ----- the log: one line per engine event ------------------------------------------------------
def refused_line(d: dict[str, Any], info: TableInfo) -> str:
    reason = str(d.get("reason") or "That is not allowed.")
    seats = d.get("seats") or {}
    with contextlib.suppress(KeyError, IndexError, ValueError):  # a reason naming no one
        reason = reason.format_map({k: info.name_of(v) for k, v in seats.items()})
    rule = f" (rule {d['rule']})" if d.get("rule") else ""
    return f"🚫 Refused: {info.name_of(d['seat'])}'s command — {reason}{rule}"


def thrust_line(d: dict[str, Any], info: TableInfo) -> str:
    result = d["result"]
    line = f"Thrust! {cards_line(d['cards'], info)}"
    if result == "trump":
        return f"{line} — a trump! {names(d['warriors'], info)} go to war, {info.name_of(d['parrier'])} parries."
    if result == "triple":
        return f"{line} — three alike!"
    return f"{line} — high card."


def war_line(d: dict[str, Any], info: TableInfo) -> str:
    result = d["result"]
    line = f"⚔️ War: {cards_line(d['cards'], info)}"
    if result == "trump":
        return (f"{line} — another trump! Level {d['level']}: {names(d['warriors'], info)} fight on, "
                f"{info.name_of(d['parrier'])} parries.")
    if result == "triple":
        return f"{line} — three alike!"
    return f"{line}."


def trick_won_line(d: dict[str, Any], info: TableInfo) -> str:
    how = {"high": "with the high card", "war_win": "the war", "parry": "with a parry"}.get(d["how"], "the trick")
    dice = " ".join(f"🎲{x}" for x in d["dice"])
    mult = f" × {d['mult']}" if d["mult"] != 1 else ""
    return f"{info.name_of(d['seat'])} wins {how} and will build {dice}{mult} = {d['total']}."


def move_line(d: dict[str, Any], info: TableInfo) -> str:
    way = "off-road" if d.get("offroad") else ("via " + ", ".join(d["route"][:-1]) if len(d["route"]) > 1 else "by road")
    return (f"🚗 {info.name_of(d['seat'])} moves {piece_text(d['piece'])} {d['from']} → {d['to']} "
            f"({way}, {d['km']} km).")


def hat_race_line(d: dict[str, Any], info: TableInfo) -> str:
    presses = d.get("presses") or {}
    timed = ", ".join(f"{info.name_of(int(s))} {seconds(t)}" for s, t in sorted(presses.items(), key=lambda kv: kv[1]))
    payers = d.get("payers") or []
    if d.get("missed"):
        verdict = f"{names(d['missed'], info)} never donned and pay{'s' if len(d['missed']) == 1 else ''}"
    elif payers:
        verdict = f"last on: {names(payers, info)} pay{'s' if len(payers) == 1 else ''}"
    else:
        verdict = "nobody pays"
    return f"🎩 Hat race{': ' + timed if timed else ''} — {verdict}. Redraw!"


def snaps_line(d: dict[str, Any], info: TableInfo) -> str:
    parts = []
    for seat, t, ok in zip(d["seats"], d["times"], d["ok"], strict=False):
        shown = "no snap" if t is None else seconds(t)
        parts.append(f"{info.name_of(seat)} {shown} {'✔' if ok else '✘'}")
    return f"🪀 The sleepers spun {seconds(d.get('S'))}: " + " · ".join(parts)


def timeout_tag(d: dict[str, Any]) -> str:
    return " (time ran out)" if d.get("timeout") else ""


EVENT_WORDS: dict[str, Callable[[dict[str, Any], TableInfo], str]] = {
    "game": lambda d, i: f"{i.name_of(d['seat'])} yells GAME!",
    "cancelled": lambda d, i: f"Not everyone yelled GAME! ({names(d.get('missing') or [], i)} missing): no game.",
    "gun": lambda d, i: ("🔫 BANG! The bot fires the starting gun." if d.get("seat") is None
                         else f"🔫 BANG! {i.name_of(d['seat'])} fires the starting gun. The clock is running."),
    "bumper": lambda d, i: f"📣 Bumper {d['no']} begins; {i.name_of(d['start'])} is the Start (red deck).",
    "stamp": lambda d, i: (f"📝 {i.name_of(d['seat'])} stamps the score sheet"
                           f"{' (the bot stamps for them)' if d.get('by_bot') else ''}."),
    "chocolate_dealt": lambda d, i: f"🍫 {i.name_of(d['seat'])} has {d['chocolate']} chocolate.",
    "golf_roll": lambda d, i: "⛳ Green dice for the golf balls: " + " · ".join(
        f"{i.name_of(s)} 🎲{r}" for s, r in enumerate(d["rolls"])),
    "golf_ball": lambda d, i: f"{i.name_of(d['seat'])} takes the {BALL_WORDS.get(d['ball'], d['ball'])}.",
    "duel_start": lambda d, i: (f"🪀 Yo-yo duel ({'dice' if d.get('mode') == 'dice' else 'sleepers'}): "
                                f"{names(d['seats'], i)} for {DUEL_PURPOSES.get(d.get('purpose', ''), 'the tie')}."),
    "duel_dice": lambda d, i: "🎲 Duel dice: " + " · ".join(
        f"{i.name_of(s)} {r}" for s, r in zip(d["seats"], d["rolls"], strict=False)),
    "duel_insult": lambda d, i: (f"🤐 {i.name_of(d['seat'])} says nothing." if d.get("skipped")
                                 else f"🗯️ {i.name_of(d['seat'])}: “{neutral(d['text'])}”"),
    "duel_applause": lambda d, i: f"👏 {i.name_of(d['seat'])} applauds {i.name_of(d['for'])}.",
    "duel_count_prompt": lambda d, i: f"{i.name_of(d['seat'])} will count to three.",
    "duel_count": lambda d, i: (f"📣 {'The bot' if d.get('seat') is None else i.name_of(d['seat'])}: "
                                "1, 2, 3 — THROW!"),
    "duel_snap": lambda d, i: f"🪀 {i.name_of(d['seat'])} snaps back!",
    "duel_snaps": snaps_line,
    "duel_won": lambda d, i: f"🏅 {i.name_of(d['seat'])} wins the duel over {i.name_of(d['loser'])}.",
    "thrust_called": lambda d, i: (f"🤺 Trick {d['trick']}: "
                                   f"{'the bot' if d.get('seat') is None else i.name_of(d['seat'])} calls Thrust!"),
    "thrust": thrust_line,
    "war_step": war_line,
    "triple": lambda d, i: "🎩 Three alike! Don your hats!",
    "hat": lambda d, i: f"🎩 {i.name_of(d['seat'])} dons a hat ({seconds(d.get('at'))}).",
    "hat_race": hat_race_line,
    "hat_keep": lambda d, i: (f"🎩 {i.name_of(d['seat'])} will keep the hat on." if d.get("keep")
                              else f"🎩 {i.name_of(d['seat'])} will take the hat off at the trick's end."),
    "hats_off": lambda d, i: f"Hats off: {names(d['seats'], i)}.",
    "trick_won": trick_won_line,
    "golf_closed": lambda d, i: f"⛳ {i.name_of(d['seat'])} closes the golf window{timeout_tag(d)}.",
    "quick_switch": lambda d, i: f"🔄 {i.name_of(d['seat'])} yells QUICK-SWITCH!",
    "throw": lambda d, i: (f"🏐 {i.name_of(d['seat'])} throws the {BALL_WORDS.get(d['ball'], d['ball'])} to "
                           f"{i.name_of(d['to'])}" + (" — wild! It counts as caught; the thrower pays." if d.get("wild")
                                                      else ".")),
    "catch_open": lambda d, i: f"🫴 {i.name_of(d['seat'])}, CATCH!",
    "catch": lambda d, i: f"🫴 {i.name_of(d['seat'])} catches the {BALL_WORDS.get(d['ball'], d['ball'])}.",
    "drop": lambda d, i: f"💥 {i.name_of(d['seat'])} drops the {BALL_WORDS.get(d['ball'], d['ball'])}!",
    "box": lambda d, i: f"🟡 The yellow ball goes to the penalty box until trick {d['release_after_trick']}.",
    "unbox": lambda d, i: f"🟡 The yellow ball leaves the penalty box for {i.name_of(d['seat'])}.",
    "hose": lambda d, i: (f"🌊 {i.name_of(d['seat'])} dunks the purple ball in Lake Erie: HOSE "
                          f"{i.name_of(d['target']).upper()}! Green dice {d['rolls'][0]} v {d['rolls'][1]}."),
    "hose_result": lambda d, i: (f"🌊 The hose works: {i.name_of(d['target'])} takes the purple ball."
                                 if d.get("hoser_won") else f"🌊 The hose fails: {i.name_of(d['seat'])} keeps purple and pays."),
    "both_balls": lambda d, i: f"🟡🟣 {i.name_of(d['seat'])} holds both balls and must hand them out.",
    "handout": lambda d, i: (f"{i.name_of(d['seat'])} hands 🟡 yellow to {i.name_of(d['yellow'])} and 🟣 purple to "
                             f"{i.name_of(d['purple'])}{timeout_tag(d)}."),
    "build": lambda d, i: (f"📈 {i.name_of(d['seat'])} builds {d['points']}"
                           f"{' (yellow ball)' if d.get('why') == 'yellow' else ''} → {num(d['score'])}."),
    "slide": lambda d, i: (f"⬇️ {i.name_of(d['seat'])} slides {d['points']}"
                           f"{' (purple ball)' if d.get('reason') == '14' else ''} → {num(d['score'])}."),
    "control": lambda d, i: (f"🩷 {i.name_of(d['seat'])} keeps control." if d.get("from") == d["seat"]
                             else f"🩷 {i.name_of(d['seat'])} takes control and the pinkie ball."),
    "catch_call": lambda d, i: f"🩷 {i.name_of(d['seat'])} yells CATCH! at {i.name_of(d['to'])}, who holds the mitt.",
    "mitt": lambda d, i: f"🧤 {i.name_of(d['seat'])} takes the baseball mitt.",
    "move": move_line,
    "offroad": lambda d, i: (f"🌾 {piece_text(d['piece'])} goes off-road"
                             + (f": {i.name_of(d['seat'])} pays a penalty." if d.get("penalty") else " (already off-road).")),
    "stay": lambda d, i: f"🛑 {i.name_of(d['seat'])} leaves {piece_text(d.get('piece'))} where it is{timeout_tag(d)}.",
    "theme": lambda d, i: (f"🎼 THEME! {i.name_of(d['seat'])} moved "
                           f"{' and '.join(piece_text(m['piece']) for m in d['moves'])} through "
                           f"{', '.join(d['through'])}."),
    "attack_call": lambda d, i: (f"🎯 {i.name_of(d['seat'])} "
                                 f"{'opens the attack on' if d.get('first') else 'calls the attack on'} "
                                 f"{piece_long(d['piece'])}."),
    "penalty": lambda d, i: f"⚠️ Penalty for {i.name_of(d['seat'])} (rule {d['reason']}).",
    "penalty_prompt": lambda d, i: f"{i.name_of(d['seat'])}: 🍫 eat or ⬇️ slide?",
    "chocolate": lambda d, i: (f"🍫 {i.name_of(d['seat'])} eats a chocolate ({d['left']} left){timeout_tag(d)}."),
    "refused": refused_line,
    "miscue": lambda d, i: f"❗ Miscue by {i.name_of(d['seat'])}: one penalty.",
    "butt_kick": lambda d, i: f"🥾 {i.name_of(d['seat'])} miscued twice since the last Thrust: a kick in the butt!",
    "too_late": lambda d, i: (f"⏱️ Too late, {i.name_of(d['seat'])}: "
                              f"{PROMPT_NAMES.get(d.get('prompt', ''), 'that prompt')} had closed."),
    "missed": lambda d, i: f"💤 {i.name_of(d['seat'])} let a prompt pass ({d['misses']} in a row).",
    "afk_forfeit": lambda d, i: f"💤 {i.name_of(d['seat'])} was away for five prompts in a row and forfeits.",
    "resumed": lambda d, i: "🔁 The bot is back: every clock restarts with time to spare.",
    "bumper_won": lambda d, i: (f"🏆 {i.name_of(d['seat'])} wins bumper {d['bumper']} "
                                f"{'with a THEME' if d.get('how') == 'theme' else 'by building 50'}! Scores: "
                                + " · ".join(f"{i.name_of(s)} {num(x)}" for s, x in enumerate(d["scores"]))),
    "anthem_start": lambda d, i: "🎺 Noise makers out for the anthem!",
    "anthem": lambda d, i: f"{ANTHEM_PARTS.get(d['part'], ('🎵', ''))[0]} {i.name_of(d['seat'])}: "
                           + {"noise": "makes noise!", "lyrics": "reads the lyrics from the good paperback.",
                              "hat": "dons a silly hat.", "hail": "HAIL TO THE FISH!"}.get(d["part"], "sings."),
    "anthem_end": lambda d, i: "🐟 All together: HAIL TO THE FISH!",
    "surplus": lambda d, i: (f"🍫 {i.name_of(d['seat'])}'s {d['count']} surplus chocolate "
                             f"{'is eaten (the carpet is blue)' if d.get('fate') == 'eaten' else 'goes to the audience'}."),
    "champion": lambda d, i: champion_line(d, i),
}


def champion_line(d: dict[str, Any], info: TableInfo) -> str:
    old, new = d.get("old"), d["new"]
    decried = (f"{info.name_of(old)} is decried! " if old is not None and old != new
               else "The old champion is decried! " if old is None else "")
    return (f"👑 {decried}{info.name_of(new)} is declared champion of the region, and the folded map "
            "is delivered with great force.")


REASONS = {
    "bumpers": "{winner} wins two bumpers and is the new champion of the region",
    "forfeit": "{seat} left the game",
    "afk": "{seat} was away for five prompts in a row and forfeits",
    "cancelled": "Not everyone yelled GAME!: no game",
}


# ----- the interface -------------------------------------------------------------------------
class FencingUI(GameUI):
    name = "fencing"
    rules = RULES
    colour = COLOUR

    def table(self, view: dict[str, Any], info: TableInfo) -> Screen:
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

    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        words = EVENT_WORDS.get(event.get("type", ""))
        if words is None:
            return super().event_line(event, info)
        return words(event.get("data") or {}, info)

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        detail = outcome.get("detail") or {}
        reason = outcome.get("reason") or ""
        text = REASONS.get(reason)
        if text is None:
            return super().result_reason(outcome, info)
        line = text.format(winner=info.name_of(detail.get("winner")), seat=info.name_of(detail.get("seat")))
        sums = detail.get("score_sums")
        if sums:
            line += " (score sums: " + ", ".join(f"{info.name_of(s)} {num(x)}" for s, x in enumerate(sums)) + ")"
        champion = detail.get("champion")
        if reason != "bumpers" and champion is not None:
            line += f"; {info.name_of(champion)} is the champion"
        return line + "."

    def result_score(self, score: float) -> str:
        """Fencing's result counts bumpers won, not the points of a bumper."""
        return plural(int(score), "bumper") + " won"

    lookups = (Lookup("map", "The map of Ohio: where the pieces stand and where the attacked one may go",
                      lambda view, info: map_screen(view, info)),)

    shortcuts = (
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
        Shortcut("hat", "Keep your silly hat on after the trick, or take it off", lambda o: {
            "type": "hat", "keep": o["keep"] == "keep"}, (
            Param("keep", "keep it on, or off at the trick's end", choices={"keep": "keep", "off": "off"}),)),
    )


# ----- typed commands ----------------------------------------------------------------------
def move_command(options: dict[str, Any]) -> dict[str, Any]:
    """`/fencing move piece to [via] [offroad]` as the engine's move action (rule 19): without
    `via` the default road path, without `offroad` a road move. A typed mistake is the engine's
    to judge (rule 24 penalises it), so nothing is refused here."""
    to = str(options.get("to") or "").strip().upper()
    action: dict[str, Any] = {"type": "move", "piece": str(options.get("piece") or ""), "to": to,
                              "offroad": str(options.get("offroad") or "").strip().lower() in ("true", "yes", "on")}
    if "via" in options:
        raw = str(options.get("via") or "")
        towns = [t.strip().upper() for t in raw.replace(";", ",").replace(" ", ",").split(",") if t.strip()]
        if towns and towns[0] == "VIA":
            towns = towns[1:]
        if towns and towns[-1] == to:
            towns = towns[:-1]
        action["via"] = towns
    return action


def hose_command(options: dict[str, Any]) -> dict[str, Any]:
    """`/fencing hose target`: the target's number on the score sheet (the autocomplete offers
    names); anything else goes to the engine as no one, which refuses it (rule 12)."""
    raw = str(options.get("target") or "").strip()
    return {"type": "hose", "target": int(raw) - 1 if raw in ("1", "2", "3") else None}


def hose_hints(view: dict[str, Any], seat: int | None, info: TableInfo) -> list[tuple[str, str]]:
    """The other players by name (the value is their number on the score sheet)."""
    return [(f"{info.name_of(s)} (player {s + 1})", str(s + 1)) for s in range(len(view["players"])) if s != seat]


def destination_hints(view: dict[str, Any]) -> list[tuple[str, str]]:
    menu = view.get("moves") or {}
    return [(f"{town_text(e['to'], view['region'])} — {e['km']} km", e["to"])
            for e in menu.get("destinations", []) if e["to"] is not None]


def via_hints(view: dict[str, Any]) -> list[tuple[str, str]]:
    """Every road path through other towns on the move menu, as `via` values."""
    menu = view.get("moves") or {}
    out: list[tuple[str, str]] = []
    for entry in menu.get("destinations", []):
        for route in entry["routes"]:
            if route["via"] and not route["offroad"]:
                value = ",".join(route["via"])
                out.append((f"{value} → {entry['to']} ({route_words(route, view['region'])})", value))
    return out


def map_card(view: dict[str, Any], info: TableInfo) -> Card:
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


def map_screen(view: dict[str, Any], info: TableInfo) -> Screen:
    """`/fencing map`: the map's picture (towns, roads by class, pieces, Lake Erie) with the
    text card, both from the public view."""
    return Screen(map_card(view, info), image=lambda: render.ohio_map(view), image_name="ohio.png")
