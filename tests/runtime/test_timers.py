"""Turn timers: stored deadlines, kept across moves, restored after a restart."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import ClassVar

import pytest

from games.core import Action, Event, IllegalAction, State, Wait
from games.registry import register
from runtime import deadlines
from runtime.clock import ManualClock, SystemClock
from runtime.errors import Refusal
from runtime.service import RESTART_GRACE, Applied, TableService
from runtime.timers import RETRY_AFTER, Timers
from storage import Storage
from tests.engines import tokens as tokens_engine
from tests.engines.tokens import TURN_TIMEOUT
from tests.runtime.conftest import ALICE, BOB, CHANNEL, GUILD, started_game


def test_a_running_deadline_is_kept_and_a_new_wait_starts_fresh() -> None:
    first = deadlines.schedule([], [Wait(0, "react", "react", 10, {"type": "pass"})], now=100)
    again = deadlines.schedule(first, [Wait(0, "react", "react", 10, {"type": "pass"}),
                                       Wait(1, "react", "react", 10, {"type": "pass"})], now=105)
    assert [d["at"] for d in again] == [110, 115]


def test_a_button_drawn_during_a_running_independent_wait_is_current() -> None:
    window = [Wait(0, "rps1", "rps", independent=True), Wait(1, "rps1", "rps", independent=True),
              Wait(2, "turn", "play")]
    at_3 = deadlines.schedule([], window, now=0, version=3)
    at_4 = deadlines.schedule(at_3, window[1:], now=1, version=4)  # seat 0 picked
    assert deadlines.drawn_during(at_4, 1, 3)  # seat 1's button from before seat 0's pick
    assert not deadlines.drawn_during(at_4, 0, 3)  # seat 0 has answered
    assert not deadlines.drawn_during(at_4, 2, 3)  # a turn is not independent
    again = deadlines.schedule(at_4, [Wait(1, "rps2", "rps", independent=True)], now=2, version=5)
    assert not deadlines.drawn_during(again, 1, 4) and deadlines.drawn_during(again, 1, 5)


def test_a_wait_without_default_never_expires() -> None:
    [d] = deadlines.schedule([], [Wait(0, "think", "think")], now=1)
    assert d["at"] is None and deadlines.due([d], 10**9) is None


def test_countdown_format() -> None:
    assert deadlines.format_left(90) == "1:30"
    assert deadlines.format_left(-5) == "0:00"
    assert deadlines.format_left(3725) == "1:02:05"


async def boot(db_path: Path, clock: ManualClock, published: list[Applied],
               seed: int) -> tuple[Storage, TableService, Timers]:
    """One bot process's runtime on `db_path`: storage, service, timers publishing into `published`."""

    async def publish(applied: Applied) -> None:
        published.append(applied)

    storage = await Storage.open(db_path)
    service = TableService(storage, clock, random.Random(seed))
    return storage, service, Timers(service, clock, publish)


async def test_timers_survive_a_restart(db_path: Path) -> None:
    clock = ManualClock()
    published: list[Applied] = []
    storage, service, timers = await boot(db_path, clock, published, seed=1)
    game_id = await started_game(service, [ALICE, BOB])
    started_at = clock.now()
    assert timers.armed == {game_id: started_at + TURN_TIMEOUT}
    before = (await storage.game(game_id)).state
    timers.close()
    await storage.close()  # the bot stops (or dies) here

    storage, service, timers = await boot(db_path, clock, published, seed=2)
    assert await timers.restore() == 1
    assert timers.armed == {game_id: started_at + TURN_TIMEOUT}
    clock.advance(TURN_TIMEOUT - 1)
    assert await timers.fire_due() == 0
    clock.advance(1)
    assert await timers.fire_due() == 1
    game = await storage.game(game_id)
    seat = before["turn"]
    assert game.state["pile"][-1]["id"] == before["hands"][seat][0]["id"]
    assert game.state["timeouts"][seat] == 1
    [action] = await storage.actions(game_id)
    assert action.at == started_at + TURN_TIMEOUT and action.action["timeout"] is True
    assert published and published[0].game.id == game_id
    assert timers.armed == {game_id: started_at + 2 * TURN_TIMEOUT}
    timers.close()
    await storage.close()


async def test_a_deadline_missed_during_an_outage_gets_30_seconds_of_grace(db_path: Path) -> None:
    clock = ManualClock()
    published: list[Applied] = []
    storage, service, timers = await boot(db_path, clock, published, seed=1)
    game_id = await started_game(service, [ALICE, BOB])
    version = (await storage.game(game_id)).version
    timers.close()
    await storage.close()
    clock.advance(TURN_TIMEOUT + 600)  # the bot was down ten minutes past the deadline

    storage, service, timers = await boot(db_path, clock, published, seed=2)
    restart = clock.now()
    assert await timers.restore() == 1
    assert timers.armed == {game_id: restart + RESTART_GRACE}
    assert [g.id for g in timers.graced] == [game_id]
    stored = await storage.game(game_id)
    assert [d["at"] for d in stored.deadlines] == [restart + RESTART_GRACE]
    assert stored.version == version  # grace moves timers, not the game
    clock.advance(RESTART_GRACE - 1)
    assert await timers.fire_due() == 0 and not published
    clock.advance(1)
    assert await timers.fire_due() == 1
    assert (await storage.game(game_id)).version == version + 1
    timers.close()
    await storage.close()


def test_grace_moves_only_the_deadlines_that_passed() -> None:
    running = [{"seat": 0, "key": "a", "at": 50.0}, {"seat": 1, "key": "b", "at": 500.0},
               {"seat": 2, "key": "c", "at": None}]
    assert [d["at"] for d in deadlines.with_grace(running, 100.0, 30.0)] == [130.0, 500.0, None]


