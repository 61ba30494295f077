"""Game-night storage (storage/gamenight.py), on SQLite and PostgreSQL: a rematch lobby opened
whole in one transaction (refused as ChannelBusy where a live game sits), its link to the game
it replays; one night per channel (NightBusy), ended once; and a night's seats — games with a
result finished in its channel (their threads included) while it went on, nothing else."""

from __future__ import annotations

import pytest

from storage import ChannelBusy, ResultRecord, Status, Storage
from storage.gamenight import GameNights, NightBusy, PlannedSeat
from tests.storage.test_contract import GUILD, lobby, running, step

CHANNEL, OTHER = 2, 7


async def finished(store: Storage, channel: int, users: tuple[int, ...], at: float, ranks: tuple[int, ...],
                   thread: int | None = None) -> int:
    game_id = await running(store, channel, users, thread=thread)
    results = [ResultRecord(game_id, u, s, r, None, None) for s, (u, r) in enumerate(zip(users, ranks, strict=True))]
    await store.commit_action(game_id, **{**step(1, finished=True, now=at), "results": results})
    return game_id


async def test_a_rematch_lobby_is_opened_whole_and_linked(store: Storage) -> None:
    nights = GameNights(store)
    old = await finished(store, CHANNEL, (3, 4), 5.0, (0, 1))
    seats = [PlannedSeat(3, "u3", 0), PlannedSeat(-1, "🤖 Ada", 0, True), PlannedSeat(4, "u4", 1)]
    new = await nights.open_rematch(of_game=old, guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=4,
                                    options={"o": 1}, seed=1, nonce="n", now=6.0, seats=seats)
    game = await store.game(new)
    assert game is not None and game.status is Status.LOBBY and game.host_id == 4 and game.options == {"o": 1}
    assert [(s.seat, s.user_id, s.name, s.team, s.computer, s.dm_ok) for s in game.seats] == [
        (0, 3, "u3", 0, False, True), (1, -1, "🤖 Ada", 0, True, False), (2, 4, "u4", 1, False, True)]
    assert await nights.rematch_of(new) == old and await nights.rematch_of(old) is None
    assert await nights.rematches_of(old) == [new]
    with pytest.raises(ChannelBusy):  # the lobby holds the channel
        await nights.open_rematch(of_game=old, guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=3,
                                  options={}, seed=1, nonce="", now=7.0, seats=seats)
    await store.set_status(new, Status.CANCELLED, 8.0)
    assert await nights.rematches_of(old) == []


async def test_one_night_per_channel_ended_once(store: Storage) -> None:
    nights = GameNights(store)
    night = await nights.start_night(guild_id=GUILD, channel_id=CHANNEL, user_id=3, now=10.0)
    assert (night.channel_id, night.started_by, night.started_at, night.ended_at) == (CHANNEL, 3, 10.0, None)
    with pytest.raises(NightBusy):
        await nights.start_night(guild_id=GUILD, channel_id=CHANNEL, user_id=4, now=11.0)
    assert (await nights.night_in(CHANNEL)) == night and await nights.night_in(OTHER) is None
    ended = await nights.end_night(night.id, 4, 20.0)
    assert ended is not None and (ended.ended_at, ended.ended_by) == (20.0, 4)
    assert await nights.end_night(night.id, 3, 21.0) is None
    assert await nights.night_in(CHANNEL) is None
    again = await nights.start_night(guild_id=GUILD, channel_id=CHANNEL, user_id=4, now=30.0)
    assert again.id != night.id


async def test_a_nights_seats_are_the_games_finished_in_its_channel_while_it_went_on(store: Storage) -> None:
    nights = GameNights(store)
    await finished(store, CHANNEL, (3, 4), 5.0, (0, 1))                      # before the night
    night = await nights.start_night(guild_id=GUILD, channel_id=CHANNEL, user_id=3, now=10.0)
    in_thread = await finished(store, CHANNEL, (3, 4), 12.0, (1, 0), thread=50)   # in a game's thread
    await finished(store, OTHER, (3, 4), 13.0, (0, 1))                       # another channel
    cancelled = await running(store, CHANNEL, (3, 4), thread=51)
    await store.set_status(cancelled, Status.CANCELLED, 14.0)               # stopped: no result
    here = await finished(store, CHANNEL, (5, 3, 4), 15.0, (0, 0, 2), thread=52)
    seats = await nights.night_seats(night)
    assert [(s.game_id, s.user_id, s.seat, s.rank, s.name) for s in seats] == [
        (in_thread, 3, 0, 1, "u3"), (in_thread, 4, 1, 0, "u4"),
        (here, 5, 0, 0, "u5"), (here, 3, 1, 0, "u3"), (here, 4, 2, 2, "u4")]
    assert {s.kind for s in seats} == {"tokens"} and [s.finished_at for s in seats][::2] == [12.0, 15.0, 15.0]
    ended = await nights.end_night(night.id, 3, 16.0)
    assert ended is not None
    await finished(store, CHANNEL, (3, 4), 17.0, (0, 1), thread=53)          # after it ended
    await lobby(store, CHANNEL, 5)                                           # a lobby
    assert len(await nights.night_seats(ended)) == 5
