"""Two bot processes on one PostgreSQL database: each game still exactly-once.

Each "process" here is its own TableService and Timers over its own connection pool, as two
sharded bot processes have; they share nothing but the database. (tests/e2e/test_shards_e2e.py
runs two real bot processes against the fake Discord.)
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from runtime.clock import ManualClock
from runtime.errors import Refusal
from runtime.service import Applied, TableService
from runtime.timers import Timers
from storage import Storage, open_storage
from tests.engines.tokens import TURN_TIMEOUT
from tests.runtime.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD


@dataclass
class Process:
    storage: Storage
    service: TableService
    timers: Timers
    published: list[Applied] = field(default_factory=list)


async def process(url: str, clock: ManualClock, name: str) -> Process:
    storage = await open_storage(url)
    published: list[Applied] = []

    async def publish(applied: Applied) -> None:
        published.append(applied)

    service = TableService(storage, clock, random.Random(name))
    return Process(storage, service, Timers(service, clock, publish, process_id=name), published)


@pytest.fixture
async def pair(postgres_url: str, clock: ManualClock) -> AsyncIterator[tuple[Process, Process]]:
    one, two = await process(postgres_url, clock, "p0"), await process(postgres_url, clock, "p1")
    assert one.storage.shared and two.storage.shared
    yield one, two
    for p in (one, two):
        p.timers.close()
        await p.storage.close()


async def started(p: Process, users: list[int], channel: int = CHANNEL, **options: object) -> int:
    game = await p.service.open_lobby(guild_id=GUILD, channel_id=channel, kind="tokens", host_id=users[0],
                                      host_name=f"user{users[0]}", options=options)
    for user in users[1:]:
        await p.service.join(game.id, user, f"user{user}")
    await p.service.start(game.id, users[0])
    return game.id


async def test_a_process_with_an_older_copy_reloads_and_judges_again(pair: tuple[Process, Process]) -> None:
    one, two = pair
    game_id = await started(one, [ALICE, BOB])
    stale = await two.service.game(game_id)  # process two caches version 1
    await one.service.act(game_id, ALICE, {"type": "play", "token": "s0t0"})
    # Alice's second press of the same token reaches process two: judged on version 2, refused.
    with pytest.raises(Refusal):
        await two.service.act(game_id, ALICE, {"type": "play", "token": "s0t1"})
    assert stale.version == 2 and stale.state["turn"] == 1  # refreshed in place
    await two.service.act(game_id, BOB, {"type": "play", "token": "s1t0"}, version=2)
    assert (await one.service.game(game_id)).version == 3


async def test_simultaneous_presses_from_two_processes_apply_exactly_once_in_order(
        pair: tuple[Process, Process]) -> None:
    one, two = pair
    game_id = await started(one, [ALICE, BOB], hand=5)
    for turn in range(10):
        game = await one.service.game(game_id)
        seat = game.state["turn"]
        user = game.user_of(seat)
        tokens = [t["id"] for t in game.state["hands"][seat]]
        # The same player presses two tokens at once, one press reaching each process, both
        # drawn for the current version: exactly one may count.
        results = await asyncio.gather(
            one.service.act(game_id, user, {"type": "play", "token": tokens[0]}, version=game.version),
            two.service.act(game_id, user, {"type": "play", "token": tokens[-1]}, version=game.version),
            return_exceptions=True)
        applied = [r for r in results if isinstance(r, Applied)]
        refused = [r for r in results if isinstance(r, Refusal)]
        assert len(applied) == 1 and len(refused) == 1, (turn, results)
    actions = await one.storage.actions(game_id)
    assert [a.seq for a in actions] == list(range(2, 12))  # contiguous: nothing lost or doubled
    final = await one.storage.game(game_id)
    assert final is not None and not final.status.live
    assert final.state == await two.service.replay(game_id)


async def test_a_deadline_fires_once_with_both_processes_armed(
        pair: tuple[Process, Process], clock: ManualClock) -> None:
    one, two = pair
    game_id = await started(one, [ALICE, BOB])
    await two.service.game(game_id)
    for p in (one, two):
        assert await p.timers.restore() == 1
    clock.advance(TURN_TIMEOUT + 1)
    fired = await asyncio.gather(one.timers.fire_due(), two.timers.fire_due())
    assert sorted(fired) == [0, 1]
    timeouts = [a for a in await one.storage.actions(game_id) if a.action.get("timeout")]
    assert len(timeouts) == 1


async def test_the_sweep_arms_a_deadline_set_by_another_process(
        pair: tuple[Process, Process], clock: ManualClock) -> None:
    one, two = pair
    await two.timers.restore()  # process two starts first: no games yet
    game_id = await started(one, [ALICE, BOB])
    assert game_id not in two.timers.armed
    await asyncio.sleep(0)
    for game, at in await two.storage.due_games(clock.now() + TURN_TIMEOUT + 1):
        two.timers.arm(game, at)
    assert two.timers.armed[game_id] == pytest.approx(clock.now() + TURN_TIMEOUT)
    one.timers.close()  # process one dies
    clock.advance(TURN_TIMEOUT + 1)
    assert await two.timers.fire_due() == 1


async def test_a_process_starting_beside_a_live_one_gives_no_restart_grace(
        pair: tuple[Process, Process], clock: ManualClock) -> None:
    one, two = pair
    game_id = await started(one, [ALICE, BOB])
    await one.timers.restore()  # process one is up, and says so
    clock.advance(TURN_TIMEOUT + 1)  # its deadline is due, not yet fired
    await one.storage.heartbeat("p0", [], clock.now())  # its sweep's regular heartbeat
    await two.timers.restore()
    assert two.timers.graced == []
    game = await two.storage.game(game_id)
    assert game is not None and game.deadlines[0]["at"] < clock.now()  # not moved


async def test_alone_after_an_outage_a_process_gives_restart_grace(
        pair: tuple[Process, Process], clock: ManualClock) -> None:
    one, two = pair
    game_id = await started(one, [ALICE, BOB])
    await one.timers.restore()
    await one.storage.retire("p0")  # a clean shutdown of process one
    clock.advance(TURN_TIMEOUT + 100)
    await two.timers.restore()
    assert [g.id for g in two.timers.graced] == [game_id]


async def test_two_games_ending_at_once_in_two_processes_both_count(pair: tuple[Process, Process]) -> None:
    one, two = pair
    first = await started(one, [ALICE, BOB], channel=CHANNEL, hand=1)
    second = await started(two, [ALICE, BOB], channel=CHANNEL + 1, hand=1)
    await one.service.act(first, ALICE, {"type": "play", "token": "s0t0"})
    await two.service.act(second, ALICE, {"type": "play", "token": "s0t0"})
    await asyncio.gather(one.service.act(first, BOB, {"type": "play", "token": "s1t0"}),
                         two.service.act(second, BOB, {"type": "play", "token": "s1t0"}))
    ratings = await one.storage.ratings(GUILD, "tokens", [ALICE, BOB])
    assert {r.games for r in ratings.values()} == {2}


async def test_one_lobby_per_channel_across_processes(pair: tuple[Process, Process]) -> None:
    one, two = pair
    results = await asyncio.gather(*[
        p.service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=user,
                             host_name="host", options={})
        for p, user in ((one, CAROL), (two, DAVE))], return_exceptions=True)
    assert sum(isinstance(r, Refusal) for r in results) == 1, results


async def test_a_lobby_join_in_one_process_is_seen_by_the_other(pair: tuple[Process, Process]) -> None:
    one, two = pair
    lobby = await one.service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=ALICE,
                                         host_name="alice", options={})
    await two.service.game(lobby.id)
    await one.service.join(lobby.id, BOB, "bob")
    applied = await two.service.start(lobby.id, ALICE)
    assert [s.user_id for s in applied.game.seats] == [ALICE, BOB]
