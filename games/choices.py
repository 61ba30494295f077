"""Simultaneous secret choices: one building block for every game that needs them.

A *round* is a JSON box kept anywhere in a game's state. Each seat in it picks once; until
every pick is in, the table sees only who has chosen ("✔ chosen") and, with `commit`, a
SHA-256 commitment per pick; each seat sees its own pick. When the last pick is in (or the
last wait times out and the engine's default is applied), the engine resolves the round
once, from `reveal`. The Hallway roll-off, Fighting Words' rock-paper-scissors and
tie-break, Kniggits' gestures and Table Fencing's races all sit on it.

    box = choices.open_round("rps-3", seats=[0, 2], players=4, actions=("rps",))
    choices.choose(box, 0, "rock", rng)          # -> False: seat 2 still choosing
    choices.choose(box, 2, "paper", rng)         # -> True: complete, resolve now
    choices.reveal(box)                           # {0: "rock", 2: "paper"}

The runtime learns of open rounds from `Engine.choices(state)`: a second press of a choice
by a seat that already chose is answered "You already chose." rather than "earlier turn".
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from games.core import Action, IllegalAction, Rng, Secret, Wait

Box = dict[str, Any]


def open_round(key: str, seats: Iterable[int], players: int, *, actions: Iterable[str],
               commit: bool = False) -> Box:
    """A new round for `seats`. `key` must be new for every round (it keys the waits, so each
    round gets a fresh timer); `actions` are the action types that make a pick."""
    return {
        "key": key,
        "seats": sorted(set(seats)),
        "picks": [None] * players,
        "actions": list(actions),
        "nonces": [None] * players if commit else None,
    }


def pending(box: Box) -> list[int]:
    """Seats that have not chosen yet."""
    return [s for s in box["seats"] if box["picks"][s] is None]


def chosen(box: Box) -> list[int]:
    """Seats that have chosen (public: the table shows "✔ chosen")."""
    return [s for s in box["seats"] if box["picks"][s] is not None]


def complete(box: Box) -> bool:
    return not pending(box)


def has_chosen(box: Box, seat: int) -> bool:
    return seat in box["seats"] and box["picks"][seat] is not None


def verify(box: Box | None, seat: int, *, closed: str = "There is nothing to choose right now.") -> None:
    """The one check for a pick: the round is open, the seat is in it and has not chosen."""
    if box is None:
        raise IllegalAction(closed)
    if seat not in box["seats"]:
        raise IllegalAction("You are not part of this choice.")
    if box["picks"][seat] is not None:
        raise IllegalAction("You already chose.")


def choose(box: Box, seat: int, pick: Any, rng: Rng | None = None) -> bool:
    """Record `seat`'s pick (hidden until the round completes); True when the round is
    complete. Rounds opened with `commit` draw a nonce from the game's RNG for the pick's
    commitment, so a replay reproduces it."""
    verify(box, seat)
    if pick is None:
        raise IllegalAction("Choose something.")
    box["picks"][seat] = pick
    if box.get("nonces") is not None:
        if rng is None:
            raise ValueError("a committed round needs the game's rng")
        box["nonces"][seat] = rng.token()
    return complete(box)


def leave(box: Box, seat: int) -> bool:
    """A seat that left no longer chooses; True when that completes the round."""
    if seat in box["seats"]:
        box["seats"].remove(seat)
    return complete(box)


def reveal(box: Box) -> dict[int, Any]:
    """Every seat's pick, once the round is complete."""
    if not complete(box):
        raise ValueError("the round is still open")
    return {s: box["picks"][s] for s in box["seats"]}


def commitment(pick: Any, nonce: str) -> str:
    """`sha256(pick + ":" + nonce)`: published while the pick is hidden, checkable after."""
    return hashlib.sha256(f"{pick}:{nonce}".encode()).hexdigest()


def public(box: Box, *, revealed: bool = False) -> dict[str, Any]:
    """What the table sees: who is in the round and who has chosen (and each chosen pick's
    commitment); the picks themselves once `revealed`."""
    out: dict[str, Any] = {"key": box["key"], "seats": list(box["seats"]), "chosen": chosen(box)}
    nonces = box.get("nonces")
    if nonces is not None:
        out["commitments"] = {str(s): commitment(box["picks"][s], nonces[s]) for s in chosen(box)}
    if revealed:
        out["picks"] = {str(s): box["picks"][s] for s in box["seats"]}
        if nonces is not None:
            out["nonces"] = {str(s): nonces[s] for s in box["seats"]}
    return out


def private(box: Box, seat: int) -> Any:
    """`seat`'s own pick (None before it chose, or when it is not in the round)."""
    return box["picks"][seat] if 0 <= seat < len(box["picks"]) else None


def waits(box: Box, prompt: str, timeout: float | None,
          default: Callable[[int], Action] | None) -> list[Wait]:
    """One independent wait per seat still choosing: another seat's pick never changes
    what this one is choosing, so a button drawn before it stays good."""
    return [Wait(s, box["key"], prompt, timeout, default(s) if default else None, independent=True)
            for s in pending(box)]


def secrets(box: Box, path: tuple[str | int, ...], pool: str) -> list[Secret]:
    """Each pick made (and its nonce) is its maker's secret until the round completes."""
    if complete(box):
        return []
    out = [Secret(s, (*path, "picks", s), pool) for s in chosen(box)]
    if box.get("nonces") is not None:
        out += [Secret(s, (*path, "nonces", s), "nonce") for s in chosen(box)]
    return out


def is_pick(box: Box, action: Action) -> bool:
    return action.get("type") in box["actions"]
