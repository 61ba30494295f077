"""Test helpers: a table driven by explicit actions and `now` values, with injected cards
(deck tops) and dice (`state["rigged"]`, consumed before the RNG)."""

from __future__ import annotations

from typing import Any

from games.core import Event
from games.fencing import ENGINE
from games.fencing.samples import rig, stack_decks

A, B, C = 0, 1, 2


class Table:
    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.events: list[Event] = []
        self.log: list[Event] = []

    # ----- driving -----------------------------------------------------------------------
    def act(self, seat: int | None, action: dict[str, Any], now: float) -> list[Event]:
        self.state, self.events = ENGINE.apply(self.state, seat, action, now)
        self.log += self.events
        return self.events

    def timeout(self, now: float | None = None, seat: int | None = -1) -> list[Event]:
        """Apply the default of the wait of `seat` (-1: the first wait with a default)."""
        waits = [w for w in ENGINE.to_act(self.state) if w.default is not None and (seat == -1 or w.seat == seat)]
        wait = waits[0]
        at = now if now is not None else self.deadline_s(wait.seat)
        return self.act(wait.seat, wait.default, at)

    def deadline_s(self, seat: int | None = None) -> float:
        step = self.state["step"]
        if seat is not None and self.state["penalties"][seat]:
            return self.state["penalties"][seat][0]["deadline"] / 1000 + 1
        return step["deadline"] / 1000 + 1 if step.get("deadline") is not None else step["opened_at"] / 1000

    # ----- injecting ---------------------------------------------------------------------
    def rig(self, **values: list[int]) -> None:
        rig(self.state, **values)

    def cards(self, *per_seat: list[int]) -> None:
        stack_decks(self.state, *per_seat)

    # ----- reading -----------------------------------------------------------------------
    @property
    def step(self) -> dict[str, Any]:
        return self.state["step"]

    def kinds(self, events: list[Event] | None = None) -> list[str]:
        return [e.type for e in (self.events if events is None else events)]

    def of(self, kind: str, events: list[Event] | None = None) -> list[dict[str, Any]]:
        return [e.data for e in (self.events if events is None else events) if e.type == kind]

    def score(self, seat: int) -> int:
        return int(self.state["seats"][seat]["score"])

    def choc(self, seat: int) -> int:
        return int(self.state["seats"][seat]["chocolate"])

    def pay_all(self, now: float, how: str = "chocolate") -> None:
        """Answer every open penalty prompt (chocolate if possible, else slide)."""
        while any(self.state["penalties"]):
            seat = next(s for s in range(3) if self.state["penalties"][s])
            way = how if self.choc(seat) > 0 else "slide"
            self.act(seat, {"type": "pay", "how": way}, now)


def new_table(seed: int = 1, start: int = A, **options: Any) -> Table:
    table = Table(ENGINE.new_game(3, seed, options))
    table.state["start"] = start
    return table


def opened(seed: int = 1, start: int = A, greens: tuple[int, int, int] = (6, 5, 4), attack: str = "BK",
           now: float = 1.0, **options: Any) -> Table:
    """A bumper just opened: GAME!, the gun, open stamps, golf balls from `greens`, first attack;
    the Thrust prompt is open."""
    table = new_table(seed, start, **options)
    for s in range(3):
        table.act(s, {"type": "game"}, now)
    table.act((start + 1) % 3, {"type": "fire"}, now)
    table.rig(green=list(greens))
    for s in range(3):
        table.act(s, {"type": "stamp"}, now)
    if table.step["kind"] == "first_attack":
        table.act(start, {"type": "attack", "piece": attack}, now)
    return table


def play_trick(table: Table, cards: tuple[list[int], list[int], list[int]], dice: list[int], now: float,
               *, move: dict[str, Any] | None = None, attack: str | None = None) -> None:
    """Thrust with these cards, close the golf window, pay penalties, then move (or stay) and call."""
    table.cards(*cards)
    table.rig(die=dice)
    table.act(table.state["start"], {"type": "thrust"}, now)
    if table.step["kind"] == "golf":
        table.act(table.step["holder"], {"type": "done"}, now)
    table.pay_all(now)
    if table.step["kind"] == "catch":
        table.act(None, {"type": "catch_open", "timeout": True}, now)
        table.act(table.step["receiver"], {"type": "catch"}, now)
    if table.step["kind"] == "move":
        controller = table.state["control"]
        table.act(controller, move or {"type": "stay"}, now)
        table.pay_all(now)
    if table.step["kind"] == "attack":
        table.act(table.state["control"], {"type": "attack", "piece": attack or table.state["attacked"]}, now)
