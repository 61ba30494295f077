"""The stored deadline's declared shape (storage.records.Deadline, what mypy checks the runtime and
the table against) is the shape `runtime.deadlines.schedule` writes: a key added to one and not
the other fails here, not in a game."""

from __future__ import annotations

from typing import NotRequired, get_origin, get_type_hints

from games.core import Wait
from runtime.deadlines import awaited_seats, press_key, schedule
from storage.records import Deadline

# (read from the hints: under `from __future__ import annotations` Python 3.11's TypedDict takes
# every key for required)
HINTS = get_type_hints(Deadline, include_extras=True)
ALLOWED = set(HINTS)
REQUIRED = {key for key, hint in HINTS.items() if get_origin(hint) is not NotRequired}


def test_every_deadline_schedule_writes_has_the_declared_keys() -> None:
    roll = {"type": "roll"}
    waits = [
        Wait(0, "roll", "to roll", timeout=30.0, default=roll, optional=True),
        Wait(None, "go", "GO!", timeout=2.0, default={"type": "go"}, countdown=False),
        Wait(1, "pick", "to pick", independent=True),
        Wait(2, "never", "to wait"),
    ]
    first = schedule([], waits, 100.0, version=3, computers={1}, think=lambda wait: 2.0)
    pressed = press_key(3, roll)
    again = schedule(first, waits, 101.0, version=4, computers={1}, mover=0, pressed=pressed)
    for deadline in [*first, *again]:
        assert REQUIRED <= deadline.keys() <= ALLOWED, sorted(deadline.keys() ^ REQUIRED)
    # every optional key is written by some wait above: the declaration names nothing unused
    assert {key for deadline in again for key in deadline} == ALLOWED
    assert again[0]["spent"] == [pressed] and again[2]["computer"] and again[0]["optional"]


def test_awaited_seats_leaves_out_the_games_own_waits() -> None:
    waits = [Wait(2, "a", "x", timeout=1.0, default={}), Wait(None, "go", "GO!", timeout=1.0, default={}),
             Wait(0, "b", "y", timeout=1.0, default={}), Wait(2, "c", "z", timeout=1.0, default={})]
    assert awaited_seats(schedule([], waits, 0.0, version=1)) == [0, 2]
