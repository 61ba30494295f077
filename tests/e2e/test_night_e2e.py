"""A night's scoreboard end to end: alice starts a night in #general; three games of different
kinds are played to their end there — Two Fat Dudes (alice against bob), Fighting Words (alice,
bob and a computer), then, after the bot restarts, Tarot (alice and bob partners against two
computers). Each result shows the night's table under it, counted as docs say (1st 3 points,
2nd 1, partners each scoring their team's place, computers placed but never listed) from the
stored results; `/night` shows it (from a game's thread too); only the starter (or Manage
Server) ends it, and the end crowns the winner with a picture of the evening."""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from runtime.clock import ManualClock
from storage import Status
from tests.e2e.conftest import RumpusHarness, running_bot
from tests.e2e.test_computers_e2e import play_out, seat_computers
from tests.fakediscord import FakeDiscord, FakeUser, Message

SEED = 2304
NIGHT_TITLE = re.compile(r"🌙 Tonight — after (\d+) games?")


def result_in_thread(server: FakeDiscord, thread_id: int) -> Message | None:
    thread = next((t for t in server.general.threads() if t.id == thread_id), None)
    if thread is None:
        return None
    return next((m for m in thread.history() if m.author.id == server.world.bot.id
                 and "Rematch" in m.button_labels()), None)


def night_shown(message: Message) -> dict[str, str]:
    """The night embed under a result (or on its own): its title and fields."""
    embed = next(e for e in message.embeds if e.get("title", "").startswith("🌙"))
    return {"title": embed["title"], **{f["name"]: f["value"] for f in embed.get("fields", [])}}


def points_by_hand(results: list[list[tuple[int, int, int | None]]]) -> dict[int, int]:
    """Each person's points over the games' (user, rank, team) rows: a team is one place, a
    place is one more than the places strictly ahead, 1st scores 3 and 2nd 1."""
    total: dict[int, int] = {}
    for rows in results:
        units: dict[object, int] = {}
        for user, rank, team in rows:
            units[("t", team) if team is not None else ("u", user)] = rank
        for user, rank, _team in rows:
            place = 1 + sum(1 for r in units.values() if r < rank)
            if user > 0:
                total[user] = total.get(user, 0) + {1: 3, 2: 1}.get(place, 0)
    return total


async def game_rows(harness: RumpusHarness, game_id: int) -> list[tuple[int, int, int | None]]:
    game = await harness.bot.storage.game(game_id)
    assert game is not None and game.status is Status.FINISHED
    recent = {}  # the ranks as recorded (the results table)
    for seat in game.seats:
        rows = await harness.bot.storage.recent_results(game.guild_id, seat.user_id, limit=20)
        recent.update({(r.game_id, r.user_id): r for r in rows})
    return [(s.user_id, recent[(game_id, s.user_id)].rank, recent[(game_id, s.user_id)].team)
            for s in game.seats]


def standings_points(shown: dict[str, str], people: list[FakeUser]) -> dict[int, int]:
    found = {}
    for person in people:
        line = next((line for line in shown["Standings"].splitlines() if f"<@{person.id}>" in line), None)
        if line is not None:
            found[person.id] = int(re.search(r"\*\*(\d+) pts?\*\*", line).group(1))  # type: ignore[union-attr]
    return found


async def finish(server: FakeDiscord, harness: RumpusHarness, clock: ManualClock, humans: list[FakeUser],
                 lobby: Message, host: FakeUser) -> int:
    await host.click(lobby, "Start")
    game = await harness.bot.service.game_for(host.id, None)
    finished = await play_out(server, harness, clock, humans, game.id)
    assert finished.status is Status.FINISHED
    await server.idle()
    return game.id


