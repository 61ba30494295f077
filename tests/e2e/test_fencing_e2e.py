"""Table Fencing end to end: the real bot on the fake Discord, three simulated players pressing
the table's buttons and selects.

Time is the press: the bot runs on a manual clock and each press carries the time a test
chooses (the interaction's snowflake, as Discord stamps it), so races are judged exactly as
they would be live — whoever pressed first wins, whatever the bot was busy with — and no
test sleeps through a timer. Seeds are fixed: with the first-choice policy below, bot seed
190 plays a whole game of two bumpers in 118 presses (dice duels), seed 11 deals three alike
at the first Thrust, seed 1 opens a quick-switch at the first golf window and seed 2 starts
the first bumper with a yo-yo duel for a golf ball.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tests.fakediscord.driver as driver_module
from games.fencing import ENGINE
from games.fencing.region import PIECES
from runtime import deadlines as deadline_rules
from runtime.clock import ManualClock
from tests.e2e.conftest import RumpusHarness, running_bot
from tests.fakediscord import FakeDiscord, FakeUser, Message
from tests.fakediscord.ids import DISCORD_EPOCH_MS

WHOLE_GAME, TRIPLE, QUICK_SWITCH, DUEL = 190, 11, 1, 2
CUSTOM_ID = re.compile(r"^rp:([as]):(\d+):(\d+)(?::(.*))?$", re.S)
TITLE = "🤺 Table Fencing"
_counter = iter(range(1, 1 << 20))


# ----- pressing at a chosen moment ---------------------------------------------------------------
@contextlib.contextmanager
def pressed_at(monkeypatch: pytest.MonkeyPatch, seconds: float) -> Iterator[None]:
    """Interactions sent inside carry `seconds` (epoch) as their Discord timestamp."""
    def stamped() -> int:
        return ((round(seconds * 1000) - DISCORD_EPOCH_MS) << 22) | next(_counter)

    with monkeypatch.context() as patch:
        patch.setattr(driver_module, "snowflake", stamped)
        yield


# ----- the players' policy: the first sensible choice at every prompt ---------------------------
def policy(state: dict[str, Any], quick_switch: bool = False) -> tuple[int | None, dict[str, Any] | None]:
    """(seat, action) the table's players send next; (None, None) when only the game's own
    timer can move it (a ball in the air)."""
    for seat, queue in enumerate(state["penalties"]):
        if queue:
            return seat, {"type": "pay", "how": "chocolate" if state["seats"][seat]["chocolate"] else "slide"}
    step, start = state["step"], state["start"]
    kind = step["kind"]
    if kind == "game":
        return step["pressed"].index(False), {"type": "game"}
    if kind == "gun":
        return next(s for s in range(3) if s != start), {"type": "fire"}
    if kind == "stamp":
        return next(s for s in range(3) if state["seats"][s]["stamps"][-1][step["which"]] is None), {"type": "stamp"}
    if kind == "first_attack":
        return start, {"type": "attack", "piece": "BK"}
    if kind == "thrust":
        return start, {"type": "thrust"}
    if kind == "hat":
        return next(s for s in step["bare"] if str(s) not in step["presses"]), {"type": "don"}
    if kind == "golf":
        if quick_switch and {"type": "quickswitch"} in ENGINE.legal_actions(state, step["holder"]):
            return step["holder"], {"type": "quickswitch"}
        return step["holder"], {"type": "done"}
    if kind == "catch":
        return (step["receiver"], {"type": "catch"}) if step["open"] else (None, None)
    if kind == "handout":
        return step["holder"], {"type": "handout", "yellow": next(s for s in range(3) if s != step["holder"])}
    if kind == "move":
        menu = ENGINE.view(state, None)["moves"]
        for entry in menu["destinations"][1:]:
            if entry["penalty"] == 0:
                route = next(r for r in entry["routes"] if r["default"])
                return state["control"], {"type": "move", "piece": menu["piece"], "to": entry["to"],
                                          "via": list(route["via"]), "offroad": route["offroad"]}
        return state["control"], {"type": "stay"}
    if kind == "attack":
        return state["control"], {"type": "attack", "piece": PIECES[(PIECES.index(state["attacked"]) + 1) % 5]}
    if kind == "anthem":
        return next(s for s in range(3) if "hail" not in step["parts"][s]), {"type": "anthem", "part": "hail"}
    return None, None


# ----- a table seen from the players' side -------------------------------------------------------
class Fencing:
    def __init__(self, server: FakeDiscord, harness: RumpusHarness, clock: ManualClock) -> None:
        self.server, self.harness, self.clock = server, harness, clock
        self.players = [server.user(name) for name in ("alice", "bob", "cara")]
        self.game_id = 0

    async def open(self, **options: Any) -> None:
        alice, bob, cara = self.players
        lobby = (await alice.slash("fencing new", **options)).message
        assert lobby is not None
        await bob.click(lobby, "Join")
        await cara.click(lobby, "Join")
        await alice.click(lobby, "Start")
        await self.server.wait_for(self.table_or_none, what="the Table Fencing table")
        game = await self.harness.bot.service.game_for(alice.id, None)
        self.game_id = game.id
        await self.shown()

    def table_or_none(self) -> Message | None:
        return next((m for t in self.server.general.threads() for m in t.history()
                     if m.embeds and str(m.embeds[0].get("title", "")).startswith(TITLE)), None)

    @property
    def table(self) -> Message:
        message = self.table_or_none()
        assert message is not None
        return message

    async def game(self) -> Any:
        return await self.harness.bot.service.game(self.game_id)

    async def state(self) -> dict[str, Any]:
        return (await self.game()).state

    def player(self, seat: int) -> FakeUser:
        return self.players[seat]

    def seat_of(self, user: FakeUser) -> int:
        return self.players.index(user)

    def components(self) -> list[tuple[str, str, int, dict[str, Any] | None, dict[str, Any]]]:
        """(kind, custom_id, version, action or None (a select), component) on the table."""
        out = []
        for comp in [*self.table.buttons(), *self.table.selects()]:
            match = CUSTOM_ID.match(comp.get("custom_id") or "")
            if match:
                action = json.loads(match.group(4)) if match.group(1) == "a" else None
                out.append((match.group(1), comp["custom_id"], int(match.group(3)), action, comp))
        return out

    async def shown(self) -> None:
        """Wait until the table shows the stored state (its controls drawn for it)."""
        version = (await self.game()).version
        await self.server.wait_for(lambda: self.drawn_for(version), what=f"the table at move {version}", timeout=10)

    def drawn_for(self, version: int) -> bool:
        table = self.table_or_none()
        if table is None:
            return False
        versions = {v for _k, _c, v, _a, _comp in self.components()}
        return versions == {version} or (not versions and f"move {version}" in table.text())

    async def press(self, user: FakeUser, action: dict[str, Any], *, check: bool = True) -> Any:
        """Press the table's control that sends `action` (a button, or a select's option)."""
        for kind, custom_id, _version, sent, comp in self.components():
            if kind == "a" and sent == action:
                return await user.click(self.table, custom_id, check=check)
            if kind == "s":
                for option in comp["options"]:
                    if json.loads(option["value"]) == action:
                        return await user.select(self.table, option["value"], menu=custom_id, check=check)
        raise AssertionError(f"no control sends {action}: {[c[3] or c[4].get('placeholder') for c in self.components()]}")

    async def step(self, *, quick_switch: bool = False) -> bool:
        """One move of the game by the policy (the game's own timer when nothing else can
        move it); False once the game is over."""
        game = await self.game()
        if ENGINE.outcome(game.state) is not None:
            return False
        before = game.version
        seat, action = policy(game.state, quick_switch)
        if action is None:
            await self.fire_timer()
        else:
            self.clock.advance(0.25)
            answer = await self.press(self.player(seat), action)
            assert not (answer.ephemeral and answer.content), f"{action}: {answer.content}"
        assert (await self.game()).version > before, f"{action} did not count"
        await self.shown()
        return True

    async def fire_timer(self) -> None:
        """Move the clock to the earliest deadline and let the timers act (a catch opening)."""
        at = deadline_rules.earliest((await self.game()).deadlines)
        assert at is not None
        if at > self.clock.now():
            self.clock.advance(at - self.clock.now())
        assert await self.harness.bot.timers.fire_due() >= 1

    async def until(self, kind: str, *, quick_switch: bool = False, limit: int = 80) -> dict[str, Any]:
        for _ in range(limit):
            state = await self.state()
            if state["step"]["kind"] == kind:
                return state
            assert await self.step(quick_switch=quick_switch)
        raise AssertionError(f"no {kind} prompt within {limit} moves")

    def log(self) -> str:
        return self.table.text()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1_700_000_000.0)


# ----- (1) a whole game through buttons and selects ------------------------------------------------
async def test_three_players_play_two_bumpers_with_buttons_and_selects(fake_discord: FakeDiscord, tmp_path: Path,
                                                                        clock: ManualClock) -> None:
    async with running_bot(fake_discord, tmp_path, seed=WHOLE_GAME, clock=clock) as harness:
        table = Fencing(fake_discord, harness, clock)
        await table.open(duel_mode="dice")
        names = ("alice", "bob", "cara")
        assert all(name in table.table.text() for name in names)  # the score sheet names everyone
        assert "ohio.png" in json.dumps(table.table.to_dict())
        steps, seen = 0, set()
        while await table.step():
            steps += 1
            state = await table.state()
            seen.add(state["step"]["kind"])
            text = table.log()
            assert not re.search(r"\bSeat \d\b", text)
            if state["step"]["kind"] == "thrust" and state["trick_no"] == 1:
                assert "Thrust!" in text or "Trick 1" in text
        final = await table.state()
        outcome = ENGINE.outcome(final)
        assert outcome is not None and outcome.reason == "bumpers"
        assert sum(p["bumpers_won"] for p in final["seats"]) >= 2 and final["bumper_no"] >= 2
        assert {"thrust", "move", "attack", "anthem", "stamp"} <= seen
        winner = names[final["winner"]]
        await fake_discord.wait_for(lambda: "game over" in table_text(fake_discord).lower(), what="the result")
        assert f"{winner} wins two bumpers and is the new champion" in table_text(fake_discord)
        assert steps <= 250  # 118 with this seed today: a whole game stays a few seconds


def table_text(server: FakeDiscord) -> str:
    return "\n".join(m.text() for t in [server.general, *server.general.threads()] for m in t.history())


# ----- (2) a restart in the middle of a catch window ------------------------------------------------
async def test_a_restart_in_the_middle_of_a_catch_resumes_the_throw(fake_discord: FakeDiscord, tmp_path: Path,
                                                                    clock: ManualClock,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    async with running_bot(fake_discord, tmp_path, seed=QUICK_SWITCH, clock=clock) as harness:
        table = Fencing(fake_discord, harness, clock)
        await table.open(duel_mode="dice")
        state = await table.until("catch", quick_switch=True)
        assert state["step"]["purpose"] == "qs1" and not state["step"]["open"]
        receiver = state["step"]["receiver"]
        assert "Get ready to press **Catch**" in table.log() or "Catch" in table.log()
        assert not [c for c in table.components() if c[3] == {"type": "catch"}]  # not before it opens

        await harness.close()  # the bot goes down with the purple ball in the air …
        clock.advance(120)
        await harness.start()  # … and comes back two minutes later
        restarted = clock.now()
        actions = await harness.bot.storage.actions(table.game_id)
        assert actions[-1].action == {"type": "resume"} and actions[-1].seat is None
        game = await table.game()
        step = game.state["step"]
        assert step["kind"] == "catch" and not step["open"] and step["opened_at"] == round(restarted * 1000)
        assert step["opens_at"] > round(restarted * 1000)  # a fresh delay from the restart
        await table.shown()

        await table.fire_timer()  # the catch opens
        await table.shown()
        view = ENGINE.view((await table.game()).state, None)
        assert view["prompt"]["open"] and view["prompt"]["receiver"] == receiver
        deadline = view["prompt"]["deadline"] / 1000
        # the receiver pressed a millisecond before the deadline; the bot only hears of it once
        # the clock has run past it: the catch still counts
        clock.advance(deadline + 0.5 - clock.now())
        with pressed_at(monkeypatch, deadline - 0.001):
            await table.press(table.player(receiver), {"type": "catch"})
        await table.shown()
        after = await table.state()
        assert after["purple"] == receiver
        assert "catches the 🟣 purple ball" in table.log()
        # the game goes on: the yellow ball flies back, then the trick carries on to its end
        for _ in range(12):
            await table.step()
        assert (await table.state())["trick_no"] >= 1
        replayed = await harness.bot.service.replay(table.game_id)
        assert replayed == (await table.state())  # the resume is in the log: the replay matches


# ----- (3) races judged by the time pressed ---------------------------------------------------------
async def test_a_hat_race_queued_behind_a_slow_step_is_judged_in_press_order(
        fake_discord: FakeDiscord, tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running_bot(fake_discord, tmp_path, seed=TRIPLE, clock=clock) as harness:
        table = Fencing(fake_discord, harness, clock)
        await table.open(duel_mode="dice")
        state = await table.until("hat")
        opened = state["step"]["opened_at"] / 1000
        assert state["step"]["bare"] == [0, 1, 2]
        assert "Don hat" in " ".join(table.table.button_labels())
        alice, bob, cara = table.players
        clock.advance(opened + 3 - clock.now())

        service = harness.bot.service
        original = service._commit
        calls = {"n": 0}

        async def slow_first(*args: Any, **kwargs: Any) -> Any:
            calls["n"] += 1
            if calls["n"] == 1:
                await asyncio.sleep(0.8)  # alice's step is slow to store
            return await original(*args, **kwargs)

        monkeypatch.setattr(service, "_commit", slow_first)
        don = {"type": "don"}
        with pressed_at(monkeypatch, opened + 0.4):
            first = asyncio.create_task(table.press(alice, don))
            await asyncio.sleep(0.2)
        with pressed_at(monkeypatch, opened + 2.2):  # bob pressed last, but reaches the bot first
            second = asyncio.create_task(table.press(bob, don))
            await asyncio.sleep(0.1)
        with pressed_at(monkeypatch, opened + 1.7):
            third = asyncio.create_task(table.press(cara, don))
            await asyncio.sleep(0.1)  # sent while the stamp is set
        for answer in await asyncio.gather(first, second, third):
            assert answer.acknowledged
        game = await table.game()
        dons = [r for r in await harness.bot.storage.actions(table.game_id) if r.action == don]
        assert [r.seat for r in dons] == [0, 2, 1]  # taken in the order pressed
        assert [round(r.at - opened, 3) for r in dons] == [0.4, 1.7, 2.2]
        race = next(e for e in reversed(game.log) if e.startswith("🎩 Hat race"))
        assert "alice 0.4 s, cara 1.7 s, bob 2.2 s" in race and "last on: bob pays" in race
        assert game.state["penalties"][1] or game.state["seats"][1]["score"] < 0
        assert not game.state["penalties"][0] and not game.state["penalties"][2]


async def test_two_snaps_of_a_duel_are_judged_by_their_press_times(fake_discord: FakeDiscord, tmp_path: Path,
                                                                   clock: ManualClock,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The longer sleeper that still comes back wins: both snap well inside S (≥ 3 s); the bot
    hears both only once its clock reads 3 s after the throw, and judges each by when it was
    pressed."""
    async with running_bot(fake_discord, tmp_path, seed=DUEL, clock=clock) as harness:
        table = Fencing(fake_discord, harness, clock)
        await table.open()
        state = await table.until("duel")
        a, b = state["step"]["seats"]
        third = state["step"]["third"]
        for seat in (a, b):
            clock.advance(0.5)
            await table.press(table.player(seat), {"type": "insult", "text": ""})  # Skip
            await table.shown()
        clock.advance(0.5)
        await table.press(table.player(third), {"type": "count"})
        await table.shown()
        t0 = (await table.state())["step"]["t0"] / 1000
        assert "1, 2, 3 — THROW!" in table.log()
        assert "Snap back!" in table.table.button_labels()
        clock.advance(t0 + 3 - clock.now())
        with pressed_at(monkeypatch, t0 + 1.2):
            await table.press(table.player(a), {"type": "snap"})
        await table.shown()
        with pressed_at(monkeypatch, t0 + 2.9):
            await table.press(table.player(b), {"type": "snap"})
        await table.shown()
        game = await table.game()
        log = "\n".join(game.log)
        assert f"{table.player(b).name} wins the duel over {table.player(a).name}" in log
        assert f"{table.player(a).name} 1.2 s ✔ · {table.player(b).name} 2.9 s ✔" in log
        assert harness.bot is not None and game.state["yellow"] == b


