"""Kniggits: a commander who locks a gesture from the table's ✋ panel (an ephemeral) is not
left stuck (issue 20, item 1). The exchange's reveal passes the turn to him: his DM panel,
which showed Sword/Shield/Lock when he opened the ephemeral, now shows his move, and so does
the ephemeral he pressed; the table waits for him. (The press used to redraw only the
ephemeral and count the DM as shown, so the DM kept the old gesture buttons.)"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.e2e.conftest import running_bot
from tests.e2e.test_kniggits_e2e import SEED, panel_of, pick, press, start_battle, table_of, through_setup
from tests.fakediscord import FakeDiscord, FakeUser, Message

GESTURE = ("Sword", "Shield", "Lock gesture")


def offers_gesture(message: Message | None) -> bool:
    return message is not None and any(label.startswith(GESTURE) for label in message.button_labels())


def offers_move(message: Message | None) -> bool:
    return message is not None and ("Done moving" in message.button_labels() or any(
        str(m.get("placeholder", "")).startswith("Kniggit to move") for m in message.selects()))


async def gesture(server: FakeDiscord, player: FakeUser, where: Callable[[], Message | None]) -> None:
    """A sword, a shield if offered, and Lock, each pressed where `where` shows them."""
    for prefix in ("Sword", "Shield"):
        message = await server.wait_for(lambda: offers_gesture(m := where()) and m, what=f"{player.name}'s {prefix}")
        label = next((x for x in message.button_labels() if x.startswith(prefix)), None)
        if label is not None:
            result = await player.click(message, label)
            assert not (result.ephemeral and result.content), result.content
    await press(server, player, where, "Lock gesture")


async def test_a_gesture_locked_on_the_ephemeral_panel_leaves_no_stale_dm(fake_discord: FakeDiscord,
                                                                          tmp_path: Path) -> None:
    server = fake_discord
    alice, bob = server.user("alice"), server.user("bob")
    async with running_bot(server, tmp_path, seed=SEED) as harness:
        await start_battle(server, [alice, bob], ["A", "B"], size=24, preset="open", budget=30, rounds=5)
        await through_setup(server, (alice, bob), {alice: "Lance 6 1 1\nPage 1 1 1", bob: "Brute 6 1 1"},
                            {alice: "A1 12,6\nA2 5,4", bob: None})
        mine, his = (lambda: panel_of(alice)), (lambda: panel_of(bob))
        await pick(server, alice, mine, "Kniggit to move", "A1")
        await pick(server, alice, mine, "Where does A1 go?", "Engage B1")
        if "Confirm move" in (mine() or Message).button_labels():
            await press(server, alice, mine, "Confirm move")
        await press(server, alice, mine, "Done moving")
        await pick(server, bob, his, "B1", "B1 faces A1")
        await press(server, bob, his, "Done turning")
        await pick(server, alice, mine, "Attack", "A1 → B1 · mutual")
        # alice picks and locks in her DM; bob's DM offers his gesture too
        await gesture(server, alice, mine)
        await server.wait_for(lambda: offers_gesture(his()), what="bob's gesture buttons by DM")
        # bob does it all on the ephemeral the table's ✋ button opens
        table = await server.wait_for(lambda: (t := table_of(server)) and "Choose gesture" in t.button_labels()
                                      and t, what="the exchange on the table")
        opened = await bob.click(table, "Choose gesture")
        assert opened.ephemeral and opened.message is not None
        ephemeral = opened.message
        await gesture(server, bob, lambda: ephemeral)
        game = await harness.bot.service.game_for(bob.id, None)
        await server.wait_for(lambda: game.state["exchange"] is None, what="the reveal")
        await server.idle()
        assert game.state["phase"] == "move" and {d["seat"] for d in game.deadlines} == {game.seat_of(bob.id)}
        assert f"Waiting for {bob.mention}" in (table_of(server) or Message).text()
        dm = his()
        assert not offers_gesture(dm), f"bob's DM still offers the gesture: {dm.button_labels() if dm else None}"
        assert offers_move(dm), "bob's DM does not offer his move"
        assert not offers_gesture(ephemeral) and offers_move(ephemeral), ephemeral.button_labels()
        # and his move goes through from the DM he was left with
        await press(server, bob, his, "Done moving")
        await server.wait_for(lambda: game.state["phase"] != "move", what="bob's move counted")
