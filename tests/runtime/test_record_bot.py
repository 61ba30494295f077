"""The bot's side of game records: the record built from a stored game (forfeits and the
game's own seat-less actions included) replays; `/game record` picks only finished games
of the asking server and refuses junk; the table shows the commitment and never the seed,
and the result reveals both."""

from __future__ import annotations

import pytest

from cogs.table.present import commitment_line, footer_of, render_table
from cogs.table.records import game_to_record, parse_game_id, record_of
from cogs.table.registry import ui_for
from cogs.table.result_screen import result_embed
from cogs.table.ui import Card
from games.registry import get_engine
from games.replay import verify
from runtime.clock import ManualClock
from runtime.errors import Refusal
from runtime.service import TableService
from storage import GameRecord, Status, Storage

GUILD, OTHER_GUILD, CHANNEL = 1000, 1001, 2000
ALICE, BOB, CAROL = 11, 12, 13




async def open_game(service: TableService, kind: str, users: list[int], *, guild: int = GUILD,
                    channel: int = CHANNEL, **options: object) -> int:
    game = await service.open_lobby(guild_id=guild, channel_id=channel, kind=kind, host_id=users[0],
                                    host_name=f"user{users[0]}", options=options)
    for user in users[1:]:
        await service.join(game.id, user, f"user{user}")
    await service.start(game.id, users[0])
    return game.id


async def play_tokens_to_the_end(service: TableService, clock: ManualClock, game_id: int) -> GameRecord:
    while True:
        game = await service.game(game_id)
        if game.status is not Status.ACTIVE:
            return game
        seat = game.state["turn"]
        clock.advance(2.5)
        step = await service.act(game_id, game.user_of(seat),
                                 {"type": "play", "token": game.state["hands"][seat][-1]["id"]})
        if step.finished:
            return step.game


async def stored_record(storage: Storage, game_id: int) -> dict:
    game = await storage.game(game_id)
    assert game is not None
    return await record_of(storage, game, get_engine(game.kind))


# -- records of stored games ---------------------------------------------------------------------------
async def test_a_finished_games_record_replays_and_matches_the_stored_state(
        service: TableService, storage: Storage, clock: ManualClock) -> None:
    game_id = await open_game(service, "tokens", [ALICE, BOB, CAROL], hand=2)
    await play_tokens_to_the_end(service, clock, game_id)
    record = await stored_record(storage, game_id)
    game = await storage.game(game_id)
    assert game is not None
    assert (record["seed"], record["nonce"], record["commitment"]) == (game.seed, game.nonce, game.commitment)
    assert [s["user_id"] for s in record["seats"]] == [str(ALICE), str(BOB), str(CAROL)]
    assert len(record["actions"]) == 6 and record["actions"][0]["seq"] == 2
    verdict = verify(record)
    assert verdict.ok, verdict.report()
    replayed = await service.replay(game_id)
    assert verdict.digest == record["final_state_sha256"]
    from games.record import state_digest

    assert state_digest(replayed) == state_digest(game.state) == verdict.digest


async def test_a_forfeit_is_recorded_and_replayed(service: TableService, storage: Storage,
                                                  clock: ManualClock) -> None:
    game_id = await open_game(service, "tokens", [ALICE, BOB], hand=3)
    game = await service.game(game_id)
    await service.act(game_id, ALICE, {"type": "play", "token": game.state["hands"][0][0]["id"]})
    clock.advance(4)
    await service.forfeit(game_id, BOB)
    record = await stored_record(storage, game_id)
    assert record["actions"][-1] == {"seq": 3, "seat": 1, "action": {"type": "_forfeit"}, "at": clock.now()}
    assert record["outcome"]["reason"] == "forfeit"
    assert verify(record).ok


async def test_the_games_own_seatless_actions_replay(service: TableService, storage: Storage,
                                                     clock: ManualClock) -> None:
    game_id = await open_game(service, "race", [ALICE, BOB])
    for _ in range(40):
        game = await service.game(game_id)
        if game.status is not Status.ACTIVE:
            break
        if game.state["phase"] == "countdown":
            [countdown] = game.deadlines
            clock.advance(countdown["at"] - clock.now())
            await service.expire(game_id)
        else:
            clock.advance(0.25)
            await service.act(game_id, ALICE, {"type": "press"}, pressed_at=clock.now())
            clock.advance(0.5)
            await service.act(game_id, BOB, {"type": "press"}, pressed_at=clock.now())
    record = await stored_record(storage, game_id)
    assert any(a["seat"] is None and a["action"] == {"type": "go"} for a in record["actions"])
    assert record["outcome"]["ranks"] == [0, 1]
    verdict = verify(record)
    assert verdict.ok, verdict.report()


