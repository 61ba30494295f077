"""Why Kniggits' computer player (games/kniggits/ai.py) does what it does, for a learner's hint:
it gangs up on lone kniggits, strikes first and mixes its gestures."""

from __future__ import annotations

from typing import Any

from games.core import Action
from games.explain import Reason

#: action type -> (why, rule)
REASONS: dict[str, tuple[str, str]] = {
    "accept": ("the map is mirrored, so it is fair to both sides as it is", "K1"),
    "reroll": ("a different map suits your army better", "K1"),
    "army": ("a balanced army of sturdy kniggits spends your whole allowance of tokens", "K2"),
    "deploy": ("your kniggits start together behind cover, ready to gang up on the nearest enemy", "K2"),
    "lock": ("your choice is made, and locking it in lets the game go on", "K2"),
    "throw": ("rock-paper-scissors is best thrown at random, so nobody can read it", "K3"),
    "move": ("it brings your kniggit next to an enemy your kniggits can outnumber, or toward one", "K6"),
    "hold": ("moving this kniggit now would only leave it alone or out of the fight", "K6"),
    "face": ("a kniggit should face the enemy most likely to strike it", "K9"),
    "attack": ("striking first at the weakest enemy within reach wins exchanges before they turn", "K11"),
    "end_turn": ("no attack left is worth its risk this turn", "K11"),
    "gesture": ("mixing sword and shield heights keeps the other side from reading your gestures", "K12"),
    "done": ("nothing else this turn is worth doing", "K4"),
    "claim_forfeit": ("the other side has left, so you may claim the game", "K17"),
}


def explain(view: dict[str, Any], seat: int, action: Action) -> Reason:
    why, rule = REASONS.get(str(action.get("type")), ("it is the move it rates best from your view", "K4"))
    return Reason(why, rule)
