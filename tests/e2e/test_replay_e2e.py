"""`/game replay` end to end: a Hallway game played to its end (one person against a computer,
on a manual clock), then replayed by someone else in the server: the viewer is theirs alone,
opens at the start (a game still being played is refused), pages with ▶ ◀ ⏭ and "Jump to a round…", keeps paging after a bot restart
(the step lives in each button), and its last step is the recorded end: as many steps as the
record has actions, the result's reason, and the final state's digest matching."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from games.record import HANDOFF
from runtime.clock import ManualClock
from storage import Status
from tests.e2e.conftest import running_bot
from tests.e2e.test_computers_e2e import play_out, seat_computers
from tests.fakediscord import FakeDiscord, FakeUser, Message

STEP = re.compile(r"step (\d+) of (\d+)")


def step_of(message: Message) -> tuple[int, int]:
    [(at, last)] = STEP.findall(message.text())
    return int(at), int(last)


def pager_button(message: Message, verb: str) -> str:
    """The custom_id of the viewer's ⏮/◀/▶/⏭ button (`first`, `prev`, `next`, `last`)."""
    [found] = [b["custom_id"] for b in message.buttons() if b["custom_id"].endswith(f":{verb}")]
    return found


async def page(server: FakeDiscord, user: FakeUser, viewer: Message, verb: str) -> tuple[int, int]:
    before = viewer.text()
    result = await user.click(viewer, pager_button(viewer, verb))
    assert result.acknowledged
    await server.wait_for(lambda: viewer.text() != before, what=f"the viewer after {verb}")
    return step_of(viewer)


async def finished_hallway(server: FakeDiscord, harness: Any, clock: ManualClock, alice: FakeUser) -> int:
    lobby = await seat_computers(server, alice, "hallway", 1)
    await alice.click(lobby, "Start")
    game = await harness.bot.service.game_for(alice.id, None)
    live = await alice.slash("game replay", id=str(game.id))  # its seed and hands are still secret
    assert live.ephemeral and "still being played" in live.content and "step" not in live.content
    finished = await play_out(server, harness, clock, [alice], game.id)
    assert finished.status is Status.FINISHED
    await server.idle()
    return int(game.id)


async def test_a_replay_pages_to_the_recorded_end_and_survives_a_restart(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    clock = ManualClock()
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, tmp_path, seed=11, clock=clock) as harness:
        game_id = await finished_hallway(fake_discord, harness, clock, alice)
        answer = await (await bob.slash("game record", id=str(game_id))).done()
        record = json.loads(answer.message.attachments[0].data)
        moves = [a for a in record["actions"] if a["action"]["type"] != HANDOFF]

        opened = await (await bob.slash("game replay", id=f"#{game_id}")).done()
        viewer = opened.message
        assert viewer is not None and viewer.ephemeral and viewer.visible_to == bob.id
        assert step_of(viewer) == (0, len(moves))
        assert "The game begins." in viewer.text() and viewer.attachments, viewer.text()
        assert [b.get("disabled", False) for b in viewer.buttons()] == [True, True, False, False]

        assert await page(fake_discord, bob, viewer, "next") == (1, len(moves))
        rounds = [o for o in viewer.selects()[0]["options"]]
        assert len(rounds) > 1 and rounds[0]["label"] == "Round 1", rounds
        third = rounds[2] if len(rounds) > 2 else rounds[-1]
        before = viewer.text()
        await bob.select(viewer, third["label"])
        await fake_discord.wait_for(lambda: viewer.text() != before, what="the jump")
        assert step_of(viewer)[0] == int(third["value"]) and f"📍 {third['label']}" in viewer.text()

        harness_restarted = await harness.restart()
        assert harness_restarted is not None
        assert await page(fake_discord, bob, viewer, "last") == (len(moves), len(moves))
        end = viewer.text()
        assert "Game over." in end and "final state's SHA-256 matches" in end, end
        assert [b.get("disabled", False) for b in viewer.buttons()] == [False, False, True, True]
        assert await page(fake_discord, bob, viewer, "prev") == (len(moves) - 1, len(moves))
        assert "Game over." not in viewer.text()

        refused = await bob.slash("game replay", id="4242")
        assert refused.ephemeral and "There is no game #4242" in refused.content
        await fake_discord.idle()
