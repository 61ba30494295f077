"""Two Fat Dudes in small words: each dude by its colour dot and its player's name, the
roll-off's dice and signed numbers; shared by the table and the log."""

from __future__ import annotations

from cogs.table.ui import TableInfo

#: The colour of each seat's dude: a label beside the player's name, never a name itself.
COLOURS = ("Red", "Blue")
DOTS = ("🔴", "🔵")


def who(seat: int | None, info: TableInfo) -> str:
    """`🔴 Alice`: a dude by colour dot and player name."""
    if seat is None:
        return "nobody"
    return f"{DOTS[seat]} {info.name_of(seat)}"


def other(seat: int | None) -> int | None:
    """The other dude; None while `seat` is (the Edge before the roll-off)."""
    return None if seat is None else 1 - seat


def dice(rolls: list[int], info: TableInfo) -> str:
    """`🔴 alice 🎲4, 🔵 bob 🎲1`: a roll-off's dice, once both are rolled."""
    return ", ".join(f"{who(seat, info)} 🎲{roll}" for seat, roll in enumerate(rolls))


def num(n: int) -> str:
    return str(n) if n >= 0 else f"−{-n}"
