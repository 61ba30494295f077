"""A finished game, step by step, rebuilt from its stored seed and action log with the pure
engine (`/game replay`, issue 23.2).

Step 0 is the game as dealt; step k is the game after the k-th recorded action (a computer
taking a leaver's seat changes nothing the rules see, so it is no step). Only what the table
showed is kept: each step's public log lines (events meant for everyone), its chapter (the
hand, round or bumper it belongs to) and its public view, which the viewer draws. A state is
kept every `CHECKPOINT` steps, so any step is at most that many actions away and a long game
costs little memory. Replays of finished games never change, so a few are cached by game id.

Discord-free: the cog layer words the events and draws the views.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import Event, IllegalAction, State
from games.record import FORFEIT, HANDOFF, state_digest
from games.registry import AnyEngine
from storage import GameRecord
from storage.records import ActionRecord

#: A state is kept every this many steps (the rest are replayed from the one before).
CHECKPOINT = 32
#: Finished games whose replays stay in memory.
CACHED = 8
FIRST_LINE = "The game begins."

#: The chapter of a public view ("Hand 2", "Round 5"), or None where a game has none.
Chapter = Callable[[Mapping[str, Any]], str | None]
#: A public event in the game's words, or None to hide it.
Describe = Callable[[Event], str | None]


class ReplayBroken(Exception):
    """The stored actions no longer replay with the current rules (an engine changed)."""


@dataclass(frozen=True)
class Step:
    """What the table showed after one step."""

    #: The seat whose action this was (None: the game itself, or the start).
    seat: int | None
    lines: tuple[str, ...]
    chapter: str | None


@dataclass
class Replay:
    """Every step of one finished game."""

    game_id: int
    engine: AnyEngine
    players: int
    options: dict[str, Any]
    seed: int
    #: (seat, action, time) of each step after the first, in order.
    moves: list[tuple[int | None, dict[str, Any], float]]
    steps: list[Step] = field(default_factory=list)
    checkpoints: dict[int, State] = field(default_factory=dict)
    #: Whether the replay ends in the stored final state (its SHA-256 digest).
    matches: bool = False
    digest: str = ""

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def clamp(self, step: int) -> int:
        return max(0, min(step, self.last))

    def state_at(self, step: int) -> State:
        """The state after `step` (replayed from the nearest kept state before it)."""
        step = self.clamp(step)
        start = step - step % CHECKPOINT
        state = self.checkpoints[start]
        for seat, action, at in self.moves[start:step]:
            state, _ = advance(self.engine, state, seat, action, at)
        return state

    def view_at(self, step: int) -> Mapping[str, Any]:
        """The public view after `step`: only what the table showed then (after the end, what
        the game reveals)."""
        return self.engine.view(self.state_at(step), None)

    def recent(self, step: int, count: int = 6) -> list[str]:
        """The last `count` public lines up to and including `step`."""
        out: list[str] = []
        for index in range(self.clamp(step), -1, -1):
            out[:0] = self.steps[index].lines
            if len(out) >= count:
                break
        return out[-count:]

    def chapters(self) -> list[tuple[int, str]]:
        """(first step, label) of each chapter, in order."""
        found: list[tuple[int, str]] = []
        for index, step in enumerate(self.steps):
            if step.chapter is not None and (not found or found[-1][1] != step.chapter):
                found.append((index, step.chapter))
        return found


def advance(engine: AnyEngine, state: State, seat: int | None, action: dict[str, Any],
            at: float) -> tuple[State, list[Event]]:
    """One recorded action, as the runtime applied it (a forfeit by `engine.forfeit`)."""
    if action.get("type") == FORFEIT:
        if seat is None:
            raise IllegalAction("A forfeit needs a seat.")
        return engine.forfeit(state, seat, at)
    return engine.apply(state, seat, action, at)


def build(engine: AnyEngine, game: GameRecord, actions: Sequence[ActionRecord], *,
          describe: Describe, chapter: Chapter | None = None) -> Replay:
    """Replay a finished game from its seed and its action log."""
    moves = [(a.seat, a.action, a.at) for a in actions if a.action.get("type") != HANDOFF]
    replay = Replay(game.id, engine, len(game.seats), dict(game.options), game.seed, moves)
    try:
        state = engine.new_game(replay.players, game.seed, dict(game.options))
        replay.steps.append(Step(None, (FIRST_LINE,), _chapter(chapter, engine, state)))
        replay.checkpoints[0] = state
        for index, (seat, action, at) in enumerate(moves, start=1):
            state, events = advance(engine, state, seat, action, at)
            lines = tuple(line for e in events if e.to is None and (line := describe(e)))
            replay.steps.append(Step(seat, lines, _chapter(chapter, engine, state)))
            if index % CHECKPOINT == 0:
                replay.checkpoints[index] = state
    except Exception as exc:  # an engine that changed since, or refuses what it once took
        raise ReplayBroken(f"step {len(replay.steps)} does not replay with the current rules: {exc}") from None
    replay.digest = state_digest(state)
    replay.matches = game.state is not None and replay.digest == state_digest(game.state)
    return replay


def _chapter(chapter: Chapter | None, engine: AnyEngine, state: State) -> str | None:
    return chapter(engine.view(state, None)) if chapter is not None else None


class Replays:
    """The replays built lately, by game id (a finished game's never changes)."""

    def __init__(self, size: int = CACHED) -> None:
        self.size = size
        self._kept: OrderedDict[int, Replay] = OrderedDict()
        self.built = 0

    def get(self, game_id: int) -> Replay | None:
        replay = self._kept.get(game_id)
        if replay is not None:
            self._kept.move_to_end(game_id)
        return replay

    def put(self, replay: Replay) -> Replay:
        self._kept[replay.game_id] = replay
        self.built += 1
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return replay
