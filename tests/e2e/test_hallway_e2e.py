"""Two Fat Dudes in a Narrow Hallway end to end: the real bot on the fake Discord, two players,
a whole game with buttons and modals only (roll-off, turns, offers, counters, No deal, the Edge,
a deal, the race), a restart mid-negotiation, refusals, a log that names the players, and a hand
count of the final scores."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from games.hallway import ENGINE
from tests.e2e.conftest import RumpusHarness, running_bot
from tests.fakediscord import FakeDiscord, FakeUser, Message

#: The bot's source of game seeds is fixed, so the dice of every game here are the same each run.
SEED = 20240604
TITLE = "Two Fat Dudes in a Narrow Hallway"
WAITING = re.compile(r"⏳ Waiting for <@(\d+)> to (.+?)(?: — |$)", re.M)
#: A colour standing in for a player: the log and the status name players instead.
COLOUR_AS_NAME = re.compile(r"\b(?:Red|Blue)\b")

#: The designed board, copied from the spec's table (§2), for counting by hand: position → (colour, number).
SPEC_BOARD = {
    1: ("R", 3), 2: ("R", 5), 3: ("B", 2), 4: ("R", 6), 5: ("R", 4), 6: ("B", 3), 7: ("R", 8),
    8: ("R", 5), 9: ("R", 9), 10: ("G", 10), 11: ("B", 9), 12: ("B", 5), 13: ("B", 8), 14: ("R", 3),
    15: ("B", 4), 16: ("B", 6), 17: ("R", 2), 18: ("B", 5), 19: ("B", 3),
}


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[RumpusHarness]:
    """The real bot with seeded game seeds."""
    async with running_bot(fake_discord, tmp_path, seed=SEED) as seeded:
        yield seeded


# -- reading the table ----------------------------------------------------------------------------------
def table_of(server: FakeDiscord) -> Message | None:
    for thread in server.general.threads():
        for msg in reversed(thread.history()):
            if msg.author.id == server.world.bot.id and any(e.get("title", "").endswith(TITLE)
                                                            for e in msg.embeds):
                return msg
    return None


def result_of(server: FakeDiscord) -> Message | None:
    for thread in server.general.threads():
        for msg in thread.history():
            if "game over" in msg.text():
                return msg
    return None


def field(table: Message, name: str) -> str:
    for embed in table.embeds:
        for f in embed.get("fields", []):
            if name in f["name"]:
                return str(f["value"])
    return ""


def awaited(table: Message, players: list[FakeUser]) -> list[tuple[FakeUser, str]]:
    """Who the table says it is waiting for, with the prompt, from its "Now" field."""
    by_id = {p.id: p for p in players}
    return [(by_id[int(uid)], prompt) for uid, prompt in WAITING.findall(field(table, "Now"))]


def enabled(table: Message) -> list[str]:
    return [b.get("label") or "" for b in table.buttons() if not b.get("disabled")]


def game_id_of(table: Message) -> int:
    found = re.search(r"game #(\d+)", table.text())
    assert found, table.text()
    return int(found.group(1))


def encounter_no(table: Message) -> int:
    found = re.search(r"Encounter (\d+)", table.embeds[0].get("description", ""))
    assert found, table.embeds[0].get("description")
    return int(found.group(1))


async def stored(harness: RumpusHarness, game_id: int) -> Any:
    game = await harness.bot.storage.game(game_id)
    assert game is not None
    return game


async def open_table(server: FakeDiscord, host: FakeUser, guest: FakeUser) -> Message:
    lobby = (await host.slash("hallway new")).message
    assert lobby is not None
    await guest.click(lobby, "Join")
    await host.click(lobby, "Start")
    table = await server.wait_for(lambda: table_of(server), what="the hallway table in its thread")
    assert "Started!" in lobby.text()
    return table


async def press(player: FakeUser, table: Message, label: str) -> None:
    """A press that must be accepted: the table message itself is updated in place."""
    result = await player.click(table, label)
    assert result.response_type == 7, f"{player.name} {label!r}: {result.content}"


async def offer(player: FakeUser, table: Message, label: str, amount: str) -> Any:
    """Open an offer form from the table and submit `amount`; returns the submission's result."""
    opened = await player.click(table, label)
    assert opened.modal is not None, f"{label!r} opened no modal: {opened.content}"
    [field_input] = [c for row in opened.modal["components"] for c in row.get("components", [row.get("component")])
                     if c and c.get("custom_id") == "amount"]
    assert field_input.get("max_length", 4000) >= 4
    return await player.submit(amount=amount)


