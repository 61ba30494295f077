"""💡 Hints at a practice table (`/<game> learn`, issue 23.3): what the game's computer player
would do in the learner's place, and why.

The hint takes the same path as a computer's move (runtime/computers.py): the policy is shown
the seat's own view alone — never the state — with what the seat is asked and the decision's
seeded random source, so it is exactly what a computer in that seat would play, and it can
know nothing the player cannot see. The game's `explain` hook (games/explain.py) then says why
in one clause and names the rule. The engine only checks that the move is legal.

Hints exist only at practice tables: a rated game never offers one, and a forged press is
refused here, in the one place that makes hints.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from games.computer import decision_rng
from games.core import Action, IllegalAction
from games.explain import Reason, explainer
from games.registry import AnyEngine, AnyPolicy
from runtime.computers import asked
from runtime.errors import Refusal
from storage import GameRecord, Status

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Hint:
    seat: int
    action: Action
    reason: Reason


def awaited(game: GameRecord, seat: int) -> bool:
    """Whether `seat` is asked something now (a prompt the hint button belongs on)."""
    return any(d.get("seat") == seat for d in game.deadlines)


def offers_hints(game: GameRecord) -> bool:
    """Only practice tables offer hints; every rated (or ratable) game never does."""
    return game.practice and game.status is Status.ACTIVE


def hint_for(engine: AnyEngine, policy: AnyPolicy | None, game: GameRecord, seat: int, now: float) -> Hint:
    """The computer player's move in `seat`'s place, from that seat's view alone, with its reason.
    Refuses (a sentence) outside a practice table, when nothing is asked, or without a policy."""
    if not game.practice:
        raise Refusal(f"Hints are offered only at practice tables: `/{engine.name} learn` opens one.")
    if game.status is not Status.ACTIVE or game.state is None:
        raise Refusal("This game is over: no more hints.")
    question = asked(seat, game.deadlines, now)
    if not question.keys:
        raise Refusal("Nothing is asked of you right now; your next prompt will have a hint.")
    if policy is None:
        raise Refusal(f"{engine.title} has no computer player to give hints.")
    view = engine.view(game.state, seat)
    try:
        action = policy.choose(view, question, decision_rng(game.seed, game.version, seat))
        engine.apply(game.state, seat, action, now)  # judged by the rules, never shown
    except IllegalAction as exc:
        log.error("game %s: the %s computer's hint was illegal (%s)", game.id, game.kind, exc.message)
        raise Refusal("I have no hint for this prompt, sorry.") from None
    except Exception:
        log.exception("game %s: the %s computer could not give a hint", game.id, game.kind)
        raise Refusal("I have no hint for this prompt, sorry.") from None
    return Hint(seat, action, explainer(game.kind)(view, seat, action))
