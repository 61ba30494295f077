"""Fighting Words' log: every event of the schema's catalogue (`games/words/schema.py`) in
words, with the players' names, each wording reading its own event's payload type (so mypy
checks the keys); the words the screens share with it are in `wording.py`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.table.ui import TableInfo
from cogs.words.wording import TIEBREAK_NAMES, and_join, points, reason_text
from games.words import schema
from games.words.cards import label

SHAPE_EMOJI = {"rock": "🪨", "paper": "📄", "scissors": "✂️"}
#: What an immediate event card with nothing to act on did.
FIZZLES = {
    "thatll_work": "That'll Work: there was no word to collect.",
    "trash_talk": "Trash Talk: there is no letter in the discard pile.",
    "sting": "Spelling Bee Sting: there was no word to wipe.",
}


def skip_line(d: schema.Card, info: TableInfo) -> str:
    who, card = info.name_of(d["seat"]), d["card"]
    return f"{who} skipped and discarded {label(card)}." if card else f"{who} skipped."


def ask_line(d: schema.Asked, info: TableInfo) -> str:
    if d["in_pile"]:
        return f"{info.name_of(d['seat'])} asked for a letter and found it in the draw pile."
    return f"{info.name_of(d['seat'])} asked for a letter that is not in the draw pile."


def asked_line(d: schema.AskedLetter, info: TableInfo) -> str:
    letter = d["letter"]
    return {
        "pile": f"You took {letter} from the draw pile.",
        "held": f"You asked for {letter}: it is not in the draw pile, but a player holds one. Steal it?",
    }.get(d["found"], f"You asked for {letter}: it is not in the draw pile, and nobody holds one.")


def challenge_line(d: schema.ChallengeMade, info: TableInfo) -> str:
    who, word = info.name_of(d["seat"]), d["word"]
    if d["upheld"]:
        return (f"{who} challenged {word}: no word contains it. The change is undone and "
                f"{info.name_of(d['actor'])} loses a turn.")
    return f"{who} challenged {word or 'the empty word'}, but it can still become a word: {who} loses a turn."


def seat_names(d: schema.Seats | schema.RpsRound, info: TableInfo) -> str:
    return and_join([info.name_of(s) for s in d["seats"]])


def rps_line(d: schema.RpsRound, info: TableInfo) -> str:
    if d["round"] > 1:
        return f"Rock, paper, scissors again between {seat_names(d, info)} (round {d['round']})."
    return f"Rock, paper, scissors between {seat_names(d, info)} for the word!"


def reveal(d: schema.Reveal, info: TableInfo, names: dict[str, str]) -> str:
    return ", ".join(f"{info.name_of(int(s))} {names.get(str(p), str(p))}" for s, p in d["picks"])


def picked_line(d: schema.Picked, info: TableInfo) -> str:
    choice = d["choice"]
    shown = TIEBREAK_NAMES.get(choice) or f"{SHAPE_EMOJI.get(choice, '')} {choice}".strip()
    return f"You chose {shown}."


def tiebreak_won_line(d: schema.TiebreakWon, info: TableInfo) -> str:
    who, how = info.name_of(d["seat"]), d["how"]
    if how == "wordblitz":
        return f"{who} wins the Wordblitz with {d.get('word')}!"
    if how == "walkover":
        return f"{who} wins the tie-break: the others left it."
    return f"{who} wins the coin toss!"


def play_line(d: schema.Played, info: TableInfo) -> str:
    return f"{info.name_of(d['seat'])} played {d['letter']} → {d['word']}."


def backspace_line(d: schema.Removed, info: TableInfo) -> str:
    return f"{info.name_of(d['seat'])} used Backspace on {d['letter']} → {d['word'] or '(empty)'}."


def editor_line(d: schema.Moved, info: TableInfo) -> str:
    return f"{info.name_of(d['seat'])} used Editor: {d['letter']} moves → {d['word']}."


def drew_line(d: schema.Card, info: TableInfo) -> str:
    return f"You drew {label(d['card'] or '')}."


def immediate_line(d: schema.Card, info: TableInfo) -> str:
    return f"{info.name_of(d['seat'])} drew {label(d['card'] or '')}!"


def stalemate_line(d: schema.Stalemate, info: TableInfo) -> str:
    return f"Nobody could go on: {d['word']} is thrown away ({d['count']} in a row)."


def fizzle_line(d: schema.Card, info: TableInfo) -> str:
    card = d["card"] or ""
    return FIZZLES.get(card, f"{label(card)} did nothing.")


def steal_line(d: schema.Stolen, info: TableInfo) -> str:
    return f"{info.name_of(d['seat'])} stole {d['letter']} from {info.name_of(d['victim'])}."


def replaced_line(d: schema.Replaced, info: TableInfo) -> str:
    return f"{d['letter']} was stolen from you; you drew {label(d['card'])} to replace it."


def trash_talk_line(d: schema.Letter, info: TableInfo) -> str:
    return f"{info.name_of(d['seat'])} took {d['letter']} from the discard pile."


def claim_line(d: schema.Claimed, info: TableInfo) -> str:
    return f"{info.name_of(d['seat'])} takes {d['word']} for {points(d['points'])}."


def tip_steal_line(d: schema.TipSteal, info: TableInfo) -> str:
    return f"{info.name_of(d['seat'])} steals {d['word']} from {info.name_of(d['victim'])}!"


def left_line(d: schema.Left, info: TableInfo) -> str:
    if d["why"] == "timeouts":
        return f"{info.name_of(d['seat'])} timed out ten turns in a row and is out of the game."
    return f"{info.name_of(d['seat'])} left the game."


def over_line(d: schema.GameOver, info: TableInfo) -> str:
    return f"Game over: {reason_text(d['reason']).lower()}."


def said(words: str) -> Callable[[schema.Seat, TableInfo], str]:
    """An event about one seat: its name, then `words`."""
    def line(d: schema.Seat, info: TableInfo) -> str:
        return f"{info.name_of(d['seat'])} {words}"
    return line


def seat_word(words: str) -> Callable[[schema.Word, TableInfo], str]:
    """An event about a seat and a word: `words` with {who} and {word} filled in."""
    def line(d: schema.Word, info: TableInfo) -> str:
        return words.format(who=info.name_of(d["seat"]), word=d["word"])
    return line


def rps_reveal_line(d: schema.Reveal, info: TableInfo) -> str:
    return "Rock, paper, scissors: " + reveal(d, info, {s: f"{e} {s}" for s, e in SHAPE_EMOJI.items()}) + "."


def tiebreak_line(d: schema.Seats, info: TableInfo) -> str:
    return f"{seat_names(d, info)} are tied: choose Coin toss or Wordblitz."


def tiebreak_reveal_line(d: schema.Reveal, info: TableInfo) -> str:
    return "Tie-break: " + reveal(d, info, {k: f"chose {v}" for k, v in TIEBREAK_NAMES.items()}) + "."


def wordblitz_line(d: schema.Seats, info: TableInfo) -> str:
    return f"Wordblitz between {seat_names(d, info)}! The first to finish a 3-letter word wins."


def blitz_timeout_line(d: schema.Seats, info: TableInfo) -> str:
    return "Wordblitz ran 30 turns without a word: coin toss."


def abandoned_line(d: schema.Seats, info: TableInfo) -> str:
    return "💤 Everyone is away: the game is abandoned, with no result."


#: Every event of the catalogue (`schema.EVENTS`) and its words, each function reading its own
#: payload type (tests/test_event_words.py checks it against the catalogue); `WordsUI.event_line`
#: looks the event's type up here.
EVENT_WORDS: dict[schema.EventKind, Callable[[Any, TableInfo], str]] = {
    "play": play_line,
    "backspace": backspace_line,
    "editor": editor_line,
    "skip": skip_line,
    "draw": said("drew a card."),
    "drew": drew_line,
    "immediate": immediate_line,
    "forced_skip": said("loses this turn."),
    "stalemate": stalemate_line,
    "sting": seat_word("Spelling Bee Sting! {word} is wiped out."),
    "fizzle": fizzle_line,
    "ask": ask_line,
    "asked": asked_line,
    "steal": steal_line,
    "replaced": replaced_line,
    "trash_talk": trash_talk_line,
    "challenge": challenge_line,
    "keep": seat_word("{who} keeps building {word}."),
    "claim": claim_line,
    "tip": said("uses Tip of My Tongue!"),
    "tip_steal": tip_steal_line,
    "tip_kept": seat_word("{who} keeps {word}."),
    "rps": rps_line,
    "rps_reveal": rps_reveal_line,
    "picked": picked_line,
    "game_over": over_line,
    "tiebreak": tiebreak_line,
    "tiebreak_reveal": tiebreak_reveal_line,
    "tiebreak_won": tiebreak_won_line,
    "wordblitz": wordblitz_line,
    "blitz_word": seat_word("{who} makes {word}!"),
    "blitz_timeout": blitz_timeout_line,
    "blitz_bust": seat_word("{word} is too long: the word is discarded."),
    "afk": said("is away: their turns pass after 10 s."),
    "abandoned": abandoned_line,
    "left": left_line,
}