async def refused(player: FakeUser, table: Message, label: str, reason: str, harness: RumpusHarness,
                  game_id: int) -> None:
    """`player` presses `label`: an ephemeral sentence with `reason`, and nothing changes."""
    before = await stored(harness, game_id)
    text = table.text()
    result = await player.click(table, label)
    assert result.ephemeral and reason in result.content, result.content
    after = await stored(harness, game_id)
    assert (after.version, after.state) == (before.version, before.state)
    assert table.text() == text


def check_table_mid_encounter(table: Message) -> None:
    """What issue #4 asks of the table: track, scores with ★, Edge, boxes, penalties, who and how
    long, the recent moves, the picture."""
    text, description = table.text(), table.embeds[0].get("description", "")
    assert "**🔴" in description and "**🔵" in description and "G10" in description
    assert text.count("★") == 1 and " points" in text
    assert "if it ended now: −" in text and field(table, "Edge") in ("🔴 alice", "🔵 bob")
    assert field(table, "Encounters").startswith("☑☐☐☐☐ — encounter 1: going back costs 5")
    now = field(table, "Now")
    assert "Waiting for" in now and "make an offer or press No deal" in now and " left (<t:" in now
    assert "Belly bump" in field(table, "Recent")
    assert table.attachments and table.embeds[0].get("image", {}).get("url") == "attachment://hallway.png"


# -- the hand count -------------------------------------------------------------------------------------
def hand_count(seed: int, records: list[Any]) -> tuple[list[int], list[bool]]:
    """Final totals counted from the stored actions and the events they replay to, with the
    spec's board table: landings, offers (−1 each), deals, Edge fees, and the left-behind penalty."""
    state = ENGINE.new_game(2, seed)
    score, pos, out = [0, 0], [0, 20], [False, False]
    exits, starts = (20, 0), (0, 20)
    last_offer: dict[str, Any] | None = None
    encounters = 0
    for record in records:
        seat, action = record.seat, record.action
        state, events = ENGINE.apply(state, seat, action, record.at)
        kind = action["type"]
        if kind == "offer":
            score[seat] -= 1
            payer = seat if action["payer"] == "me" else 1 - seat
            last_offer = {"payer": payer, "amount": action["amount"]}
        elif kind == "accept":
            assert last_offer is not None
            score[last_offer["payer"]] -= last_offer["amount"]
            score[1 - last_offer["payer"]] += last_offer["amount"]
        elif kind == "edge":
            goer = seat if action["back"] == "me" else 1 - seat
            score[goer] -= 5 if encounters <= 2 else 10
            pos[goer] = starts[goer]
        for event in events:
            if event.type == "encounter":
                encounters += 1
            if event.type in ("land", "exit"):
                who, where = event.data["seat"], event.data["pos"]
                pos[who] = where
                out[who] = where == exits[who]
                colour, number = SPEC_BOARD.get(where, ("", 0))
                if colour == "G":
                    score[who] += number
                elif colour:
                    score[who] += number if colour == "RB"[who] else -number
    totals = [score[s] - (0 if out[s] else 5 * abs(exits[s] - pos[s])) for s in (0, 1)]
    return totals, out


