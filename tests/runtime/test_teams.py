"""Partnership lobbies (join by team, switch, a full team, Start needs every team full, seats
renumbered by team), partners of a leaver left unrated, and the best pairs of a server."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.table import codec
from games.core import IllegalAction, Outcome, State
from games.registry import get_engine, register
from runtime.errors import Refusal
from runtime.ratings import rate
from runtime.service import TableService
from storage import Storage
from tests.engines.pairs import PairsEngine
from tests.runtime.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, EVE, GUILD

A, B = 0, 1


async def pairs_lobby(service: TableService) -> int:
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="pairs", host_id=ALICE,
                                    host_name="alice", options={})
    return game.id


def teams_of(game) -> dict[str, int | None]:
    return {s.name: s.team for s in game.seats}


async def test_the_host_is_on_the_first_team_and_others_choose(service: TableService) -> None:
    game_id = await pairs_lobby(service)
    game = await service.join(game_id, BOB, "bob", team=B)
    assert teams_of(game) == {"alice": A, "bob": B}


async def test_a_full_team_refuses_another_player(service: TableService) -> None:
    game_id = await pairs_lobby(service)
    await service.join(game_id, BOB, "bob", team=A)
    with pytest.raises(Refusal, match="Team A is full"):
        await service.join(game_id, CAROL, "carol", team=A)
    assert len((await service.game(game_id)).seats) == 2


async def test_joining_the_other_team_switches(service: TableService) -> None:
    game_id = await pairs_lobby(service)
    await service.join(game_id, BOB, "bob", team=A)
    game = await service.join(game_id, BOB, "bob", team=B)
    assert teams_of(game) == {"alice": A, "bob": B} and len(game.seats) == 2
    with pytest.raises(Refusal, match="already in Team B"):
        await service.join(game_id, BOB, "bob", team=B)


async def test_without_a_team_the_one_with_most_room_is_taken(service: TableService) -> None:
    game_id = await pairs_lobby(service)
    game = await service.join(game_id, BOB, "bob")
    assert teams_of(game)["bob"] == B
    with pytest.raises(Refusal, match="has teams A, B"):
        await service.join(game_id, CAROL, "carol", team=5)


async def test_start_needs_every_team_full(service: TableService) -> None:
    game_id = await pairs_lobby(service)
    await service.join(game_id, BOB, "bob", team=A)
    await service.join(game_id, CAROL, "carol", team=B)
    with pytest.raises(Refusal, match=r"Team B needs 1 more player\."):
        await service.start(game_id, ALICE)
    assert (await service.game(game_id)).state is None


async def test_seats_are_renumbered_by_team_with_what_each_seat_holds(service: TableService,
                                                                      storage: Storage) -> None:
    game_id = await pairs_lobby(service)
    for user, name, team in ((BOB, "bob", B), (CAROL, "carol", A), (DAVE, "dave", B)):
        await service.join(game_id, user, name, team=team)
    await storage.set_seat_delivery(game_id, BOB, dm_ok=False)  # bob's DMs are closed
    await storage.set_seat_delivery(game_id, DAVE, dm_ok=True, dm_channel_id=444)  # dave's DM channel
    applied = await service.start(game_id, ALICE)
    seats = applied.game.seats
    assert [s.name for s in seats] == ["alice", "carol", "bob", "dave"]
    assert [s.team for s in seats] == [A, A, B, B]
    assert [s.dm_ok for s in seats] == [True, True, False, True]
    assert seats[3].dm_channel_id == 444
    assert applied.engine.teams(applied.game.state) == ((0, 1), (2, 3))
    stored = await storage.game(game_id)
    assert stored is not None and [s.user_id for s in stored.seats] == [ALICE, CAROL, BOB, DAVE]


async def test_a_lobby_without_teams_is_unchanged(service: TableService) -> None:
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=ALICE,
                                    host_name="alice", options={})
    joined = await service.join(game.id, BOB, "bob", team=1)
    assert [s.team for s in joined.seats] == [None, None]


# ----- partners of a leaver -----------------------------------------------------------------


def test_a_forfeit_leaves_the_leavers_partners_unrated() -> None:
    engine = get_engine("pairs")
    state, _ = engine.forfeit(engine.new_game(4, 7), 2, 0.0)
    outcome = engine.outcome(state)
    assert outcome is not None and outcome.ranks == (0, 0, 1, 1) and outcome.unrated == (3,)
    assert Outcome.from_json(outcome.to_json()) == outcome


def test_old_outcomes_read_back_with_nobody_unrated() -> None:
    old = {"ranks": [0, 1], "scores": None, "teams": None, "reason": "", "detail": {}, "abandoned": False}
    assert Outcome.from_json(old).unrated == ()
    assert Outcome.from_json(old).to_json() == old  # a record of an earlier game replays unchanged


def test_unrated_seats_keep_their_rating() -> None:
    outcome = Outcome(ranks=(0, 0, 1, 1), teams=((0, 1), (2, 3)), unrated=(3,))
    after = {r.user_id: r for r in rate(guild_id=GUILD, kind="pairs", outcome=outcome,
                                        users=(ALICE, BOB, CAROL, DAVE), current={})}
    assert set(after) == {ALICE, BOB, CAROL}


async def test_a_partner_who_stays_is_recorded_but_not_rated(service: TableService, storage: Storage) -> None:
    game_id = await pairs_lobby(service)
    for user, name, team in ((BOB, "bob", A), (CAROL, "carol", B), (DAVE, "dave", B)):
        await service.join(game_id, user, name, team=team)
    await service.start(game_id, ALICE)
    for _ in range(4):  # everyone plays a turn, so the forfeit is rated
        game = await service.game(game_id)
        seat = game.state["turn"]
        await service.act(game_id, game.user_of(seat), {"type": "discard", "cards": game.state["hands"][seat][:2]})
    applied = await service.forfeit(game_id, DAVE)
    assert applied.rated and applied.outcome is not None and applied.outcome.unrated == (2,)
    assert set(applied.rating_changes) == {ALICE, BOB, DAVE}
    ratings = await storage.ratings(GUILD, "pairs", [ALICE, BOB, CAROL, DAVE])
    assert CAROL not in ratings and ratings[DAVE].games == 1
    results = await storage.recent_results(GUILD, CAROL)
    assert [(r.rank, r.team) for r in results] == [(1, 1)]


# ----- best pairs ---------------------------------------------------------------------------


async def play_out(service: TableService, users: list[int], *, winners: str) -> None:
    """A Pairs game with `users` seated A, A, B, B that `winners` ("A"/"B") win: a player of
    the other team leaves."""
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="pairs", host_id=users[0],
                                    host_name=f"u{users[0]}", options={})
    for user, team in zip(users[1:], (A, B, B), strict=True):
        await service.join(game.id, user, f"u{user}", team=team)
    await service.start(game.id, users[0])
    await service.forfeit(game.id, users[3] if winners == "A" else users[0])


async def test_best_pairs_rank_partners_by_wins_then_games(service: TableService, storage: Storage) -> None:
    await play_out(service, [ALICE, BOB, CAROL, DAVE], winners="A")
    await play_out(service, [ALICE, BOB, CAROL, DAVE], winners="A")
    await play_out(service, [CAROL, DAVE, ALICE, EVE], winners="A")
    pairs = await storage.best_pairs(GUILD, "pairs")
    shown = [(p.user_a, p.user_b, p.wins, p.games) for p in pairs]
    assert shown[0] == (ALICE, BOB, 2, 2)
    assert shown[1] == (CAROL, DAVE, 1, 3)
    assert (ALICE, EVE, 0, 1) in shown
    assert await storage.best_pairs(GUILD, "tokens") == []


# ----- multi-pick selects -------------------------------------------------------------------


LISTED = [codec.select_value({"type": "discard", "cards": [c]}) for c in ("CU-10", "SW-2", "KN-1")]


def test_picks_are_joined_in_the_order_they_are_listed() -> None:
    picked = [LISTED[1], LISTED[0]]
    assert codec.gathered(picked, LISTED, "cards", pick=(2, 2)) == {"type": "discard", "cards": ["CU-10", "SW-2"]}


@pytest.mark.parametrize("values", [
    [LISTED[0]],  # too few
    [LISTED[0], LISTED[0]],  # a repeat
    [LISTED[0], codec.select_value({"type": "discard", "cards": ["XX-9"]})],  # not offered
    [LISTED[0], 7],  # not text
    "nope",
])
def test_a_forged_multi_pick_is_refused(values: object) -> None:
    assert codec.gathered(values, LISTED, "cards", pick=(2, 2)) is None


def test_choices_sending_different_actions_are_not_joined() -> None:
    listed = [*LISTED, codec.select_value({"type": "keep", "cards": ["QU-3"]})]
    assert codec.gathered([listed[0], listed[3]], listed, "cards", pick=(2, 2)) is None


def test_every_team_game_fills_its_teams_within_their_bounds() -> None:
    """A fixed-size partnership lobby starts only full (min = max players, split evenly); one
    whose teams may differ holds between the fewest and the most per team."""
    from games.registry import ENGINES, load_builtin

    load_builtin()
    teamed = [e for e in ENGINES.values() if e.lobby_teams]
    assert teamed
    for engine in teamed:
        fewest, most = engine.team_bounds()
        teams = len(engine.lobby_teams)
        assert (engine.min_players, engine.max_players) == (fewest * teams, most * teams), engine.name
        if engine.team_sizes is None:
            assert fewest == most, engine.name


class ArmiesEngine(PairsEngine):
    """Pairs with teams of one or two (Kniggits' armies): the start hands the team sizes in."""

    name = "armies"
    title = "Armies"
    min_players = 2
    team_sizes = (1, 2)

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        state = super().setup(players, rng_state, options)
        state["team_sizes"] = options.get("team_sizes")
        return state

    def teams(self, state: State) -> tuple[tuple[int, ...], ...] | None:
        first = (state["team_sizes"] or [state["players"] // 2])[0]
        return (tuple(range(first)), tuple(range(first, state["players"])))


register(ArmiesEngine())


async def armies_lobby(service: TableService) -> int:
    game = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="armies", host_id=ALICE,
                                    host_name="alice", options={})
    return game.id


async def test_uneven_teams_start_with_their_sizes_recorded_for_the_engine(service: TableService) -> None:
    game_id = await armies_lobby(service)
    with pytest.raises(Refusal, match=r"Team B needs 1 more player\."):
        await service.start(game_id, ALICE)
    await service.join(game_id, BOB, "bob", team=B)
    await service.join(game_id, CAROL, "carol", team=B)
    with pytest.raises(Refusal, match="Team B is full"):
        await service.join(game_id, DAVE, "dave", team=B)
    applied = await service.start(game_id, ALICE)
    assert [s.name for s in applied.game.seats] == ["alice", "bob", "carol"]
    assert applied.game.options["team_sizes"] == [1, 2]
    assert applied.game.state["team_sizes"] == [1, 2]
    assert get_engine("armies").teams(applied.game.state) == ((0,), (1, 2))
    assert (await service.replay(game_id))["team_sizes"] == [1, 2]  # the record carries them


def test_team_sizes_are_checked_like_any_option() -> None:
    engine = get_engine("armies")
    assert engine.resolve_options({"team_sizes": [2, 1]})["team_sizes"] == [2, 1]
    for bad in ([3, 1], [0, 2], [1], "2,1", [True, 1]):
        with pytest.raises(IllegalAction, match="Each team needs 1-2 players"):
            engine.resolve_options({"team_sizes": bad})
    with pytest.raises(IllegalAction, match="Unknown option: team_sizes"):
        get_engine("pairs").resolve_options({"team_sizes": [2, 2]})
