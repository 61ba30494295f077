"""The table's pieces: the word in play spaced out, whom the table waits for and why, the
players' lines, and the public buttons (Challenge, Use Tip, a secret choice's)."""

from __future__ import annotations

from typing import Any

from cogs.table.ui import Button, Control, TableInfo
from cogs.table.wording import plural
from cogs.words.wording import reason_text
from games.words import schema
from games.words.schema import PublicView

PHASE_TEXT = {
    "claim": "{who} may claim **{word}** or keep building.",
    "tiebreak": "Tied! Coin toss or Wordblitz: {chosen}.",
}

def chosen_line(box: schema.Box | None, info: TableInfo) -> str:
    """Who is in a secret-choice round and who has chosen (never what)."""
    if box is None:
        return "nobody"
    done = set(box["chosen"])
    return " · ".join(f"{info.name_of(s)} {'✔ chosen' if s in done else '… choosing'}"
                      for s in box["seats"]) or "nobody"


def spaced_word(word: str) -> str:
    """`S·T·A·R` with position numbers under it (a code block keeps the columns)."""
    if not word:
        return "*(no word yet — the next letter starts one)*"
    letters = "".join(f"{ch:^3}" for ch in word)
    numbers = "".join(f"{i:^3}" for i in range(1, len(word) + 1))
    return f"```\n{letters}\n{numbers}\n```"


#: What a challengeable change was, for the challenge window's line.
CHANGES = {"letter": "played a letter", "backspace": "used Backspace", "editor": "used Editor"}
#: Phases during which someone's turn is running (the ▶ marks them).
TURN_PHASES = frozenset({"main", "claim"})


def names(info: TableInfo, seats: list[int]) -> str:
    return ", ".join(info.name_of(s) for s in seats) or "nobody"


def last_change(view: PublicView) -> schema.Change | None:
    """The last change of the word while it is open to a challenge (and can be undone)."""
    return next((c for c in view.get("changes") or [] if c["last"] and c["undoable"]), None)


def challenge_button_shown(view: PublicView) -> bool:
    """The ⚔️ button is on the table while the player in turn may press it (it is not their
    own change); when it is, `/words challenge` still works for the others."""
    change = last_change(view)
    phase = view["phase"]
    return change is not None and phase["name"] == "main" and phase.get("seat") != change["seat"]


def window_lines(view: PublicView, info: TableInfo) -> list[str]:
    """The windows open while play goes on: nobody has to answer them."""
    lines = []
    change = last_change(view)
    if change is not None:
        how = "⚔️ Challenge" if challenge_button_shown(view) else "`/words challenge`"
        lines.append(f"⚔️ {info.name_of(change['seat'])} {CHANGES.get(change['kind'], 'changed the word')} → "
                     f"**{change['word'] or '(empty)'}**: anyone else may {how} it until the word changes again.")
    tip = view.get("tip")
    if tip is not None and view["phase"]["name"] != "closing" and view.get("rps") is None:
        lines.append(f"💡 **{tip['word']}** was just completed: Tip of My Tongue may take it "
                     "until the word changes again.")
    game = view.get("rps")
    if game is not None:
        lines.append(f"🪨📄✂️ Rock, paper, scissors for **{game['word']}**: {chosen_line(game['box'], info)}.")
    return lines


def awaited(view: PublicView, info: TableInfo) -> str:
    phase = view["phase"]
    name = phase["name"]
    who = info.name_of(phase.get("seat"))
    if name == "main":
        step = {"ask": "is naming a letter (How Do You Say…?)",
                "trash": "is picking from the discard pile (Trash Talk)"}.get(phase.get("step", ""), "")
        text = f"{who} {step}." if step else f"{who}'s turn: play a letter, use an event card or skip."
    elif name in PHASE_TEXT:
        text = PHASE_TEXT[name].format(who=who, word=phase.get("word", ""),
                                       chosen=chosen_line(phase.get("box"), info))
    elif name == "closing":
        tip = view.get("tip")
        text = (f"The last turn is over. The game ends once the Tip of My Tongue window on **{tip['word']}** "
                "closes (a Tip holder can still use it from their hand)." if tip is not None
                else "The last turn is over. The game ends once rock, paper, scissors is settled.")
    elif name == "over":
        return f"Game over: {reason_text(view['over'] or '').lower()}."
    else:
        return ""
    return "\n".join([text, *window_lines(view, info)])


def player_lines(view: PublicView, info: TableInfo) -> str:
    lines = []
    blitz = view.get("blitz")
    for seat in range(view["players"]):
        words = ", ".join(view["words"][seat]) or "no words yet"
        bits = [f"**{info.name_of(seat)}**", f"{view['scores'][seat]} pt",
                plural(view['hand_sizes'][seat], "card"), words]
        if view["forced_skip"][seat]:
            bits.append(f"⏭️ loses {view['forced_skip'][seat]} turn(s)")
        if seat in view["skip_streak"]:
            bits.append("skipped")
        if view["afk"][seat]:
            bits.append("away")
        if seat in view["left"]:
            bits = [f"~~{info.name_of(seat)}~~ left", f"{view['scores'][seat]} pt"]
        if blitz and seat in blitz["seats"]:
            bits.append(f"Wordblitz hand {blitz['hand_sizes'][seat]}")
        marker = "▶ " if seat == view["turn"] and view["phase"]["name"] in TURN_PHASES else ""
        lines.append(marker + " · ".join(bits))
    return "\n".join(lines)


def public_controls(view: PublicView) -> list[Control]:
    """The table's buttons. Nothing here has to be pressed for play to go on: ⚔️ Challenge
    (the last change, while the player in turn may press it), 💡 Use Tip (shown to everyone
    while the window is open, so it tells nobody who holds the card), and the buttons of a
    secret choice (rock-paper-scissors, the tie-break) for the players in it."""
    phase = view["phase"]
    name = phase["name"]
    if name == "tiebreak":
        return [Button("Coin toss", send({"type": "coin"}), "secondary", "🪙"),
                Button("Wordblitz", send({"type": "wordblitz"}), "primary", "⚡")]
    out: list[Control] = []
    change = last_change(view)
    if change is not None and challenge_button_shown(view):
        out.append(Button("Challenge", send({"type": "challenge", "change": change["n"]}), "danger", "⚔️",
                          lasting=True))  # names its change: the engine judges it, never stale
    if view.get("tip") is not None and view.get("rps") is None and name in TURN_PHASES:
        out.append(Button("Use Tip", send({"type": "tip"}), "primary", "💡"))
    if view.get("rps") is not None:
        out += [Button(s.title(), send({"type": "rps", "shape": s}), "secondary", e)
                for s, e in SHAPE_BUTTONS]
    return out


SHAPE_BUTTONS: tuple[tuple[schema.Shape, str], ...] = (("rock", "🪨"), ("paper", "📄"), ("scissors", "✂️"))


def send(action: schema.Action) -> dict[str, Any]:
    """An action checked against the schema, as the plain JSON a control carries. (The letter
    and position menus complete theirs per choice: `letter_choices`, `positions`.)"""
    return dict(action)