# -- the tests ------------------------------------------------------------------------------------------
async def test_a_whole_game_with_buttons_and_modals_and_a_restart(
        fake_discord: FakeDiscord, harness: RumpusHarness) -> None:
    alice, bob, mallory = (fake_discord.user(n) for n in ("alice", "bob", "mallory"))
    players = [alice, bob]
    table = await open_table(fake_discord, alice, bob)
    game_id = game_id_of(table)
    text = table.text()
    assert "🔴 Red — alice" in text and "🔵 Blue — bob" in text  # the host is Red
    assert table.attachments and table.attachments[0].filename == "hallway.png"
    assert "**🔴[R]**·R3·R5·B2" in text and "Roll-off" in text and "**🔵[B]**" in text

    seen = {"nodeal": False, "bad": False, "restart": False, "counter": False, "decline": False,
            "deal": False, "edge": []}
    await roll_off(table, players)
    for _ in range(200):
        assert not COLOUR_AS_NAME.search(field(table, "Recent") + table.embeds[0].get("description", ""))
        if not table.buttons():
            await fake_discord.wait_for(lambda: result_of(fake_discord), what="the result message")
            break
        labels = enabled(table)
        waiting = awaited(table, players)
        assert waiting, table.text()
        if labels == ["Roll"]:
            for player, prompt in waiting:
                assert "roll" in prompt
                await press(player, table, "Roll")
        elif "No deal" in labels:
            n = encounter_no(table)
            first, second = (p for p, _ in waiting)
            if n == 1:  # both refuse to haggle: the Edge decides
                check_table_mid_encounter(table)
                await refused(mallory, table, "Offer: I pay you…", "not playing", harness, game_id)
                await press(first, table, "No deal")
                assert "said no deal" in table.text()
                await refused(first, table, "No deal", "already said no deal", harness, game_id)
                await press(second, table, "No deal")
                seen["nodeal"] = True
            elif n == 2:  # bad amounts cost nothing; an offer; a restart; a counter; a decline
                before = await stored(harness, game_id)
                for bad, reason in (("abc", "whole number"), ("-3", "0 to 999"), ("1000", "0 to 999"),
                                    ("2.5", "whole number")):
                    result = await offer(first, table, "Offer: I pay you…", bad)
                    assert result.ephemeral and reason in result.content, (bad, result.content)
                after = await stored(harness, game_id)
                assert (after.version, after.state) == (before.version, before.state)  # nothing charged
                seen["bad"] = True
                await offer(first, table, "Offer: I pay you…", "4")
                assert "“I pay you 4”" in table.text()
                await harness.restart()  # mid-negotiation: the old table message must still work
                seen["restart"] = True
                await refused(first, table, "Accept", "your own offer", harness, game_id)
                countered = await offer(second, table, "Counter: you pay me…", "7")
                assert countered.response_type == 7 and "“You pay me 7”" in table.text()
                seen["counter"] = True
                await press(first, table, "Decline")
                seen["decline"] = True
            else:  # a deal: points change hands and the dudes swap
                await offer(first, table, "Offer: you pay me…", "0")
                await press(second, table, "Accept")
                seen["deal"] = True
        elif "Accept" in labels:
            raise AssertionError(f"unplanned offer on the table: {table.text()}")
        elif any(label.startswith("I go back") for label in labels):
            [(holder, _)] = waiting
            other = bob if holder is alice else alice
            await refused(other, table, labels[0], "holds the Edge", harness, game_id)
            choice = labels[0] if not seen["edge"] else labels[1]  # once each way
            await press(holder, table, choice)
            seen["edge"].append(choice)
        else:
            raise AssertionError(f"unexpected buttons {labels}: {table.text()}")
    else:
        raise AssertionError("the game did not end")

    assert all(seen[k] for k in ("nodeal", "bad", "restart", "counter", "decline", "deal"))
    assert len(seen["edge"]) == 2 and seen["edge"][0].startswith("I go back")
    assert harness.starts == 2

    result = result_of(fake_discord)
    assert result is not None and "Honorary Skinny Dude" in result.text()
    game = await stored(harness, game_id)
    final = game.state["final"]
    totals, out = hand_count(game.seed, await harness.bot.storage.actions(game_id))
    assert totals == final["totals"]
    assert out == [s in game.state["exited"] for s in (0, 1)]
    names = ("alice", "bob")

    def shown(n: int) -> str:
        return str(n) if n >= 0 else f"−{-n}"

    score_line = f"{names[0]} {shown(totals[0])} · {names[1]} {shown(totals[1])}"
    assert score_line in table.text()
    if totals[0] != totals[1] or out[0] != out[1]:
        winner = final["ranks"].index(0)
        assert f"{'🔴🔵'[winner]} {names[winner]} is the **Honorary Skinny Dude**" in table.text()
        assert f"{names[0]} {shown(totals[0])}, {names[1]} {shown(totals[1])}" in result.text()
    assert table.buttons() == []
    assert (await harness.bot.service.replay(game_id)) == game.state


async def test_outsiders_and_the_wrong_dude_are_refused(fake_discord: FakeDiscord, harness: RumpusHarness) -> None:
    alice, bob, mallory = (fake_discord.user(n) for n in ("alice", "bob", "mallory"))
    table = await open_table(fake_discord, alice, bob)
    game_id = game_id_of(table)
    await refused(mallory, table, "Roll", "not playing", harness, game_id)
    await press(alice, table, "Roll")
    await refused(alice, table, "Roll", "You already rolled. Waiting for bob to roll.", harness, game_id)
    while "Roll-off" in table.embeds[0].get("description", ""):
        for player, _ in awaited(table, [alice, bob]):
            await press(player, table, "Roll")
    [(turn, _)] = awaited(table, [alice, bob])
    idle = bob if turn is alice else alice
    await refused(idle, table, "Roll", "turn to roll", harness, game_id)
    await refused(mallory, table, "Roll", "not playing", harness, game_id)


async def roll_off(table: Message, players: list[FakeUser]) -> None:
    """Both press Roll; until both have, the table shows who has rolled and no die; then the log
    shows both dice with names and who starts."""
    alice, bob = players
    for _ in range(20):
        description = table.embeds[0].get("description", "")
        if "Roll-off" not in description:
            break
        assert "✔ rolled" not in description
        await press(alice, table, "Roll")
        description = table.embeds[0].get("description", "")
        assert "🔴 alice ✔ rolled" in description and "bob ✔" not in description
        assert "🔴 alice ✔ rolled for the start." in field(table, "Recent")
        assert [p for p, _ in awaited(table, players)] == [bob]
        await press(bob, table, "Roll")
        recent = field(table, "Recent")
        assert re.search(r"🎲 Roll-off: 🔴 alice 🎲[1-4], 🔵 bob 🎲[1-4]\.", recent), recent
    else:
        raise AssertionError("the roll-off never ended")
    assert re.search(r"(🔴 alice starts ★ and bob|🔵 bob starts ★ and alice) holds the Edge\.", field(table, "Recent"))
    assert field(table, "Roll-off").startswith("🔴 alice 🎲")


