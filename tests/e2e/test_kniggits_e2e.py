"""Kniggits end to end: the real bot on the fake Discord. Two commanders fight a whole battle
with the basic rules by buttons, selects, the army form and a typed coordinate; a battle with
every advanced rule survives a restart in the middle of an exchange and is fought to its end;
hostile presses (out of turn, outsiders, stale buttons, junk coordinates, double presses)
change nothing; and no public message ever shows an army, a deployment or a gesture before
its reveal."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.e2e.conftest import RumpusHarness, running_bot
from tests.fakediscord import FakeDiscord, FakeUser, Message

SEED = 777
TABLE_TITLE = "⚔️ Kniggits"


# -- reading what players see ----------------------------------------------------------------------
def table_of(server: FakeDiscord) -> Message | None:
    for thread in server.general.threads():
        for msg in reversed(thread.history()):
            if msg.author.id == server.world.bot.id and any(
                    str(e.get("title", "")).startswith(TABLE_TITLE) for e in msg.embeds):
                return msg
    return None


def panel_of(player: FakeUser) -> Message | None:
    """The player's private panel: the newest DM showing it."""
    return next((m for m in reversed(player.dms()) if any(
        str(e.get("title", "")).endswith("'s panel") for e in m.embeds)), None)


def public_text(server: FakeDiscord) -> str:
    channels = [server.general, *server.general.threads()]
    return "\n".join(m.text() for c in channels for m in c.history() if m.visible_for(None))


def result_of(server: FakeDiscord) -> Message | None:
    for thread in server.general.threads():
        for msg in thread.history():
            if "game over" in msg.text().lower():
                return msg
    return None


def options_of(message: Message | None, menu: str) -> list[str]:
    if message is None:
        return []
    found = [m for m in message.selects() if str(m.get("placeholder", "")).startswith(menu)]
    return [o["label"] for m in found for o in m["options"]]


def has_button(message: Message | None, label: str) -> bool:
    return message is not None and any(b.get("label") == label and not b.get("disabled")
                                       for b in message.buttons())


class Watch:
    """Every public message text as it was after each change the fake Discord saw: a message
    edited later still counts with what it showed before (no pending secret may ever show)."""

    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        self.seen: list[tuple[str, str]] = []  # (stage, text)
        self.stage = "start"
        self._last: dict[int, str] = {}
        server.world.notifier.listeners.append(self.look)

    def look(self) -> None:
        for channel in [self.server.general, *self.server.general.threads()]:
            for message in channel.history():
                if not message.visible_for(None):
                    continue
                text = message.text()
                if self._last.get(message.id) != text:
                    self._last[message.id] = text
                    self.seen.append((self.stage, text))

    def shown(self, stage: str) -> str:
        return "\n".join(text for at, text in self.seen if at == stage)

    def close(self) -> None:
        self.server.world.notifier.listeners.remove(self.look)


# -- pressing -------------------------------------------------------------------------------------
async def press(server: FakeDiscord, player: FakeUser, where: Callable[[], Message | None], label: str) -> Any:
    """Wait until the message shows the button, press it, and insist it counted."""
    message = await server.wait_for(lambda: (m := where()) is not None and has_button(m, label) and m,
                                    what=f"{player.name}: {label!r}")
    result = await player.click(message, label)
    refused = result.ephemeral and result.content and not result.modal
    assert not refused or "earlier" in result.content, f"{player.name} {label}: {result.content}"
    return result


async def pick(server: FakeDiscord, player: FakeUser, where: Callable[[], Message | None], menu: str,
               starts: str) -> str:
    """Wait until the menu offers an option starting with `starts`, and pick it."""
    def ready() -> Message | None:
        message = where()
        return message if any(o.startswith(starts) for o in options_of(message, menu)) else None

    message = await server.wait_for(ready, what=f"{player.name}: {menu} {starts!r}")
    label = next(o for o in options_of(message, menu) if o.startswith(starts))
    found = [m for m in message.selects() if str(m.get("placeholder", "")).startswith(menu)
             and any(o["label"] == label for o in m["options"])]
    result = await player.select(message, label, menu=found[0]["custom_id"])
    assert not (result.ephemeral and result.content), f"{player.name} {menu} {label}: {result.content}"
    return label


