"""A verifiable record, end to end on the test-only Tokens game with fixed seeds: the table
shows the seed's commitment from the start, no message shows the seed before the end, the
result reveals it, `/game record` hands out a JSON file that games.replay (library and
command line) verifies, and a tampered copy fails. Junk, unknown, foreign and unfinished
ids are refused ephemerally."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from games.record import seed_commitment, state_digest
from games.registry import get_engine
from games.replay import verify
from tests.e2e.conftest import running_bot
from tests.e2e.test_table_e2e import open_table, play_turn, result_message, table_message
from tests.fakediscord import FakeDiscord, Message

ROOT = Path(__file__).resolve().parents[2]
COMMITMENT = re.compile(r"Seed commitment \(SHA-256\): ([0-9a-f]{64})")


def every_message(server: FakeDiscord) -> list[Message]:
    """Everything the bot has shown anyone: channels, threads, DMs and ephemerals."""
    return [m for m in server.world.messages.values() if not m.deleted]


def showing(server: FakeDiscord, text: str) -> list[Message]:
    return [m for m in every_message(server) if text in m.text()]


def replay_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games.replay", str(path), "--engine-module",
                           "tests.engines.tokens"], cwd=ROOT, capture_output=True, text=True,
                          encoding="utf-8", timeout=60)


async def fetch_record(result: Any) -> tuple[Message, dict[str, Any]]:
    """The ephemeral answer of `/game record` and its JSON attachment."""
    await result.done()
    message = result.message
    assert message is not None and message.ephemeral
    [attachment] = message.attachments
    assert attachment.filename.endswith(".json")
    return message, json.loads(attachment.data)


async def test_a_game_played_to_the_end_gives_a_record_that_replays(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with running_bot(fake_discord, tmp_path, seed=2024) as harness:
        bot = harness.bot
        alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
        await open_table(fake_discord, alice, bob, carol, hand=2)
        game = await bot.storage.latest_finished_game(fake_discord.guild.id)
        assert game is None
        live = await bot.storage.game(1)
        assert live is not None and live.status.value == "active"
        seed, nonce = str(live.seed), live.nonce

        # From the start, the table shows the whole commitment, and nothing shows the seed.
        table = table_message(fake_discord)
        assert table is not None
        [shown] = COMMITMENT.findall(table.text())
        assert shown == live.commitment == seed_commitment(live.seed, nonce)
        players = [alice, bob, carol]
        while result_message(fake_discord) is None:
            assert not showing(fake_discord, seed) and not showing(fake_discord, nonce)
            await play_turn(fake_discord, players)

        # The result reveals the seed and the nonce; it is the only message that does.
        result = result_message(fake_discord)
        assert result is not None and "Fair play" in result.text()
        assert showing(fake_discord, seed) == [result] and showing(fake_discord, nonce) == [result]
        assert shown in result.text()
        assert COMMITMENT.findall(table.text()) == [shown]  # the finished table keeps it

        # /game record (the latest finished game by default) and /game record id:1 agree.
        answer, record = await fetch_record(await bob.slash("game record"))
        assert f"game #{live.id}" in answer.text() and "✅" in answer.text()
        _, by_id = await fetch_record(await carol.slash("game record", id="#1"))
        assert by_id == record
        assert answer.visible_to == bob.id  # nobody else gets the file
        assert record["engine"] == {"name": "tokens", "title": "Tokens", "version": 1}
        assert record["options"] == {"hand": 2, "teams": False}
        assert [(s["seat"], s["user_id"], s["name"]) for s in record["seats"]] == [
            (0, str(alice.id), "alice"), (1, str(bob.id), "bob"), (2, str(carol.id), "carol")]
        assert (str(record["seed"]), record["nonce"], record["commitment"]) == (seed, nonce, shown)
        assert len(record["actions"]) == 6 and all(a["seat"] is not None for a in record["actions"])
        final = await bot.storage.game(live.id)
        assert final is not None and final.state is not None
        assert record["outcome"] == get_engine("tokens").outcome(final.state).to_json()
        assert record["final_state_sha256"] == state_digest(final.state)

        # The library and the command line both replay it; tampered copies fail with exit 1.
        verdict = verify(record, shown=shown)
        assert verdict.ok, verdict.report()
        assert verdict.digest == record["final_state_sha256"] and verdict.outcome == record["outcome"]
        path = tmp_path / "rumpus-game-1.json"
        path.write_bytes(answer.attachments[0].data)
        done = replay_cli(path)
        assert done.returncode == 0, done.stderr
        assert record["final_state_sha256"] in done.stdout and "outcome: ok" in done.stdout

        moved = json.loads(path.read_text(encoding="utf-8"))
        first = moved["actions"][0]["action"]
        first["token"] = "s0t1" if first["token"] == "s0t0" else "s0t0"  # seat 0 plays its other token first
        (tmp_path / "action.json").write_text(json.dumps(moved), encoding="utf-8")
        done = replay_cli(tmp_path / "action.json")
        assert done.returncode == 1 and "MISMATCH" in done.stderr

        reseeded = dict(record, seed=record["seed"] + 1)
        (tmp_path / "seed.json").write_text(json.dumps(reseeded), encoding="utf-8")
        done = replay_cli(tmp_path / "seed.json")
        assert done.returncode == 1 and "wrong commitment" in done.stderr


async def test_record_refusals_are_ephemeral_sentences(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with running_bot(fake_discord, tmp_path, seed=7) as harness:
        bot = harness.bot
        alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
        none_yet = await alice.slash("game record")
        assert none_yet.ephemeral and "No game has finished in this server" in none_yet.content

        await open_table(fake_discord, alice, bob, hand=1)
        live = await bot.storage.game(1)
        assert live is not None
        running = await alice.slash("game record", id="1")
        assert running.ephemeral and "still being played" in running.content
        assert live.commitment in running.content and str(live.seed) not in running.content

        for junk in ("abc", "1; DROP TABLE games", "-1", "99999999999999999999999"):
            refused = await alice.slash("game record", id=junk)
            assert refused.ephemeral and "is not a game number" in refused.content, junk
        unknown = await alice.slash("game record", id="4242")
        assert unknown.ephemeral and "There is no game #4242" in unknown.content

        foreign_id = await bot.storage.create_game(
            guild_id=fake_discord.guild.id + 1, channel_id=5, kind="tokens", host_id=alice.id,
            host_name="alice", options={}, seed=1, nonce="ab", now=0.0)
        foreign = await alice.slash("game record", id=str(foreign_id))
        assert foreign.ephemeral and "not played in this server" in foreign.content
        assert not showing(fake_discord, str(live.seed))
