"""Typed shortcuts (`/words play`, …) with the suggestions their parameters offer, from the
caller's own hand."""

from __future__ import annotations

from cogs.table.ui import Param, Shortcut, press
from games.words.cards import label
from games.words.schema import SeatView


def hand_letters(view: SeatView, seat: int) -> list[tuple[str, str]]:
    return [(f, f) for f in dict.fromkeys(view.get("hand_faces") or []) if len(f) == 1]


def hand_cards(view: SeatView, seat: int) -> list[tuple[str, str]]:
    return [(label(f), f) for f in dict.fromkeys(view.get("hand_faces") or [])]


def discard_letters(view: SeatView, seat: int) -> list[tuple[str, str]]:
    return [(x, x) for x in sorted(set(view["discard"]["letters"]))]


def position(name: str, what: str) -> Param:
    return Param(name, what, integer=True, minimum=1, maximum=99)


YES_NO = {"yes": "yes", "no": "no"}
SHORTCUTS = (
    Shortcut("play", "Play a letter from your hand into the word", lambda o: {
        "type": "play", "card": o["letter"].strip().upper(), "at": o["position"] - 1}, (
        Param("letter", "The letter to play", suggest=hand_letters),
        position("position", "Where it lands: 1 = the front, word length + 1 = the end"),
    )),
    Shortcut("backspace", "Backspace: remove one letter of the word", lambda o: {
        "type": "backspace", "index": o["index"] - 1}, (position("index", "Which letter (1 = the first)"),)),
    Shortcut("editor", "Editor: move one letter of the word", lambda o: {
        "type": "editor", "from": o["from"] - 1, "to": o["to"] - 1}, (
        position("from", "Which letter to move (1 = the first)"), position("to", "Its new position"))),
    Shortcut("skip", "Skip your turn by discarding a card", lambda o: {"type": "skip", "card": o["card"]},
             (Param("card", "The card to discard", suggest=hand_cards),)),
    Shortcut("challenge", "Challenge the last change: no word contains this", press("challenge")),
    Shortcut("claim", "Claim the word you just made", press("claim")),
    Shortcut("keep", "Keep building instead of claiming", press("keep")),
    Shortcut("tip", "Use Tip of My Tongue: take the word just completed", press("tip")),
    Shortcut("rps", "Rock, paper or scissors", press("rps"), (Param("shape", "Your choice", choices={
        "rock": "🪨 rock", "paper": "📄 paper", "scissors": "✂️ scissors"}),)),
    Shortcut("tiebreak", "Break the tie", lambda o: {"type": o["how"]}, (
        Param("how", "How to break it", choices={"coin": "🪙 coin toss", "wordblitz": "⚡ Wordblitz"}),)),
    Shortcut("ask", "How Do You Say…?: name the letter you want", lambda o: {
        "type": "ask", "letter": o["letter"].strip().upper()}, (Param("letter", "Any letter A-Z"),)),
    Shortcut("steal", "Steal the letter you asked for from a player?", lambda o: {
        "type": "steal" if o["answer"] == "yes" else "no_steal"}, (Param("answer", "Steal it?", choices=YES_NO),)),
    Shortcut("trash", "Trash Talk: take a letter from the discard pile", lambda o: {
        "type": "trash", "letter": o["letter"].strip().upper()}, (
        Param("letter", "A letter in the discard pile", suggest=discard_letters),)),
)