async def form(server: FakeDiscord, player: FakeUser, where: Callable[[], Message | None], button: str,
               **values: str) -> Any:
    opened = await press(server, player, where, button)
    assert opened.modal is not None, f"{button} opened no form"
    return await player.submit(values)


async def start_battle(server: FakeDiscord, players: list[FakeUser], teams: list[str], **options: Any) -> Message:
    """/kniggits new, each other player joins their army, Start; both captains accept the map."""
    host = players[0]
    lobby = (await host.slash("kniggits new", **options)).message
    assert lobby is not None and "Join A" in lobby.button_labels()
    for player, team in zip(players[1:], teams[1:], strict=True):
        await player.click(lobby, f"Join {team}")
    await host.click(lobby, "Start")
    table = await server.wait_for(lambda: table_of(server), what="the battlefield")
    assert "Accept map" in table.button_labels()
    return table


async def through_setup(server: FakeDiscord, captains: tuple[FakeUser, FakeUser], armies: dict[FakeUser, str],
                        deployments: dict[FakeUser, str | None], watch: Watch | None = None) -> None:
    """Map, armies (the form), deployment (a typed placement or a preset), rock-paper-scissors
    (A's captain wins 2-0): up to the first move phase."""
    table = lambda: table_of(server)  # noqa: E731
    for captain in captains:
        await press(server, captain, table, "Accept map")
    for n, (player, lines) in enumerate(armies.items()):
        await form(server, player, lambda p=player: panel_of(p), "Write my army", lines=lines)
        if watch and n == len(armies) - 1:
            watch.stage = "armies revealed"
        await press(server, player, lambda p=player: panel_of(p), "Lock my army")
    await server.wait_for(lambda: "revealed" in (table_of(server) or Message).text() or
                          "My deployment" in table_of(server).button_labels(), what="the armies revealed")
    if watch:
        watch.stage = "deploy"
    for n, (player, lines) in enumerate(deployments.items()):
        if lines is None:
            await press(server, player, lambda p=player: panel_of(p), "Front rows")
        else:
            await form(server, player, lambda p=player: panel_of(p), "Place kniggits…", lines=lines)
        if watch and n == len(deployments) - 1:
            watch.stage = "deployment revealed"
        await press(server, player, lambda p=player: panel_of(p), "Lock deployment")
    for _ in range(2):
        await press(server, captains[0], table, "Rock")
        await press(server, captains[1], table, "Scissors")
    await server.wait_for(lambda: "Move" in table_of(server).button_labels(), what="the first move phase")


