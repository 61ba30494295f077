"""Each press of a prompt is applied at most once, in every game: random games through the
action loop where every step is pressed twice at once from the same component (same state
version, same action). One press is applied; the other is answered as already done or stale,
and the log holds one row. Every kind of prompt a seat is asked during the game is covered
(the least pressed kind is pressed first), and Kniggits' turning phase by its turns."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from games.core import Engine, Wait
from games.registry import get_engine
from runtime import deadlines as deadline_rules
from runtime.access import SPENT
from runtime.clock import ManualClock
from runtime.errors import Refusal
from runtime.service import Applied, TableService
from storage import Status, Storage
from tests.runtime.conftest import CHANNEL, GUILD

USERS = [101, 102, 103, 104]
GAMES = [("words", 3, {}), ("hallway", 2, {}), ("tarot", 4, {}), ("fencing", 3, {}), ("kniggits", 2, {}),
         ("kniggits", 3, {"size": 24})]
STEPS = 300
PRESSES = 40
GAMES_AT_MOST = 4


async def started(service: TableService, kind: str, players: int, options: dict[str, Any]) -> int:
    engine = get_engine(kind)
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind=kind, host_id=USERS[0],
                                    host_name="u0", options=options)
    for n, user in enumerate(USERS[1:players], 1):
        team = None if not engine.lobby_teams else (n % 2 if kind == "tarot" else (0 if n == 2 else 1))
        await service.join(game.id, user, f"u{n}", team=team)
    await service.start(game.id, USERS[0])
    return game.id


def kind_of(wait: Wait) -> str:
    """A prompt's kind: its words without the ids and numbers that change from turn to turn."""
    return re.sub(r"\b[A-Z]*\d+\b", "#", wait.prompt)


def candidates(kind: str, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """What the seat could press now: the engine's list, and for Kniggits' turning phase the
    turns its panel offers (the engine lists only Done there)."""
    engine = get_engine(kind)
    out = [a for a in engine.legal_actions(state, seat) if not a.get("timeout")]
    if kind == "kniggits" and state["phase"] == "turning":
        facings = (engine.view(state, seat).get("me") or {}).get("facings") or []
        turns = [{"type": "face", "id": f["id"], "target": e} for f in facings for e in f["enemies"]]
        out = turns + turns + out  # twice as likely as Done: the phase is about them
    return out


async def double_pressed_game(service: TableService, storage: Storage, clock: ManualClock, engine: Engine,
                              kind: str, game_id: int, chooser: random.Random, pressed: dict[str, int],
                              asked: set[str]) -> int:
    """One game pressed twice at every step, to its end or STEPS steps; the number of
    Kniggits turns double-pressed."""
    turned = 0
    for _ in range(STEPS):
        game = await service.game(game_id)
        if game.status is not Status.ACTIVE:
            break
        clock.advance(chooser.choice((0.2, 0.5, 1.0)))
        waits = [(w, acts) for w in engine.to_act(game.state) if w.seat is not None
                 and (acts := candidates(kind, game.state, w.seat))]
        asked |= {kind_of(w) for w, _ in waits}
        if not waits:  # only the game's own timers (or timeouts) can move it on
            due = deadline_rules.earliest(game.deadlines)
            assert due is not None, "a game nobody can move"
            clock.advance(max(0.0, due - clock.now()) + 0.01)
            await service.expire(game_id)
            continue
        fewest = min(pressed.get(kind_of(w), 0) for w, _ in waits)
        wait, acts = chooser.choice([(w, a) for w, a in waits if pressed.get(kind_of(w), 0) == fewest])
        action = chooser.choice(acts)
        user, version, phase = game.user_of(wait.seat), game.version, game.state.get("phase")
        logged = len(await storage.actions(game_id))
        results = await asyncio.gather(*(service.act(game_id, user, dict(action), version=version)
                                          for _ in range(2)), return_exceptions=True)
        unexpected = [r for r in results if not isinstance(r, Applied | Refusal)]
        assert not unexpected, unexpected
        applied = [r for r in results if isinstance(r, Applied)]
        assert len(applied) <= 1, f"{action} at version {version} applied twice"
        assert len(await storage.actions(game_id)) == logged + len(applied)
        if applied:
            refusal = next(r for r in results if isinstance(r, Refusal))
            assert (refusal.message in (SPENT, "You already chose.") or "earlier turn" in refusal.message
                    or (applied[0].finished and refusal.message == "This game is over.")), refusal.message
            pressed[kind_of(wait)] = pressed.get(kind_of(wait), 0) + 1
            turned += action["type"] == "face" and phase == "turning"
    return turned


@pytest.mark.parametrize(("kind", "players", "options"), GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
async def test_each_press_of_a_prompt_is_applied_at_most_once(
        service: TableService, storage: Storage, clock: ManualClock, kind: str, players: int,
        options: dict[str, Any]) -> None:
    engine = get_engine(kind)
    chooser = random.Random(f"{kind}-{players}")
    pressed: dict[str, int] = {}  # prompt kind -> double presses made
    asked: set[str] = set()  # every prompt kind a seat could answer
    turned = 0
    for _game in range(GAMES_AT_MOST):  # a short game (Hallway) is played again
        if sum(pressed.values()) >= PRESSES:
            break
        game_id = await started(service, kind, players, options)
        turned += await double_pressed_game(service, storage, clock, engine, kind, game_id, chooser, pressed, asked)
        if (await service.game(game_id)).status is Status.ACTIVE:
            break  # a long game: enough to judge by
    missed = sorted(asked - set(pressed))
    assert not missed, f"prompts never double-pressed: {missed}"
    assert sum(pressed.values()) >= PRESSES
    if kind == "kniggits":
        assert turned >= 2, "the turning phase's turns were never double-pressed"
