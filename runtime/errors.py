"""Refusals the player sees as a short ephemeral sentence (never with private content)."""

from __future__ import annotations


class Refusal(Exception):
    """The request was understood and refused; `message` is shown to the user as is."""

    def __init__(self, message: str, *, rule: str | None = None, game_id: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: The game rule the refusal applies ("7") and the game, for a "📖 Rule 7" button.
        self.rule = rule
        self.game_id = game_id


class NoGame(Refusal):
    pass


class NotSeated(Refusal):
    pass


class StaleComponent(Refusal):
    """A button or form drawn for an older state; `game_id` lets the answer show the table now."""

    def __init__(self, message: str, game_id: int | None = None) -> None:
        super().__init__(message, game_id=game_id)


class NotAllowed(Refusal):
    pass
