"""The action loop: refusals leave the state alone, races apply once, results and ratings."""

from __future__ import annotations

import asyncio
import json

import pytest

from games.core import IllegalAction
from runtime.errors import NotAllowed, NotSeated, Refusal, StaleComponent
from runtime.service import TableService
from storage import Status, Storage
from tests.runtime.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, EVE, GUILD, play_first, started_game


async def snapshot(storage: Storage, game_id: int) -> tuple[str, int, int]:
    game = await storage.game(game_id)
    return json.dumps(game.state, sort_keys=True), game.version, len(await storage.actions(game_id))


async def test_a_non_seated_user_is_refused_and_nothing_changes(service: TableService, storage: Storage) -> None:
    game_id = await started_game(service, [ALICE, BOB])
    before = await snapshot(storage, game_id)
    with pytest.raises(NotSeated):
        await service.act(game_id, EVE, {"type": "play", "token": "s0t0"})
    assert await snapshot(storage, game_id) == before


async def test_a_wrong_turn_user_is_refused_and_nothing_changes(service: TableService, storage: Storage) -> None:
    game_id = await started_game(service, [ALICE, BOB])
    game = await service.game(game_id)
    waiting = game.state["turn"]
    other = 1 - waiting
    before = await snapshot(storage, game_id)
    with pytest.raises(Refusal, match=f"It is user{game.user_of(waiting)}'s turn"):
        await service.act(game_id, game.user_of(other),
                          {"type": "play", "token": game.state["hands"][other][0]["id"]})
    assert await snapshot(storage, game_id) == before


async def test_a_stale_button_is_refused_and_nothing_changes(service: TableService, storage: Storage) -> None:
    game_id = await started_game(service, [ALICE, BOB])
    old_version = (await service.game(game_id)).version
    await play_first(service, game_id)
    game = await service.game(game_id)
    before = await snapshot(storage, game_id)
    seat = game.state["turn"]
    with pytest.raises(StaleComponent):
        await service.act(game_id, game.user_of(seat),
                          {"type": "play", "token": game.state["hands"][seat][0]["id"]},
                          version=old_version)
    assert await snapshot(storage, game_id) == before


async def shapes_game(service: TableService) -> int:
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="shapes", host_id=ALICE,
                                    host_name="alice", options={})
    await service.join(game.id, BOB, "bob")
    await service.start(game.id, ALICE)
    return game.id


async def test_a_button_of_an_independent_wait_stays_good_after_another_seats_answer(
        service: TableService, storage: Storage) -> None:
    """Both throw at once: the second press, drawn before the first was committed, counts."""
    game_id = await shapes_game(service)
    drawn = (await service.game(game_id)).version
    await service.act(game_id, ALICE, {"type": "throw", "shape": "rock"}, version=drawn)
    with pytest.raises(Refusal, match="You already chose"):  # her own second press of the round
        await service.act(game_id, ALICE, {"type": "throw", "shape": "paper"}, version=drawn)
    await service.act(game_id, BOB, {"type": "throw", "shape": "paper"}, version=drawn)
    assert [(a.seat, a.seq) for a in await storage.actions(game_id)] == [(0, drawn + 1), (1, drawn + 2)]
    before = await snapshot(storage, game_id)
    with pytest.raises(StaleComponent):  # that round is over: a button drawn for it is done
        await service.act(game_id, ALICE, {"type": "throw", "shape": "rock"}, version=drawn)
    assert await snapshot(storage, game_id) == before


async def test_two_concurrent_clicks_of_one_button_apply_exactly_once(service: TableService, storage: Storage) -> None:
    game_id = await started_game(service, [ALICE, BOB])
    game = await service.game(game_id)
    seat, version = game.state["turn"], game.version
    hand = game.state["hands"][seat]
    user = game.user_of(seat)
    results = await asyncio.gather(
        service.act(game_id, user, {"type": "play", "token": hand[0]["id"]}, version=version),
        service.act(game_id, user, {"type": "play", "token": hand[1]["id"]}, version=version),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert isinstance(next(r for r in results if isinstance(r, Exception)), StaleComponent)
    assert [a.seq for a in await storage.actions(game_id)] == [version + 1]


async def test_concurrent_actions_apply_in_arrival_order(service: TableService, storage: Storage) -> None:
    game_id = await started_game(service, [ALICE, BOB, CAROL], hand=2)
    game = await service.game(game_id)
    order = [(game.state["turn"] + i) % 3 for i in range(3)]
    moves = [
        service.act(game_id, game.user_of(s), {"type": "play", "token": game.state["hands"][s][0]["id"]})
        for s in order
    ]
    await asyncio.gather(*moves)
    log = await storage.actions(game_id)
    assert [a.seat for a in log] == order
    assert [a.seq for a in log] == [2, 3, 4]
    assert await service.replay(game_id) == (await storage.game(game_id)).state


async def test_lobby_rules(service: TableService) -> None:
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=ALICE,
                                    host_name="Alice", options={})
    with pytest.raises(Refusal, match="already running here"):
        await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=BOB,
                                 host_name="Bob", options={})
    with pytest.raises(Refusal, match="needs 2-4 players"):
        await service.start(game.id, ALICE)
    await service.join(game.id, BOB, "Bob")
    with pytest.raises(Refusal, match="already in"):
        await service.join(game.id, BOB, "Bob")
    with pytest.raises(NotAllowed, match="Only the host"):
        await service.start(game.id, BOB)
    for user in (CAROL, DAVE):
        await service.join(game.id, user, "x")
    with pytest.raises(Refusal, match="full"):
        await service.join(game.id, EVE, "Eve")
    await service.leave_lobby(game.id, CAROL)
    assert [s.user_id for s in (await service.game(game.id)).seats] == [ALICE, BOB, DAVE]
    applied = await service.start(game.id, ALICE)
    assert applied.game.status is Status.ACTIVE and applied.game.version == 1


