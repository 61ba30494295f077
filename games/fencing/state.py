"""Table Fencing's stored state and the small helpers every rule module shares (`state.py` in
every game, docs/engines.md): the step (the prompt open now: `set_step` writes it, `phase`
reads it), time in integer ms, timers stored in the state, chance with a test hook, seats in
`direction`.

Time (spec §4): the engine never reads a clock; `now` arrives in seconds and is kept as
integer ms. A timer is a dict holding `wid` (a fresh id per opening, so the runtime sees a
new wait key and schedules it afresh), `opened_at` and `deadline`; the runtime is told
`timeout = (deadline - opened_at) / 1000 + 1`, firing 1 s after the deadline so a press
stamped just before it is applied first, and the engine judges the timeout at the stored
deadline.
"""

from __future__ import annotations

from typing import Any

from games.core import Rng, State
from games.fencing.schema import DuelStage, PromptKind
from games.phase import Phase

#: Live limits in seconds (spec §4 table); the async profile multiplies them by ASYNC_FACTOR.
LIMITS: dict[str, float] = {
    "game": 60, "gun": 30, "stamp": 60, "first_attack": 30, "thrust": 20, "hat": 10,
    "golf": 8, "golf_again": 5, "catch": 5, "handout": 20, "penalty": 15, "move": 60,
    "attack": 30, "anthem": 45, "insult": 30, "count": 10, "snap": 9,
}
ASYNC_FACTOR = 120
#: After AFK_SHRINK missed decision prompts in a row a player's decision prompts last AFK_TIMEOUT s.
AFK_SHRINK, AFK_FORFEIT, AFK_TIMEOUT = 3, 5, 5.0
#: Decision prompts (spec §4 AFK): only these count misses.
DECISIONS = frozenset({"thrust", "first_attack", "handout", "penalty", "stamp", "move", "attack"})
RESUME_GRACE_MS = 30_000


def ms(now: float) -> int:
    return round(now * 1000)


def factor(state: State) -> int:
    return ASYNC_FACTOR if state["options"]["timers"] == "async" else 1


def new_wid(state: State) -> int:
    state["wseq"] += 1
    return int(state["wseq"])


def open_timer(state: State, rec: dict[str, Any], now_ms: int, limit: str, seat: int | None = None) -> None:
    """Start `rec`'s timer at `now_ms` for `LIMITS[limit]` (scaled); a decision prompt of a
    seat flagged away lasts AFK_TIMEOUT s."""
    seconds = LIMITS[limit] * factor(state)
    if seat is not None and limit in DECISIONS and state["seats"][seat]["afk_misses"] >= AFK_SHRINK:
        seconds = AFK_TIMEOUT
    rec["wid"] = new_wid(state)
    rec["opened_at"] = now_ms
    rec["deadline"] = now_ms + round(seconds * 1000)


def set_step(state: State, kind: PromptKind, now_ms: int, limit: str | None = None, seat: int | None = None,
             **data: Any) -> dict[str, Any]:
    """Open the prompt `kind` as the step, with its timer (`LIMITS[limit]`) or none."""
    step: dict[str, Any] = {"kind": kind, "wid": 0, "opened_at": now_ms, "deadline": None, **data}
    if limit is not None:
        open_timer(state, step, now_ms, limit, seat)
    else:
        step["wid"] = state["wseq"] = state["wseq"] + 1
    state["step"] = step
    return step


def phase(state: State) -> Phase[PromptKind, DuelStage | None]:
    """Where the game is (the one place that reads it): the step's kind (the prompt open
    now), and within a duel its stage."""
    step = state["step"]
    return Phase(step["kind"], duel_stage(step) if step["kind"] == "duel" else None)


def duel_stage(step: dict[str, Any]) -> DuelStage:
    """A duel step's own stage (the duel's helpers and its view take the step, not the game)."""
    stage: DuelStage = step["stage"]
    return stage


def timeout_of(rec: dict[str, Any]) -> float:
    seconds: float = (rec["deadline"] - rec["opened_at"]) / 1000 + 1.0
    return seconds


def draw(state: State, kind: str, low: int, high: int) -> int:
    """A uniform whole number in [low, high] from the game RNG. Tests inject values with
    `state["rigged"][kind]` (a list consumed first); real games never hold "rigged"."""
    rigged = state.get("rigged")
    if rigged and rigged.get(kind):
        value = int(rigged[kind].pop(0))
        if not low <= value <= high:
            raise ValueError(f"rigged {kind} {value} outside {low}..{high}")
        return value
    return Rng(state).randint(low, high)


def die(state: State, kind: str = "die") -> int:
    return draw(state, kind, 1, 6)


def next_seat(state: State, seat: int, steps: int = 1) -> int:
    step = 1 if state["options"]["direction"] == "cw" else -1
    return (seat + step * steps) % 3


def third(a: int, b: int) -> int:
    return 3 - a - b
