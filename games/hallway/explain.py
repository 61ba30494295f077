"""Why Hallway's computer player (games/hallway/ai.py) does what it does, for a learner's hint.
Everything in Hallway is public, so its reasons are exact: it counts every space."""

from __future__ import annotations

from games.core import Action
from games.explain import Reason
from games.hallway.ai import POLICY
from games.hallway.schema import SeatView


def explain(view: SeatView, seat: int, action: Action) -> Reason:
    kind = action.get("type")
    if kind == "roll":
        if view.get("phase") == "rolloff":
            return Reason("the higher roll starts, and there is nothing to choose before rolling", "2")
        return Reason("a turn is one roll of the d4 and one move toward your exit", "4")
    if kind in ("offer", "accept", "decline", "nodeal"):
        no_deal, swap = POLICY.stakes(view, seat)
        fair = (no_deal - swap) / 2
        amount = round(abs(fair))
        price = f"{'receiving' if fair >= 0 else 'paying'} about {amount} point{'' if amount == 1 else 's'}"
        if kind == "offer":
            return Reason(f"counting every space, swapping places is fair at {price}, and it asks a little "
                          "better than that while offers remain (each offer costs its maker 1 point)", "10")
        if kind == "accept":
            return Reason(f"the offer is at least as good as the fair price of the swap ({price})", "11")
        if kind == "decline":
            return Reason(f"the offer is worse than the fair price of the swap ({price}), so no deal "
                          "is worth more to you", "11")
        return Reason("the swap and the Edge differ too little to pay a point for an offer", "9")
    if kind == "edge":
        who = "you go back to your start" if action.get("back") == "me" else "your opponent goes back to theirs"
        return Reason(f"counting the spaces and the fee, the board is better for you when {who}", "12")
    return Reason("it is the only sensible move here")
