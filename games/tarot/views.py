"""Conference / League's views: the table's (`public`) and a seat's own (`private`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from games.core import State
from games.tarot.cards import corresponding_ace, is_ace, sort_hand
from games.tarot.deal import discard_choices, discard_shortfall, team_of
from games.tarot.hand import HANDS_PER_GAME, current_trick, legal_for, turn, window_holder
from games.tarot.schema import (
    Breakdown,
    CallMade,
    Fool,
    LedSuit,
    MoverTable,
    Options,
    Payment,
    PhaseName,
    PublicView,
    SeatView,
    Trick,
    VoteView,
)
from games.tarot.state import finished, hand_phase, phase
from games.tarot.tricks import led_suit, substitutes


def public(state: State) -> PublicView:
    """The table: everything every seat may know."""
    hand = state["hand"]
    trick = current_trick(hand)
    done = [t for t in hand["tricks"] if t["winner"] is not None and t is not trick]
    tricks_won = [sum(1 for t in hand["tricks"] if t["winner"] is not None and team_of(t["winner"]) == team)
                  for team in (0, 1)]
    options: Options = state["options"]
    vote: VoteView | None = state["vote"]
    calls: list[CallMade] = hand["calls"]
    return {
        "hand_no": min(state["hand_no"], HANDS_PER_GAME - 1) + 1, "hands": HANDS_PER_GAME,
        "dealer": hand["dealer"], "mode": options["mode"], "direction": hand["direction"],
        "options": _options(options), "conference": conference_on(options),
        # a hand is "done" only once the game is finished
        "phase": "over" if finished(state) else cast(PhaseName, hand_phase(hand)), "turn": turn(hand),
        "g_suit": hand["g_suit"], "points": list(state["points"]), "tricks_won": tricks_won,
        "trick_no": len(hand["tricks"]) if trick else len(hand["tricks"]) + 1,
        "trick": _public_trick(trick) if trick else None,
        "last_trick": _public_trick(done[-1]) if done else None,
        "fool": _fool(hand["fool"]),
        "calls": [_call(c) for c in calls], "periods": list(hand["periods"]),
        "window": ({"ace": hand["window"]["ace"], "seat": hand["window"]["seat"]}
                   if hand["window"] else None),
        "played_aces": sorted({c for t in hand["tricks"] for _s, c, _a in t["plays"] if is_ace(c)}),
        "hand_sizes": [len(h) for h in hand["hands"]], "discarded": bool(hand["discard"]),
        "afk": {"flagged": list(state["afk"]["flagged"]),
                "vote": {"seat": vote["seat"], "votes": dict(vote["votes"])} if vote else None},
        "history": [_breakdown(b) for b in state["history"]], "over": finished(state), "abandoned": state["abandoned"],
    }

def private(state: State, seat: int) -> SeatView:
    """A seat's own: its hand, what it may do now, and the table only while it must play."""
    hand = state["hand"]
    held = hand["hands"][seat]
    at = phase(state)
    legal = legal_for(hand, seat) if at.step != "vote" and not finished(state) else []
    trick = hand["tricks"][-1] if hand["tricks"] and hand["tricks"][-1]["winner"] is None else None
    plays = trick["plays"] if trick else []
    ordered = sort_hand(held)
    in_order = _kept_in_order(ordered, legal)
    as_led = _kept_in_order(in_order, [c for c in substitutes(held, led_suit(plays), hand["g_suit"]) if c in legal])
    mine: SeatView = {
        "seat": seat, "hand_no": min(state["hand_no"], HANDS_PER_GAME - 1) + 1, "hands": HANDS_PER_GAME,
        "dealer": hand["dealer"], "allegiances": state["options"]["allegiances"],
        "hand": ordered, "legal": in_order, "as_led": as_led,
        # only the mover's menu needs it; a led card is never the Fool (`led_suit`)
        "led": cast(LedSuit | None, led_suit(plays)) if legal else None,
        "window": hand_phase(hand) == "window" and not finished(state),
        "nominate": hand_phase(hand) == "nominate" and seat == hand["dealer"] and at.step != "vote",
    }
    if legal:
        mine["table"] = _table_for_mover(state)
    if seat == hand["dealer"]:
        mine["discard"] = list(hand["discard"])
        if hand_phase(hand) == "discard" and at.step != "vote":
            allegiances = state["options"]["allegiances"]
            _plain, _trumps, shortfall = discard_shortfall(held, allegiances=allegiances)
            mine["discard_options"] = sort_hand(discard_choices(held, allegiances=allegiances))
            mine["discard_trumps"] = shortfall
    if hand_phase(hand) == "window" and window_holder(hand) == seat:
        mine["can_call"] = {"ace": hand["window"]["ace"], "shown": corresponding_ace(hand["window"]["ace"]),
                            "passed": hand["window"]["passed"]}
    return mine