async def test_a_night_over_three_kinds_of_game_with_a_restart_in_the_middle(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    clock = ManualClock()
    alice, bob, carol = fake_discord.user("alice"), fake_discord.user("bob"), fake_discord.user("carol")
    async with running_bot(fake_discord, tmp_path, seed=SEED, clock=clock) as harness:
        started = await alice.slash("night", action="start")
        assert not started.ephemeral and "🌙 Game night in" in started.content, started.content
        again = await bob.slash("night", action="start")
        assert again.ephemeral and "A night is already going" in again.content
        shown = await carol.slash("night")
        assert "No game has finished yet tonight." in shown.text()

        rows: list[list[tuple[int, int, int | None]]] = []
        # 1: Two Fat Dudes, alice against bob
        lobby = (await alice.slash("hallway new")).message
        assert lobby is not None
        await bob.click(lobby, "Join")
        first = await finish(fake_discord, harness, clock, [alice, bob], lobby, alice)
        rows.append(await game_rows(harness, first))
        game = await harness.bot.storage.game(first)
        result = await fake_discord.wait_for(lambda: result_in_thread(fake_discord, game.thread_id), what="result 1")
        night = night_shown(result)
        assert night["title"] == "🌙 Tonight — after 1 game"
        assert standings_points(night, [alice, bob]) == points_by_hand(rows)
        assert sorted(points_by_hand(rows).values()) == [1, 3]

        # 2: Fighting Words, alice, bob and a computer
        lobby = await seat_computers(fake_discord, alice, "words", 1)
        await bob.click(lobby, "Join")
        second = await finish(fake_discord, harness, clock, [alice, bob], lobby, alice)
        rows.append(await game_rows(harness, second))
        game = await harness.bot.storage.game(second)
        result = await fake_discord.wait_for(lambda: result_in_thread(fake_discord, game.thread_id), what="result 2")
        assert night_shown(result)["title"] == "🌙 Tonight — after 2 games"
        assert "🤖" not in night_shown(result)["Standings"]  # a computer is placed, never listed

        # the bot restarts mid-night: the night is stored, not remembered
        await harness.restart()
        shown = await carol.slash("night")
        night = night_shown(shown.message)
        assert night["title"] == "🌙 Tonight — after 2 games"
        assert standings_points(night, [alice, bob]) == points_by_hand(rows)
        assert "Fighting Words" in night["Games"] and "Two Fat Dudes" in night["Games"]

        # 3: Tarot, alice and bob partners against two computers
        lobby = (await alice.slash("tarot new")).message
        assert lobby is not None
        await bob.click(lobby, "Join A")
        for name in ("Cy", "Di"):
            said = await alice.slash("tarot addbot", name=name, team="B")
            assert said.ephemeral
        await alice.click(lobby, "Start")
        tarot = await harness.bot.service.game_for(alice.id, None)
        thread = await fake_discord.wait_for(lambda: next(
            (t for t in fake_discord.general.threads() if (t.name or "").endswith(f" #{tarot.id}")), None), what="its thread")
        # `/night` in the game's thread shows the night of the channel it hangs from
        in_thread = await bob.slash("night", channel=thread)
        assert night_shown(in_thread.message)["title"] == "🌙 Tonight — after 2 games"
        finished = await play_out(fake_discord, harness, clock, [alice, bob], tarot.id)
        assert finished.status is Status.FINISHED
        await fake_discord.idle()
        rows.append(await game_rows(harness, tarot.id))
        result = await fake_discord.wait_for(lambda: result_in_thread(fake_discord, tarot.thread_id),
                                             what="result 3")
        night = night_shown(result)
        assert night["title"] == "🌙 Tonight — after 3 games"
        totals = points_by_hand(rows)
        assert standings_points(night, [alice, bob]) == totals
        # partners share their team's place: the tarot game gave alice and bob the same points
        tarot_points = points_by_hand(rows[2:])
        assert tarot_points[alice.id] == tarot_points[bob.id] in (1, 3)

        # only the starter (or Manage Server) ends the night
        refused = await carol.slash("night", action="end")
        assert refused.ephemeral and f"Only <@{alice.id}>, who started the night" in refused.content
        ended = await alice.slash("night", action="end")
        await ended.done()
        message = ended.message
        assert message is not None and not message.ephemeral
        best = max(totals.values())
        winners = [u for u, p in totals.items() if p == best]
        crowned = message.embeds[0]["description"].splitlines()[0]
        assert message.embeds[0]["title"] == "🌙 The night is over"
        assert crowned.startswith("🏆") and " the night" in crowned and f"with {best} points" in crowned, crowned
        assert all(f"<@{u}>" in crowned for u in winners) and "from 3 games" in crowned, crowned
        [picture] = message.attachments
        assert picture.filename == "night.png"
        image = Image.open(io.BytesIO(picture.data))
        assert image.format == "PNG" and image.width == 800
        assert message.embeds[0].get("image", {}).get("url") == "attachment://night.png"
        nobody = await alice.slash("night")
        assert nobody.ephemeral and "No night is going" in nobody.content


async def test_manage_server_may_end_anyones_night_and_an_empty_night_has_no_winner(
        fake_discord: FakeDiscord, bot: object) -> None:
    carol, mod, eve = fake_discord.user("carol"), fake_discord.user("mod"), fake_discord.user("eve")
    await carol.slash("night", action="start")
    refused = await eve.slash("night", action="end")
    assert refused.ephemeral and "Manage Server" in refused.content
    mod.grant("manage_guild")
    ended = await mod.slash("night", action="end")
    await ended.done()
    assert ended.message is not None and not ended.message.ephemeral
    assert "no game finished, so nobody won" in ended.message.text() and not ended.message.attachments
    again = await eve.slash("night", action="start")  # the channel is free for another night
    assert not again.ephemeral and f"started by <@{eve.id}>" in again.content
