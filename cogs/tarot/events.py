"""Conference / League's log: every event of the schema's catalogue (`games/tarot/schema.py`)
in words, with the players' names, each wording reading its own event's payload type (so mypy
checks the keys). Lines sent to one seat only (`discard_made`, `may_call`, `passed`) speak to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.table.ui import TableInfo
from cogs.tarot.wording import pair_name, short, signed
from games.tarot import schema
from games.tarot.cards import SUIT_NAMES


def dealt_line(data: schema.Dealt, info: TableInfo) -> str:
    return f"Hand {data['hand']}: {info.name_of(data['dealer'])} deals."


def discarded_line(data: schema.Seat, info: TableInfo) -> str:
    return f"{info.name_of(data['seat'])} discarded two cards face down."


def discard_made_line(data: schema.DiscardMade, info: TableInfo) -> str:
    return f"You discarded {', '.join(short(c) for c in data['cards'])}."


def nominated_line(data: schema.Nominated, info: TableInfo) -> str:
    chosen = SUIT_NAMES[data["suit"]] if data["suit"] else "no suit"
    return f"{info.name_of(data['seat'])} named {chosen} as the gallowglass suit."


def played_line(data: schema.CardPlayed, info: TableInfo) -> str:
    late = " (time ran out)" if data.get("timeout") else ""
    as_led = " as the suit led" if data.get("as_led") else ""
    return f"{info.name_of(data['seat'])} played {short(data['card'])}{as_led}{late}."


def trick_line(data: schema.TrickWon, info: TableInfo) -> str:
    return f"Trick {data['number']} to {info.name_of(data['winner'])}."


def window_line(data: schema.WindowOpened, info: TableInfo) -> str:
    return f"{info.name_of(data['seat'])} played {short(data['ace'])}: an Ace of Allegiance window opens."


def called_line(data: schema.Called, info: TableInfo) -> str:
    return (f"{info.name_of(data['seat'])} shows {short(data['shown'])} and calls **{data['call']}**: "
            f"A scores {pair_name(data['mapping'][0])}, B {pair_name(data['mapping'][1])}.")


def may_call_line(data: schema.MayCall, info: TableInfo) -> str:
    return (f"✋ You hold {short(data['shown'])}: you may call an allegiance on {short(data['ace'])} "
            "— Ours, Yours or Pass, before the window closes.")


def hand_end_line(data: schema.HandEnd, info: TableInfo) -> str:
    s, p = data["swing"], data["points"]
    return (f"Hand {data['hand']} ends: A {data['totals'][0]} – B {data['totals'][1]} "
            f"(A {signed(s[0])}, B {signed(s[1])}); game: A {signed(p[0])}, B {signed(p[1])}.")


def voted_line(data: schema.Voted, info: TableInfo) -> str:
    return f"{info.name_of(data['seat'])} votes {data['vote']}."


def passed_line(data: schema.Seat, info: TableInfo) -> str:
    return "You passed."


def about(words: str) -> Callable[[schema.Seat, TableInfo], str]:
    """The line of an event about one seat: `{name}` stands for the seat's player."""
    def line(data: schema.Seat, info: TableInfo) -> str:
        return words.format(name=info.name_of(data["seat"]))
    return line


def hidden(data: schema.Nothing, info: TableInfo) -> str | None:
    """The window closing says nothing: the table shows it (and who could have called is secret)."""
    return None


#: The words of every event of the schema's catalogue (`schema.EVENTS`), each function reading
#: its own payload type (tests/test_event_words.py checks it against the catalogue);
#: `TarotUI.event_line` looks the event's type up here. None: no line.
EVENT_WORDS: dict[schema.EventKind, Callable[[Any, TableInfo], str | None]] = {
    "dealt": dealt_line,
    "discarded": discarded_line,
    "discard_made": discard_made_line,
    "nominated": nominated_line,
    "played": played_line,
    "trick": trick_line,
    "window": window_line,
    "may_call": may_call_line,
    "passed": passed_line,
    "called": called_line,
    "window_closed": hidden,
    "hand_end": hand_end_line,
    "afk": about("{name} let three turns pass: the table votes."),
    "voted": voted_line,
    "continued": about("Play goes on; {name}'s turns now time out after 10 s."),
    "abandoned": about("The table abandoned the game: {name} was away."),
    "back": about("{name} is back."),
    "forfeit": about("{name} left the game."),
}
