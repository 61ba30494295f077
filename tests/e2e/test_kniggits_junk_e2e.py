"""Kniggits through the fake Discord, as players met it in play-testing (issue 20, items 12
and 13): army and deployment lines with superscript digits or 5,000-digit numbers, by slash
command and by form, are refused citing rule K2 with the line that could not be read (they
were "Something went wrong"); the same turn in the turning phase pressed twice at once is
applied once (it was stored twice, listed twice in `turned` and logged twice)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from games.kniggits import moves
from tests.e2e.conftest import running_bot
from tests.e2e.test_kniggits_e2e import form, options_of, panel_of, press, start_battle, table_of
from tests.fakediscord import FakeDiscord, FakeUser

SEED = 2020
HUGE = "9" * 5_000


def refused_k2(result: object, line: str) -> None:
    content = getattr(result, "content", "") or ""
    assert getattr(result, "ephemeral", False), content
    assert "(rule K2)" in content and f"`{line}`" in content, content
    assert "went wrong" not in content


async def engage(player: FakeUser, harness: object, kid: str, enemy: str, thread: object) -> None:
    """`/kniggits move` the kniggit to its cheapest cell engaging `enemy` (the engine's own menu)."""
    game = await harness.bot.service.game_for(player.id, None)  # type: ignore[attr-defined]
    k = next(k for k in game.state["kniggits"] if k["id"] == kid)
    to = next(d["cell"] for d in moves.destinations(game.state, k) if d["tag"] == "engage" and d["enemy"] == enemy)
    moved = await player.slash("kniggits move", id=kid, to=f"{to[0]},{to[1]}", channel=thread)
    assert not (moved.ephemeral and "cannot" in moved.content), moved.content


async def test_junk_lines_are_refused_citing_k2_and_a_double_turn_counts_once(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    server = fake_discord
    alice, bob = server.user("alice"), server.user("bob")
    async with running_bot(server, tmp_path, seed=SEED) as harness:
        await start_battle(server, [alice, bob], ["A", "B"], size=24, preset="open", budget=30)
        thread = table_of(server).channel
        for captain in (alice, bob):
            await press(server, captain, lambda: table_of(server), "Accept map")
        # 12: the army by command and by form
        refused_k2(await alice.slash("kniggits army", lines="Lance ² 2 2", channel=thread), "Lance ² 2 2")
        said = await alice.slash("kniggits army", lines=f"Lance 2 2 2; Page {HUGE} 1 1", channel=thread)
        refused_k2(said, "Page " + "9" * 34 + "…")
        refused_k2(await form(server, bob, lambda: panel_of(bob), "Write my army", lines="Brute ²,1,1"), "Brute ²,1,1")
        await alice.slash("kniggits army", lines="Lance 6 1 1; Page 6 1 1", channel=thread)
        await bob.slash("kniggits army", lines="Brute 6 1 1", channel=thread)
        for player in (alice, bob):
            await press(server, player, lambda p=player: panel_of(p), "Lock my army")
        # 12: the deployment by command and by form
        await server.wait_for(lambda: alice.dms() and "Lock deployment" in (panel_of(alice).button_labels()),
                              what="the deployment panel")
        refused_k2(await alice.slash("kniggits deploy", lines="A1 ²,3", channel=thread), "A1 ²,3")
        refused_k2(await alice.slash("kniggits deploy", lines=f"A1 12,6; A2 {HUGE},6", channel=thread),
                   "A2 " + "9" * 36 + "…")
        game = await harness.bot.service.game_for(alice.id, None)
        version = game.version
        answer = await form(server, alice, lambda: panel_of(alice), "Place kniggits…", lines="A1 12,6\nA2 ３,6")
        refused_k2(answer, "A2 ３,6")
        assert game.version == version
        await alice.slash("kniggits deploy", lines="A1 11,6; A2 13,6", channel=thread)
        await bob.slash("kniggits deploy", lines="front", channel=thread)
        for player in (alice, bob):
            await press(server, player, lambda p=player: panel_of(p), "Lock deployment")
        for _ in range(2):
            await press(server, alice, lambda: table_of(server), "Rock")
            await press(server, bob, lambda: table_of(server), "Scissors")
        await server.wait_for(lambda: "Move" in table_of(server).button_labels(), what="the move phase")
        # 13: A1 and A2 engage B1; bob turns B1 with two presses of the same option at once
        await engage(alice, harness, "A1", "B1", thread)
        await engage(alice, harness, "A2", "B1", thread)
        await alice.slash("kniggits done", channel=thread)
        assert game.state["phase"] == "turning", game.state["phase"]
        panel = await server.wait_for(lambda: (p := panel_of(bob)) and options_of(p, "B1") and p,
                                      what="bob's turning menu")
        label = next(o for o in options_of(panel, "B1") if o.startswith("B1 faces A2"))
        menu = next(m["custom_id"] for m in panel.selects() if str(m.get("placeholder", "")).startswith("B1"))
        logged = len(await harness.bot.service.storage.actions(game.id))
        shown: list[str] = []  # every text bob's panel showed, as it changed
        watch = lambda: shown.append(panel.text()) if not shown or shown[-1] != panel.text() else None  # noqa: E731
        server.world.notifier.listeners.append(watch)
        both = await asyncio.gather(bob.select(panel, label, menu=menu), bob.select(panel, label, menu=menu))
        # the second is refused (answered with the panel as it is now, or "Already done"), never an error
        assert not any("went wrong" in (r.content or "") for r in both), [r.content for r in both]
        # the action loop caught it (the engine's own K10 check is the second line of defence)
        assert not any("already faces" in (r.content or "") for r in both), [r.content for r in both]
        await server.idle()
        server.world.notifier.listeners.remove(watch)
        assert any("Already done" in text for text in shown), shown[-1:]
        assert game.state["turn"]["turned"] == ["B1"]
        faced = [r for r in (await harness.bot.service.storage.actions(game.id))[logged:]
                 if r.action.get("type") == "face"]
        assert len(faced) == 1, faced
        assert sum(line.count("B1") for line in game.log if "A2" in line and "fac" in line) <= 1, game.log
