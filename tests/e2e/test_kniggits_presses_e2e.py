"""Kniggits in few presses (issue 20 item 4), counted through the fake Discord: a kniggit move,
a whole move turn and the gesture of a mutual exchange; then a lock with no shield is asked
about once, and its reveal does not say "time ran out".
The helpers take whichever flow the panel offers (a preview with Confirm, or a destination
that moves at once; separate sword and shield buttons, or one pick of the pair), so the same
script measured the presses before the change and guards the numbers after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.e2e.conftest import running_bot
from tests.e2e.test_kniggits_e2e import (
    SEED,
    has_button,
    options_of,
    panel_of,
    public_text,
    start_battle,
    table_of,
    through_setup,
)
from tests.fakediscord import FakeDiscord, FakeUser, Message

#: Presses today (docs/kniggits.md, "Presses per move"). Measured by this test before the
#: change: a kniggit 2 when preselected (destination, Confirm) or 3 when picked (kniggit,
#: destination, Confirm), this three-kniggit move turn 8 with Done, a gesture 3 (sword,
#: shield, lock).
PRESELECTED = 1
CHOSEN = 2
MOVE_TURN = 5
GESTURE = 2


class Presses:
    """One player's presses on their own panel, counted."""

    def __init__(self, server: FakeDiscord, player: FakeUser) -> None:
        self.server, self.player, self.count = server, player, 0

    def panel(self) -> Message | None:
        return panel_of(self.player)

    async def wait(self, ready: Callable[[Message], bool], what: str) -> Message:
        return await self.server.wait_for(lambda: (m := self.panel()) is not None and ready(m) and m,
                                          what=f"{self.player.name}: {what}")

    async def press(self, label: str) -> Any:
        message = await self.wait(lambda m: has_button(m, label), label)
        self.count += 1
        result = await self.player.click(message, label)
        assert not (result.ephemeral and result.content), f"{label}: {result.content}"
        return result

    async def pick(self, menu: str, starts: str) -> str:
        message = await self.wait(lambda m: any(o.startswith(starts) for o in options_of(m, menu)), f"{menu} {starts}")
        label = next(o for o in options_of(message, menu) if o.startswith(starts))
        found = next(m for m in message.selects() if str(m.get("placeholder", "")).startswith(menu)
                     and any(o["label"] == label for o in m["options"]))
        self.count += 1
        result = await self.player.select(message, label, menu=found["custom_id"])
        assert not (result.ephemeral and result.content), f"{menu} {label}: {result.content}"
        return label

    async def move(self, kid: str, destination: str) -> int:
        """Move `kid` to the destination whose label starts with `destination`; the presses it took."""
        before = self.count
        panel = await self.wait(lambda m: bool(options_of(m, "Kniggit to move")), "the move panel")
        menu = next(m for m in panel.selects() if str(m.get("placeholder", "")).startswith("Kniggit to move"))
        selected = next((o["label"] for o in menu["options"] if o.get("default")), "")
        if not selected.startswith(kid + " "):
            await self.pick("Kniggit to move", kid)
        await self.pick(f"Where does {kid} go?", destination)

        def settled(m: Message) -> bool:
            moved = not any(o.startswith(kid + " ") for o in options_of(m, "Kniggit to move"))
            return moved or has_button(m, "Confirm move")

        panel = await self.wait(settled, f"{kid} moved or previewed")
        if has_button(panel, "Confirm move"):
            await self.press("Confirm move")
        await self.wait(lambda m: not any(o.startswith(kid + " ") for o in options_of(m, "Kniggit to move")),
                        f"{kid} moved")
        return self.count - before

    async def gesture(self, sword: str, shield: str) -> int:
        """Sword and shield at these heights, then lock; the presses it took."""
        before = self.count
        panel = await self.wait(lambda m: has_button(m, "Lock gesture"), "the gesture panel")
        if options_of(panel, "Sword + shield"):
            await self.pick("Sword + shield", f"Sword {sword} + shield {shield}")
        else:
            await self.press(f"Sword {sword}")
            await self.press(f"Shield {shield}")
        await self.press("Lock gesture")
        return self.count - before


async def test_a_move_turn_and_a_gesture_take_few_presses(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    server = fake_discord
    alice, bob = server.user("alice"), server.user("bob")
    async with running_bot(server, tmp_path, seed=SEED) as harness:
        await start_battle(server, [alice, bob], ["A", "B"], size=24, preset="open", budget=30, rounds=5)
        await through_setup(server, (alice, bob), {alice: "Lance 6 1 1\nPage 1 1 1\nSquire 1 1 1",
                                                    bob: "Brute 6 1 1"},
                            {alice: "A1 12,6\nA2 5,4\nA3 18,4", bob: None})
        a, b = Presses(server, alice), Presses(server, bob)
        first = await a.move("A1", "Engage B1")  # preselected
        chosen = await a.move("A3", "Advance")  # picked out of order
        last = await a.move("A2", "Advance")  # preselected again
        await a.press("Done moving")
        turn = a.count
        await b.pick("B1", "B1 faces A1")
        await b.press("Done turning")
        await a.pick("Attack", "A1 → B1 · mutual")
        attacker = await a.gesture("Mid", "Low")
        target = await b.gesture("Low", "High")
        await server.wait_for(lambda: "B1 loses 1 Defense token" in public_text(server), what="the reveal")
        game = await harness.bot.service.game_for(alice.id, None)
        assert [k["pos"] for k in game.state["kniggits"] if k["army"] == 0][1:] != [[5, 4], [18, 4]]
        # B's turn: bob attacks back; alice picks a sword only and locks: asked once, then locked so
        await b.press("Done moving")
        await a.press("Done turning")
        await b.pick("Attack", "B1 → A1 · mutual")
        await b.press("Sword Mid")
        await b.press("Lock gesture")  # B1 lost its Defense token: no shield to ask about
        await a.press("Sword High")
        await a.press("Lock gesture")
        asked = await a.wait(lambda m: "Lock with no shield?" in m.text(), "the ask")
        assert has_button(asked, "Lock with no shield") and "🔒 alice" not in table_of(server).text()
        await a.press("Lock with no shield")
        reveal = await server.wait_for(lambda: "Reveal #2" in public_text(server) and public_text(server),
                                       what="the second reveal")
        table = table_of(server).text()
        assert "A1 was locked with no shield (no guard)." in table + reveal
        assert "time ran out" not in table + reveal
    print(f"\npresses: preselected kniggit {first}/{last}, chosen kniggit {chosen}, move turn {turn}, "
          f"gesture {attacker}/{target}")
    assert (first, chosen, last) == (PRESELECTED, CHOSEN, PRESELECTED)
    assert turn == MOVE_TURN
    assert attacker == target == GESTURE
    assert table_of(server) is not None