# -- which game /game record gives -----------------------------------------------------------------
async def test_the_latest_finished_game_of_the_server_is_the_default(
        service: TableService, storage: Storage, clock: ManualClock) -> None:
    with pytest.raises(Refusal, match="No game has finished in this server"):
        await game_to_record(storage, GUILD, None)
    first = await open_game(service, "tokens", [ALICE, BOB], hand=1)
    await play_tokens_to_the_end(service, clock, first)
    second = await open_game(service, "tokens", [ALICE, BOB], hand=1)
    await play_tokens_to_the_end(service, clock, second)
    elsewhere = await open_game(service, "tokens", [ALICE, BOB], guild=OTHER_GUILD, channel=3000, hand=1)
    await play_tokens_to_the_end(service, clock, elsewhere)
    running = await open_game(service, "tokens", [ALICE, BOB], hand=1)
    assert (await game_to_record(storage, GUILD, None)).id == second
    assert (await game_to_record(storage, GUILD, "  ")).id == second
    assert (await game_to_record(storage, GUILD, f"#{first}")).id == first
    assert (await game_to_record(storage, OTHER_GUILD, None)).id == elsewhere
    with pytest.raises(Refusal, match="not played in this server"):
        await game_to_record(storage, GUILD, str(elsewhere))
    with pytest.raises(Refusal, match="There is no game #999"):
        await game_to_record(storage, GUILD, "999")
    live = await storage.game(running)
    assert live is not None
    with pytest.raises(Refusal, match="still being played") as refused:
        await game_to_record(storage, GUILD, str(running))
    assert live.commitment in refused.value.message and str(live.seed) not in refused.value.message


async def test_lobbies_and_ended_games_have_no_record(service: TableService, storage: Storage) -> None:
    lobby = await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, kind="tokens", host_id=ALICE,
                                     host_name="ana", options={})
    with pytest.raises(Refusal, match="has not started yet"):
        await game_to_record(storage, GUILD, str(lobby.id))
    await service.cancel(lobby.id, ALICE)
    with pytest.raises(Refusal, match="without a result"):
        await game_to_record(storage, GUILD, str(lobby.id))
    ended = await open_game(service, "tokens", [ALICE, BOB])
    await service.end(ended, ALICE, manager=False)
    with pytest.raises(Refusal, match="without a result"):
        await game_to_record(storage, GUILD, str(ended))


@pytest.mark.parametrize("junk", ["abc", "12a", "-3", "1.5", "0", "²", "9" * 30, "#", "<@12>"])
def test_junk_is_not_a_game_number(junk: str) -> None:
    with pytest.raises(Refusal, match="is not a game number"):
        parse_game_id(junk)


def test_a_game_number_may_be_written_as_on_the_table() -> None:
    assert parse_game_id("12") == parse_game_id("#12") == parse_game_id(" # 12 ") == 12


# -- what the table and the result show --------------------------------------------------------------
async def test_the_table_shows_the_whole_commitment_and_never_the_seed(
        service: TableService, storage: Storage, clock: ManualClock) -> None:
    game_id = await open_game(service, "tokens", [ALICE, BOB], hand=1)
    game = await service.game(game_id)
    table = await render_table(game, get_engine("tokens"), ui_for("tokens"), clock.now(), with_image=False)
    footer = table.embed.footer.text or ""
    assert game.commitment in footer and len(game.commitment) == 64
    shown = str(table.embed.to_dict())
    assert str(game.seed) not in shown and game.nonce not in shown

    finished = await play_tokens_to_the_end(service, clock, game_id)
    outcome = get_engine("tokens").outcome(finished.state)
    assert outcome is not None
    result = result_embed(finished, get_engine("tokens"), list(outcome.ranks), "", [], outcome.scores)
    [fair] = [f for f in result.fields if f.name == "Fair play"]
    assert str(finished.seed) in (fair.value or "") and finished.nonce in (fair.value or "")
    assert finished.commitment in (fair.value or "") and f"/game record {game_id}" in (fair.value or "")


def test_a_long_game_footer_never_cuts_the_commitment_off() -> None:
    keep = "🔒 Seed commitment (SHA-256): " + "a" * 64
    footer = footer_of(Card("t", footer="x" * 3000), "Tokens · game #7 · move 3", keep=keep)
    assert len(footer) <= 2048 and footer.endswith("\n" + keep)
    game = GameRecord(id=1, guild_id=1, channel_id=1, thread_id=None, kind="tokens", host_id=1, options={},
                      status=Status.ACTIVE, version=1, seed=987654321987, state=None, deadlines=[], log=[],
                      table_message_id=None, table_message_at=None, created_at=0, updated_at=0,
                      nonce="feedfacefeedface")
    line = commitment_line(game)
    assert game.commitment in line and "987654321987" not in line and "feedface" not in line
