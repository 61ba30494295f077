"""🔁 Rematch in the runtime (runtime/rematch.py): every seat taken again in order — people,
computers under their names, a leaver's stand-in as a plain computer — teams kept, the options
the lobby chose (not what the start added), the presser hosting; only former players may
press; one rematch per game; a busy channel refused saying what is there; a rematch of a
rematch; and the lobby starts like any other."""

from __future__ import annotations

import pytest

from games.registry import get_engine
from runtime.errors import NotAllowed, Refusal
from runtime.rematch import Rematches, rematch_options, rematch_seats
from runtime.service import TableService
from storage import GameRecord, SeatRecord, Status
from storage.gamenight import GameNights, PlannedSeat
from storage.practice import mark_practice
from tests.runtime.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD

A, B = 0, 1


async def finished_tarot(service: TableService) -> GameRecord:
    """A tarot game played by alice & a computer (team A) against bob & carol (team B), over."""
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tarot", host_id=ALICE,
                                    host_name="alice", options={"gallowglass": True})
    await service.join(game.id, BOB, "bob", team=B)
    await service.join(game.id, CAROL, "carol", team=B)
    await service.add_computer(game.id, ALICE, name="Ada", team=A)
    await service.start(game.id, ALICE)
    await service.storage.set_status(game.id, Status.FINISHED, service.clock.now())
    service.forget(game.id)
    return await service.game(game.id)


def seating(game: GameRecord) -> list[tuple[int, str, int | None, bool]]:
    return [(s.user_id, s.name, s.team, s.computer) for s in game.seats]


async def test_every_seat_is_taken_again_in_order_with_teams_kept_and_the_presser_hosts(
        service: TableService) -> None:
    old = await finished_tarot(service)
    # the start seated partners side by side: alice, Ada (team A), bob, carol (team B)
    assert [(s.name, s.team) for s in old.seats] == [("alice", A), ("🤖 Ada", A), ("bob", B), ("carol", B)]
    opened = await Rematches(service).open(old.id, BOB)
    game = opened.game
    assert opened.of.id == old.id and game.id != old.id
    assert game.status is Status.LOBBY and game.kind == "tarot" and game.channel_id == CHANNEL
    assert game.host_id == BOB
    assert seating(game) == seating(old)
    assert [s.dm_ok for s in game.seats] == [True, False, True, True]  # a computer is never DMed
    assert game.options == get_engine("tarot").resolve_options({"gallowglass": True})
    assert await GameNights(service.storage).rematch_of(game.id) == old.id

    # the rematch starts as any lobby does, with the same partners
    await service.start(game.id, BOB)
    started = await service.game(game.id)
    assert started.status is Status.ACTIVE and seating(started) == seating(old)


async def test_a_leavers_stand_in_is_a_plain_computer_in_the_rematch(service: TableService) -> None:
    old = await finished_tarot(service)
    carol = old.seat_of(CAROL)
    assert carol is not None
    await service.storage.set_seat_player(old.id, carol, user_id=-7, name="🤖 carol's stand-in", computer=True)
    handed = await service.storage.game(old.id)
    assert handed is not None
    seats = rematch_seats(handed)
    assert [s.name for s in seats] == ["alice", "🤖 Ada", "bob", "🤖 Babbage"]
    assert seats[3] == PlannedSeat(-7, "🤖 Babbage", B, True)
    assert CAROL not in {s.user_id for s in seats}


def test_the_options_are_the_lobbys_not_what_the_start_added() -> None:
    kniggits, fencing = get_engine("kniggits"), get_engine("fencing")

    def record(kind: str, options: dict[str, object]) -> GameRecord:
        return GameRecord(1, GUILD, CHANNEL, None, kind, ALICE, options, Status.FINISHED, 3, 9, {}, [], [],
                          None, None, 0.0, 0.0, [SeatRecord(0, ALICE, "alice")])

    chosen = kniggits.resolve_options({"rounds": 3, "size": 24})
    assert rematch_options(record("kniggits", {**chosen, "team_sizes": [2, 1]}), kniggits) == chosen
    started = {**fencing.resolve_options({}), "champion": 1}
    assert rematch_options(record("fencing", started), fencing)["champion"] == -1


async def test_only_a_former_player_may_call_a_rematch_of_a_finished_game(service: TableService) -> None:
    old = await finished_tarot(service)
    rematches = Rematches(service)
    with pytest.raises(NotAllowed, match=rf"Only the players of game #{old.id}.*/tarot new"):
        await rematches.open(old.id, DAVE)
    computer = next(s.user_id for s in old.seats if s.computer)
    with pytest.raises(NotAllowed):
        await rematches.open(old.id, computer)
    running = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL + 1, kind="hallway", host_id=DAVE,
                                       host_name="dave", options={})
    with pytest.raises(Refusal, match="Only a finished game"):
        await rematches.open(running.id, DAVE)


async def test_a_second_press_is_told_where_the_rematch_is_unless_it_was_cancelled(service: TableService) -> None:
    old = await finished_tarot(service)
    rematches = Rematches(service)
    first = (await rematches.open(old.id, ALICE)).game
    with pytest.raises(Refusal, match=rf"Game #{old.id} already has its rematch: game #{first.id} \(its lobby is open\)"):
        await rematches.open(old.id, BOB)
    await service.cancel(first.id, ALICE)
    again = (await rematches.open(old.id, BOB)).game
    assert again.id != first.id and again.host_id == BOB


async def test_a_busy_channel_is_refused_saying_what_is_there(service: TableService) -> None:
    old = await finished_tarot(service)
    words = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="words", host_id=DAVE,
                                     host_name="dave", options={})
    with pytest.raises(Refusal, match=rf"already has a Fighting Words lobby \(game #{words.id}\).*press 🔁 Rematch again"):
        await Rematches(service).open(old.id, ALICE)
    assert await GameNights(service.storage).rematches_of(old.id) == []
    await service.cancel(words.id, DAVE)
    assert (await Rematches(service).open(old.id, ALICE)).game.status is Status.LOBBY


async def test_a_rematch_of_a_rematch(service: TableService) -> None:
    old = await finished_tarot(service)
    rematches = Rematches(service)
    second = (await rematches.open(old.id, CAROL)).game
    await service.start(second.id, CAROL)
    await service.storage.set_status(second.id, Status.FINISHED, service.clock.now())
    service.forget(second.id)
    third = (await rematches.open(second.id, ALICE)).game
    assert seating(third) == seating(old) and third.host_id == ALICE
    nights = GameNights(service.storage)
    assert await nights.rematch_of(third.id) == second.id and await nights.rematch_of(second.id) == old.id


async def test_a_practice_table_is_played_again_with_learn_not_rematch(service: TableService) -> None:
    old = await finished_tarot(service)
    await mark_practice(service.storage, old.id)
    service.forget(old.id)
    with pytest.raises(Refusal, match="A practice table is played again with `/tarot learn`"):
        await Rematches(service).open(old.id, ALICE)
    assert await GameNights(service.storage).rematches_of(old.id) == []