async def test_two_lobbies_opened_at_once_in_one_channel_make_one(service: TableService, storage: Storage) -> None:
    results = await asyncio.gather(*(
        service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=host,
                           host_name="x", options={}) for host in (ALICE, BOB)), return_exceptions=True)
    opened = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(opened) == 1 and isinstance(refused[0], Refusal) and "already running" in refused[0].message
    assert (await storage.live_game_in(CHANNEL)).id == opened[0].id


async def test_two_games_of_one_server_ending_at_once_both_count_in_the_ratings(
        service: TableService, storage: Storage) -> None:
    games = []
    for channel in (CHANNEL, CHANNEL + 1):
        lobby = await service.open_lobby(guild_id=GUILD, channel_id=channel, kind="tokens", host_id=ALICE,
                                         host_name="alice", options={"hand": 1})
        await service.join(lobby.id, BOB, "bob")
        await service.start(lobby.id, ALICE)
        await play_first(service, lobby.id)  # one token left in the game: the next play ends it
        games.append(lobby.id)
    await asyncio.gather(*(play_first(service, game_id) for game_id in games))
    assert [(await storage.game(g)).status for g in games] == [Status.FINISHED] * 2
    ratings = await storage.ratings(GUILD, "tokens", [ALICE, BOB])
    assert ratings[ALICE].games == ratings[BOB].games == 2


async def test_malformed_option_is_refused_before_any_lobby_exists(service: TableService, storage: Storage) -> None:
    with pytest.raises(IllegalAction, match="hand"):
        await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=ALICE,
                                 host_name="Alice", options={"hand": 17})
    assert await storage.live_game_in(CHANNEL) is None


async def test_a_finished_2v2_credits_both_partners(service: TableService, storage: Storage) -> None:
    game_id = await started_game(service, [ALICE, BOB, CAROL, DAVE], hand=1, teams=True)
    for _ in range(4):
        await play_first(service, game_id)
    game = await storage.game(game_id)
    assert game.status is Status.FINISHED
    ratings = await storage.ratings(GUILD, "tokens", [ALICE, BOB, CAROL, DAVE])
    scores = game.state["scores"]
    winners = (ALICE, CAROL) if scores[0] + scores[2] > scores[1] + scores[3] else (BOB, DAVE)
    losers = {ALICE, BOB, CAROL, DAVE} - set(winners)
    if scores[0] + scores[2] != scores[1] + scores[3]:
        for user in winners:
            assert ratings[user].wins == 1 and ratings[user].mu > 25
        for user in losers:
            assert ratings[user].wins == 0 and ratings[user].mu < 25
    assert all(r.games == 1 for r in ratings.values())
    a, c = ratings[ALICE], ratings[CAROL]
    assert (a.mu, a.sigma) == (c.mu, c.sigma)


async def test_forfeit_ends_the_game_and_the_leaver_ranks_last(service: TableService, storage: Storage) -> None:
    game_id = await started_game(service, [ALICE, BOB, CAROL])
    applied = await service.forfeit(game_id, BOB)
    assert applied.outcome is not None and applied.outcome.ranks == (0, 1, 0)
    assert (await storage.game(game_id)).status is Status.FINISHED
    assert await service.replay(game_id) == (await storage.game(game_id)).state
    with pytest.raises(Refusal, match="over"):
        await play_first(service, game_id)


async def test_only_host_or_manager_ends_a_stuck_game(service: TableService, storage: Storage) -> None:
    game_id = await started_game(service, [ALICE, BOB])
    with pytest.raises(NotAllowed):
        await service.end(game_id, BOB, manager=False)
    await service.end(game_id, BOB, manager=True)
    assert (await storage.game(game_id)).status is Status.CANCELLED
    assert await storage.ratings(GUILD, "tokens", [ALICE, BOB]) == {}


async def test_typed_is_set_by_the_runtime_and_never_by_a_player(service: TableService, storage: Storage) -> None:
    """A slash command's action reaches the engine marked `typed` (Table Fencing punishes a
    mistyped one); a control claiming to be typed, or to be a timeout, is refused unchanged."""
    game_id = await started_game(service, [ALICE, BOB])
    game = await service.game(game_id)
    seat = game.state["turn"]
    token = game.state["hands"][seat][0]["id"]
    before = await snapshot(storage, game_id)
    for forged in ({"type": "play", "token": token, "typed": True},
                   {"type": "play", "token": token, "timeout": True}):
        with pytest.raises(Refusal, match="not something you can do"):
            await service.act(game_id, game.user_of(seat), forged)
    assert await snapshot(storage, game_id) == before
    await service.act(game_id, game.user_of(seat), {"type": "play", "token": token}, typed=True)
    recorded = (await storage.actions(game_id))[-1].action
    assert recorded == {"type": "play", "token": token, "typed": True}
