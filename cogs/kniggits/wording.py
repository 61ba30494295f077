"""Kniggits in words: armies and their commanders, kniggit and roster lines, what the battle
waits for, the last move and the last exchange. Shared by the table, the panels and the log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cogs.table.mentions import neutral
from cogs.table.ui import TableInfo
from cogs.table.wording import plural
from games.kniggits.schema import ChoiceRound, Kniggit, PublicView

COLOUR = 0x8D6E63
ARMIES = ("A", "B")
ICON = {"A": "🟧", "B": "🟦"}  # the pictures draw A orange, B blue
HEIGHTS = ("high", "mid", "low")
HEIGHT_WORD = {"high": "High", "mid": "Mid", "low": "Low"}
HEIGHT_EMOJI = {"high": "👍", "mid": "👉", "low": "🤙"}
POOL_WORD = {"M": "Movement", "A": "Attack", "D": "Defense"}
SHAPE_EMOJI = {"rock": "✊", "paper": "✋", "scissors": "✌️"}


# ----- names --------------------------------------------------------------------------
def seats_of(view: PublicView, army: str) -> list[int]:
    info = view["armies"].get(army)
    return list(info["seats"]) if info else []


def army_names(view: PublicView, army: str, info: TableInfo) -> str:
    names = [info.name_of(s) for s in seats_of(view, army)]
    return " & ".join(names) if names else "nobody"


def army_label(view: PublicView, army: str | None, info: TableInfo) -> str:
    """`🟦 Army A (Alice & Carol)`."""
    if army is None:
        return "nobody"
    return f"{ICON.get(army, '')} Army {army} ({army_names(view, army, info)})"


def army_of_seat(view: PublicView, seat: int) -> str | None:
    return next((a for a in ARMIES if seat in seats_of(view, a)), None)


def kniggit_map(view: PublicView) -> dict[str, Kniggit]:
    return {k["id"]: k for k in view["kniggits"]}


def owner_of(view: PublicView, kid: str) -> int | None:
    k = kniggit_map(view).get(kid)
    if k is not None:
        return int(k["owner"])
    for bought in (view["revealed"] or {}).get(kid[:1]) or []:
        if bought["id"] == kid:
            return int(bought["owner"])
    return None


def whose(view: PublicView, kid: str, info: TableInfo) -> str:
    """`Alice's A1` (the id alone when its commander is not known yet)."""
    owner = owner_of(view, kid)
    return f"{info.name_of(owner)}'s {kid}" if owner is not None else kid


def tokens(k: Mapping[str, Any]) -> str:
    return f"{k['M']}/{k['A']}/{k['D']}"


def xy(cell: Sequence[int] | None) -> str:
    return f"{cell[0]},{cell[1]}" if cell else "—"


def id_number(kid: str) -> int:
    digits = "".join(ch for ch in kid[1:] if ch.isdigit())
    return int(digits) if digits else 0


# ----- the table ------------------------------------------------------------------------
def kniggit_line(k: Kniggit) -> str:
    """`A1 3/2/2 · 12,9 ⚔B2` with its marks: fled, gone, horse, magic sword, bow, flag."""
    marks = []
    if k["status"] == "fled":
        marks.append("⚑ fled")
    elif k["status"] == "gone":
        marks.append("gone")
    if k["mounted"]:
        marks.append("🐎")
    if k["magic_sword"]:
        marks.append("★")
    if k["kind"] == "archer":
        marks.append("🏹")
    if k["two_swords"]:
        marks.append("⚔⚔")
    if k["carrying"]:
        marks.append(f"⚑{k['carrying']} ({k['hand'] or 'sword'} hand)")
    where = "" if k["status"] == "gone" else f" · {xy(k['pos'])}"
    facing = f" → {k['facing']}" if k["facing"] and k["status"] == "active" else ""
    name = f" “{neutral(k['name'])}”" if k["name"] else ""
    return f"`{k['id']}`{name} {tokens(k)}{where}{facing}" + (" " + " ".join(marks) if marks else "")


def roster(view: PublicView, army: str) -> str:
    deployed = [k for k in view["kniggits"] if k["army"] == army]
    if deployed:
        return "\n".join(kniggit_line(k) for k in sorted(deployed, key=lambda k: id_number(k["id"])))
    bought = (view["revealed"] or {}).get(army) or []
    if bought:
        return "\n".join(purchase_line(p) for p in bought)
    return "(not revealed yet)"


def purchase_line(p: Mapping[str, Any]) -> str:
    kind = " 🏹" if p.get("kind") == "archer" else (" ⚔⚔" if p.get("two_swords") else "")
    name = f" “{neutral(p['name'])}”" if p.get("name") else ""
    ran = "" if p.get("valid", True) else f" — ran away ({RUN_REASON.get(p.get('reason', ''), p.get('reason', ''))})"
    return f"`{p['id']}`{name} {tokens(p)}{kind}{ran}"


RUN_REASON = {"missing_token": "needs one token of each kind", "archers_off": "archers are off",
              "two_swords_off": "two swords are off"}


def locks(view: PublicView, round_: ChoiceRound | None, info: TableInfo) -> str:
    """🔒 per participant who locked, ⏳ for the rest. Only that: the table must not change
    with a pending pick, and a commitment does (each participant sees their own in their panel;
    the reveal publishes every pick with its nonce)."""
    if not round_:
        return ""
    chosen = set(round_["chosen"])
    parts = []
    for seat in round_["seats"]:
        mark = "🔒" if seat in chosen else "⏳"
        parts.append(f"{mark} {info.name_of(seat)}")
    return " · ".join(parts)


def own_commitment(round_: Mapping[str, Any] | None, seat: int) -> str:
    """`sha256(pick:nonce)` of this seat's own locked pick, to check against the reveal."""
    commitment = ((round_ or {}).get("commitments") or {}).get(str(seat))
    return f"Your sealed pick: sha256 `{commitment}` (the reveal shows its nonce)." if commitment else ""


