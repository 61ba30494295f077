"""Computer seats in the runtime: seated by the host, moved by their policy through the one
action loop after a delay, surviving a restart, standing in for leavers, rated apart."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from games.computer import Asked, Policy
from games.core import Action
from games.registry import POLICIES, get_engine, register_policy
from runtime.clock import ManualClock
from runtime.errors import NotAllowed, NotSeated, Refusal
from runtime.service import Applied, TableService
from runtime.timers import Timers
from storage import Storage
from tests.runtime.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD

THINK = 1.5


class HighestFirst(Policy):
    """Plays its highest token; remembers every call so tests can see what it was shown."""

    def __init__(self) -> None:
        self.calls: list[tuple[dict[str, Any], Asked]] = []
        self.illegal = False

    def choose(self, view: dict[str, Any], asked: Asked, rng: random.Random) -> Action:
        self.calls.append((view, asked))
        if self.illegal:
            return {"type": "play", "token": "not-a-token"}
        best = max(view["hand"], key=lambda t: (t["value"], t["id"]))
        return {"type": "play", "token": best["id"]}

    def delay(self, view: dict[str, Any], asked: Asked, rng: random.Random) -> float:
        return THINK


@pytest.fixture
def policy() -> AsyncIterator[HighestFirst]:
    chosen = register_policy("tokens", HighestFirst())
    yield chosen
    POLICIES.pop("tokens", None)


async def boot(storage: Storage, clock: ManualClock) -> tuple[TableService, Timers, list[Applied]]:
    published: list[Applied] = []

    async def publish(applied: Applied) -> None:
        published.append(applied)

    service = TableService(storage, clock, random.Random(7))
    return service, Timers(service, clock, publish), published


async def lobby(service: TableService, *humans: int, **options: object) -> int:
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=humans[0],
                                    host_name=f"user{humans[0]}", options=options)
    for user in humans[1:]:
        await service.join(game.id, user, f"user{user}")
    return game.id


async def play_human_turns(service: TableService, timers: Timers, clock: ManualClock, game_id: int) -> None:
    """Humans play their first token whenever it is their turn; computers think and move."""
    for _ in range(100):
        game = await service.game(game_id)
        if not game.status.live:
            return
        seat = game.state["turn"]
        if game.seats[seat].computer:
            clock.advance(THINK)
            assert await timers.fire_due() >= 1
        else:
            token = game.state["hands"][seat][0]["id"]
            await service.act(game_id, game.user_of(seat), {"type": "play", "token": token})
    raise AssertionError("the game did not end")


async def test_the_host_seats_computers_with_tidy_unique_names(storage: Storage, clock: ManualClock,
                                                              policy: HighestFirst) -> None:
    service, _, _ = await boot(storage, clock)
    game_id = await lobby(service, ALICE)
    with pytest.raises(NotAllowed):
        await service.add_computer(game_id, BOB)
    await service.add_computer(game_id, ALICE, name="<@123> **Deep** `Blue`")
    await service.add_computer(game_id, ALICE, name="Deep Blue")
    game = await service.add_computer(game_id, ALICE)
    names = [s.name for s in game.seats]
    assert names[1:] == ["🤖 123 Deep Blue", "🤖 Deep Blue", "🤖 Ada"]
    assert [s.computer for s in game.seats] == [False, True, True, True]
    assert len({s.user_id for s in game.seats}) == 4 and all(s.user_id < 0 for s in game.seats[1:])
    with pytest.raises(Refusal, match="full"):
        await service.add_computer(game_id, ALICE)
    game = await service.remove_computer(game_id, ALICE, 2)
    assert [s.name for s in game.seats] == ["user11", "🤖 123 Deep Blue", "🤖 Ada"]
    with pytest.raises(Refusal):
        await service.remove_computer(game_id, ALICE, 0)  # a human is not removed this way


async def test_a_game_without_a_policy_offers_no_computer(storage: Storage, clock: ManualClock) -> None:
    service, _, _ = await boot(storage, clock)
    game_id = await lobby(service, ALICE)
    with pytest.raises(Refusal, match="no computer player"):
        await service.add_computer(game_id, ALICE)


async def test_a_computer_moves_after_thinking_through_the_action_loop(
        storage: Storage, clock: ManualClock, policy: HighestFirst) -> None:
    service, timers, published = await boot(storage, clock)
    game_id = await lobby(service, ALICE, hand=2)
    await service.add_computer(game_id, ALICE)
    await service.start(game_id, ALICE)
    await service.act(game_id, ALICE, {"type": "play", "token": "s0t0"})
    game = await service.game(game_id)
    [deadline] = game.deadlines
    assert deadline["seat"] == 1 and deadline["computer"] and deadline["at"] == pytest.approx(clock.now() + THINK)
    assert await timers.fire_due() == 0  # still thinking
    clock.advance(THINK)
    assert await timers.fire_due() == 1
    game = await service.game(game_id)
    actions = await storage.actions(game_id)
    assert actions[-1].seat == 1 and game.version == 3  # committed like any move
    assert published[-1].seat == 1 and published[-1].changed_seats == [0]  # only people get views
    # It was shown the seat's view alone, and asked for its wait.
    view, asked = policy.calls[-1]
    engine = get_engine("tokens")
    assert asked.seat == 1 and asked.keys == ("play",)
    replayed = await service.replay(game_id, upto=2)
    assert view == engine.view(replayed, 1)


async def test_the_policy_sees_the_same_view_whatever_the_hidden_hands(
        storage: Storage, clock: ManualClock, policy: HighestFirst) -> None:
    """Changing the human's hidden tokens changes nothing the computer is shown or chooses."""
    engine = get_engine("tokens")
    state = engine.new_game(2, 5, {"hand": 3})
    state["turn"] = 1
    other = {**state, "hands": [[{"id": "s0t9", "value": 9}] * 3, state["hands"][1]]}
    rng = random.Random(1)
    assert engine.view(state, 1) == engine.view(other, 1)
    asked = Asked(1, ("play",), 0.0)
    assert policy.choose(engine.view(state, 1), asked, rng) == policy.choose(engine.view(other, 1), asked, rng)


