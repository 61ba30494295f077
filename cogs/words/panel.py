"""A player's private hand panel: what the phase asks of them and its controls (letters,
positions, the turn's buttons), built from their own view alone."""

from __future__ import annotations

from typing import Any

from cogs.table.ui import Button, Choice, Control, Field, FormButton, Select
from cogs.words.table import send
from cogs.words.wording import TIEBREAK_NAMES
from games.words.cards import LETTERS, label
from games.words.schema import SeatView

MAX_OPTIONS = 25


def private_prompt(view: SeatView, seat: int) -> str:
    game = view.get("rps")
    if game is None or seat not in game["box"]["seats"]:
        return phase_prompt(view, seat)
    pick = view.get("my_pick")
    rps = (f"You chose {pick}: waiting for the others." if pick
           else f"Choose rock, paper or scissors on the table for **{game['word']}**.")
    return "\n".join(p for p in (phase_prompt(view, seat), rps) if p)


def phase_prompt(view: SeatView, seat: int) -> str:
    phase = view["phase"]
    mine = phase.get("seat") == seat
    if phase["name"] == "main" and mine:
        step = phase.get("step")
        if step == "ask":
            return "**How Do You Say…?** Name the letter you want."
        if step == "steal" and view.get("steal_held"):
            return f"**{view['steal_letter']}** isn't in the draw pile, but a player holds one. Steal it?"
        if step == "steal":
            return f"**{view['steal_letter']}** isn't in the draw pile, and nobody holds one."
        if step == "trash":
            return "**Trash Talk:** take a letter from the discard pile."
        picked = view.get("picked") or ""
        if picked.startswith("editor:"):
            return f"Editor: where should letter {int(picked.split(':')[1]) + 1} go?"
        word = (view.get("blitz") or view)["wip"]
        if picked and word:
            return f"Where does **{picked}** go?"
        if not word:
            return "**Your turn.** Pick a letter to start the word, or skip."
        return "**Your turn.** Pick a letter to play, use an event card, or skip."
    if phase["name"] == "claim" and mine:
        return f"**{phase['word']}** is a word! Claim it now, or keep building?"
    tip = view["tip"]
    if tip is not None and last_tip_chance(view, seat):
        return f"💡 The game is about to end: you may still use Tip of My Tongue on **{tip['word']}**."
    box = phase.get("box")
    if phase["name"] == "tiebreak" and box is not None and seat in box["seats"]:
        pick = view.get("my_pick")
        if pick:
            return f"You chose {TIEBREAK_NAMES.get(pick, pick)}: waiting for the others."
        return "You are tied for first: choose Coin toss or Wordblitz on the table."
    return ""


def letter_choices(letters: list[str], action: dict[str, Any], key: str) -> list[Select]:
    """One select, or two (A–M, N–Z) when more than 25 letters are possible."""
    groups = [letters] if len(letters) <= MAX_OPTIONS else [
        [x for x in letters if x <= "M"], [x for x in letters if x > "M"]]
    return [Select(f"Letter ({g[0]}–{g[-1]})", [Choice(x, {**action, key: x}) for x in g])
            for g in groups if g]


def positions(size: int, action: dict[str, Any], key: str, placeholder: str,
              label_of: Any, *, exclude: int | None = None) -> Control:
    """A select of positions (without `exclude`), or a number form past 25 (counted from 0,
    like the engine)."""
    if size - (exclude is not None) <= MAX_OPTIONS:
        return Select(placeholder, [Choice(label_of(i), {**action, key: i}) for i in range(size) if i != exclude])
    return FormButton(placeholder[:80], placeholder[:45],
                      [Field(key, "Position (0 = the front)", integer=True)], action)


def last_tip_chance(view: SeatView, seat: int) -> bool:
    """At the very end (no turn, so no table button) a Tip holder gets Use Tip in their hand."""
    tip = view.get("tip")
    return (view["phase"]["name"] == "closing" and tip is not None and view.get("rps") is None
            and "tip" in (view.get("hand_faces") or []) and seat != tip["seat"] and seat not in tip["users"])


def private_controls(view: SeatView, seat: int) -> list[Control]:
    phase = view["phase"]
    if last_tip_chance(view, seat):
        return [Button("Use Tip", send({"type": "tip"}), "primary", "💡")]
    if phase.get("seat") != seat:
        return []
    if phase["name"] == "claim":
        return [Button("Claim", send({"type": "claim"}), "success", "🏆"),
                Button("Keep building", send({"type": "keep"}), "secondary")]
    if phase["name"] != "main":
        return []
    step = phase.get("step")
    if step == "ask":
        return list(letter_choices(list(LETTERS), {"type": "ask"}, "letter"))
    if step == "steal" and view.get("steal_held"):
        return [Button("Steal it", send({"type": "steal"}), "danger"),
                Button("Don't steal", send({"type": "no_steal"}), "secondary")]
    if step == "steal":
        return [Button("Go on", send({"type": "no_steal"}), "secondary")]
    if step == "trash":
        letters = sorted(set(view["discard"]["letters"]))
        if not letters:  # a challenge put the last one back into the word
            return [Button("Go on", send({"type": "trash"}), "secondary")]
        return list(letter_choices(letters, {"type": "trash"}, "letter"))
    return turn_controls(view)


def turn_controls(view: SeatView) -> list[Control]:
    blitz = view.get("blitz")
    word = blitz["wip"] if blitz else view["wip"]
    size = len(word)
    faces = view["hand_faces"]
    letters = [f for f in faces if len(f) == 1]
    picked = view.get("picked") or ""
    out: list[Control] = []
    if letters and not size:  # one place only: picking the letter plays it
        out.append(Select("Play a letter…",
                          [Choice(x, send({"type": "play", "card": x, "at": 0})) for x in letters]))
    elif letters:
        out.append(Select("Play a letter…", [Choice(x, send({"type": "pick", "card": x})) for x in letters]))
    if picked and size and not picked.startswith("editor:"):
        out.append(positions(size + 1, {"type": "play", "card": picked}, "at", f"Where does {picked} go?",
                             lambda i: where(word, i)))
    if "backspace" in faces and size:
        out.append(positions(size, {"type": "backspace"}, "index", "Backspace: remove which letter?",
                             lambda i: f"{i + 1}: {word[i]}"))
    if "editor" in faces and size >= 2:
        if picked.startswith("editor:"):
            start = int(picked.split(":")[1])
            out.append(positions(size, {"type": "editor", "from": start}, "to",  # not where it is
                                 f"Editor: move {word[start]} to…", lambda i: f"position {i + 1}",
                                 exclude=start))
        else:
            out.append(positions(size, {"type": "pick", "card": "editor"}, "from",
                                 "Editor: move which letter?", lambda i: f"{i + 1}: {word[i]}"))
    if faces:
        out.append(Select("Skip: discard a card…",
                          [Choice(label(f), send({"type": "skip", "card": f})) for f in faces][:MAX_OPTIONS]))
    else:  # a hand emptied by events and Tips: a select needs at least one option
        out.append(Button("Skip (no cards)", send({"type": "skip"}), "secondary", "⏭️"))
    return out[:5]


def where(word: str, i: int) -> str:
    if not word:
        return "start the word"
    if i == 0:
        return "at the front"
    if i == len(word):
        return "at the end"
    return f"between {word[i - 1]} and {word[i]} ({i + 1})"
