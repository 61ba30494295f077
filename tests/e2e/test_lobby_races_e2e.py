"""Lobby races through the fake Discord: Join, Leave and Start pressed at the same instant
while the joiners' DM checks are still on their way. Whatever the interleaving, every hand
dealt at the start reaches its own player and nobody else, and no press is answered with
"Something went wrong".

The bug this guards against: the Join handler worked out a seat number, awaited the DM
check, then stored the DM channel against that number after a Leave had renumbered the
seats — one player's hand then went to another player's DMs."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from tests.e2e.conftest import RumpusHarness, running_bot
from tests.fakediscord import FakeDiscord, FakeUser, Message

JOINED = "You joined"

#: (game, `/x new` options, the join button each of the six users presses: host first)
GAMES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("tarot", {"conference": "off"}, ["", "Join A", "Join B", "Join B", "Join A", "Join A"]),
    ("words", {}, ["", "Join", "Join", "Join", "Join", "Join"]),
    ("kniggits", {}, ["", "Join A", "Join B", "Join B", "Join A", "Join A"]),
]


def slow_join_dms(monkeypatch: pytest.MonkeyPatch, rng: random.Random) -> None:
    """Each "You joined" DM takes a random while to go out, so the DM checks of racing
    joiners finish in any order, after the Leaves and Joins pressed around them."""
    original = discord.abc.Messageable.send

    async def send(self: Any, content: Any = None, **kwargs: Any) -> Any:
        if isinstance(content, str) and content.startswith(JOINED):
            await asyncio.sleep(rng.uniform(0.0, 0.25))
        return await original(self, content, **kwargs)

    monkeypatch.setattr(discord.abc.Messageable, "send", send)


def join_label(lobby: Message, wanted: str) -> str:
    """The lobby's Join button for `wanted` (its label may carry a team's name)."""
    labels = [b for b in lobby.button_labels() if b.startswith("Join")]
    exact = [b for b in labels if b == wanted]
    if exact:
        return exact[0]
    suffix = wanted.removeprefix("Join").strip()
    return next((b for b in labels if b.endswith(f" {suffix}")), labels[0]) if suffix else labels[0]


def private_messages(player: FakeUser) -> list[Message]:
    """The game's private messages in a player's DMs: everything but the join check and pings."""
    return [m for m in player.dms() if not m.text().startswith(JOINED) and (m.embeds or m.components)]


def not_went_wrong(results: list[Any]) -> None:
    for result in results:
        if isinstance(result, BaseException):
            raise result
        assert "went wrong" not in result.text().lower(), result.text()


async def race_once(server: FakeDiscord, harness: RumpusHarness, kind: str, options: dict[str, Any],
                    joins: list[str], users: list[FakeUser], rng: random.Random) -> None:
    host, b, c, d, e = users[:5]
    lobby = (await host.slash(f"{kind} new", **options)).message
    assert lobby is not None
    not_went_wrong([await b.click(lobby, join_label(lobby, joins[1]))])
    not_went_wrong([await c.click(lobby, join_label(lobby, joins[2]))])
    # D joins, B leaves and E joins at the same instant (in an order the seed picks)
    presses: list[Callable[[], Any]] = [
        lambda: d.click(lobby, join_label(lobby, joins[3]), check=False),
        lambda: b.click(lobby, "Leave", check=False),
        lambda: e.click(lobby, join_label(lobby, joins[4]), check=False),
    ]
    rng.shuffle(presses)
    not_went_wrong(await asyncio.gather(*(press() for press in presses), return_exceptions=True))
    not_went_wrong([await b.click(lobby, join_label(lobby, joins[5]), check=False)])
    if rng.random() < 0.5:  # sometimes the host starts while the last DM checks are still out
        await server.idle()
    started = await host.click(lobby, "Start", check=False)
    not_went_wrong([started])
    game = await harness.bot.service.game_for(host.id, None)
    seated = {s.user_id for s in game.seats if not s.computer}
    players = [u for u in users if u.id in seated]
    await server.wait_for(lambda: all(private_messages(p) for p in players), what="every hand by DM")
    await server.idle(quiet=0.3)

    # each player got exactly one private message (their own hand), and nobody outside did
    for user in users:
        got = private_messages(user)
        assert len(got) == (1 if user in players else 0), (kind, user.name, [m.text()[:60] for m in got])
    # what is stored for each seat points at its own player's DMs
    stored = await harness.bot.storage.game(game.id)
    assert stored is not None
    for seat in stored.seats:
        if seat.dm_channel_id is not None:
            channel = server.world.channels[seat.dm_channel_id]
            assert channel.recipient is not None and channel.recipient.id == seat.user_id, (kind, seat)
    await host.slash("game end", channel=server.world.channels[game.home_channel_id])
    await server.idle()


@pytest.mark.parametrize(("kind", "options", "joins"), GAMES, ids=[g[0] for g in GAMES])
async def test_join_leave_start_races_never_send_a_hand_to_another_player(
        fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        kind: str, options: dict[str, Any], joins: list[str]) -> None:
    rng = random.Random(f"lobby-race-{kind}")
    slow_join_dms(monkeypatch, rng)
    async with running_bot(fake_discord, tmp_path, seed=11) as harness:
        for round_no in range(6):
            # fresh users each round, so every DM channel holds one game's messages
            users = [fake_discord.user(f"{kind}{round_no}{name}") for name in "abcde"]
            await race_once(fake_discord, harness, kind, options, joins, users, rng)


async def test_a_lobby_press_behind_a_slow_step_is_acknowledged_in_time_then_drawn(
        fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Join, Leave and Cancel are watched like moves (deferral.py): when the seat change is
    slow (a busy database, a start-up catching up), Discord still hears back within 3 s, and
    the lobby is redrawn in place once the seat is taken."""
    from runtime.service import TableService

    slow_join = TableService.join

    async def join(self: TableService, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(2.2)  # past the deferral's patience, inside Discord's window
        return await slow_join(self, *args, **kwargs)

    async with running_bot(fake_discord, tmp_path, seed=5):
        alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
        lobby = (await alice.slash("hallway new")).message
        assert lobby is not None
        monkeypatch.setattr(TableService, "join", join)
        pressed = await bob.click(lobby, "Join", check=False)
        await fake_discord.wait_for(lambda: bob.mention in lobby.text(), what="bob seated in the lobby")
        assert pressed.latency is not None and pressed.latency < 3.0
        assert pressed.response_type == 6, "deferred, then the lobby drawn in place"
        assert "went wrong" not in pressed.text().lower()
