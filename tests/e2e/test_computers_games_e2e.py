"""One person alone against computers, in each of the five games, through the fake Discord:
the host seats computers with `/<game> addbot`, starts, and plays to the end (their moves by
`/<game> do`, the computers' when their thinking time is up on a manual clock). The table
names the computers (🤖), never mentions them, shows "is thinking…" for their turns, and
the result lists them; nobody's rating moves (one human), the game counts as one against
computers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runtime.clock import ManualClock
from storage import Status
from tests.e2e.conftest import running_bot
from tests.e2e.test_computers_e2e import computers_for, play_out, seat_computers
from tests.fakediscord import FakeDiscord, FakeUser

#: game, computers beside the one human, lobby options that keep the game short, harness seed
GAMES = [
    ("hallway", 1, {}, 11),
    ("words", 1, {}, 12),
    ("tarot", 3, {}, 13),
    ("fencing", 2, {}, 14),
    ("kniggits", 1, {"rounds": 3, "size": 24}, 15),
]


def everything_said(server: FakeDiscord) -> str:
    channels = [server.general, *server.general.threads()]
    return "\n".join(m.text() for c in channels for m in c.history())


@pytest.mark.parametrize(("kind", "computers", "options", "seed"), GAMES, ids=[g[0] for g in GAMES])
async def test_one_human_plays_a_whole_game_against_computers(
        fake_discord: FakeDiscord, tmp_path: Path, kind: str, computers: int, options: dict[str, Any],
        seed: int) -> None:
    clock = ManualClock()
    alice = fake_discord.user("alice")
    with computers_for(kind):  # TEMP: a stand-in until the game's own computer lands
        await whole_game(fake_discord, tmp_path, clock, alice, kind, computers, options, seed)


async def whole_game(fake_discord: FakeDiscord, tmp_path: Path, clock: ManualClock, alice: FakeUser, kind: str,
                     computers: int, options: dict[str, Any], seed: int) -> None:
    async with running_bot(fake_discord, tmp_path, seed=seed, clock=clock) as harness:
        lobby = await seat_computers(fake_discord, alice, kind, computers, **options)
        await alice.click(lobby, "Start")
        game = await harness.bot.service.game_for(alice.id, None)
        assert sum(1 for s in game.seats if s.computer) == computers

        sent: dict[str, int] = {}
        finished = await play_out(fake_discord, harness, clock, [alice], game.id, sent=sent)
        assert finished.status is Status.FINISHED, finished.status
        assert sent.get("do", 0) + sent.get("direct", 0) > 0, "the human never moved"
        await fake_discord.wait_for(lambda: "game over" in everything_said(fake_discord), what="the result")
        await fake_discord.idle()

        said = everything_said(fake_discord)
        assert "<@-" not in said, "a computer was mentioned"
        assert "🤖 Bot 1" in said
        assert await harness.bot.storage.player_ratings(fake_discord.guild.id, alice.id) == []
        record = await harness.bot.storage.computer_record(fake_discord.guild.id, alice.id)
        assert record.get(kind, (0, 0))[0] == 1