def _kept_in_order(ordered: list[str], cards: list[str]) -> list[str]:
    """`sort_hand(cards)`, taken from `ordered` (a sorted hand) when it holds them all: a seat's
    view lists its hand, what it may play and what follows the lead, each in hand order."""
    wanted = set(cards)
    if len(wanted) != len(cards) or not wanted.issubset(ordered):
        return sort_hand(cards)
    return [c for c in ordered if c in wanted]


def conference_on(options: Mapping[str, Any]) -> bool:
    """R13: on by default in classic without Allegiances, off in League and Allegiances."""
    if options["conference"] == "auto":
        return options["mode"] == "classic" and not options["allegiances"]
    return bool(options["conference"] == "on")


def _table_for_mover(state: State) -> MoverTable:
    """The public facts a player about to play remembers from the table (the tricks of this
    hand so far, the one on the table, the Fool, the calls): shown only while the seat must
    play, like `led`, so the other seats' DMs are not edited at every card."""
    hand = state["hand"]
    return {"tricks": [_public_trick(t) for t in hand["tricks"]], "g_suit": hand["g_suit"],
            "direction": hand["direction"], "league": hand["league"],
            "fool": _fool(hand["fool"]), "periods": list(hand["periods"]),
            "hand_sizes": [len(h) for h in hand["hands"]], "points": list(state["points"]),
            "trumps_score": state["options"]["allegiance_trumps_score"]}


def _public_trick(trick: dict[str, Any]) -> Trick:
    return {"leader": trick["leader"], "plays": [list(p) for p in trick["plays"]], "winner": trick["winner"]}


# The nested parts of the view are built key by key, not copied from the state, so that a key
# renamed in the schema fails lint here (tests/test_schemas.py, RENAMED).
def _fool(fool: Fool | None) -> Fool | None:
    """A copy of where the Fool went (None before it is played)."""
    return {"owner": fool["owner"], "trick": fool["trick"]} if fool else None


def _options(options: Options) -> Options:
    return {"mode": options["mode"], "conference": options["conference"], "allegiances": options["allegiances"],
            "allegiance_trumps_score": options["allegiance_trumps_score"], "gallowglass": options["gallowglass"],
            "timers": options["timers"]}


def _call(call: CallMade) -> CallMade:
    return {"seat": call["seat"], "ace": call["ace"], "shown": call["shown"], "call": call["call"],
            "team": call["team"], "mapping": list(call["mapping"]), "period": call["period"]}


def _payment(payment: Payment | None) -> Payment | None:
    if payment is None:
        return None
    return {"card": payment["card"], "from": payment["from"], "to": payment["to"], "trick": payment["trick"]}


def _breakdown(done: Breakdown) -> Breakdown:
    """A finished hand of the history, in the order `hand.end_hand` stores it."""
    return {"totals": list(done["totals"]), "tricks": list(done["tricks"]), "card_points": list(done["card_points"]),
            "swing": list(done["swing"]), "declarer": done["declarer"], "payment": _payment(done["payment"]),
            "voided": list(done["voided"]), "discard": list(done["discard"]), "periods": list(done["periods"]),
            "hand": done["hand"], "dealer": done["dealer"], "g_suit": done["g_suit"],
            "calls": [_call(c) for c in done["calls"]], "league": done["league"]}