async def roll_to_the_first_encounter(table: Message, players: list[FakeUser]) -> None:
    for _ in range(60):
        if "No deal" in enabled(table):
            return
        for player, _prompt in awaited(table, players):
            await press(player, table, "Roll")
    raise AssertionError("no encounter")


async def test_a_doubled_minus_in_the_amount_is_refused_as_not_a_number(
        fake_discord: FakeDiscord, harness: RumpusHarness) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table = await open_table(fake_discord, alice, bob)
    await roll_to_the_first_encounter(table, [alice, bob])
    result = await offer(alice, table, "Offer: I pay you…", "--3")
    assert result.ephemeral and "whole number" in result.content, result.content


#: Junk typed into the offer form. "" and the 20 digits cannot come from Discord's app (the field is
#: required, at most 6 characters): they are sent as a modified client would.
JUNK_AMOUNTS = ("abc", "-3", "", "99999999999999999999", "1e3", "5.0", "٥", "0x5", "+-1", "1000")


async def submit_amount(player: FakeUser, table: Message, label: str, amount: str) -> Any:
    """Open the offer form and send `amount` as typed, past the app's own checks if need be."""
    opened = await player.click(table, label)
    assert opened.modal is not None, f"{label!r} opened no modal: {opened.content}"
    inputs = [c for row in opened.modal["components"] for c in row.get("components", [row.get("component")])
              if c and c.get("custom_id") == "amount"]
    assert len(inputs) == 1
    if amount and len(amount) <= inputs[0].get("max_length", 4000):
        return await player.submit(amount=amount)
    player.open_modal = None
    row = {"type": 1, "components": [{"type": 4, "custom_id": "amount", "value": amount}]}
    return await player.forge_modal(opened.modal["custom_id"], [row], channel=table.channel)


async def test_a_bad_amount_in_the_offer_form_gets_one_short_refusal_and_costs_nothing(
        fake_discord: FakeDiscord, harness: RumpusHarness) -> None:
    """Issue 10, Hallway: "A bad amount in the offer form gets one clear refusal, not two, and
    costs nothing." Each junk amount: one short ephemeral answer, to the one who typed it; the
    game's state and version unchanged; no public message posted or edited; a good offer after
    it works (and costs its 1 point)."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table = await open_table(fake_discord, alice, bob)
    game_id = game_id_of(table)
    await roll_to_the_first_encounter(table, [alice, bob])
    first = awaited(table, [alice, bob])[0][0]
    before = await stored(harness, game_id)
    moves = len(await harness.bot.storage.actions(game_id))
    for bad in JUNK_AMOUNTS:
        shown = table.text(), table.edits
        mark = fake_discord.mark()
        mine = len(first.ephemerals())
        result = await submit_amount(first, table, "Offer: I pay you…", bad)
        await fake_discord.idle()  # anything the bot would still send has been sent
        said = [m for m in [result.message, *result.followups] if m is not None]
        assert len(said) == 1 and said[0].ephemeral, (bad, [m.text() for m in said])
        assert len(first.ephemerals()) == mine + 1, (bad, [m.text() for m in first.ephemerals()[mine:]])
        assert 0 < len(result.content) <= 120 and "\n" not in result.content, (bad, result.content)
        assert re.search(r"whole number|0 to 999|0–999|at most", result.content), (bad, result.content)
        public = [c for c in fake_discord.calls_since(mark)
                  if c.method in ("POST", "PATCH", "DELETE") and "/channels/" in c.route]
        assert public == [], (bad, [(c.method, c.route) for c in public])
        assert (table.text(), table.edits) == shown, bad
        after = await stored(harness, game_id)
        assert (after.version, after.state) == (before.version, before.state), bad
    assert len(await harness.bot.storage.actions(game_id)) == moves  # nothing was recorded
    score = before.state["score"][[alice, bob].index(first)]
    done = await submit_amount(first, table, "Offer: I pay you…", " 5 ")  # spaces around a number are fine
    assert done.response_type == 7, done.content
    assert "“I pay you 5”" in table.text()
    after = await stored(harness, game_id)
    assert after.version == before.version + 1
    assert after.state["score"][[alice, bob].index(first)] == score - 1
