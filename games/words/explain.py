"""Why Words' computer player (games/words/ai.py) does what it does, for a learner's hint."""

from __future__ import annotations

from typing import Any

from games.core import Action
from games.explain import Reason

#: action type -> (why, rule)
REASONS: dict[str, tuple[str, str]] = {
    "play": ("it keeps the word in progress a piece of many dictionary words and builds toward a word you "
             "can claim", "8"),
    "claim": ("a claimable word is points in your stack now, before anyone can change it", "10"),
    "keep": ("a longer word is worth more, and this one can still grow", "10"),
    "backspace": ("the word in progress is no longer part of any dictionary word, and taking a letter out "
                  "mends it", "14"),
    "editor": ("moving one letter turns the word in progress back into part of a dictionary word", "14"),
    "skip": ("no letter you hold fits, so it passes and gets rid of the card it needs least", "8"),
    "challenge": ("the last change leaves a fragment that is part of no dictionary word, so the challenge wins", "9"),
    "tip": ("Tip of My Tongue scores the word just completed once more", "13"),
    "ask": ("that letter fits the word in progress best among those still out there", "16"),
    "steal": ("the letter it asked for is in an opponent's hand, and taking it helps you more than them", "16"),
    "no_steal": ("taking the letter would not help your hand enough", "16"),
    "trash": ("that letter from the discard pile fits your hand and the word in progress best", "17"),
    "wordblitz": ("a quick round of words decides the tie on skill rather than luck", "22"),
    "coin": ("a coin toss is as good a chance as any here", "22"),
}


def explain(view: dict[str, Any], seat: int, action: Action) -> Reason:
    why, rule = REASONS.get(str(action.get("type")), ("it is the move it rates best from your hand", "8"))
    return Reason(why, rule)
