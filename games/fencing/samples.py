"""Realistic Table Fencing states for the renderer and UI (pictures, screens, docs), built
from a seed by playing real actions with chosen cards and dice; no sample holds anything a
real game could not.

`samples(seed)` returns {name: state}: "move" (mid-trick, pieces moved, BK off-road, the
move menu open), "hat" (a hat race with one hat on), "golf" (the golf window after a trump
war), "catch" (a quick-switch throw in the air, catchable), "duel" (a yo-yo duel at the
snap), "anthem" (a bumper won, the anthem playing), "over" (a finished game).
"""

from __future__ import annotations

from typing import Any

from games.core import State
from games.fencing.cards import card_value
from games.fencing.engine import FencingEngine
from games.fencing.state import phase

ENGINE = FencingEngine()


def rig(state: State, **values: list[int]) -> None:
    """Queue chosen dice and timings (`die`, `green`, `wild`, `delay`, `S`, `start`): the engine
    takes them before its RNG, so samples and tests play chosen throws."""
    rigged = state.setdefault("rigged", {})
    for kind, vals in values.items():
        rigged.setdefault(kind, []).extend(vals)


def stack_decks(state: State, *per_seat: list[int]) -> None:
    """Put cards of these values on top of each seat's deck, in order."""
    for seat, values in enumerate(per_seat):
        deck = state["decks"][seat]
        top = []
        for v in values:
            card = next(c for c in deck if card_value(c) == v)
            deck.remove(card)
            top.append(card)
        deck[:0] = top


class _Driver:
    def __init__(self, seed: int, **options: Any) -> None:
        self.state = ENGINE.new_game(3, seed, options)
        self.now = 1_700_000_000.0

    def act(self, seat: int | None, action: dict[str, Any], dt: float = 1.0) -> None:
        self.now += dt
        self.state, _ = ENGINE.apply(self.state, seat, action, self.now)

    def rig(self, **values: list[int]) -> None:
        rig(self.state, **values)

    def cards(self, *per_seat: list[int]) -> None:
        stack_decks(self.state, *per_seat)

    def pay_all(self) -> None:
        while any(self.state["penalties"]):
            seat = next(s for s in range(3) if self.state["penalties"][s])
            how = "chocolate" if self.state["seats"][seat]["chocolate"] else "slide"
            self.act(seat, {"type": "pay", "how": how}, 0.5)

    def open_bumper(self, greens: list[int]) -> None:
        start = self.state["start"]
        for s in range(3):
            self.act(s, {"type": "game"}, 0.4)
        self.act((start + 1) % 3, {"type": "fire"})
        self.rig(green=greens)
        for s in range(3):
            self.act(s, {"type": "stamp"}, 0.7)

    def trick(self, winner: int, *, move: dict[str, Any] | None = None, attack: str = "BK") -> None:
        """A plain high-card trick won by `winner`, played to its end."""
        values = [[3], [6], [9]]
        values[winner] = [13]
        self.cards(*values)
        self.rig(die=[4, 5, 6])
        self.act(self.state["start"], {"type": "thrust"})
        self.finish_trick(move=move, attack=attack)

    def finish_trick(self, move: dict[str, Any] | None = None, attack: str = "BK") -> None:
        if phase(self.state).name == "golf":
            self.act(self.state["step"]["holder"], {"type": "done"})
        self.pay_all()
        if phase(self.state).name == "catch":
            self.act(None, {"type": "catch_open", "timeout": True}, 1.2)
            self.act(self.state["step"]["receiver"], {"type": "catch"}, 0.8)
        if phase(self.state).name == "move":
            self.act(self.state["control"], move or {"type": "stay"}, 4.0)
            self.pay_all()
        if phase(self.state).name == "attack":
            self.act(self.state["control"], {"type": "attack", "piece": attack}, 2.0)

    def done(self) -> State:
        self.state.pop("rigged", None)
        return self.state


