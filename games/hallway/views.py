"""Two Fat Dudes' views: what the table and each dude see (everything but the RNG)."""

from __future__ import annotations

from games import choices
from games.core import State
from games.hallway import turns
from games.hallway.board import encounter_fee, left_penalty, track
from games.hallway.schema import NegotiationView, PublicView
from games.hallway.state import OFFER_LIMIT, exited, phase


def view(state: State) -> PublicView:
    """Everything is public in this game but the RNG (and the roll-off's picks, which say
    nothing: the table shows who has pressed Roll), so every seat gets this one view."""
    pos = state["pos"]
    nego = state["nego"]
    box = choices.public(turns.rolloff_box(state))
    offer = nego and nego["pending"]
    negotiation: NegotiationView | None = None if nego is None else {
        "offers": nego["offers"], "limit": OFFER_LIMIT, "nodeal": list(nego["nodeal"]),
        "pending": {"maker": offer["maker"], "payer": offer["payer"], "amount": offer["amount"]}
        if offer else None,
    }
    last, final = state["last_roll"], state["final"]
    return {
        "phase": phase(state).name,
        "track": track(),
        "pos": list(pos),
        "score": list(state["score"]),
        "start": state["start"],
        "turn": state["turn"],
        "round": state["round"],
        "edge": state["edge"],
        "encounters": state["encounters"],
        "fee": encounter_fee(max(1, state["encounters"])),
        "passed": state["passed"],
        "exited": list(state["exited"]),
        "penalty": [0 if exited(state, s) else left_penalty(s, pos[s]) for s in (0, 1)],
        "rolloff": {"round": state["rolloff"]["round"], "key": box["key"], "seats": box["seats"],
                    "chosen": box["chosen"], "past": [list(p) for p in state["rolloff"]["past"]]},
        "negotiation": negotiation,
        "last_roll": {"seat": last["seat"], "roll": last["roll"]} if last else None,
        "timeouts": list(state["timeouts"]),
        "stats": [{"deals": s["deals"], "paid": s["paid"], "received": s["received"], "offers": s["offers"],
                   "edge": list(s["edge"])} for s in state["stats"]],
        "final": {"totals": list(final["totals"]), "ranks": list(final["ranks"])} if final else None,
        "forfeit": state.get("forfeit"),
        "afk": bool(state.get("afk")),
    }
