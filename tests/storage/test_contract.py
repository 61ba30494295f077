"""The storage contract, on SQLite and on PostgreSQL alike: every public method, the version
compare-and-set, ratings serialised per server and game, one live game per channel, due
deadlines, heartbeats and identify slots, with two connections racing where it matters."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from storage import (
    ChannelBusy,
    RatingRecord,
    RatingUpdate,
    ResultRecord,
    StaleVersion,
    Status,
    Storage,
    open_storage,
)
from storage.migrations import LATEST

Connect = Callable[[], Awaitable[Storage]]
GUILD = 1


async def lobby(store: Storage, channel: int = 2, host: int = 3, **extra: Any) -> int:
    return await store.create_game(guild_id=GUILD, channel_id=channel, kind="tokens", host_id=host,
                                   host_name=f"u{host}", options={"o": 1}, seed=9, now=1.0, **extra)


async def running(store: Storage, channel: int = 2, users: tuple[int, ...] = (3, 4),
                  deadlines: list[dict[str, Any]] | None = None, thread: int | None = None) -> int:
    game_id = await lobby(store, channel, users[0])
    for user in users[1:]:
        await store.add_seat(game_id, user, f"u{user}")
    await store.start_game(game_id, state={"x": 0}, deadlines=deadlines or [], log=["a"],
                           thread_id=thread, now=1.0)
    return game_id


def step(version: int, **extra: Any) -> dict[str, Any]:
    return {"expected_version": version, "seat": 0, "action": {"type": "a"}, "at": 2.0, "state": {"x": version},
            "deadlines": [], "log": [], "finished": False, "now": 2.0, **extra}


async def test_an_empty_database_is_migrated_and_shared_says_which_backend(store: Storage, target: str) -> None:
    assert await store.schema_version() == LATEST
    assert await store.migrate() == LATEST
    assert store.shared is target.startswith("postgresql://")


async def test_what_is_committed_is_there_after_a_reopen(target: str) -> None:
    first = await open_storage(target)
    assert first.path == target
    game_id = await lobby(first)
    await first.close()
    again = await open_storage(target)
    try:
        assert (await again.game(game_id)).host_id == 3
    finally:
        await again.close()


async def test_games_and_seats_round_trip(store: Storage) -> None:
    game_id = await lobby(store, nonce="n", host_team=1)
    assert await store.add_seat(game_id, 4, "u4", team=0) == 1
    assert await store.add_seat(game_id, -1, "🤖 Bot", computer=True) == 2
    game = await store.game(game_id)
    assert game is not None and game.status == Status.LOBBY and game.options == {"o": 1}
    assert game.nonce == "n" and game.version == 0 and game.state is None
    assert [(s.seat, s.user_id, s.team, s.computer, s.dm_ok) for s in game.seats] == [
        (0, 3, 1, False, True), (1, 4, 0, False, True), (2, -1, None, True, False)]
    assert await store.game(game_id + 100) is None
    assert await store.game_version(game_id) == 0 and await store.game_version(game_id + 100) is None
    await store.set_seat_team(game_id, 4, 1)
    await store.reseat(game_id, [-1, 4, 3])
    assert [(s.seat, s.user_id, s.team) for s in await store.seats(game_id)] == [(0, -1, None), (1, 4, 1), (2, 3, 1)]
    await store.set_seat_delivery(game_id, 3, dm_ok=True, dm_channel_id=33)
    await store.remove_seat(game_id, -1)
    await store.remove_seat(game_id, 99)  # not seated: nothing happens
    assert [(s.seat, s.user_id) for s in await store.seats(game_id)] == [(0, 4), (1, 3)]
    # what was stored for a player follows them when the seats are renumbered
    assert [(s.user_id, s.dm_channel_id) for s in await store.seats(game_id)] == [(4, None), (3, 33)]


async def test_seat_delivery_and_handing_a_seat_to_a_computer(store: Storage) -> None:
    game_id = await running(store)
    assert await store.set_seat_delivery(game_id, 4, dm_ok=False, dm_channel_id=50, dm_message_id=51,
                                         dm_message_at=3.5)
    assert await store.set_seat_delivery(game_id, 4, dm_ok=True)  # None keeps what was stored
    seat = (await store.seats(game_id))[1]
    assert (seat.dm_ok, seat.dm_channel_id, seat.dm_message_id, seat.dm_message_at) == (True, 50, 51, 3.5)
    assert not await store.set_seat_delivery(game_id, 99, dm_ok=True, dm_channel_id=60)  # not seated
    assert 60 not in [s.dm_channel_id for s in await store.seats(game_id)]
    await store.set_seat_player(game_id, 1, user_id=-7, name="🤖 u4's stand-in", computer=True)
    seat = (await store.seats(game_id))[1]
    assert (seat.user_id, seat.name, seat.computer, seat.dm_ok, seat.dm_channel_id) == (
        -7, "🤖 u4's stand-in", True, False, None)
    await store.set_seat_player(game_id, 1, user_id=4, name="u4", computer=False)
    assert (await store.game(game_id)).seat_of(4) == 1 and (await store.seats(game_id))[1].dm_ok
    await store.set_host(game_id, 4)
    assert (await store.game(game_id)).host_id == 4
    assert [g.id for g in await store.live_games_of(4)] == [game_id]


async def test_one_live_game_per_channel_without_a_thread(store: Storage) -> None:
    first = await lobby(store, channel=2)
    with pytest.raises(ChannelBusy):
        await lobby(store, channel=2, host=5)
    assert (await store.live_game_in(2)).id == first
    await store.set_thread(first, 77)  # the table moved to its thread: the channel is free
    second = await lobby(store, channel=2, host=5)
    assert (await store.live_game_in(2)).id == second and (await store.live_game_in(77)).id == first
    await store.set_status(second, Status.CANCELLED, 3.0)
    third = await lobby(store, channel=2, host=6)
    assert (await store.live_game_in(2)).id == third


async def test_two_connections_opening_a_lobby_in_one_channel_at_once(connect: Connect) -> None:
    a, b = await connect(), await connect()
    outcomes = await asyncio.gather(lobby(a, host=3), lobby(b, host=4), return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["ChannelBusy", "int"]


async def test_start_commit_and_the_action_log(store: Storage) -> None:
    game_id = await running(store, thread=70)
    assert await store.commit_action(game_id, **step(1, seat=None, log_added=2)) == 2
    assert await store.commit_action(game_id, **step(2, seat=1)) == 3
    game = await store.game(game_id)
    assert (game.version, game.state, game.last_at, game.log_total, game.thread_id) == (3, {"x": 2}, 2.0, 2, 70)
    assert [(a.seq, a.seat, a.action) for a in await store.actions(game_id)] == [
        (2, None, {"type": "a"}), (3, 1, {"type": "a"})]
    with pytest.raises(StaleVersion):
        await store.start_game(game_id, state={}, deadlines=[], log=[], thread_id=None, now=1.0)


async def test_a_stale_version_changes_nothing(store: Storage) -> None:
    game_id = await running(store)
    await store.commit_action(game_id, **step(1))
    with pytest.raises(StaleVersion):
        await store.commit_action(game_id, **{**step(1), "state": {"x": 99}})
    game = await store.game(game_id)
    assert game.state == {"x": 1} and game.version == 2
    assert [a.seq for a in await store.actions(game_id)] == [2]


async def test_two_connections_committing_one_version_at_once(connect: Connect) -> None:
    a, b = await connect(), await connect()
    game_id = await running(a)
    outcomes = await asyncio.gather(*(s.commit_action(game_id, **step(1)) for s in (a, b, a, b)),
                                    return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["StaleVersion"] * 3 + ["int"]
    assert await b.game_version(game_id) == 2 and len(await b.actions(game_id)) == 1


async def test_next_deadline_follows_the_deadlines_and_due_games_finds_them(store: Storage) -> None:
    soon = await running(store, channel=2, deadlines=[{"seat": 0, "at": 50.0}, {"seat": 1, "at": 20.0}])
    later = await running(store, channel=3, deadlines=[{"seat": 0, "at": 90.0}])
    none = await running(store, channel=4, deadlines=[{"seat": 0, "at": None}])
    assert none and await store.due_games(10.0) == []
    assert await store.due_games(20.0) == [(soon, 20.0)]
    assert await store.due_games(1000.0) == [(soon, 20.0), (later, 90.0)]
    await store.commit_action(soon, **step(1, deadlines=[{"seat": 1, "at": 95.0}]))
    await store.set_deadlines({later: [{"seat": 0, "at": 30.0}]})
    assert await store.due_games(1000.0) == [(later, 30.0), (soon, 95.0)]
    await store.set_status(later, Status.CANCELLED, 5.0)
    await store.commit_action(soon, **step(2, deadlines=[{"seat": 1, "at": 99.0}], finished=True))
    assert await store.due_games(1000.0) == []
    assert (await store.game(later)).deadlines == []


async def test_results_ratings_and_the_boards(store: Storage) -> None:
    game_id = await running(store, users=(3, 4))
    results = [ResultRecord(game_id, 3, 0, 0, 10.0, 0), ResultRecord(game_id, 4, 1, 1, 5.5, 0)]
    ratings = [RatingRecord(GUILD, "tokens", 3, 27.0, 7.0, 1, 1), RatingRecord(GUILD, "tokens", 4, 23.0, 7.0, 1, 0)]
    await store.commit_action(game_id, **step(1, finished=True, results=results, ratings=ratings))
    assert (await store.game(game_id)).status == Status.FINISHED
    assert await store.ratings(GUILD, "tokens", [3, 4, 5]) == {3: ratings[0], 4: ratings[1]}
    assert await store.ratings(GUILD, "tokens", []) == {}
    assert [r.user_id for r in await store.leaderboard(GUILD, "tokens")] == [3, 4]
    assert [r.user_id for r in await store.leaderboard(GUILD, None, limit=1)] == [3]
    assert await store.player_ratings(GUILD, 4) == [ratings[1]]
    [recent] = await store.recent_results(GUILD, 3)
    assert (recent.game_id, recent.rank, recent.score, recent.kind, recent.versus_computer) == (
        game_id, 0, 10.0, "tokens", False)
    assert await store.last_champion(GUILD, "tokens") == 3
    assert (await store.latest_finished_game(GUILD)).id == game_id
    assert (await store.last_game_in(2)).id == game_id
    [pair] = await store.best_pairs(GUILD, "tokens")
    assert (pair.user_a, pair.user_b, pair.games, pair.wins) == (3, 4, 1, 1)
    await store.record_result([ResultRecord(game_id, 4, 1, 0, 6.0, 0)], [])  # a correction replaces
    assert await store.last_champion(GUILD, "tokens") is None  # two first places: nobody alone


async def test_a_rating_update_reads_inside_the_commit(store: Storage) -> None:
    await store.record_result([], [RatingRecord(GUILD, "tokens", 3, 30.0, 6.0, 4, 2)])
    game_id = await running(store)

    def compute(current: dict[int, RatingRecord]) -> list[RatingRecord]:
        return [RatingRecord(GUILD, "tokens", user, 25.0, 8.0, (current[user].games if user in current else 0) + 1, 0)
                for user in (3, 4)]

    update = RatingUpdate(GUILD, "tokens", [3, 4], compute)
    await store.commit_action(game_id, **step(1, finished=True), rating=update)
    assert update.before == {3: RatingRecord(GUILD, "tokens", 3, 30.0, 6.0, 4, 2)}
    assert {u: r.games for u, r in (await store.ratings(GUILD, "tokens", [3, 4])).items()} == {3: 5, 4: 1}


async def test_a_stale_commit_writes_no_rating(store: Storage) -> None:
    game_id = await running(store)
    await store.commit_action(game_id, **step(1))
    update = RatingUpdate(GUILD, "tokens", [3], lambda current: [RatingRecord(GUILD, "tokens", 3, 1.0, 1.0, 1, 1)])
    with pytest.raises(StaleVersion):
        await store.commit_action(game_id, **step(1, finished=True), rating=update)
    assert await store.ratings(GUILD, "tokens", [3]) == {}


async def test_ratings_of_one_server_and_game_committed_at_once_both_count(connect: Connect) -> None:
    """Two games of one server and kind end at the same moment on two connections; each adds one
    game to player 3's record: both count (the second reads what the first wrote)."""
    stores = [await connect() for _ in range(4)]
    games = [await running(stores[0], channel=10 + i, users=(3, 20 + i)) for i in range(4)]

    def plus_one(user: int) -> Callable[[dict[int, RatingRecord]], list[RatingRecord]]:
        def compute(current: dict[int, RatingRecord]) -> list[RatingRecord]:
            return [RatingRecord(GUILD, "tokens", u, 25.0, 8.0, (current[u].games if u in current else 0) + 1, 0)
                    for u in (3, user)]
        return compute

    await asyncio.gather(*(
        store.commit_action(game, **step(1, finished=True),
                            rating=RatingUpdate(GUILD, "tokens", [3, 20 + i], plus_one(20 + i)))
        for i, (store, game) in enumerate(zip(stores, games, strict=True))
    ))
    assert (await stores[1].ratings(GUILD, "tokens", [3]))[3].games == 4


