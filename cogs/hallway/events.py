"""Two Fat Dudes' log: every event of the schema's catalogue (`games/hallway/schema.py`) in
words, with the players' names, each wording reading its own event's payload type (so mypy
checks the keys), and the verdicts the result shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.hallway.wording import dice, num, who
from cogs.table.ui import TableInfo
from cogs.table.wording import plural
from games.hallway import schema
from games.hallway.board import START, label


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def offer_words(offer: schema.PendingOffer) -> str:
    """“I pay you 6” / “you pay me 9”, from the maker's mouth."""
    mine = offer["payer"] == offer["maker"]
    return f"“{'I pay you' if mine else 'you pay me'} {offer['amount']}”"


def scores(totals: list[int], info: TableInfo) -> str:
    return f"{info.name_of(0)} {num(totals[0])}, {info.name_of(1)} {num(totals[1])}"


def verdict(reason: str, winner: int | None, totals: list[int], info: TableInfo) -> str:
    """Rule 18 in words: the higher total, the dude who got out on equal totals, or both."""
    if reason == "shared" or winner is None:
        return f"Shared victory at {scores(totals, info)}: two Honorary Skinny Dudes!"
    if reason == "exit":
        return f"{who(winner, info)} got out of the hallway and wins the tie ({scores(totals, info)})."
    return f"{who(winner, info)} is the Honorary Skinny Dude ({scores(totals, info)})."


#: How a dude got to a space: (the words after their name, the word before the space).
MOVES: dict[str, tuple[str, str]] = {
    "walk": ("rolled 🎲{roll} and waddled", "to"),
    "bump": ("rolled 🎲{roll} and bumped into {other}", "on"),
    "blocked": ("rolled 🎲{roll} but {other} is in the way: stays", "on"),
    "beside": ("rolled 🎲{roll} and stopped beside {other}", "on"),
    "slip": ("rolled 🎲{roll} and squeezed past {other}", "to"),
    "swap": ("squeezes past {other}", "to"),
}


def move_head(data: schema.Exit, info: TableInfo) -> tuple[str, str]:
    """`🔴 alice rolled 🎲3 and waddled`, and the word before the space it reached ("to", "on")."""
    seat = data["seat"]
    lead, prep = MOVES.get(data.get("how", "walk"), MOVES["walk"])
    lead = lead.format(roll=data.get("roll", "?"), other=info.name_of(1 - seat))
    return f"{who(seat, info)} {lead}", prep


def exit_line(data: schema.Exit, info: TableInfo) -> str:
    """A dude left the hallway: nothing is scored on the exit semicircle."""
    return f"{move_head(data, info)[0]} out of the hallway! 🚪"


def move_line(data: schema.Land, info: TableInfo) -> str:
    """A roll or a swap and the space it scored."""
    seat, pos = data["seat"], data["pos"]
    head, prep = move_head(data, info)
    if pos == START[seat]:
        return f"{head} {prep} their start semicircle: no points."
    gained = data["delta"][seat]
    return f"{head} {prep} {pos} ({label(pos)}): {signed(gained)} → {num(data['score'])}."


def rolled_line(data: schema.Rolled, info: TableInfo) -> str:
    if data.get("timeout"):
        return f"⏰ time ran out — rolled for {who(data['seat'], info)}."
    return f"{who(data['seat'], info)} ✔ rolled for the start."


def offer_line(data: schema.OfferMade, info: TableInfo) -> str:
    verb = "counters" if data.get("counter") else "offers"
    line = f"{who(data['seat'], info)} {verb} {offer_words(data['offer'])} (−1 to ask → {num(data['score'])})."
    if data["number"] >= data["limit"]:
        line += f" That's offer {data['limit']}: accept or decline now."
    return line


def deal_line(data: schema.Deal, info: TableInfo) -> str:
    payer, payee = data["payer"], 1 - data["payer"]
    after = data["scores"]
    return (f"🤝 Deal! {who(payer, info)} pays {info.name_of(payee)} {data['amount']}: "
            f"{info.name_of(payer)} {num(after[payer])}, {info.name_of(payee)} {num(after[payee])}.")


