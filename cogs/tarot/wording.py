"""Conference / League's shared words: teams, signed points, allegiance pairs, cards on a trick.
The screens (`ui.py`) and the log (`events.py`) both say these; from views, never game state."""

from __future__ import annotations

from cogs.table.ui import TableInfo
from cogs.tarot.card_names import card_short
from games.tarot.schema import Pair, Played, unpack

TEAM = ("A", "B")


def team_names(team: int, info: TableInfo) -> str:
    return f"{info.name_of(2 * team)} & {info.name_of(2 * team + 1)}"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def short(card: str) -> str:
    return card_short(card)


def pair_name(pair: Pair) -> str:
    return "Cups & Coins" if pair == "round" else "Swords & Batons"


def plays_text(plays: list[Played], info: TableInfo) -> str:
    return " · ".join(f"{info.name_of(seat)} {short(card)}{' (as led)' if as_led else ''}"
                      for seat, card, as_led in map(unpack, plays))