# ----- (4) hostile and mistaken presses -------------------------------------------------------------
async def test_wrong_players_stale_buttons_junk_insults_and_a_bad_typed_move(
        fake_discord: FakeDiscord, tmp_path: Path, clock: ManualClock) -> None:
    async with running_bot(fake_discord, tmp_path, seed=DUEL, clock=clock) as harness:
        table = Fencing(fake_discord, harness, clock)
        await table.open()
        eve = fake_discord.user("eve")
        refused = await eve.click(table.table, "GAME!")
        assert refused.ephemeral and "not playing" in refused.content
        await table.until("gun")
        start = (await table.state())["start"]
        wrong = await table.press(table.player(start), {"type": "fire"})
        assert wrong.ephemeral and "never fires" in wrong.content

        state = await table.until("duel")
        a, b = state["step"]["seats"]
        third = state["step"]["third"]
        version = (await table.game()).version
        stale = next(c[1] for c in table.components() if c[3] == {"type": "insult", "text": ""})
        # the third player is not in the duel: their Skip is refused
        no = await table.press(table.player(third), {"type": "insult", "text": ""})
        assert no.ephemeral and "Only the duellists" in no.content
        # a duellist's insult with markup, mentions and a newline stays text on the table
        opened = await table.player(a).click(table.table, "Insult")
        assert opened.modal is not None
        junk = "@everyone <@1> **loud** `x`\nYOUR YO-YO IS A YOMEGA"
        await table.player(a).submit({"text": junk})
        await table.shown()
        log = "\n".join((await table.game()).log)
        assert "YOUR YO-YO IS A YOMEGA" in log and (await table.game()).version == version + 1
        # a forged submission past the form's 200 characters is refused once, nothing changes
        forged = await table.player(b).forge_modal(
            f"rp:m:{table.game_id}:{version + 1}:" + json.dumps({"type": "insult"}, separators=(",", ":")),
            [{"type": 1, "components": [{"type": 4, "custom_id": "text", "value": "x" * 500}]}],
            channel=table.table.channel)
        assert forged.ephemeral and "200" in forged.content
        assert (await table.game()).version == version + 1
        # Skip as drawn before the insult (the table has moved on): a slow client's stale press
        assert all(c[1] != stale for c in table.components())
        old = await table.player(b).forge(table.table, stale)
        assert old.ephemeral and re.search(r"earlier|no longer", old.content), old.content
        assert (await table.game()).version == version + 1

        state = await table.until("move")
        controller = state["control"]
        mover = table.player(controller)
        attacked = state["attacked"]
        taken = next(p for p, town in state["pieces"].items() if p != attacked)
        bad = await mover.slash("fencing move", channel=table.table.channel, piece=attacked,
                                to=state["pieces"][taken])
        assert bad.acknowledged
        await table.shown()
        game = await table.game()
        assert any(line.startswith("🚫 Refused: " + mover.name) and "(rule 17)" in line for line in game.log)
        assert game.state["penalties"][controller] or game.state["seats"][controller]["score"] < state[
            "seats"][controller]["score"]
        assert game.state["step"]["kind"] == "move"  # refused: the move prompt is still open
        if game.state["penalties"][controller]:  # the payer's 🍫 / ⬇️ are on the table
            assert any(label.startswith(f"Eat chocolate ({mover.name}") for label in table.table.button_labels())
        # the same player's second miscue this trick: a kick in the butt
        await mover.slash("fencing quickswitch", channel=table.table.channel)
        await table.shown()
        assert any("🥾" in line for line in (await table.game()).log)
        assert (await table.state())["seats"][controller]["butt_kicks"] == 1
        # someone else's press of the move select: not their call
        other = table.player((controller + 1) % 3)
        refused_move = await table.press(other, {"type": "stay"})
        assert refused_move.ephemeral and "has control and moves" in refused_move.content


