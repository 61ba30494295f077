"""Computer players in lobbies, through the fake Discord: the host adds them by the 🤖 button
(a name form) or `/<game> addbot`, names are cleaned or refused, a full table has no room, the
host removes them by the menu or `/<game> removebot`, nobody else may; in a team lobby to
either team. The helpers here drive whole games with computers (test_computers_games_e2e.py)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from cogs.table import codec
from cogs.table.controls import controls_for
from cogs.table.registry import ui_for
from cogs.table.ui import Button, FormButton, Seat, Select, TableInfo
from games.computer import Asked, Policy, decision_rng
from games.registry import POLICIES, get_engine, get_policy
from runtime.clock import ManualClock
from storage import Status
from tests.e2e.conftest import RumpusHarness
from tests.fakediscord import FakeDiscord, FakeUser, Message

NAME = "Name (optional)"
ROBOT = "🤖"


class StandIn(Policy):
    """A stand-in computer for a game whose real policy has not landed yet: a random one of the
    controls its seat's own screen offers (drawn from its view alone, as a player sees them);
    with none, it declines and the runtime plays the wait's default."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def choose(self, view: dict[str, Any], asked: Asked, rng: random.Random) -> Any:
        info = TableInfo(0, [Seat(n, n + 1, f"Seat {n + 1}") for n in range(8)])
        screen = ui_for(self.kind).private(view, asked.seat, info)
        actions = [c.action for c in (screen.controls if screen else []) if isinstance(c, Button) and not c.disabled]
        actions += [choice.action for c in (screen.controls if screen else [])
                    if isinstance(c, Select) and c.pick == 1 for choice in c.choices]
        if not actions:
            raise NotImplementedError("a stand-in with nothing to press: the runtime plays the default")
        return rng.choice(actions)


@contextlib.contextmanager
def computers_for(*kinds: str) -> Iterator[None]:
    """These games offer computers while the block runs: their real policy, else a stand-in
    (removed afterwards, so no other test sees it)."""
    added = [kind for kind in kinds if get_policy(kind) is None]
    for kind in added:
        POLICIES[kind] = StandIn(kind)
    try:
        yield
    finally:
        for kind in added:
            POLICIES.pop(kind, None)


@pytest.fixture(autouse=True)
def computers_offered() -> Iterator[None]:
    with computers_for("words", "tarot"):
        yield


def computer_lines(lobby: Message) -> list[str]:
    return [line for line in lobby.text().splitlines() if ROBOT in line]