async def test_a_computers_pending_move_survives_a_restart(
        db_path: Path, clock: ManualClock, policy: HighestFirst) -> None:
    storage = await Storage.open(db_path)
    try:
        service, timers, _ = await boot(storage, clock)
        game_id = await lobby(service, ALICE, hand=1)
        await service.add_computer(game_id, ALICE)
        await service.start(game_id, ALICE)
        await service.act(game_id, ALICE, {"type": "play", "token": "s0t0"})
        timers.close()
    finally:
        await storage.close()
    clock.advance(600)  # down for ten minutes
    storage = await Storage.open(db_path)
    try:
        service, timers, _ = await boot(storage, clock)
        assert await timers.restore() == 1
        game = await service.game(game_id)
        assert game.deadlines[0]["at"] <= clock.now() + 5  # a computer needs no long grace
        clock.advance(5)
        assert await timers.fire_due() == 1
        assert not (await service.game(game_id)).status.live
        timers.close()
    finally:
        await storage.close()


async def test_a_lone_human_against_computers_is_recorded_not_rated(
        storage: Storage, clock: ManualClock, policy: HighestFirst) -> None:
    service, timers, published = await boot(storage, clock)
    game_id = await lobby(service, ALICE, hand=2)
    await service.add_computer(game_id, ALICE)
    await service.start(game_id, ALICE)
    await play_human_turns(service, timers, clock, game_id)
    assert published[-1].finished and published[-1].rating_changes == {}
    assert await storage.ratings(GUILD, "tokens", [ALICE]) == {}
    assert await storage.computer_record(GUILD, ALICE) == {"tokens": (1, int(published[-1].outcome.ranks[0] == 0))}


