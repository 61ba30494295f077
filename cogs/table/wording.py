"""Small words every game shares: plurals, the one minus sign, places, and a prompt turned
into the table's third person. One place, so "1 cards", "-3" and "to build your army" cannot
creep back into one game's screens while another's are right."""

from __future__ import annotations

import re

MINUS = "−"  # U+2212: the one minus sign players see; "-" is a hyphen

# A prompt is written to its player ("build your army in secret"): the ping reads "your turn to
# build your army"; the table reads "Waiting for @bob to build their army".
_SECOND_PERSON = {"your": "their", "yours": "theirs", "yourself": "themselves", "you": "them"}
_PRONOUN = re.compile(r"\b(" + "|".join(_SECOND_PERSON) + r")\b", re.IGNORECASE)
# A prompt that starts with one of these is already a phrase of place, not a verb.
_PLACE_WORDS = ("in ", "at ", "on ")


def plural(n: float, word: str, words: str | None = None) -> str:
    """"1 card", "2 cards", "0 games"; `words` for an irregular plural ("1 army", "2 armies")."""
    return f"{number(n)} {word if abs(n) == 1 else (words or word + 's')}"


def number(n: float) -> str:
    """An integer or a short float with the minus sign players read (−3, not -3)."""
    shown = f"{n:g}" if isinstance(n, float) else str(n)
    return shown.replace("-", MINUS)


def signed(n: float) -> str:
    """A change: +3, −2, 0."""
    return f"+{number(n)}" if n > 0 else number(n)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def for_the_player(prompt: str) -> str:
    """The words after "your turn": "to roll the die", "in the golf window: …"."""
    return prompt if prompt.startswith(_PLACE_WORDS) else f"to {prompt}"


def for_the_table(prompt: str) -> str:
    """The words after "Waiting for @bob": the player's prompt in the third person."""
    def swap(match: re.Match[str]) -> str:
        return _SECOND_PERSON[match.group(1).lower()]
    return _PRONOUN.sub(swap, for_the_player(prompt))