# -- 1: a whole battle, basic rules -----------------------------------------------------------------
async def test_a_whole_battle_with_the_basic_rules(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    server = fake_discord
    alice, bob = server.user("alice"), server.user("bob")
    watch = Watch(server)
    async with running_bot(server, tmp_path, seed=SEED) as harness:
        await start_battle(server, [alice, bob], ["A", "B"], size=24, preset="open", budget=30, rounds=5)
        watch.stage = "build"
        await through_setup(server, (alice, bob), {alice: "Lance 6 1 1\nPage 1 1 1", bob: "Brute 6 1 1"},
                            {alice: "A1 12,6\nA2 5,4", bob: None}, watch)
        game = await harness.bot.service.game_for(alice.id, None)
        assert [k["pos"] for k in game.state["kniggits"] if k["army"] == 0] == [[12, 6], [5, 4]]
        watch.stage = "battle"
        mine = lambda: panel_of(alice)  # noqa: E731
        # A2 by a typed coordinate, A1 by the destination menu (engage B1)
        await pick(server, alice, mine, "Kniggit to move", "A2")
        await form(server, alice, mine, "Other cell…", to="5,6", via="")
        await server.wait_for(lambda: "5,4 → 5,6" in (mine() or Message).text(), what="the A2 preview")
        await press(server, alice, mine, "Confirm move")
        await pick(server, alice, mine, "Kniggit to move", "A1")
        await pick(server, alice, mine, "Where does A1 go?", "Engage B1")  # moves at once, along the drawn route
        await press(server, alice, mine, "Done moving")
        # B turns to face its attacker, A attacks: a mutual exchange
        await pick(server, bob, lambda: panel_of(bob), "B1", "B1 faces A1")
        await press(server, bob, lambda: panel_of(bob), "Done turning")
        await pick(server, alice, mine, "Attack", "A1 → B1 · mutual")
        watch.stage = "exchange"
        table = await server.wait_for(lambda: (t := table_of(server)) and "Choose gesture" in t.button_labels()
                                      and t, what="the exchange post")
        assert "A1 attacks bob's B1" in table.text() and "may strike back" in table.text()
        looked = await alice.click(table, "Choose gesture")  # the ephemeral panel works like the DM
        assert looked.ephemeral and looked.message is not None and "Sword Mid" in looked.message.button_labels()
        await alice.click(looked.message, "Sword Mid")
        await press(server, alice, mine, "Shield Low")
        await press(server, alice, mine, "Lock gesture")
        await server.wait_for(lambda: "🔒 alice" in table_of(server).text(), what="alice's lock on the table")
        assert "sha256" not in table_of(server).text()  # the table changes only with who locked
        assert "sha256" in (mine() or Message).text()  # alice's own sealed pick, in her panel
        await press(server, bob, lambda: panel_of(bob), "Sword Low")
        await press(server, bob, lambda: panel_of(bob), "Shield High")
        watch.stage = "revealed"
        await press(server, bob, lambda: panel_of(bob), "Lock gesture")
        await server.wait_for(lambda: "B1 loses 1 Defense token" in public_text(server), what="the first reveal")
        # B's turn: hold, A turns (nothing to change), B attacks back and loses its last Attack token
        await press(server, bob, lambda: table_of(server), "Done moving")
        await press(server, alice, lambda: table_of(server), "Done turning")
        await pick(server, bob, lambda: panel_of(bob), "Attack", "B1 → A1 · mutual")
        await press(server, bob, lambda: panel_of(bob), "Sword High")
        await press(server, bob, lambda: panel_of(bob), "Lock gesture")  # B1 has D=0 now: no shield to ask for
        await press(server, alice, mine, "Sword High")
        await press(server, alice, mine, "Shield High")
        await press(server, alice, mine, "Lock gesture")
        over = await server.wait_for(lambda: result_of(server), what="the result")
        text = over.text() + public_text(server)
        assert "Army A (alice) wins" in text, over.text()
        assert "flees" in text
        final = await harness.bot.service.game(game.id)
        assert final.state["over"]["reason"] == "annihilation"
    watch.close()
    # 4: nothing secret showed before its reveal, in any public message at any moment
    assert "Lance" not in watch.shown("start") + watch.shown("build")
    assert "6/1/1" not in watch.shown("build")
    assert "12,6" not in watch.shown("deploy") and "5,4" not in watch.shown("deploy")
    before = watch.shown("exchange")
    assert not re.search(r"sword (High|Mid|Low)|shield (High|Mid|Low)", before), before
    assert not re.search(r"\bSeat \d", public_text(server))


# -- 2: every advanced rule, a restart mid-exchange -------------------------------------------------
async def play_on(server: FakeDiscord, harness: RumpusHarness, players: list[FakeUser], game_id: int,
                  *, restart_at_exchange: bool, budget_steps: int = 400) -> dict[str, int]:
    """Each awaited commander does the first sensible thing their panel offers, through it."""
    done: dict[str, int] = {}
    restarted = not restart_at_exchange
    by_seat = {s.seat: next(p for p in players if p.id == s.user_id)
               for s in (await harness.bot.service.game(game_id)).seats}
    for _ in range(budget_steps):
        game = await harness.bot.service.game(game_id)
        if game.state["over"] is not None:
            return done
        view_phase = "exchange" if game.state["exchange"] else game.state["phase"]
        awaited = sorted({d["seat"] for d in game.deadlines if d["seat"] is not None})
        seat = awaited[0]
        player = by_seat[seat]
        mine = lambda p=player: panel_of(p)  # noqa: E731
        version = game.version
        await server.wait_for(lambda mine=mine: (m := mine()) is not None and (m.buttons() or m.selects()),
                              what=f"{player.name}'s panel in {view_phase}")
        panel = mine()
        labels = panel.button_labels()
        if view_phase == "exchange":
            sword = next((x for x in labels if x.startswith(("Sword", "Guard 2"))), None)
            shield = next((x for x in labels if x.startswith("Shield")), None)
            for menu in [m for m in panel.selects() if str(m.get("placeholder", "")).startswith("Sword")]:
                await pick(server, player, mine, menu["placeholder"].split(" (")[0], "Sword")
            if sword:
                await press(server, player, mine, sword)
            if shield:
                await press(server, player, mine, shield)
            if not restarted:
                await server.idle()
                await harness.restart()  # mid-exchange: one side has picked, nobody has locked
                restarted = True
                done["restart"] = 1
            await press(server, player, mine, "Lock gesture")
        elif view_phase == "move" and options_of(panel, "Kniggit to move") and done.get(f"moves-{version}", 0) < 1:
            movers = options_of(panel, "Kniggit to move")
            target = next((m for m in movers if "pinned" not in m and "holding" not in m), None)
            if target is None:
                await press(server, player, mine, "Done moving")
            else:
                kid = target.split(" ")[0]
                await pick(server, player, mine, "Kniggit to move", kid)
                dests = await server.wait_for(lambda mine=mine, kid=kid: options_of(mine(), f"Where does {kid} go?"),
                                              what="destinations")
                choice = next((d for d in dests if d.startswith(("Engage", "Flag", "Potion"))), None) or \
                    next((d for d in dests if d.startswith("Advance")), None) or dests[0]
                if choice.startswith("Hold"):
                    await pick(server, player, mine, f"Where does {kid} go?", "Hold")
                else:
                    await pick(server, player, mine, f"Where does {kid} go?", choice)
                    if choice.startswith("Flag"):  # a flag is previewed, for the hand that holds it
                        await press(server, player, mine, "Confirm move")
                done["moves"] = done.get("moves", 0) + 1
        elif view_phase == "move":
            await press(server, player, mine, "Done moving")
        elif view_phase in ("facing", "turning"):
            await press(server, player, mine, "Done turning")
        elif view_phase == "fight":
            attacks = options_of(panel, "Attack")
            if attacks:
                await pick(server, player, mine, "Attack", attacks[0])
                done["attacks"] = done.get("attacks", 0) + 1
            else:
                await press(server, player, mine, "End turn")
        else:
            raise AssertionError(f"unexpected phase {view_phase}")
        await server.wait_for(lambda game=game, version=version: game.version > version, what="the step to count")
    raise AssertionError("the battle did not end")


async def test_every_advanced_rule_and_a_restart_mid_exchange(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    server = fake_discord
    alice, bob = server.user("alice"), server.user("bob")
    async with running_bot(server, tmp_path, seed=SEED + 1) as harness:
        await start_battle(server, [alice, bob], ["A", "B"], size=24, preset="woods", budget=40, rounds=3,
                           horses=True, magic_swords=True, double_defence=True, two_swords=True, archers=True,
                           potions=2, scenario="flag")
        await through_setup(server, (alice, bob),
                            {alice: "Rider 6 2 2\nTwin 2 6 0\nBow 2 2 3 archer",
                             bob: "Blade 3 5 2\nWall 3 3 5"},
                            {alice: None, bob: None})
        game = await harness.bot.service.game_for(alice.id, None)
        kinds = {k["id"]: k for k in game.state["kniggits"]}
        assert kinds["A2"]["two_swords"] and kinds["A3"]["kind"] == "archer"
        done = await play_on(server, harness, [alice, bob], game.id, restart_at_exchange=True)
        assert done.get("restart") and done.get("attacks") and done.get("moves")
        final = await harness.bot.service.game(game.id)  # the service after the restart
        assert final.state["over"] is not None and harness.starts == 2
        over = await server.wait_for(lambda: result_of(server), what="the result")
        assert re.search(r"wins|draw", over.text())


# -- 3: hostile presses -------------------------------------------------------------------------------
def button_id(message: Message, label: str) -> str:
    return next(b["custom_id"] for b in message.buttons() if b.get("label") == label)


async def test_hostile_presses_change_nothing(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    server = fake_discord
    alice, bob, carol, eve = (server.user(n) for n in ("alice", "bob", "carol", "eve"))
    async with running_bot(server, tmp_path, seed=SEED + 2) as harness:
        await start_battle(server, [alice, bob, carol], ["A", "B", "B"], size=24, preset="open", budget=30)
        table = table_of(server)
        assert "Army B (bob & carol)" in table.text()
        game = await harness.bot.service.game_for(alice.id, None)
        refused = await carol.click(table, "Accept map")  # not a captain
        assert refused.ephemeral and "captain" in refused.content.lower()
        stranger = await eve.click(table, "Accept map")
        assert stranger.ephemeral and "not playing" in stranger.content.lower()
        await press(server, alice, lambda: table_of(server), "Accept map")
        version = game.version
        again = await alice.click(table_of(server), "Accept map")  # a double press
        assert again.ephemeral and game.version == version
        await press(server, bob, lambda: table_of(server), "Accept map")
        for player, lines in ((alice, "Lance 6 1 1"), (bob, "Brute 4 1 1"), (carol, "Pike 3 1 1")):
            await form(server, player, lambda p=player: panel_of(p), "Write my army", lines=lines)
            lock = await server.wait_for(lambda p=player: has_button(panel_of(p), "Lock my army") and panel_of(p),
                                         what="the lock")
            old_lock = button_id(lock, "Lock my army")
            await press(server, player, lambda p=player: panel_of(p), "Lock my army")
            if player is alice:  # the same Lock again (a stale copy of the button): refused, unchanged
                version = game.version
                twice = await alice.forge(panel_of(alice), old_lock)
                assert twice.ephemeral and game.version == version, twice.content
        for player in (alice, bob, carol):
            await press(server, player, lambda p=player: panel_of(p), "Front rows")
            await press(server, player, lambda p=player: panel_of(p), "Lock deployment")
        await press(server, alice, lambda: table_of(server), "Rock")
        twice = await alice.click(table_of(server), "Paper")
        assert twice.ephemeral and "already" in twice.content.lower()
        await press(server, bob, lambda: table_of(server), "Scissors")
        await press(server, alice, lambda: table_of(server), "Rock")
        await press(server, bob, lambda: table_of(server), "Scissors")
        await server.wait_for(lambda: "Move" in table_of(server).button_labels(), what="the move phase")
        version = game.version
        refused = await bob.click(table_of(server), "Done moving")  # out of turn
        assert refused.ephemeral and "turn" in refused.content.lower() and game.version == version
        mine = lambda: panel_of(alice)  # noqa: E731
        await pick(server, alice, mine, "Kniggit to move", "A1")
        for junk in ("x,y", "99,99", "abc"):  # junk coordinates: one short refusal each, nothing changes
            before = game.version
            opened = await press(server, alice, mine, "Other cell…")
            assert opened.modal is not None
            answer = await alice.submit({"to": junk, "via": ""})
            assert answer.ephemeral and answer.content, junk
            assert game.version == before, junk
        menu = next(m for m in mine().selects() if m["placeholder"] == "Kniggit to move")
        await pick(server, alice, mine, "Where does A1 go?", "Engage")
        old = await alice.forge(mine(), menu["custom_id"], component_type=3,  # a stale menu
                                values=[menu["options"][0]["value"]])
        assert old.ephemeral and re.search(r"earlier|no longer", old.content.lower()), old.content
        await press(server, alice, mine, "Done moving")
        # the defenders turn (each awaited one presses Done), then alice attacks
        while game.state["phase"] == "turning":
            seat = next(d["seat"] for d in game.deadlines if d["seat"] is not None)
            player = bob if game.seats[seat].user_id == bob.id else carol
            await press(server, player, lambda: table_of(server), "Done turning")
            await server.idle()
        attacks = await server.wait_for(lambda: options_of(mine(), "Attack"), what="alice's attacks")
        await pick(server, alice, mine, "Attack", attacks[0])
        table = await server.wait_for(lambda: (t := table_of(server)) and "Choose gesture" in t.button_labels()
                                      and t, what="the exchange post")
        target = game.state["exchange"]["target"]
        outsider = carol if target == "B1" else bob  # the B commander whose kniggit is not in this fight
        looked = await outsider.click(table, "Choose gesture")
        assert looked.ephemeral and "Not your fight" in looked.text()
        assert not any(b.startswith(("Sword", "Shield")) for b in (looked.message.button_labels() if looked.message else []))
        stranger = await eve.click(table, "Choose gesture")
        assert stranger.ephemeral and "not playing" in stranger.content.lower()
        version = game.version
        refused = await outsider.slash("kniggits done", channel=table.channel)
        assert refused.ephemeral and game.version == version


# -- the slash shortcuts --------------------------------------------------------------------------------
async def test_shortcuts_and_autocomplete_reach_the_engine(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    server = fake_discord
    alice, bob = server.user("alice"), server.user("bob")
    async with running_bot(server, tmp_path, seed=SEED + 3) as harness:
        await start_battle(server, [alice, bob], ["A", "B"], size=24, preset="open", budget=25, archers=True)
        thread = table_of(server).channel
        for captain in (alice, bob):
            await press(server, captain, lambda: table_of(server), "Accept map")
        said = await alice.slash("kniggits army", lines="Lance 6 1 1; Page 1 1 1 archer", channel=thread)
        assert not (said.ephemeral and "cost" in said.content.lower()), said.content
        too_much = await bob.slash("kniggits army", lines="Giant 20 20 20", channel=thread)
        assert too_much.ephemeral and "share" in too_much.content
        await bob.slash("kniggits army", lines="Brute 6 1 1", channel=thread)
        for player in (alice, bob):
            await press(server, player, lambda p=player: panel_of(p), "Lock my army")
        await alice.slash("kniggits deploy", lines="A1 12,6; A2 5,4", channel=thread)
        await bob.slash("kniggits deploy", lines="front", channel=thread)
        for player in (alice, bob):
            await press(server, player, lambda p=player: panel_of(p), "Lock deployment")
        for _ in range(2):
            await press(server, alice, lambda: table_of(server), "Rock")
            await press(server, bob, lambda: table_of(server), "Scissors")
        await server.wait_for(lambda: "Move" in table_of(server).button_labels(), what="the move phase")
        offered = await alice.autocomplete("kniggits move", "id", "A", channel=thread)
        assert {c["value"] for c in offered} == {"A1", "A2"}
        # /kniggits reach and los: pictures only to the caller, of their own kniggits only
        reach = await alice.slash("kniggits reach", id="A1", channel=thread)
        assert reach.ephemeral and reach.message is not None, reach.content
        assert [a.filename for a in reach.message.attachments] == ["reach.png"]
        assert reach.message.attachments[0].data.startswith(b"\x89PNG") and "can reach" in reach.message.text()
        los = await alice.slash("kniggits los", id="A2", channel=thread)
        assert los.ephemeral and los.message is not None and "Out of range: B1" in los.message.text()
        assert [a.filename for a in los.message.attachments] == ["sight.png"]
        for command in ("kniggits reach", "kniggits los"):
            enemy = await alice.slash(command, id="B1", channel=thread)
            assert enemy.ephemeral and "not yours" in enemy.text() and not enemy.message.attachments
        waiting = await bob.slash("kniggits reach", id="B1", channel=thread)
        assert waiting.ephemeral and "while your army moves" in waiting.text()
        offered = await alice.autocomplete("kniggits los", "id", "", channel=thread)
        assert [c["value"] for c in offered] == ["A2"]
        moved = await alice.slash("kniggits move", id="A2", to="5,6", channel=thread)
        assert not moved.ephemeral or "moves" in moved.content, moved.content
        game = await harness.bot.service.game_for(alice.id, None)
        a2 = next(k for k in game.state["kniggits"] if k["id"] == "A2")
        assert a2["pos"] == [5, 6]
        await alice.slash("kniggits undo", channel=thread)
        assert next(k for k in game.state["kniggits"] if k["id"] == "A2")["pos"] == [5, 4]
        bad = await bob.slash("kniggits move", id="B1", to="12,15", channel=thread)
        assert bad.ephemeral
        await alice.slash("kniggits done", channel=thread)
        roster = await alice.slash("kniggits roster", channel=thread)
        assert roster.ephemeral and "A1" in roster.text() and "B1" in roster.text()
        quit_ = await bob.slash("kniggits concede", channel=thread)
        assert quit_.acknowledged
        over = await server.wait_for(lambda: result_of(server), what="the result")
        assert "bob conceded" in over.text()