async def test_humans_are_rated_among_themselves(storage: Storage, clock: ManualClock,
                                                 policy: HighestFirst) -> None:
    service, timers, published = await boot(storage, clock)
    game_id = await lobby(service, ALICE, BOB, hand=2)
    await service.add_computer(game_id, ALICE)
    await service.start(game_id, ALICE)
    await play_human_turns(service, timers, clock, game_id)
    outcome = published[-1].outcome
    assert outcome is not None and set(published[-1].rating_changes) == {ALICE, BOB}
    ratings = await storage.ratings(GUILD, "tokens", [ALICE, BOB])
    assert {r.games for r in ratings.values()} == {1}
    better = ALICE if outcome.ranks[0] < outcome.ranks[1] else BOB
    if outcome.ranks[0] != outcome.ranks[1]:
        assert ratings[better].mu > ratings[ALICE if better == BOB else BOB].mu


async def test_a_leaver_is_replaced_and_the_game_goes_on_to_its_end(
        storage: Storage, clock: ManualClock, policy: HighestFirst) -> None:
    service, timers, _ = await boot(storage, clock)
    game_id = await lobby(service, ALICE, BOB, CAROL, hand=2)
    await service.start(game_id, ALICE)
    await service.act(game_id, ALICE, {"type": "play", "token": "s0t0"})
    left = await service.leave(game_id, BOB)
    assert left.replaced and left.offer_to == ALICE and left.seat == 1
    game = await service.game(game_id)
    assert game.seats[1].computer and game.seats[1].name == "🤖 user12's stand-in"
    assert game.version == 3 and game.deadlines[0]["computer"]  # logged and versioned
    assert "left" in game.log[-1] and "stand-in" in game.log[-1]
    with pytest.raises(NotSeated):
        await service.act(game_id, BOB, {"type": "play", "token": "s1t0"})
    await play_human_turns(service, timers, clock, game_id)
    final = await service.game(game_id)
    assert final.state == await service.replay(game_id)  # the hand-off replays as nothing


async def test_the_host_leaving_hands_the_game_to_the_next_human(
        storage: Storage, clock: ManualClock, policy: HighestFirst) -> None:
    service, _, _ = await boot(storage, clock)
    game_id = await lobby(service, ALICE, BOB, CAROL)
    await service.start(game_id, ALICE)
    left = await service.leave(game_id, ALICE)
    assert left.replaced and left.offer_to == BOB
    assert (await service.game(game_id)).host_id == BOB


async def test_the_host_may_end_the_game_instead(storage: Storage, clock: ManualClock,
                                                 policy: HighestFirst) -> None:
    service, _, _ = await boot(storage, clock)
    game_id = await lobby(service, ALICE, BOB, CAROL)
    await service.start(game_id, ALICE)
    left = await service.leave(game_id, BOB)
    with pytest.raises(NotAllowed):
        await service.end_for_leaver(game_id, CAROL, left.seat)
    with pytest.raises(Refusal):
        await service.end_for_leaver(game_id, ALICE, 2)  # Carol did not leave
    applied = await service.end_for_leaver(game_id, ALICE, left.seat)
    assert applied.finished and applied.outcome.reason == "forfeit"
    game = await storage.game(game_id)
    assert game.seats[1].user_id == BOB and not game.seats[1].computer  # the leaver forfeited


async def test_the_last_human_leaving_forfeits(storage: Storage, clock: ManualClock,
                                               policy: HighestFirst) -> None:
    service, _, _ = await boot(storage, clock)
    game_id = await lobby(service, ALICE)
    await service.add_computer(game_id, ALICE)
    await service.start(game_id, ALICE)
    left = await service.leave(game_id, ALICE)
    assert not left.replaced and left.applied is not None and left.applied.finished


async def test_an_illegal_choice_falls_back_and_the_game_goes_on(
        storage: Storage, clock: ManualClock, policy: HighestFirst, caplog: pytest.LogCaptureFixture) -> None:
    service, timers, _ = await boot(storage, clock)
    game_id = await lobby(service, ALICE, hand=1)
    await service.add_computer(game_id, ALICE)
    await service.start(game_id, ALICE)
    policy.illegal = True
    await service.act(game_id, ALICE, {"type": "play", "token": "s0t0"})
    clock.advance(THINK)
    assert await timers.fire_due() == 1
    assert not (await service.game(game_id)).status.live
    assert "illegal move" in caplog.text
