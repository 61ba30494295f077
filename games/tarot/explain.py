"""Why Tarot's computer player (games/tarot/ai.py) does what it does, for a learner's hint: the
chance the partnership takes the trick after its card, read from the seat's own view."""

from __future__ import annotations

from games.core import Action
from games.explain import Reason
from games.tarot.ai import Reading, chance_ours
from games.tarot.cards import FOOL
from games.tarot.schema import SeatView


def explain(view: SeatView, seat: int, action: Action) -> Reason:
    kind = action.get("type")
    if kind == "discard":
        return Reason("it banks the richest cards the rules let go, leaving a suit short so you can trump it "
                      "later", "R4")
    if kind == "play":
        return _play(view, seat, str(action.get("card")))
    if kind == "nominate":
        return Reason("naming no suit keeps every card at its usual rank", "R5")
    if kind == "call":
        return Reason("it calls when its hand is strong in the called suit, and passes otherwise", "R14")
    return Reason("the game goes on best when it is played out")


def _play(view: SeatView, seat: int, card: str) -> Reason:
    legal = view.get("legal") or []
    if len(legal) == 1:
        return Reason("it is your only legal card", "R7")
    if "table" not in view:
        return Reason("it is the legal card that costs least to give up", "R7")
    reading = Reading(view)
    if card == FOOL:
        return Reason("the Fool escapes a trick your team would likely lose, and you keep its points", "R10")
    ours = chance_ours(reading, [*reading.plays, [seat, card, card in reading.as_led]])
    if not reading.plays:
        return Reason(f"leading it, your team takes the trick about {ours:.0%} of the time, for the least it "
                      "costs in tricks to come", "R7")
    if ours >= 0.5:
        return Reason(f"with it your team takes the trick about {ours:.0%} of the time, worth more than the card "
                      "costs to spend", "R7")
    if ours < 0.05:
        return Reason("the trick is lost whatever you play, so it gives away as little as it can", "R7")
    return Reason(f"the trick is likely lost (your team takes it only about {ours:.0%} of the time), so it gives "
                  "away as little as it can", "R7")
