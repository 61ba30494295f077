"""Haggling at an encounter (rules 9-11) and the Edge when no deal is made (rule 12).

Offers are binding and cost their maker 1 point the moment they are made. The recipient
accepts, declines or counters; after the 10th offer of an encounter only accept and
decline remain, so haggling always ends.
"""

from __future__ import annotations

from typing import Any

from games.core import Action, Event, IllegalAction, State
from games.hallway.board import START, encounter_fee
from games.hallway.schema import Who
from games.hallway.state import MAX_AMOUNT, OFFER_LIMIT, change_score, land, other, phase, place
from games.hallway.turns import end_turn

PAYERS: tuple[Who, ...] = ("me", "you")


def pending(state: State) -> dict[str, Any] | None:
    nego = state.get("nego")
    return nego["pending"] if nego else None


def verify_negotiating(state: State) -> None:
    now = phase(state).name
    if now == "turn":
        raise IllegalAction("There's no encounter to haggle over: it's {turn}'s turn to roll.", rule="8",
                            seats={"turn": state["turn"]})
    if now == "edge":
        raise IllegalAction("The haggling is over: {holder} holds the Edge and is choosing.", rule="12",
                            seats={"holder": state["edge"]})
    if now != "negotiate":
        raise IllegalAction("There's nothing to negotiate right now.", rule="8")


def verify_answer(state: State, seat: int) -> dict[str, Any]:
    """Only the player an offer was made to may accept or decline it."""
    verify_negotiating(state)
    offer = pending(state)
    if offer is None:
        raise IllegalAction("There's no offer on the table yet: make one, or press No deal.", rule="11")
    if seat == offer["maker"]:
        raise IllegalAction("That's your own offer: waiting for {other} to answer.", rule="11",
                            seats={"other": other(seat)})
    return offer


def amount_of(action: Action) -> int:
    amount = action.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_AMOUNT:
        raise IllegalAction(f"The amount must be a whole number from 0 to {MAX_AMOUNT}.", rule="10")
    return amount


def verify_offer(state: State, seat: int, action: Action) -> tuple[Who, int]:
    verify_negotiating(state)
    offer = pending(state)
    if offer is not None and offer["maker"] == seat:
        raise IllegalAction("Your offer stands (offers can't be withdrawn): waiting for {other}.", rule="11",
                            seats={"other": other(seat)})
    if state["nego"]["offers"] >= OFFER_LIMIT:
        raise IllegalAction(f"That was the {OFFER_LIMIT}th offer of this encounter: only Accept or Decline now.",
                            rule="11")
    payer: Who | None = action.get("payer")  # untrusted JSON: checked next
    if payer not in PAYERS:
        raise IllegalAction("Say who pays: “I pay you…” or “You pay me…”.", rule="10")
    return payer, amount_of(action)


def make_offer(state: State, seat: int, action: Action) -> list[Event]:
    """An offer or a counter-offer; the maker pays 1 point for the privilege."""
    payer, amount = verify_offer(state, seat, action)
    nego = state["nego"]
    counter = nego["pending"] is not None
    nego["offers"] += 1
    nego["pending"] = {"maker": seat, "payer": seat if payer == "me" else other(seat), "amount": amount}
    state["stats"][seat]["offers"] += 1
    data = change_score(state, seat, -1, "offer")
    return [Event("offer", {"seat": seat, "offer": dict(nego["pending"]), "counter": counter,
                            "number": nego["offers"], "limit": OFFER_LIMIT, "score": state["score"][seat],
                            **data})]


def accept(state: State, seat: int) -> list[Event]:
    """Points move, the dudes swap spaces and score them (the mover first); the Edge stays."""
    offer = verify_answer(state, seat)
    payer, amount = offer["payer"], offer["amount"]
    payee = other(payer)
    state["score"][payer] -= amount
    state["score"][payee] += amount
    stats = state["stats"]
    stats[payer]["paid"] += amount
    stats[payee]["received"] += amount
    for s in (0, 1):
        stats[s]["deals"] += 1
    delta = [0, 0]
    delta[payer], delta[payee] = -amount, amount
    events = [Event("deal", {"seat": seat, "payer": payer, "amount": amount, "delta": delta, "kind": "deal",
                             "scores": list(state["score"])})]
    mover = state["turn"]
    spots = list(state["pos"])
    for s in (mover, other(mover)):
        place(state, s, spots[other(s)])
    state["passed"] = True
    state["nego"] = None
    for s in (mover, other(mover)):
        events.append(land(state, s, "swap"))
    events.append(Event("passed", {"how": "deal"}))
    return events + end_turn(state)


def decline(state: State, seat: int, timeout: bool) -> list[Event]:
    offer = verify_answer(state, seat)
    state["phase"] = "edge"
    return [Event("decline", {"seat": seat, "offer": dict(offer), "edge": state["edge"],
                              **({"timeout": True} if timeout else {})})]


def verify_no_deal(state: State, seat: int) -> None:
    verify_negotiating(state)
    if pending(state) is not None:
        raise IllegalAction("There's an offer on the table: accept, decline or counter it.", rule="9")
    if seat in state["nego"]["nodeal"]:
        raise IllegalAction("You already said no deal: waiting for {other} to offer or agree.", rule="9",
                            seats={"other": other(seat)})


def no_deal(state: State, seat: int, timeout: bool) -> list[Event]:
    """Both say No deal, or 45 s pass without an offer: the Edge decides."""
    verify_no_deal(state, seat)
    nodeal = state["nego"]["nodeal"]
    nodeal.append(seat)
    if not timeout and len(nodeal) < 2:
        return [Event("nodeal", {"seat": seat, "ended": False, "timeout": False, "edge": state["edge"]})]
    state["phase"] = "edge"
    return [Event("nodeal", {"seat": seat, "ended": True, "timeout": timeout, "edge": state["edge"]})]


def verify_edge(state: State, seat: int, action: Action) -> Who:
    if phase(state).name != "edge":
        raise IllegalAction("The Edge is only used when an encounter ends without a deal.", rule="12")
    if seat != state["edge"]:
        raise IllegalAction("{holder} holds the Edge and chooses who goes back.", rule="12",
                            seats={"holder": state["edge"]})
    back: Who | None = action.get("back")  # untrusted JSON: checked next
    if back not in PAYERS:
        raise IllegalAction("Choose who goes back: you (“I go back”) or your opponent (“You go back”).", rule="12")
    return back


def use_edge(state: State, seat: int, action: Action, timeout: bool) -> list[Event]:
    """The holder sends someone back to their start for 5 or 10 points, then passes the Edge."""
    back = verify_edge(state, seat, action)
    goer = seat if back == "me" else other(seat)
    fee = encounter_fee(state["encounters"])
    place(state, goer, START[goer])
    data = change_score(state, goer, -fee, "fee")
    state["edge"] = other(seat)
    state["stats"][seat]["edge"].append(back)
    facts = {"seat": seat, "back": back, "goer": goer, "fee": fee, "score": state["score"][goer],
             "edge": state["edge"], **data, **({"timeout": True} if timeout else {})}
    return [Event("edge", facts), *end_turn(state)]