def exchange_head(view: PublicView, ex: Mapping[str, Any], info: TableInfo) -> str:
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


def gesture_words(g: Mapping[str, Any] | None) -> str:
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


def exchange_words(view: PublicView, ex: Mapping[str, Any], info: TableInfo) -> str:
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


def fumble_words(ex: Mapping[str, Any]) -> list[str]:
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


def hits_words(ex: Mapping[str, Any]) -> str:
    hits = ex.get("hits") or []
    if not hits:
        return "No hit: every strike was guarded or missed."
    after = ex.get("tokens") or {}
    said = [f"{h['id']} loses {plural(h['lost'], POOL_WORD[h['pool']] + ' token')}" for h in hits]
    now = ", ".join(f"{kid} now {'/'.join(str(n) for n in t)}" for kid, t in sorted(after.items()))
    return "; ".join(said) + f" ({now})."


def move_words(view: PublicView, move: Mapping[str, Any], info: TableInfo) -> str:
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


def status_line(view: PublicView, info: TableInfo) -> str:
    """What the battle waits for, with names: whoever must act is told so."""
    phase = view["phase"]
    awaited = [info.name_of(s) for s in view["awaited"]]
    who = ", ".join(f"**{n}**" for n in awaited) or "nobody"
    if phase == "map":
        accepted = view["map"]["accepted"]
        done = [f"{ICON[a]} Army {a} {'✅ accepted' if accepted.get(a) else '⏳ deciding'}" for a in ARMIES]
        return f"🗺️ The captains accept this map or re-roll it ({' · '.join(done)}). Waiting for {who}."
    if phase == "build":
        return (f"🛒 Each player buys kniggits in secret (press **My army**). "
                f"{locks(view, view['build'], info)}")
    if phase == "deploy":
        return (f"📍 Each army places its kniggits in secret in its zone (press **My deployment**). "
                f"{locks(view, view['deploy'], info)}")
    if phase == "rps":
        rps = view["rps"]
        score = rps["score"] if rps else {}
        text = (f"✊✋✌️ Rock-paper-scissors, best of three, for the first turn: "
                f"A {score.get('A', 0)} – B {score.get('B', 0)}. The captains throw: {who}.")
        if rps and rps["open"]:
            text += f"\n{locks(view, rps['open'], info)}"
        return text
    turn = view["turn"]
    army = turn["army"] if turn else None
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
        ex = view["exchange"]
        assert ex is not None  # the exchange phase is an open exchange's
        return (f"{exchange_head(view, ex, info)}\nBoth pick their gestures in secret (**Choose gesture**).\n"
                f"{locks(view, ex['round'], info)}")
    if phase == "over":
        result = view["result"]
        winner = result["winner"] if result else None
        if winner is None:
            return "🏁 The battle is over: a draw."
        return f"🏁 {army_label(view, winner, info)} wins the battle."
    return ""


def options_line(view: PublicView) -> str:
    o = view["options"]
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