async def test_table_versions_never_go_back(store: Storage) -> None:
    game_id = await running(store)
    await store.commit_action(game_id, **step(1))
    assert await store.tables_behind() == {game_id: 0}
    await store.set_table_versions({game_id: 2})
    await store.set_table_versions({game_id: 1})
    assert (await store.game(game_id)).table_version == 2 and await store.tables_behind() == {}
    await store.set_table_message(game_id, 55, 4.5)
    await store.set_lobby_message(game_id, 56)
    await store.set_ping(game_id, 57, {1: 3})
    await store.set_ping(game_id, None, {})
    game = await store.game(game_id)
    assert (game.table_message_id, game.table_message_at, game.lobby_message_id, game.ping_message_id) == (
        55, 4.5, 56, 57)
    assert game.seats[1].seen_log == 3
    assert [g.id for g in await store.active_games()] == [game_id]


async def test_a_ping_s_marks_are_one_statement(store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """set_ping follows every ping: each seat's seen log and the thread's ping in one statement
    (one round trip on PostgreSQL; SQLite keeps a transaction for the thread's two)."""
    game_id = await running(store, users=(3, 4, 5))
    sent: list[str] = []
    statement, run = store.backend.statement, store.backend.run

    async def one_statement(query: Any) -> Any:
        sent.append(query.sql)
        return await statement(query)

    async def body(tx: Any, *, write: bool) -> Any:
        sent.append("transaction")
        return await run(tx, write=write)

    monkeypatch.setattr(store.backend, "statement", one_statement)
    monkeypatch.setattr(store.backend, "run", body)
    await store.set_ping(game_id, None, {0: 4, 2: 6})  # DM pings: no ping message
    await store.set_ping(game_id, 58, {1: 5})  # a thread ping
    if store.backend.dialect == "postgresql":
        assert len(sent) == 2 and "transaction" not in sent
    monkeypatch.undo()
    game = await store.game(game_id)
    assert [s.seen_log for s in game.seats] == [4, 5, 6] and game.ping_message_id == 58


async def test_commits_are_heard_where_several_processes_share_the_database(store: Storage) -> None:
    """PostgreSQL tells every listener of each committed version (and of a status change alone,
    as -1); SQLite has one process, so there is nothing to hear."""
    game_id = await running(store)
    moved: list[tuple[int, int]] = []
    if not await store.hear_commits(lambda g, v: moved.append((g, v)), lambda: None):
        assert not store.shared
        return
    await store.commit_action(game_id, **step(1))
    await store.set_ping(game_id, 59, {0: 1})  # no version change: nothing said
    await store.set_status(game_id, Status.CANCELLED, 3.0)
    for _ in range(200):
        if len(moved) >= 2:
            break
        await asyncio.sleep(0.01)
    assert moved == [(game_id, 2), (game_id, -1)]


async def test_players_team_threads_and_notify(store: Storage) -> None:
    game_id = await running(store)
    await store.set_team_thread(game_id, 0, 80)
    await store.set_team_thread(game_id, 1, 81)
    await store.set_team_thread(game_id, 0, 82)
    assert await store.team_threads(game_id) == {0: 82, 1: 81}
    await store.set_notify(3, "dm")
    await store.set_notify(3, "off")
    assert await store.notify_preferences([3, 4]) == {3: "off"}
    assert await store.notify_preferences([]) == {}


async def test_heartbeats_and_live_peers(connect: Connect) -> None:
    a, b = await connect(), await connect()
    await a.heartbeat("p1", [0], 100.0)
    await b.heartbeat("p2", [1, 2], 100.0)
    assert await a.live_peers("p1", 110.0) == ["p2"] and await b.live_peers("p2", 110.0) == ["p1"]
    await a.heartbeat("p1", [0, 3], 125.0)
    assert await b.live_peers("p2", 140.0) == ["p1"]  # p1 beat 15 s ago
    assert await a.live_peers("p1", 140.0) == []  # p2 went quiet 40 s ago
    assert await a.live_peers("p1", 140.0, within=60.0) == ["p2"]
    await b.retire("p2")
    assert await a.live_peers("p1", 100.0, within=1000.0) == []


async def test_identify_slots_are_spaced_and_claimed_once(connect: Connect) -> None:
    a, b = await connect(), await connect()
    assert await a.claim_identify(0, 100.0) == 100.0
    assert await b.claim_identify(0, 101.0) == 105.0
    assert await a.claim_identify(1, 101.0) == 101.0  # another bucket: its own slots
    assert await a.claim_identify(0, 200.0) == 200.0  # the bucket went quiet: at once
    slots = await asyncio.gather(*(s.claim_identify(0, 300.0, spacing=2.0) for s in (a, b, a, b)))
    assert sorted(slots) == [300.0, 302.0, 304.0, 306.0]


async def test_the_record_against_computers(store: Storage) -> None:
    async def finished(users: tuple[int, ...], ranks: tuple[int, ...], channel: int, versus: bool) -> None:
        game_id = await running(store, channel=channel, users=users)
        results = [ResultRecord(game_id, u, s, r, None, None, versus_computer=versus)
                   for s, (u, r) in enumerate(zip(users, ranks, strict=True))]
        await store.commit_action(game_id, **step(1, finished=True, results=results))

    await finished((3, -1), (0, 1), 2, True)   # a win
    await finished((3, -1), (1, 0), 3, True)   # a loss
    await finished((3, -1), (0, 0), 4, True)   # a draw for all: no win
    await finished((3, 4), (0, 1), 5, False)   # humans only: not counted
    assert await store.computer_record(GUILD, 3) == {"tokens": (3, 1)}
    await finished((-2, 3), (0, 1), 6, True)   # a computer won alone: no champion
    assert await store.last_champion(GUILD, "tokens") is None
    assert await store.computer_record(GUILD, 4) == {}
    team_game = await running(store, channel=7, users=(3, -1, 4))
    await store.commit_action(team_game, **step(1, finished=True, results=[
        ResultRecord(team_game, 3, 0, 0, None, 0, versus_computer=True),
        ResultRecord(team_game, -1, 1, 0, None, 0, versus_computer=True),
        ResultRecord(team_game, 4, 2, 1, None, 1, versus_computer=True)]))
    assert await store.best_pairs(GUILD, "tokens") == []  # a computer is nobody's partner
    assert [r.versus_computer for r in await store.recent_results(GUILD, 4)] == [True, False]


def test_every_public_method_is_in_this_contract() -> None:
    """A method added to Storage without a test here fails this (both backends run this file)."""
    import inspect
    from pathlib import Path

    source = Path(__file__).read_text(encoding="utf-8")
    public = [name for name, _ in inspect.getmembers(Storage) if not name.startswith("_")]
    missing = [name for name in public
               if f".{name}(" not in source and f".{name} " not in source and name not in {"open", "open_postgres"}]
    assert missing == []