async def test_a_move_restarts_the_turn_timer_for_the_next_player(service: TableService, clock: ManualClock) -> None:
    game_id = await started_game(service, [ALICE, BOB])
    clock.advance(20)
    game = await service.game(game_id)
    seat = game.state["turn"]
    await service.act(game_id, game.user_of(seat), {"type": "play", "token": game.state["hands"][seat][0]["id"]})
    game = await service.game(game_id)
    assert [d["at"] for d in game.deadlines] == [clock.now() + TURN_TIMEOUT]


async def test_a_real_timer_sleeps_and_plays_the_default(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sleeping task itself (not `fire_due`): a 0.3 s turn on the system clock."""
    monkeypatch.setattr(tokens_engine, "TURN_TIMEOUT", 0.3)
    published: list[Applied] = []
    storage, service, timers = await boot(db_path, SystemClock(), published, seed=3)
    try:
        game_id = await started_game(service, [ALICE, BOB])
        for _ in range(100):
            if published:
                break
            await asyncio.sleep(0.02)
        [step] = published[:1]
        assert step.events and (await storage.actions(game_id))[0].action.get("timeout") is True
    finally:
        timers.close()
        await storage.close()


async def test_a_timer_whose_expiry_fails_tries_again(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = ManualClock()
    published: list[Applied] = []
    storage, service, timers = await boot(db_path, clock, published, seed=4)
    try:
        game_id = await started_game(service, [ALICE, BOB])
        original = service.expire

        async def busy(game: int) -> list[Applied]:
            monkeypatch.setattr(service, "expire", original)  # fails once, then works
            raise RuntimeError("database is locked")

        monkeypatch.setattr(service, "expire", busy)
        clock.advance(TURN_TIMEOUT)
        timers._due(game_id, timers.armed[game_id])  # its time came
        await asyncio.gather(*timers._expiring)
        assert timers.armed == {game_id: clock.now() + RETRY_AFTER} and not published
        clock.advance(RETRY_AFTER)
        assert await timers.fire_due() == 1 and len(published) == 1
    finally:
        timers.close()
        await storage.close()


class StopwatchEngine(tokens_engine.TokensEngine):
    """Tokens that keeps a deadline of its own in the state (as Table Fencing does), so a
    restart must tell it: the runtime applies its `resume_action`."""

    name = "stopwatch"
    resume_action: ClassVar[Action | None] = {"type": "resume"}

    def play(self, state: State, seat: int | None, action: Action, now: float) -> list[Event]:
        if action["type"] == "resume":
            if seat is not None:
                raise IllegalAction("Only the bot resumes a game.")
            state.setdefault("resumed", []).append(now)
            return [Event("resumed", {"at": now})]
        return super().play(state, seat, action, now)


register(StopwatchEngine())


async def test_an_engine_that_keeps_its_own_deadlines_is_resumed_once_per_restart(db_path: Path) -> None:
    clock = ManualClock()
    published: list[Applied] = []
    storage, service, timers = await boot(db_path, clock, published, seed=1)
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL + 1, kind="stopwatch", host_id=ALICE,
                                    host_name="alice", options={})
    await service.join(game.id, BOB, "bob")
    await service.start(game.id, ALICE)
    plain = await started_game(service, [ALICE, BOB])  # Tokens: no resume action
    timers.close()
    await storage.close()
    clock.advance(600)

    storage, service, timers = await boot(db_path, clock, published, seed=2)
    restart = clock.now()
    try:
        await restored_and_resumed(storage, service, timers, game.id, plain, restart)
    finally:
        timers.close()
        await storage.close()


async def restored_and_resumed(storage: Storage, service: TableService, timers: Timers, game_id: int,
                               plain: int, restart: float) -> None:
    await timers.restore()
    stored = await storage.game(game_id)
    assert stored.state["resumed"] == [restart] and stored.version == 2
    [resumed] = await storage.actions(game_id)
    assert (resumed.seat, resumed.action, resumed.at) == (None, {"type": "resume"}, restart)
    assert game_id in [g.id for g in timers.graced]  # its table is redrawn
    assert await storage.actions(plain) == [] and (await storage.game(plain)).version == 1
    assert (await service.replay(game_id))["resumed"] == [restart]
    with pytest.raises(Refusal):
        await service.act(game_id, ALICE, {"type": "resume"})


async def test_a_games_timer_is_a_loop_timer_until_it_is_due(db_path: Path) -> None:
    """A deadline moves at nearly every step: re-arming swaps a loop timer, no task is made and
    cancelled per step; only a timer that comes due starts the step that applies it."""
    clock = ManualClock()
    published: list[Applied] = []
    storage, service, timers = await boot(db_path, clock, published, seed=4)
    try:
        tasks_before = len(asyncio.all_tasks())
        game_id = await started_game(service, [ALICE, BOB])
        first = timers._timers[game_id]
        timers.arm(game_id, clock.now() + 50.0)
        assert first.cancelled() and not timers._timers[game_id].cancelled()
        assert len(asyncio.all_tasks()) == tasks_before and not timers._expiring
        timers.arm(game_id, clock.now() + 0.01)  # comes due on the loop's own clock
        soon = timers._timers[game_id]
        await asyncio.sleep(0.05)
        await asyncio.gather(*timers._expiring)
        # it fired and its step ran (the manual clock had not passed the deadline: re-armed for it)
        assert timers._timers.get(game_id) is not soon and not soon.cancelled() and not timers._expiring
    finally:
        timers.close()
        await storage.close()