def _opened(seed: int, **options: Any) -> _Driver:
    d = _Driver(seed, **options)
    d.open_bumper([6, 5, 4])
    d.act(d.state["start"], {"type": "attack", "piece": "BK"})
    return d


def sample_move(seed: int) -> State:
    d = _opened(seed)
    start = d.state["start"]
    other = (start + 1) % 3
    d.trick(start, move={"type": "move", "piece": "BK", "to": "DEL", "offroad": True}, attack="WR")
    d.trick(start, move={"type": "move", "piece": "WR", "to": "MID", "via": []}, attack="BK")
    d.cards(*([13] if seat == other else [4 + seat] for seat in range(3)))
    d.rig(die=[5])
    d.act(start, {"type": "thrust"})
    if phase(d.state).name == "golf":
        d.act(d.state["step"]["holder"], {"type": "done"})
    d.pay_all()
    return d.done()


def sample_hat(seed: int) -> State:
    d = _opened(seed)
    d.trick(d.state["start"])
    d.cards([8, 9], [8, 4], [8, 2])
    d.rig(die=[3])
    d.act(d.state["start"], {"type": "thrust"})
    bare = d.state["step"]["bare"]
    d.act(bare[0], {"type": "don"}, 1.3)
    return d.done()


def sample_golf(seed: int) -> State:
    d = _opened(seed)
    d.trick(d.state["start"])
    d.cards([7, 10], [7, 3], [2, 12])
    d.rig(die=[5, 6])
    d.act(d.state["start"], {"type": "thrust"})
    return d.done()


def sample_catch(seed: int) -> State:
    d = _Driver(seed)
    d.state = sample_golf(seed)
    d.rig(wild=[4], delay=[1200])
    holder = d.state["step"]["holder"]
    d.act(holder, {"type": "quickswitch"})
    d.act(None, {"type": "catch_open", "timeout": True}, 1.2)
    return d.done()


def sample_duel(seed: int) -> State:
    d = _Driver(seed)
    d.open_bumper([5, 5, 2])
    a, b = d.state["step"]["seats"]
    d.act(a, {"type": "insult", "text": "You yo-yo like a Yomega owner."}, 3.0)
    d.act(b, {"type": "insult", "text": "And you parry like a ten of clubs."}, 4.0)
    d.act(d.state["step"]["third"], {"type": "applaud", "who": b})
    d.act(d.state["step"]["third"], {"type": "count"}, 2.0)
    d.act(a, {"type": "snap"}, 4.2)
    return d.done()


def sample_anthem(seed: int) -> State:
    d = _opened(seed)
    start = d.state["start"]
    d.state["seats"][start]["score"] = 48
    d.trick(start)
    d.act((start + 1) % 3, {"type": "anthem", "part": "noise"})
    return d.done()


def sample_over(seed: int) -> State:
    d = _opened(seed)
    while not d.state["over"]:
        kind = phase(d.state).name
        start = d.state["start"]
        if kind == "thrust":
            d.state["seats"][start]["score"] = max(d.state["seats"][start]["score"], 48)
            d.trick(start)
        elif kind == "anthem":
            d.act(None, {"type": "expire", "timeout": True}, 46.0)
        elif kind == "stamp":
            d.rig(green=[6, 5, 4])
            for s in range(3):
                if d.state["seats"][s]["stamps"][-1][d.state["step"]["which"]] is None:
                    d.act(s, {"type": "stamp"})
        elif kind == "first_attack":
            d.act(start, {"type": "attack", "piece": "WB"})
        else:  # pragma: no cover - the drive above covers every prompt it opens
            raise AssertionError(kind)
    return d.done()


def samples(seed: int = 7) -> dict[str, State]:
    return {"move": sample_move(seed), "hat": sample_hat(seed), "golf": sample_golf(seed),
            "catch": sample_catch(seed), "duel": sample_duel(seed), "anthem": sample_anthem(seed),
            "over": sample_over(seed)}
