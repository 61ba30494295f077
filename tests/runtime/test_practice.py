"""Practice tables (migration 7, `/<game> learn`): the mark is stored and read back with the
game; a practice game played to its end leaves no result and moves no rating, where the same
game unmarked does both; a player who sat at a game of a kind before is known (the first game
of a kind mentions `learn`, the next ones do not)."""

from __future__ import annotations

from runtime.clock import ManualClock
from runtime.service import TableService
from storage import Storage
from storage.practice import has_played, mark_practice
from tests.runtime.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.runtime.test_record_bot import play_tokens_to_the_end


async def tokens_lobby(service: TableService, channel: int) -> int:
    game = await service.open_lobby(guild_id=GUILD, channel_id=channel, kind="tokens", host_id=ALICE,
                                    host_name="alice", options={"hand": 1})
    await service.join(game.id, BOB, "bob")
    return game.id


async def test_a_practice_game_leaves_no_result_and_moves_no_rating(
        service: TableService, storage: Storage, clock: ManualClock) -> None:
    practice = await tokens_lobby(service, CHANNEL)
    await mark_practice(storage, practice)
    service.forget(practice)
    assert (await storage.game(practice)).practice  # type: ignore[union-attr]
    await service.start(practice, ALICE)
    finished = await play_tokens_to_the_end(service, clock, practice)
    assert finished.practice and finished.status.value == "finished"
    assert await storage.recent_results(GUILD, ALICE) == []
    assert await storage.player_ratings(GUILD, ALICE) == []

    rated = await tokens_lobby(service, CHANNEL + 1)
    await service.start(rated, ALICE)
    assert not (await play_tokens_to_the_end(service, clock, rated)).practice
    assert [r.game_id for r in await storage.recent_results(GUILD, ALICE)] == [rated]
    assert len(await storage.player_ratings(GUILD, ALICE)) == 1


async def test_a_player_who_sat_at_a_kind_before_is_known(service: TableService, storage: Storage) -> None:
    first = await tokens_lobby(service, CHANNEL)
    assert not await has_played(storage, ALICE, "tokens", besides=first)
    assert not await has_played(storage, CAROL, "tokens", besides=first)
    await service.cancel(first, ALICE)
    second = await tokens_lobby(service, CHANNEL)
    assert await has_played(storage, BOB, "tokens", besides=second)
    assert not await has_played(storage, BOB, "hallway", besides=second)