def nodeal_line(data: schema.NoDealSaid, info: TableInfo) -> str:
    if not data.get("ended"):
        return f"🚫 {who(data['seat'], info)} wants no deal."
    edge = f"{info.name_of(data['edge'])} has the Edge."
    if data.get("timeout"):
        return f"⏱️ No offer in time: no deal. {edge}"
    return f"🚫 Neither wants a deal. {edge}"


def edge_line(data: schema.EdgeUsed, info: TableInfo) -> str:
    seat, goer = data["seat"], data["goer"]
    whom = "go back" if goer == seat else f"send {info.name_of(goer)} back"
    return (f"🔙 {who(seat, info)} uses the Edge to {whom} to the start: −{data['fee']} → {num(data['score'])}."
            f" The Edge passes to {info.name_of(data['edge'])}.")


def penalty_line(data: schema.Penalty, info: TableInfo) -> str:
    steps = data["steps"]
    return (f"{who(data['seat'], info)} is stuck {plural(steps, 'step')} from the exit: "
            f"−{data['penalty']} → {num(data['total'])}.")


def afk_line(data: schema.Afk, info: TableInfo) -> str:
    """Also the result's reason, from the outcome's detail (`seat` and `limit`)."""
    seat = data["seat"]
    return (f"💤 {who(seat, info)} let {data.get('limit', 5)} turns pass in a row and forfeits: "
            f"{info.name_of(1 - seat)} wins.")


def left_line(data: schema.Forfeit, info: TableInfo) -> str:
    """Also the result's reason, from the outcome's detail (`seat`)."""
    return f"{who(data['seat'], info)} left the hallway: {info.name_of(1 - data['seat'])} wins."


def rolloff_line(data: schema.Rolloff, info: TableInfo) -> str:
    return f"🎲 Roll-off: {dice(data['rolls'], info)}."


def tie_line(data: schema.RolloffTie, info: TableInfo) -> str:
    return f"Both rolled {data['roll']}: roll again!"


def start_line(data: schema.Start, info: TableInfo) -> str:
    return f"{who(data['start'], info)} starts ★ and {info.name_of(data['edge'])} holds the Edge."


def encounter_line(data: schema.Encounter, info: TableInfo) -> str:
    return (f"💥 Belly bump! Encounter {data['encounter']} of {data['of']}: "
            "make an offer to squeeze past, or No deal.")


def passed_line(data: schema.Passed, info: TableInfo) -> str:
    if data["how"] == "final":
        return "💦 Sweaty and slippery, the dudes slide past each other. The race is on!"
    return "The dudes have passed each other. The race is on!"


def last_turn_line(data: schema.LastTurn, info: TableInfo) -> str:
    return f"{who(data['seat'], info)} gets one last turn!"


def over_line(data: schema.Over, info: TableInfo) -> str:
    return f"🏁 {verdict(data['reason'], data['winner'], data['totals'], info)}"


def decline_line(data: schema.Declined, info: TableInfo) -> str:
    return (f"❌ {who(data['seat'], info)} declines {offer_words(data['offer'])}. "
            f"No deal: {info.name_of(data['edge'])} has the Edge.")


#: Events a timer can cause in a dude's place; their lines say so first.
TIMED = frozenset({"land", "exit", "decline", "edge"})
#: The words of every event of the schema's catalogue (`schema.EVENTS`), each function reading
#: its own payload type (tests/test_event_words.py checks it against the catalogue); `event_line`
#: looks the event's type up here.
EVENT_WORDS: dict[schema.EventKind, Callable[[Any, TableInfo], str]] = {
    "rolled": rolled_line,
    "rolloff": rolloff_line,
    "rolloff_tie": tie_line,
    "start": start_line,
    "land": move_line,
    "exit": exit_line,
    "encounter": encounter_line,
    "passed": passed_line,
    "last_turn": last_turn_line,
    "penalty": penalty_line,
    "over": over_line,
    "offer": offer_line,
    "deal": deal_line,
    "decline": decline_line,
    "nodeal": nodeal_line,
    "edge": edge_line,
    "afk": afk_line,
    "forfeit": left_line,
}
