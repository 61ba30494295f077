"""Time is the press: actions are judged when pressed and taken in press order; the game's
own waits (no seat) run on the stored timers, across restarts."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from runtime.clock import ManualClock
from runtime.errors import Refusal, StaleComponent
from runtime.ordering import PressOrderedLock
from runtime.service import TableService
from runtime.timers import Timers
from storage import Storage
from tests.runtime.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD


async def open_game(service: TableService, kind: str, users: list[int]) -> int:
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind=kind, host_id=users[0],
                                    host_name=f"user{users[0]}", options={})
    for user in users[1:]:
        await service.join(game.id, user, f"user{user}")
    await service.start(game.id, users[0])
    return game.id


async def say_go(service: TableService, clock: ManualClock, game_id: int) -> float:
    """Let the countdown (a wait with no seat) run out; returns when GO! was said."""
    game = await service.game(game_id)
    [countdown] = game.deadlines
    assert countdown["seat"] is None
    clock.advance(countdown["at"] - clock.now())
    [step] = await service.expire(game_id)
    assert step.game.state["phase"] == "race"
    return countdown["at"]


async def test_the_lock_serves_waiters_in_press_order() -> None:
    lock, served = PressOrderedLock(), []
    await lock.acquire(0.0)

    async def press(name: str, at: float) -> None:
        async with lock.at(at):
            served.append(name)

    tasks = [asyncio.create_task(press("late", 5.0)), asyncio.create_task(press("early", 1.0)),
             asyncio.create_task(press("middle", 3.0))]
    await asyncio.sleep(0)
    lock.release()
    await asyncio.gather(*tasks)
    assert served == ["early", "middle", "late"]


async def test_a_cancelled_waiter_does_not_wedge_the_lock() -> None:
    lock = PressOrderedLock()
    await lock.acquire(0.0)
    waiter = asyncio.create_task(lock.acquire(1.0))
    await asyncio.sleep(0)
    waiter.cancel()
    lock.release()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    await asyncio.wait_for(lock.acquire(2.0), 1)
    assert lock.locked()


async def test_two_presses_queued_behind_a_slow_step_are_judged_in_the_order_pressed(
        service: TableService, storage: Storage, clock: ManualClock) -> None:
    game_id = await open_game(service, "race", [ALICE, BOB, CAROL])
    go = await say_go(service, clock, game_id)
    clock.advance(5.0)
    slow = asyncio.Event()

    async def slow_step() -> None:  # carol's press takes the lock, then the step is slow
        async with service.held(game_id, go + 0.1):
            await slow.wait()

    holder = asyncio.create_task(slow_step())
    await asyncio.sleep(0)
    # bob pressed later than alice, but his interaction reached the lock first
    bob = asyncio.create_task(service.act(game_id, BOB, {"type": "press"}, pressed_at=go + 0.9))
    await asyncio.sleep(0)
    alice = asyncio.create_task(service.act(game_id, ALICE, {"type": "press"}, pressed_at=go + 0.4))
    await asyncio.sleep(0)
    slow.set()
    await asyncio.gather(holder, bob, alice)
    log = await storage.actions(game_id)
    presses = [(r.seat, r.at) for r in log if r.action["type"] == "press"]
    assert presses == [(0, go + 0.4), (1, go + 0.9)]  # alice's press first, at her own time
    state = (await service.game(game_id)).state
    assert state["presses"][:2] == [0.4, 0.9]


async def test_a_press_is_judged_at_its_own_time_clamped_to_the_last_step_and_now(
        service: TableService, storage: Storage, clock: ManualClock) -> None:
    game_id = await open_game(service, "race", [ALICE, BOB])
    go = await say_go(service, clock, game_id)
    clock.advance(3.0)
    await service.act(game_id, ALICE, {"type": "press"}, pressed_at=go - 50)  # before GO: floor
    await service.act(game_id, BOB, {"type": "press"}, pressed_at=clock.now() + 999)  # future: now
    log = await storage.actions(game_id)
    assert [r.at for r in log[-2:]] == [go, clock.now()]


async def test_a_player_cannot_send_what_only_the_timer_may(service: TableService, storage: Storage,
                                                            clock: ManualClock) -> None:
    game_id = await open_game(service, "race", [ALICE, BOB])
    await say_go(service, clock, game_id)
    before = len(await storage.actions(game_id))
    with pytest.raises(Refusal, match="not something you can do"):
        await service.act(game_id, ALICE, {"type": "press", "timeout": True})
    assert len(await storage.actions(game_id)) == before


async def test_only_the_game_says_go(service: TableService) -> None:
    game_id = await open_game(service, "race", [ALICE, BOB])
    with pytest.raises(Refusal, match="Only the game"):
        await service.act(game_id, ALICE, {"type": "go"})


async def test_a_second_press_of_a_choice_is_told_you_already_chose(service: TableService) -> None:
    game_id = await open_game(service, "shapes", [ALICE, BOB])
    drawn_at = (await service.game(game_id)).version
    await service.act(game_id, ALICE, {"type": "throw", "shape": "rock"}, version=drawn_at)
    # bob's button drawn before alice's throw is still good (an independent choice)
    with pytest.raises(Refusal, match="You already chose"):
        await service.act(game_id, ALICE, {"type": "throw", "shape": "paper"},
                          version=drawn_at)
    with pytest.raises(Refusal, match="You already chose"):
        await service.act(game_id, ALICE, {"type": "throw", "shape": "paper"},
                          version=(await service.game(game_id)).version)
    step = await service.act(game_id, BOB, {"type": "throw", "shape": "paper"}, version=drawn_at)
    assert step.game.state["wins"] == [0, 1]
    with pytest.raises(StaleComponent):  # a button of the finished round is an earlier turn
        await service.act(game_id, ALICE, {"type": "throw", "shape": "rock"}, version=drawn_at)


async def test_a_refusal_names_the_player_whose_turn_it_is(service: TableService) -> None:
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=ALICE,
                                    host_name="alice", options={})
    await service.join(game.id, BOB, "bob")
    await service.start(game.id, ALICE)
    with pytest.raises(Refusal, match="It is alice's turn"):
        await service.act(game.id, BOB, {"type": "play", "token": "s1t0"})


async def test_a_restart_during_a_wait_of_the_game_itself(db_path: Path) -> None:
    clock = ManualClock()
    storage = await Storage.open(db_path)
    service = TableService(storage, clock, random.Random(3))
    game_id = await open_game(service, "race", [ALICE, BOB])
    countdown_at = (await service.game(game_id)).deadlines[0]["at"]
    await storage.close()  # the bot goes down during the countdown ...

    clock.advance(3600)  # ... and comes back an hour later
    storage = await Storage.open(db_path)
    service = TableService(storage, clock, random.Random(4))
    published = []

    async def publish(step) -> None:
        published.append(step)

    timers = Timers(service, clock, publish)
    assert await timers.restore() == 1
    [moved] = (await service.game(game_id)).deadlines
    assert moved["seat"] is None and moved["at"] == clock.now() + 30  # restart grace
    assert moved["at"] > countdown_at
    clock.advance(30)
    assert await timers.fire_due() == 1
    game = await service.game(game_id)
    assert game.state["phase"] == "race" and game.state["go_at"] == moved["at"]
    log = await storage.actions(game_id)
    assert (log[-1].seat, log[-1].action) == (None, {"type": "go"})
    assert await service.replay(game_id) == game.state
    timers.close()
    await storage.close()


async def test_both_dudes_pressing_no_deal_at_once_both_count(service: TableService) -> None:
    from games.hallway import ENGINE as HALLWAY
    from runtime import deadlines
    from tests.hallway.support import negotiating

    game_id = await open_game(service, "hallway", [ALICE, BOB])
    game = await service.game(game_id)
    game.state = negotiating(mover=0, encounters=1, edge=1)
    game.deadlines = deadlines.schedule([], HALLWAY.to_act(game.state), 0.0, version=game.version)
    drawn_at = game.version  # both No deal buttons are drawn on this table
    await service.act(game_id, ALICE, {"type": "nodeal"}, version=drawn_at)
    step = await service.act(game_id, BOB, {"type": "nodeal"}, version=drawn_at)
    assert step.game.state["phase"] == "edge"  # both said no deal: the Edge decides
