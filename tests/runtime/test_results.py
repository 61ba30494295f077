"""What a result records and rates: forfeits before everyone played are not rated, an
abandoned game records nothing, and the result lists rating changes in finishing order."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.table.results import rating_lines
from games.core import Option, Outcome
from games.registry import get_engine, register
from runtime.service import Applied, TableService
from storage import Status, Storage
from tests.runtime.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, play_first, started_game


async def test_a_forfeit_before_everyone_acted_is_recorded_but_not_rated(service: TableService,
                                                                         storage: Storage) -> None:
    game_id = await started_game(service, [ALICE, BOB])
    step = await service.forfeit(game_id, BOB)
    assert step.outcome is not None and not step.rated and step.rating_changes == {}
    assert await storage.ratings(GUILD, "tokens", [ALICE, BOB]) == {}
    game = await storage.game(game_id)
    assert game.status is Status.FINISHED
    assert "Not rated" in rating_lines(step)[0]


async def test_a_forfeit_after_everyone_acted_is_rated(service: TableService, storage: Storage) -> None:
    game_id = await started_game(service, [ALICE, BOB])
    await play_first(service, game_id)
    await play_first(service, game_id)
    step = await service.forfeit(game_id, BOB)
    assert step.rated and set(step.rating_changes) == {ALICE, BOB}
    ratings = await storage.ratings(GUILD, "tokens", [ALICE, BOB])
    assert ratings[ALICE].ordinal > ratings[BOB].ordinal


async def test_an_abandoned_game_records_nothing(service: TableService, storage: Storage,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = await started_game(service, [ALICE, BOB])
    engine = get_engine("tokens")
    monkeypatch.setattr(type(engine), "result",
                        lambda self, state: Outcome(ranks=(0, 0), reason="abandoned", abandoned=True)
                        if state["pile"] else None)
    step = await service.act(game_id, (await service.game(game_id)).user_of(0),
                             {"type": "play", "token": "s0t0"})
    assert step.outcome is not None and step.outcome.abandoned and not step.rated
    game = await storage.game(game_id)
    assert game.status is Status.CANCELLED
    assert await storage.ratings(GUILD, "tokens", [ALICE, BOB]) == {}
    assert await storage.recent_results(GUILD, ALICE) == []
    assert await storage.live_game_in(CHANNEL) is None


def test_rating_lines_come_in_finishing_order_with_their_change() -> None:
    class Seat:
        def __init__(self, user: int) -> None:
            self.user_id = user

    class Game:
        def __init__(self) -> None:
            self.seats = [Seat(11), Seat(12), Seat(13)]

        def user_of(self, seat: int) -> int:
            return self.seats[seat].user_id

    step: Any = Applied(Game(), get_engine("tokens"), [], [], Outcome(ranks=(2, 0, 1)), rated=True,
                        rating_changes={11: (1.0, 0.1), 12: (None, 1.4), 13: (2.0, 2.5)})
    assert rating_lines(step) == ["<@12> 1.4 (+1.4)", "<@13> 2.5 (+0.5)", "<@11> 0.1 (−0.9)"]


class CrownedEngine(type(get_engine("tokens"))):
    """Tokens with a reigning champion, as Table Fencing has: the runtime fills it in."""

    name = "crowned"
    options = (*get_engine("tokens").options, Option("champion", "the seat of the reigning champion", -1,
                                                     (-1, 0, 1, 2)))
    champion_option = "champion"

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> dict[str, Any]:
        return {**super().setup(players, rng_state, options), "champion": options["champion"]}


register(CrownedEngine())


async def crowned_game(service: TableService, users: list[int], channel: int) -> int:
    game = await service.open_lobby(guild_id=GUILD, channel_id=channel, kind="crowned", host_id=users[0],
                                    host_name="host", options={})
    for user in users[1:]:
        await service.join(game.id, user, f"user{user}")
    await service.start(game.id, users[0])
    return game.id


async def test_the_last_sole_winner_of_the_server_is_the_champion_wherever_they_sit(
        service: TableService, storage: Storage) -> None:
    first = await crowned_game(service, [ALICE, BOB], CHANNEL)
    assert (await storage.game(first)).state["champion"] == -1  # nobody has won yet
    await service.forfeit(first, ALICE)  # Bob wins
    second = await crowned_game(service, [ALICE, CAROL, BOB], CHANNEL)
    game = await storage.game(second)
    assert game.state["champion"] == 2 == game.options["champion"]  # recorded, so replays match
    await service.forfeit(second, BOB)  # Alice and Carol share first: no sole winner
    third = await crowned_game(service, [ALICE, BOB], CHANNEL)
    assert (await storage.game(third)).state["champion"] == -1