# -- adding and removing -----------------------------------------------------------------------------
async def test_the_host_adds_named_and_default_computers_and_nobody_else_may(
        fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lobby = (await alice.slash("words new")).message
    assert lobby is not None
    assert "Add computer" in lobby.button_labels()

    # only the host: the button answers before any form opens, the command likewise
    refused = await bob.click(lobby, "Add computer")
    assert refused.ephemeral and "Only the host" in refused.content and refused.modal is None
    await bob.click(lobby, "Join")
    refused = await bob.slash("words addbot", name="Sneaky")
    assert refused.ephemeral and "host" in refused.content.lower()
    assert computer_lines(lobby) == []

    # the button opens the name form; the computer sits, named, never mentioned
    opened = await alice.click(lobby, "Add computer")
    assert opened.modal is not None and "computer" in opened.modal["title"].lower()
    await alice.submit({NAME: "  Ada   Lovelace "})
    await fake_discord.wait_for(lambda: computer_lines(lobby), what="Ada in the lobby")
    [ada] = computer_lines(lobby)
    assert "🤖 Ada Lovelace" in ada and "<@" not in ada

    # an empty name gets a default one; the command answers only the host
    await alice.click(lobby, "Add computer")
    await alice.submit({NAME: ""})
    await fake_discord.wait_for(lambda: len(computer_lines(lobby)) == 2, what="a default-named computer")
    said = await alice.slash("words addbot")
    assert said.ephemeral and ROBOT in said.content
    await fake_discord.wait_for(lambda: len(computer_lines(lobby)) == 3, what="a third computer")
    names = [line.split(ROBOT, 1)[1].strip() for line in computer_lines(lobby)]
    assert len(set(names)) == 3, names  # names are unique at a table

    # junk names: cleaned of mentions and markdown, or refused when nothing is left
    junk = await alice.slash("words addbot", name="!!! *** ###")
    assert junk.ephemeral and "name" in junk.content.lower()
    too_long = await alice.slash("words addbot", name="A" * 40)
    assert too_long.ephemeral and "24" in too_long.content
    cleaned = await alice.slash("words addbot", name="@everyone **Bo**")
    assert cleaned.ephemeral and "@everyone" not in cleaned.content
    await fake_discord.wait_for(lambda: len(computer_lines(lobby)) == 4, what="a cleaned name")
    assert "🤖 everyone Bo" in lobby.text() and "**Bo**" not in lobby.text()

    # a full table (six seats: alice, bob, four computers): no button, the command refused
    assert "Add computer" not in lobby.button_labels()
    full = await alice.slash("words addbot", name="Extra")
    assert full.ephemeral and "full" in full.content.lower()

    # removing: the host's menu; anyone else is refused; the command by name
    refused = await bob.select(lobby, "🤖 Ada Lovelace", menu="Remove a computer…")
    assert refused.ephemeral and "host" in refused.content.lower()
    await alice.select(lobby, "🤖 Ada Lovelace", menu="Remove a computer…")
    await fake_discord.wait_for(lambda: len(computer_lines(lobby)) == 3, what="Ada removed")
    assert "Ada Lovelace" not in lobby.text() and "Add computer" in lobby.button_labels()
    # a name already at the table is told apart
    twin = await alice.slash("words addbot", name="everyone bo")
    assert twin.ephemeral and "everyone bo 2" in twin.content
    await fake_discord.wait_for(lambda: len(computer_lines(lobby)) == 4, what="the twin seated")
    choices = await alice.autocomplete("words removebot", "name", "every")
    assert [c["name"] for c in choices] == ["🤖 everyone Bo", "🤖 everyone bo 2"]
    gone = await alice.slash("words removebot", name="everyone Bo")
    assert gone.ephemeral and "everyone Bo" in gone.content
    await fake_discord.wait_for(lambda: len(computer_lines(lobby)) == 3, what="Bo removed")
    assert "🤖 everyone bo 2" in lobby.text()
    missing = await alice.slash("words removebot", name="Nobody")
    assert missing.ephemeral and "no computer" in missing.content.lower()


async def test_forged_and_outdated_computer_components_are_answered(fake_discord: FakeDiscord, bot: Any) -> None:
    alice = fake_discord.user("alice")
    lobby = (await alice.slash("words new")).message
    assert lobby is not None
    forged = await alice.forge(lobby, "rb:add:999999:7")
    assert forged.ephemeral and "no longer valid" in forged.content
    unreadable = await alice.forge(lobby, "rb:zap:1")
    assert unreadable.ephemeral and "no longer valid" in unreadable.content
    modal = await alice.forge_modal("rb:name:1:x")
    assert modal.ephemeral and "no longer valid" in modal.content
    await alice.click(lobby, "Cancel")
    closed = await alice.forge_modal("rb:name:1", [{"type": 1, "components": [
        {"type": 4, "custom_id": "name", "value": "Late"}]}])
    assert closed.ephemeral and "closed" in closed.content.lower()


async def test_a_team_lobby_takes_computers_on_either_team(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lobby = (await alice.slash("tarot new")).message
    assert lobby is not None
    labels = lobby.button_labels()
    assert "Add computer to A" in labels and "Add computer to B" in labels

    await alice.click(lobby, "Add computer to B")
    await alice.submit({NAME: "Bea"})
    await fake_discord.wait_for(lambda: "🤖 Bea" in lobby.text(), what="Bea on B")
    said = await alice.slash("tarot addbot", name="Cy", team="B")
    assert said.ephemeral and "Team B" in said.content
    await fake_discord.wait_for(lambda: "Team B (2/2)" in lobby.text(), what="B full")
    text = lobby.text()
    assert text.index("🤖 Bea") > text.index("Team B") and text.index("🤖 Cy") > text.index("Team B")
    assert "Add computer to B" not in lobby.button_labels()
    full = await alice.slash("tarot addbot", team="B")
    assert full.ephemeral and "full" in full.content.lower()

    # left out, the team: the one with most room (A); then bob finds A full too
    said = await alice.slash("tarot addbot", name="Di")
    assert said.ephemeral and "Team A" in said.content
    await fake_discord.wait_for(lambda: "Team A (2/2)" in lobby.text(), what="A full")
    assert not any(label.startswith("Add computer") for label in lobby.button_labels())
    no_room = await bob.click(lobby, "Join A")
    assert no_room.ephemeral and "full" in no_room.content.lower()

    # the host takes one out of A: bob can sit
    await alice.select(lobby, "🤖 Di", menu="Remove a computer…")
    await fake_discord.wait_for(lambda: "Team A (1/2)" in lobby.text(), what="Di removed")
    await bob.click(lobby, "Join A")
    assert "Team A (2/2)" in lobby.text()


# -- helpers for whole games with computers ------------------------------------------------------------
async def seat_computers(server: FakeDiscord, host: FakeUser, kind: str, count: int, **options: Any) -> Message:
    """`/<kind> new` by the host, then `count` computers by `/<kind> addbot`."""
    lobby = (await host.slash(f"{kind} new", **options)).message
    assert lobby is not None
    for n in range(count):
        said = await host.slash(f"{kind} addbot", name=f"Bot {n + 1}")
        assert said.ephemeral and ROBOT in said.content, said.content
    await server.wait_for(lambda: len(computer_lines(lobby)) == count, what=f"{count} computers seated")
    return lobby


async def human_acts(server: FakeDiscord, harness: RumpusHarness, player: FakeUser, game_id: int,
                     sent: dict[str, int] | None = None) -> bool:
    """The human's move, chosen as the game's own computer would choose it (so the game moves
    on sensibly): by `/<game> do` when a control the table or hand offers sends exactly it (a
    form's with its value); else — an army list, a deployment, a two-step menu — through the
    action loop directly, as the form would. False when the human is not awaited."""
    service = harness.bot.service
    game = await service.game(game_id)
    seat = game.seat_of(player.id)
    if game.status is not Status.ACTIVE or seat is None:
        return False
    keys = tuple(d["key"] for d in game.deadlines if d["seat"] == seat)
    if not keys:
        return False
    engine, policy = get_engine(game.kind), get_policy(game.kind)
    assert policy is not None and game.state is not None
    view = engine.view(game.state, seat)
    rng = decision_rng(game.seed, game.version, seat)
    try:
        wanted = policy.choose(view, Asked(seat, keys, service.clock.now()), rng)
    except NotImplementedError:  # a stand-in policy: a legal action of the stored state
        wanted = rng.choice(engine.legal_actions(game.state, seat))
    packed, value = pick_control(controls_for(game, seat), wanted)
    version = game.version
    if packed is not None:
        result = await player.slash(f"{game.kind} do", action=packed,
                                    **({"value": value} if value is not None else {}))
        assert result.acknowledged, result.content
        assert not (result.ephemeral and "not one of your options" in result.content), (wanted, result.content)
        way = "do"
    else:
        applied = await service.act(game_id, player.id, wanted)
        await harness.bot.tables.publish(applied)
        way = "direct"
    if sent is not None:
        sent[way] = sent.get(way, 0) + 1
    await server.wait_for(lambda: game.version > version or game.status is not Status.ACTIVE,
                          what=f"{player.name}'s move counted")
    return True


def pick_control(offered: list[tuple[str, Any, dict[str, Any]]], wanted: dict[str, Any]) -> tuple[str | None, str | None]:
    """The `/do` action (and value) of the control that sends exactly `wanted`, if any."""
    for _label, control, action in offered:
        if action == wanted and isinstance(control, Button | Select):
            return codec.pack(action), None
        if isinstance(control, FormButton) and control.fields:
            field = control.fields[0].name
            if len(control.fields) == 1 and field in wanted and {**action, field: wanted[field]} == wanted:
                return codec.pack(action), str(wanted[field])
    return None, None


async def computers_move(harness: RumpusHarness, clock: ManualClock, game_id: int) -> bool:
    """Move the manual clock to the earliest deadline that is not a human's and fire it (a
    computer's move, or the game's own timer). False when only humans are awaited."""
    game = await harness.bot.service.game(game_id)
    if game.status is not Status.ACTIVE:
        return False
    humans = {s.seat for s in game.seats if s.user_id > 0 and not getattr(s, "computer", False)}
    due = [d["at"] for d in game.deadlines if d.get("at") is not None and d["seat"] not in humans]
    if not due:
        return False
    at = min(due)
    if at > clock.now():
        clock.advance(at - clock.now())
    await harness.bot.timers.fire_due()
    return True


async def play_out(server: FakeDiscord, harness: RumpusHarness, clock: ManualClock, humans: list[FakeUser],
                   game_id: int, *, limit: int = 3000, sent: dict[str, int] | None = None,
                   until: Any = None) -> Any:
    """Play the game to its end (or until `until(game)` holds): the humans as above, the
    computers by their deadlines; when only a human's own deadline is left, time moves to it."""
    service = harness.bot.service
    for _ in range(limit):
        game = await service.game(game_id)
        if game.status is not Status.ACTIVE or (until is not None and until(game)):
            return game
        acted = False
        for human in humans:
            if await human_acts(server, harness, human, game_id, sent):
                acted = True
                break
        if acted or await computers_move(harness, clock, game_id):
            continue
        waits = [d["at"] for d in game.deadlines if d.get("at") is not None]
        assert waits, f"game {game_id} waits for nothing with a deadline: {game.deadlines}"
        clock.advance(max(0.0, min(waits) - clock.now()))
        await harness.bot.timers.fire_due()
    raise AssertionError(f"game {game_id} did not end in {limit} steps")