# ----- (5) the typed commands in the spec's shapes ---------------------------------------------------
async def test_typed_hose_by_name_the_map_picture_and_moves_with_via_or_offroad(
        fake_discord: FakeDiscord, tmp_path: Path, clock: ManualClock) -> None:
    async with running_bot(fake_discord, tmp_path, seed=QUICK_SWITCH, clock=clock) as harness:
        table = Fencing(fake_discord, harness, clock)
        await table.open(duel_mode="dice")
        channel = table.table.channel
        # /fencing hose: the autocomplete offers the other players by name; the value is their number
        state = await table.until("golf")
        holder = state["step"]["holder"]
        hoser = table.player(holder)
        offered = await hoser.autocomplete("fencing hose", "target", "")
        others = [s for s in range(3) if s != holder]
        assert [c["value"] for c in offered] == [str(s + 1) for s in others]
        assert [table.player(s).name in c["name"] for s, c in zip(others, offered, strict=True)] == [True, True]
        named = await hoser.autocomplete("fencing hose", "target", table.player(others[1]).name)
        assert [c["value"] for c in named] == [str(others[1] + 1)]
        await hoser.slash("fencing hose", channel=channel, target=named[0]["value"])
        await table.shown()
        hosed = [e for e in (await table.game()).log if "hoses" in e or "💦" in e or "Erie" in e]
        assert hosed and table.player(others[1]).name.upper() in hosed[-1].upper(), hosed

        # /fencing map: the picture of the map comes with the card
        state = await table.until("move")
        shown = await table.player(0).slash("fencing map", channel=channel)
        assert shown.message is not None and [a.filename for a in shown.message.attachments] == ["ohio.png"]
        assert shown.message.attachments[0].data.startswith(b"\x89PNG")

        # /fencing move with a bad via: refused, with a penalty; the prompt stays open
        controller = state["control"]
        mover = table.player(controller)
        piece = state["attacked"]
        before = state["seats"][controller]
        await mover.slash("fencing move", channel=channel, piece=piece, to=state["pieces"][piece], via="ZZZ")
        await table.shown()
        game = await table.game()
        assert any(line.startswith("🚫 Refused: " + mover.name) for line in game.log)
        assert game.state["penalties"][controller] or game.state["seats"][controller]["score"] < before["score"]
        assert game.state["step"]["kind"] == "move"
        while (await table.state())["penalties"][controller]:
            assert await table.step()
        # a good one: a road path through another town (via), else the straight line (offroad)
        menu = ENGINE.view(await table.state(), None)["moves"]
        routes = [(e["to"], r) for e in menu["destinations"][1:] for r in e["routes"]]
        to, route = next(((t, r) for t, r in routes if r["via"]), None) or next(
            (t, r) for t, r in routes if r["offroad"])
        options = {"offroad": "true"} if route["offroad"] else {"via": ",".join(route["via"])}
        await mover.slash("fencing move", channel=channel, piece=piece, to=to, **options)
        await table.shown()
        after = await table.state()
        assert after["pieces"][piece] == to and after["step"]["kind"] != "move"
        assert (await table.game()).log[-1:] and not any(
            line.startswith("🚫 Refused") for line in (await table.game()).log[len(game.log):])
