"""Turn timers as data: the deadlines of a game's waits, stored with its state.

A deadline is {"seat", "key", "prompt", "at", "default", "since", "independent", "spent"}.
While the same (seat, key) stays awaited from one action to the next its deadline is kept, so a
reaction window is not reset by someone else's move; a newly awaited (seat, key) starts its full
time. `since` is the state version at which the wait began: a button of an independent wait drawn
at or after it is still good after other seats' answers (see `drawn_during`). `spent` lists the
presses (`press_key`) the seat already made during the wait: the same press again is a double
press, applied once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from games.core import Wait
from storage.records import Deadline


def schedule(previous: Iterable[Deadline], waits: Iterable[Wait], now: float,
             version: int | None = None, *, computers: Collection[int] = (),
             think: Callable[[Wait], float] | None = None, mover: int | None = None,
             pressed: str | None = None) -> list[Deadline]:
    """Deadlines for the current waits (of the state at `version`), keeping those already running.
    `pressed` is the component (`press_key`) whose press by seat `mover` made that state: a
    wait of the mover's that goes on counts it spent.

    A wait of a computer seat (`computers`) is due when the computer has thought it over:
    `think(wait)` seconds after it began (marked "computer", so the runtime asks the policy
    instead of applying the default); one already thinking keeps its time."""
    running = {(d["seat"], d["key"]): d for d in previous}
    out: list[Deadline] = []
    for wait in waits:
        old = running.get((wait.seat, wait.key))
        spent = list(old.get("spent") or ()) if old is not None else []
        if old is not None and pressed is not None and wait.seat == mover and mover is not None:
            spent = [*spent, pressed][-SPENT_KEPT:]
        computer = wait.seat is not None and wait.seat in computers
        at: float | None
        if computer and (old is None or not old.get("computer")):
            at = now + (think(wait) if think is not None else 1.0)
        elif old is not None:
            at = old["at"]
        elif wait.timeout is not None and wait.default is not None:
            at = now + wait.timeout
        else:
            at = None
        deadline: Deadline = {
            "seat": wait.seat, "key": wait.key, "prompt": wait.prompt, "at": at,
            "default": wait.default if at is not None else None,
            "since": old.get("since") if old is not None else version,
            "independent": wait.independent,
            "countdown": wait.countdown,
        }
        if spent:
            deadline["spent"] = spent
        if wait.optional:
            deadline["optional"] = True
        if computer:
            deadline["computer"] = True
        out.append(deadline)
    return out


def asks(deadline: Deadline) -> tuple[str, bool]:
    """What a wait asks of its seat, as the seat is told it: the prompt, and whether it may
    be ignored."""
    return deadline["prompt"], bool(deadline.get("optional"))


def newly_asked(before: Iterable[Deadline], after: Iterable[Deadline], people: Collection[int],
                present: int | None = None) -> list[Deadline]:
    """The waits of `after` whose seats are to be told of them (pinged).

    A person not awaited a moment before is told of everything asked now. One already
    awaited is told again only of a required prompt it was not shown: an optional applause
    that becomes the count, one step that becomes another; an answer coming in from another
    seat, or the same prompt under a new key (a vote, the next exchange), tells nobody. The
    seat that just pressed (`present`, not a timeout) is reading the answer to its own press
    and is not told."""
    shown: dict[int, set[tuple[str, bool]]] = {}
    for d in before:
        if d["seat"] is not None:
            shown.setdefault(d["seat"], set()).add(asks(d))
    out: list[Deadline] = []
    for d in after:
        seat = d["seat"]
        if seat is None or seat not in people or seat == present:
            continue
        had = shown.get(seat)
        if had is None or (not d.get("optional") and asks(d) not in had):
            out.append(d)
    return out


def awaited_seats(deadlines: Iterable[Deadline]) -> list[int]:
    """The seats `deadlines` wait for, in order (a wait of the game itself has none)."""
    return sorted({seat for d in deadlines if (seat := d["seat"]) is not None})


#: Presses remembered per wait (a move phase of many steps keeps its latest ones).
SPENT_KEPT = 40


def press_key(version: int, action: Mapping[str, Any]) -> str:
    """One component press: the version it was drawn at and a digest of what it sends. The
    same button (or the same form, filled the same) pressed twice gives the same key."""
    packed = json.dumps(action, sort_keys=True, separators=(",", ":"), default=str)
    return f"{version}:{hashlib.sha256(packed.encode()).hexdigest()[:16]}"


def drawn_during(deadlines: Iterable[Deadline], seat: int, version: int, pressed: str | None = None) -> bool:
    """Whether a component drawn at `version` belongs to an independent wait of `seat` that
    is still running: only other seats have acted since, and their answers leave this seat's
    choice as it was. The seat's own steps since leave its other buttons standing, but not the
    press `pressed` (`press_key`) once made: a double press is applied once (`spent`)."""
    return any(d["seat"] == seat and d.get("independent") and (since := d.get("since")) is not None
               and since <= version and pressed not in (d.get("spent") or ()) for d in deadlines)


def spent(deadlines: Iterable[Deadline], seat: int, pressed: str) -> bool:
    """Whether `seat` already made the press `pressed` during a wait that is still running."""
    return any(d["seat"] == seat and pressed in (d.get("spent") or ()) for d in deadlines)


#: Seconds after a restart before a computer whose move fell due during the outage makes it.
COMPUTER_GRACE = 2.0


def with_grace(deadlines: Iterable[Deadline], now: float, grace: float) -> list[Deadline]:
    """Deadlines that passed while nobody could act (the bot was down) move to `now + grace`,
    so no one is auto-played because of an outage (a computer, which needs no warning,
    moves a moment after the restart)."""
    return [{**d, "at": now + (COMPUTER_GRACE if d.get("computer") else grace)}
            if (at := d.get("at")) is not None and at < now else d.copy()
            for d in deadlines]


def earliest(deadlines: Iterable[Deadline]) -> float | None:
    times = [at for d in deadlines if (at := d.get("at")) is not None]
    return min(times) if times else None


def due(deadlines: Iterable[Deadline], now: float) -> Deadline | None:
    """The earliest deadline that has passed, if any (ties: the game's own first, then the
    lowest seat)."""
    passed = [(at, d) for d in deadlines if (at := d.get("at")) is not None and at <= now]
    return min(passed, key=lambda p: (p[0], -1 if p[1]["seat"] is None else p[1]["seat"]))[1] if passed else None


def format_left(seconds: float) -> str:
    """'1:30' style countdown; never negative."""
    seconds = max(0, int(seconds + 0.999))
    minutes, secs = divmod(seconds, 60)
    if minutes >= 60:
        hours, minutes = divmod(minutes, 60)
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
