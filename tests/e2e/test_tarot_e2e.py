"""Conference / League end to end: the real bot on the fake Discord, four players in two
teams, a whole game of four hands played from the DM hands (the discard as a two-pick
select, every card from the select of legal cards), refusals out of turn, no card of a hand
in the channel before it is played, the team threads, and the result."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cogs.tarot.card_names import card_label, card_short
from games.tarot import ENGINE
from tests.e2e.conftest import RumpusHarness, running_bot
from tests.fakediscord import FakeDiscord, FakeUser, Message

SEED = 4242


def hand_of(player: FakeUser) -> Message | None:
    """The player's private hand: the newest DM (or ephemeral) showing it."""
    return next((m for m in reversed(player.dms()) if any(
        str(e.get("title", "")).startswith("Your hand") for e in m.embeds)), None)


async def open_tarot(server: FakeDiscord, harness: RumpusHarness, players: list[FakeUser], **options: Any) -> Any:
    """/tarot new, two join each team, Start; returns the (live) game record."""
    alice, bob, carol, dan = players
    lobby = (await alice.slash("tarot new", **options)).message
    assert lobby is not None
    assert alice.mention in lobby.text()  # the host sits in team A
    await bob.click(lobby, "Join A")
    await carol.click(lobby, "Join B")
    await dan.click(lobby, "Join B")
    await alice.click(lobby, "Start")
    await server.wait_for(lambda: all(hand_of(p) for p in players), what="four hands by DM")
    await server.idle()
    game = await harness.bot.service.game_for(players[0].id, None)
    await server.wait_for(lambda: next_one_can_act(game, players), what="the dealer's menu")
    return game
    return lobby


def public_text(server: FakeDiscord) -> str:
    channels = [server.general, *server.general.threads()]
    return "\n".join(m.text() for c in channels for m in c.history() if m.visible_for(None))


def unplayed(state: dict[str, Any]) -> set[str]:
    """Cards still hidden in a hand or the current hand's discard."""
    hand = state["hand"]
    return {c for h in hand["hands"] for c in h} | set(hand["discard"])


def assert_no_hidden_card_shown(server: FakeDiscord, state: dict[str, Any]) -> None:
    """No hidden card is named in the channel: neither its label nor its short name, in a
    line that says a card was played or is on the table."""
    text = public_text(server)
    hidden = unplayed(state)
    shown = set(ENGINE.view(state, None)["played_aces"])
    for call in state["hand"]["calls"]:
        shown.add(call["shown"])
    for card in hidden - shown:
        assert f"played {card_short(card)}." not in text, card
        assert card_label(card) not in text, card


async def take_turn(server: FakeDiscord, harness: RumpusHarness, players: list[FakeUser], game_id: int) -> bool:
    game = await harness.bot.service.game(game_id)
    version = game.version  # the record is live: remember the number, not the record
    waits = ENGINE.to_act(game.state)
    if not waits:
        return False
    wait = waits[0]
    assert wait.seat is not None, "no Allegiance windows in this game"
    seat = wait.seat
    player = next(p for p in players if p.id == game.seats[seat].user_id)
    hand = hand_of(player)
    assert hand is not None
    action = ENGINE.legal_actions(game.state, seat)[0]
    if action["type"] == "discard":
        picked = await player.select(hand, [card_label(c) for c in action["cards"]], menu="Discard two cards")
    else:
        picked = await player.select(hand, card_label(action["card"]), menu="Play a card")
    assert not picked.ephemeral or "can't" not in picked.text().lower(), picked.text()
    after = await harness.bot.service.game(game_id)
    assert after.version > version, f"{player.name}'s {action} did not count"
    await server.wait_for(lambda: next_one_can_act(after, players), what="the next player's menu")
    return True


def next_one_can_act(game: Any, players: list[FakeUser]) -> bool:
    """The awaited player's DM shows a menu (pictures take a moment: idle is not enough)."""
    waits = ENGINE.to_act(game.state)
    if not waits or waits[0].seat is None:  # over, or an Ace's window (nobody is named)
        return True
    player = next(p for p in players if p.id == game.seats[waits[0].seat].user_id)
    hand = hand_of(player)
    return hand is not None and bool(hand.selects())


