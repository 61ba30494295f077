"""Why Table Fencing's computer player (games/fencing/ai.py) does what it does, for a learner's
hint. Races (hats, catches, snaps) are pressed at once: in a race, speed is the whole skill."""

from __future__ import annotations

from games.core import Action
from games.explain import Reason
from games.fencing.schema import SeatView

#: action type -> (why, rule)
REASONS: dict[str, tuple[str, str]] = {
    "game": ("the game starts once all three players have pressed it, and waiting gains nothing", "1"),
    "fire": ("the starting gun opens the game; there is nothing to weigh before firing", "1"),
    "stamp": ("stamps open the bumper, and waiting gains nothing", "2"),
    "thrust": ("the Start thrusts to reveal the trick's cards; nothing is chosen, so there is no reason to wait",
               "5"),
    "attack": ("it names the piece whose capture would help you most next, or the one a theme needs", "20"),
    "move": ("it takes the route that completes a theme, or else the one that brings your piece toward the "
             "other colour", "17"),
    "stay": ("no route helps you more than staying where you are", "17"),
    "quickswitch": ("yellow scores +2 on every trump where purple costs 2, so swapping is worth it", "11"),
    "hose": ("this trick is a trump and purple costs you, so you try to hose it onto another player", "12"),
    "handout": ("you may hold only one ball, and it gives yellow to the player least likely to use it against "
                "you", "13"),
    "pay": ("a penalty is paid in chocolate when you have some (at most one carries over), since a slid point "
            "is gone for good", "23"),
    "don": ("the first hat on wins the hat race, so it presses at once", "9"),
    "catch": ("the first to catch wins, so it presses at once", "15"),
    "snap": ("the quickest successful snap back wins the duel", "12"),
    "count": ("the third player counts the duel in; waiting helps nobody", "12"),
    "insult": ("an insult costs nothing and the duel goes on either way", "12"),
    "anthem": ("each player sings their own part of the anthem to close the bumper", "25"),
    "done": ("there is nothing more worth doing in this window", "10"),
}


def explain(view: SeatView, seat: int, action: Action) -> Reason:
    why, rule = REASONS.get(str(action.get("type")), ("it is the move it rates best from the table", "2"))
    return Reason(why, rule)
