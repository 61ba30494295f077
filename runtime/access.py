"""May this user press this? Answered once, here, for every way into a game.

Buttons, selects, forms, `/<game> do`, shortcuts, `/hand`, `/game leave` and the action loop
itself all ask it, so a refusal reads the same wherever it comes from.
"""

from __future__ import annotations

from games import choices
from games.core import Action
from games.registry import get_engine
from runtime import deadlines as deadline_rules
from runtime.errors import NotSeated, Refusal, StaleComponent
from storage import GameRecord, Status

NOT_PLAYING = "You are not playing in this game."
#: The same component pressed again (twice at once, say): the first press counted.
SPENT = "Already done: that press counted once. Your panel shows what is left."


def may_press(game: GameRecord, user_id: int, *, version: int | None = None,
              action: Action | None = None, pressed: str | None = None) -> int:
    """The seat `user_id` plays in `game`, which must be running; with `version` (the state a
    component was drawn for) the component must still be good. `pressed`: the press's
    `press_key`, when the caller already has it. Raises a Refusal saying why not."""
    seat = game.seat_of(user_id)
    if seat is None:
        raise NotSeated(NOT_PLAYING)
    if game.status is Status.LOBBY:
        raise Refusal("This game has not started yet.")
    if game.status is not Status.ACTIVE:
        raise Refusal("This game is over.")
    if version is not None:
        check_current(game, seat, version, action=action, pressed=pressed)
    return seat


def check_current(game: GameRecord, seat: int, version: int, *, action: Action | None = None,
                  pressed: str | None = None) -> None:
    """Refuse a component drawn for an older state, unless it belongs to an independent wait
    of this seat that is still running (rock-paper-scissors: the others' picks do not
    change yours). A choice pressed again by a seat that already chose in the open round
    is told so, not sent back to an "earlier turn"."""
    if version == game.version:
        return
    if pressed is None and action is not None:
        pressed = deadline_rules.press_key(version, action)
    if deadline_rules.drawn_during(game.deadlines, seat, version, pressed):
        return
    if action is not None and game.state is not None:
        for box in get_engine(game.kind).choices(game.state):
            if choices.is_pick(box, action) and choices.has_chosen(box, seat):
                raise Refusal("You already chose.")
    if pressed is not None and deadline_rules.spent(game.deadlines, seat, pressed):
        raise StaleComponent(SPENT, game.id)
    raise StaleComponent("That button is from an earlier turn; the table has moved on.", game.id)
