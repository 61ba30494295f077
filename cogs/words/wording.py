"""Fighting Words in small words, shared by the table, the hand panel and the log: why a game
ended, the tie-break's choices, points, a list of names."""

from __future__ import annotations

from cogs.table.wording import plural

#: Why the game ended (`Outcome.reason`, the view's `over`), as a sentence.
REASONS = {
    "last_card": "The last card was drawn",
    "stalemates": "Three words were thrown away in a row",
    "everyone_left": "Everyone else left",
    "pile_empty": "The draw pile ran out",
    "no_turns": "Nobody could take a turn",
    "abandoned": "Everyone was away for 10 minutes: the game was abandoned and no result was recorded",
}
TIEBREAK_NAMES = {"coin": "Coin toss", "wordblitz": "Wordblitz"}


def points(n: int) -> str:
    return plural(n, "point")


def and_join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items) or "nobody"
    return ", ".join(items[:-1]) + " and " + items[-1]


def reason_text(code: str) -> str:
    return REASONS.get(code, code.replace("_", " ").capitalize())
