"""Table Fencing in words: cards, pieces, towns and routes, names, and what the table is
waiting for now (the status line under the title)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from cogs.table.mentions import neutral
from cogs.table.ui import TableInfo
from games.fencing.region import load
from games.fencing.schema import PromptView, PublicView, RouteView

COLOUR = 0xB03A2E
MAX_CHOICES = 25
ANTHEM = ("*Thread to Springfield, cards to the lake, / we thrust, we parry, for glory's sake; / "
          "the hats are on and the chocolate's gone — / Hail to the fish!*")


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


def cards_line(cards: Sequence[str | None], info: TableInfo) -> str:
    return " · ".join(f"{info.name_of(s)} {card_text(c)}" for s, c in enumerate(cards) if c)


def route_words(route: RouteView, region: str = "ohio") -> str:
    """"via HEB, 43 km" / "off-road, 61 km, 1 penalty"."""
    if route.get("offroad"):
        cost = f", {route['penalty']} penalty" if route.get("penalty") else ", already off-road: free"
        return f"off-road straight line, {route['km']} km{cost}"
    via = route.get("via") or []
    return (f"via {', '.join(via)}, " if via else "direct road, ") + f"{route['km']} km"


def timeout_tag(d: Mapping[str, object]) -> str:
    return " (time ran out)" if d.get("timeout") else ""


# ----- what the table is waiting for ---------------------------------------------------------
def status(view: PublicView, info: TableInfo) -> str:
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
        menu = view.get("moves")
        where = view["pieces"].get(prompt.get("piece") or "")
        origin = (menu and menu["origin"]) or (where and where["town"])
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


def duel_status(prompt: PromptView, info: TableInfo) -> str:
    duel = prompt["duel"]
    a, b = duel["seats"]
    head = (f"🪀 **Yo-yo duel** for {DUEL_PURPOSES.get(prompt.get('purpose', ''), 'a tie')}: "
            f"{info.name_of(a)} vs {info.name_of(b)}.")
    stage = duel["stage"]
    if stage == "insult":
        said = []
        for i, seat in enumerate(duel["seats"]):
            insult = duel["insults"][i]
            if insult:
                clap = " 👏" if duel["applauded"][i] else ""
                said.append(f"{info.name_of(seat)}: “{neutral(insult)}”{clap}")
            elif duel["skipped"][i]:
                said.append(f"{info.name_of(seat)} says nothing.")
        text = f"{head} Insults first (or Skip); {info.name_of(duel['third'])} may applaud."
        return text + ("\n" + "\n".join(said) if said else "")
    if stage == "count":
        return f"{head} {info.name_of(duel['third'])}, press **Count** to start the throw."
    snapped = [f"{info.name_of(s)} {'✔ snapped' if duel['snapped'][i] else '… spinning'}"
               for i, s in enumerate(duel["seats"])]
    return f"{head} 1, 2, 3 — THROW! **Snap back** as late as you dare: " + " · ".join(snapped)


def anthem_status(view: PublicView, prompt: PromptView, info: TableInfo) -> str:
    reader = prompt.get("reader")
    who_reads = info.name_of(reader) if reader is not None else "the bot"
    parts = prompt.get("parts") or [[], [], []]
    lines = [f"🎺 **The anthem!** Noise makers out; {who_reads} reads the lyrics.", ANTHEM]
    lines.append(" · ".join(f"{info.name_of(s)} " + ("".join(ANTHEM_PARTS[p][0] for p in parts[s]) or "…")
                            for s in range(len(parts))))
    return "\n".join(lines)