async def test_a_whole_game_of_tarot_through_discord(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    players = [fake_discord.user(n) for n in ("alice", "bob", "carol", "dan")]
    async with running_bot(fake_discord, tmp_path, seed=SEED) as harness:
        game = await open_tarot(fake_discord, harness, players, conference="off")
        seated = {s.user_id: s.seat for s in game.seats}
        assert [seated[p.id] for p in players] == [0, 1, 2, 3]  # partners side by side

        # out of turn: the dealer discards first; anyone else's select is refused, nothing changes
        dealer = game.state["hand"]["dealer"]
        other = players[(dealer + 1) % 4]
        hand = hand_of(other)
        assert hand is not None and not hand.selects()  # nothing to choose before your turn
        steps = 0
        while await take_turn(fake_discord, harness, players, game.id):
            steps += 1
            state = (await harness.bot.service.game(game.id)).state
            if state["hand_no"] == 0 and steps % 10 == 1:  # later hands reuse the pack's names
                assert_no_hidden_card_shown(fake_discord, state)
        assert steps == 4 * (1 + 76)
        final = await harness.bot.service.game(game.id)
        outcome = ENGINE.outcome(final.state)
        assert outcome is not None
        await fake_discord.wait_for(lambda: "game over" in public_text(fake_discord).lower(), what="the result")
        text = public_text(fake_discord)
        assert "after four hands" in text
        last = final.state["history"][-1]
        assert "Hand 4" in text and f"A {last['totals'][0]} ({last['card_points'][0]} +" in text
        assert not any(re.search(r"\bSeat \d\b", m.text()) for m in fake_discord.general.history())


async def test_a_stale_or_forged_card_is_refused_and_changes_nothing(fake_discord: FakeDiscord,
                                                                     tmp_path: Path) -> None:
    players = [fake_discord.user(n) for n in ("alice", "bob", "carol", "dan")]
    async with running_bot(fake_discord, tmp_path, seed=SEED) as harness:
        game = await open_tarot(fake_discord, harness, players, conference="off")
        await take_turn(fake_discord, harness, players, game.id)  # the discard
        game = await harness.bot.service.game(game.id)
        mover = ENGINE.to_act(game.state)[0].seat
        player = next(p for p in players if p.id == game.seats[mover].user_id)
        hand = hand_of(player)
        assert hand is not None
        legal = ENGINE.legal_actions(game.state, mover)
        [menu] = hand.selects()
        options = {o["label"]: o["value"] for o in menu["options"]}
        await player.select(hand, card_label(legal[0]["card"]), menu="Play a card")
        await fake_discord.idle()
        version = (await harness.bot.service.game(game.id)).version
        # the same menu again, as a slow client would send it: one short refusal, nothing moves
        again = await player.forge(hand, menu["custom_id"], component_type=3,
                                   values=[options[card_label(legal[-1]["card"])]])
        assert again.ephemeral and re.search(r"earlier|turn|no longer", again.text().lower()), again.text()
        junk = await player.forge(hand, menu["custom_id"], component_type=3, values=["🃏" * 40])
        assert junk.ephemeral
        assert (await harness.bot.service.game(game.id)).version == version
        stranger = fake_discord.user("eve")
        table = next(m for t in fake_discord.general.threads() for m in t.history() if m.embeds
                     and "Conference" in str(m.embeds[0].get("title")))
        assert stranger.sees(table)
        refused = await stranger.slash("tarot play", card=legal[-1]["card"], channel=table.channel)
        assert refused.ephemeral and "not" in refused.text().lower()
        assert (await harness.bot.service.game(game.id)).version == version
        score = await player.slash("tarot score", channel=table.channel)
        assert score.ephemeral and "Game points" in score.text() and "A 0 · B 0" in score.text()
        last = await player.slash("tarot lasttrick", channel=table.channel)
        assert last.ephemeral and "No trick has been completed" in last.text()


#: With this bot seed, the 17th step of the first game (first legal choices throughout) is
#: dan (seat 3) playing the Ace of Batons while holding the Ace of Swords himself.
ACE_SEED = 0


def table_of(server: FakeDiscord) -> Message:
    return next(m for t in server.general.threads() for m in t.history()
                if m.embeds and str(m.embeds[0].get("title", "")).startswith("Conference"))


async def test_an_ace_of_allegiance_window_asks_only_the_holder(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    players = [fake_discord.user(n) for n in ("alice", "bob", "carol", "dan")]
    _alice, _bob, carol, dan = players
    async with running_bot(fake_discord, tmp_path, seed=ACE_SEED) as harness:
        game = await open_tarot(fake_discord, harness, players, allegiances=True, conference="off")
        for _ in range(17):
            await take_turn(fake_discord, harness, players, game.id)
        assert game.state["hand"]["phase"] == "window" and game.state["hand"]["window"]["ace"] == "BA-A"
        await fake_discord.idle()
        table = table_of(fake_discord)
        assert "Respond" in table.button_labels() and "Ace of Allegiance" in table.text()
        # the table names the Ace's player, never who may answer
        assert "may call" not in public_text(fake_discord)
        nudged = [p.name for p in players if any("may call an allegiance" in m.text() for m in p.dms())]
        assert nudged == ["dan"]

        looked = await carol.click(table, "Respond")
        assert looked.ephemeral and "nothing for you to do" in looked.text()
        assert "Ours" not in [b.get("label") for m in [looked.message] if m for b in m.buttons()]
        answer = await dan.click(table, "Respond")
        assert answer.ephemeral and answer.message is not None and "Ours" in answer.message.button_labels()
        hand = hand_of(dan)
        assert hand is not None and "Ours" in hand.button_labels()
        await dan.click(hand, "Ours")
        await fake_discord.idle()
        assert game.state["hand"]["phase"] == "play"
        assert game.state["hand"]["periods"] == [["round", "long"]]  # A: Cups & Coins; dan's B: Swords & Batons
        await fake_discord.wait_for(lambda: "called **ours**" in table_of(fake_discord).text(), what="the call")
