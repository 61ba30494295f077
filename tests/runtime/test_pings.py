"""Who is told it is their turn, and what the ping says: `deadlines.newly_asked` decides who
is asked something new; `Pings` sends only what is still asked when the message goes out, one
digest per message, pinging exactly the players it names."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from cogs.table.pings import PING_SPACING, PINGS_KEPT, Pings
from cogs.table.presence import AT_THE_TABLE, Presence
from cogs.table.registry import load_builtin_uis
from games.registry import get_engine
from runtime.deadlines import newly_asked
from runtime.service import Applied
from runtime.settings import PING_GRACE, Settings, SettingsError
from storage import GameRecord, SeatRecord, Status

THREAD = 500
load_builtin_uis()
ALICE, BOB, CARA = 11, 12, 13


def wait(seat: int | None, key: str, prompt: str, **extra: Any) -> dict[str, Any]:
    return {"seat": seat, "key": key, "prompt": prompt, "at": None, "default": None, "since": 1,
            "independent": False, "countdown": True, **extra}


APPLAUSE = wait(2, "duel-7-insult", "applaud an insult (optional)", optional=True)
INSULTS = [wait(0, "duel-7-insult", "insult your opponent (or skip)"),
           wait(1, "duel-7-insult", "insult your opponent (or skip)"), wait(None, "duel-7-insult", "insults")]
COUNT = wait(2, "duel-7-count", "count to three")


# ----- who is told -----------------------------------------------------------------------------
def seats_of(asked: list[dict[str, Any]]) -> list[int]:
    return [d["seat"] for d in asked]


def test_a_seat_not_awaited_before_is_told_even_of_an_optional_prompt() -> None:
    assert newly_asked(INSULTS, [*INSULTS[1:], APPLAUSE], [0, 1, 2], present=0) == [APPLAUSE]


def test_an_optional_prompt_that_becomes_a_required_one_is_told() -> None:
    """Table Fencing: the third player may applaud; when the insults end they must count."""
    assert newly_asked([INSULTS[1], APPLAUSE, INSULTS[2]], [COUNT], [0, 1, 2], present=1) == [COUNT]
    same_words = {**APPLAUSE, "optional": False}  # the same prompt, now required
    assert newly_asked([APPLAUSE], [same_words], [2]) == [same_words]


def test_a_different_required_step_is_told_but_the_same_prompt_again_is_not() -> None:
    gesture = wait(0, "gesture-3", "gesture: A1 against B2")
    move = wait(0, "move-4-A", "move your kniggits, then Done")
    assert newly_asked([gesture, wait(1, "gesture-3", "gesture: A1 against B2")], [move], [0, 1], present=1) == [move]
    vote = [wait(s, "afk-1", "vote: wait for the AFK player, or abandon") for s in (1, 2, 3)]
    revote = [wait(s, "afk-2", "vote: wait for the AFK player, or abandon") for s in (2, 3)]
    assert newly_asked(vote, revote, [1, 2, 3], present=1) == []  # another seat's vote tells nobody


def test_an_optional_prompt_beside_one_already_shown_tells_nobody() -> None:
    golf = wait(0, "golf-6", "golf window: quick-switch, hose or done")
    assert newly_asked([golf], [golf, wait(0, "cheer-6", "cheer (optional)", optional=True)], [0]) == []


def test_the_seat_that_pressed_reads_its_answer_but_a_timed_out_one_is_told() -> None:
    ask = wait(0, "ask3", "name a letter (How Do You Say…?)")
    turn = wait(0, "turn3", "play a letter, use an event card or skip")
    assert newly_asked([ask], [turn], [0, 1], present=0) == []
    assert newly_asked([ask], [turn], [0, 1], present=None) == [turn]  # its ask ran out


def test_computers_and_the_game_itself_are_never_told() -> None:
    assert seats_of(newly_asked([], [*INSULTS, APPLAUSE], [0, 2])) == [0, 2]


# ----- what is sent ----------------------------------------------------------------------------
@dataclass
class Sent:
    id: int
    channel: Any
    content: str
    allowed: discord.AllowedMentions | None
    reference: discord.MessageReference | None = None


@dataclass
class FakeChannel:
    id: int
    sent: list[Sent]
    deleted: list[int] = field(default_factory=list)
    #: Runs while a message is on its way (the game moving on meanwhile).
    during_send: Any = None

    async def send(self, content: str, *, allowed_mentions: discord.AllowedMentions | None = None,
                   suppress_embeds: bool = False, reference: discord.MessageReference | None = None) -> Sent:
        message = Sent(next(IDS), self, content, allowed_mentions, reference)
        self.sent.append(message)
        if self.during_send is not None:
            self.during_send()
        return message

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def delete(self) -> None:
                channel.deleted.append(message_id)
        return Partial()


IDS = itertools.count(discord.utils.time_snowflake(discord.utils.utcnow()))  # young: bulk-deletable


class FakeHTTP:
    """discord.py's HTTP client as far as pings use it: bulk deletes (refused without Manage
    Messages when `allowed` is False)."""

    def __init__(self) -> None:
        self.bulk: list[tuple[int, list[int]]] = []
        self.allowed = True

    async def delete_messages(self, channel_id: int, message_ids: list[int]) -> None:
        if not self.allowed:
            raise discord.Forbidden(type("Response", (), {"status": 403, "reason": "Forbidden"})(),
                                    {"code": 50013, "message": "Missing Permissions"})
        assert 2 <= len(message_ids) <= 100 and len(set(message_ids)) == len(message_ids)
        self.bulk.append((channel_id, list(message_ids)))


class FakeHost:
    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.channels: dict[int, FakeChannel] = {}
        self.http = FakeHTTP()

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> FakeChannel:
        return self.channels.setdefault(channel_id, FakeChannel(channel_id, self.sent))


class FakeStorage:
    def __init__(self, where: str) -> None:
        self.where = where
        self.pings: list[tuple[int | None, dict[int, int]]] = []

    async def notify_preferences(self, users: list[int]) -> dict[int, str]:
        return {u: self.where for u in users}

    async def set_ping(self, game_id: int, message_id: int | None, seen: dict[int, int]) -> None:
        self.pings.append((message_id, seen))


@dataclass
class FakeDelivery:
    host: FakeHost
    service: Any

    def table_url(self, game: GameRecord) -> str | None:
        return None

    def title_of(self, game: GameRecord) -> str:
        return "Hallway"

    @property
    def now(self) -> float:
        return 1_000.0


def setup(where: str = "thread", log: list[str] | None = None) -> tuple[Pings, FakeHost, GameRecord]:
    log = log if log is not None else []
    seats = [SeatRecord(0, ALICE, "alice", dm_channel_id=600), SeatRecord(1, BOB, "bob", dm_channel_id=601),
             SeatRecord(2, CARA, "cara", dm_channel_id=602)]
    game = GameRecord(id=1, guild_id=1, channel_id=2, thread_id=THREAD, kind="hallway", host_id=ALICE, options={},
                      status=Status.ACTIVE, version=5, seed=1, state={}, deadlines=[], log=log,
                      table_message_id=None, table_message_at=None, created_at=0.0, updated_at=0.0, seats=seats,
                      log_total=len(log))
    host = FakeHost()
    service = type("Service", (), {"storage": FakeStorage(where), "describe": staticmethod(lambda g, e: None)})()
    return Pings(FakeDelivery(host, service)), host, game  # type: ignore[arg-type]


def asked(game: GameRecord, *waits: dict[str, Any]) -> Applied:
    game.deadlines = list(waits)
    return Applied(game, get_engine("hallway"), [], [], asked=list(waits),
                   newly_awaited=sorted({d["seat"] for d in waits if d["seat"] is not None}))


def stored_pings(pings: Pings) -> list[tuple[int | None, dict[int, int]]]:
    """What the pings recorded as the thread's ping and the lines each seat has seen."""
    storage: Any = pings.delivery.service.storage
    return list(storage.pings)


def hold(pings: Pings, seconds: float) -> None:
    """The thread's next ping may go only in `seconds` (as after a burst of pings)."""
    pings._last_sent[THREAD] = asyncio.get_running_loop().time() + seconds - PING_SPACING


async def test_a_queued_ping_is_dropped_when_its_prompt_closes() -> None:
    pings, host, game = setup()
    hold(pings, 0.2)
    await pings.after(asked(game, APPLAUSE))
    await asyncio.sleep(0.05)  # the ping is on its way, waiting for the thread's slot
    game.deadlines = [COUNT]  # the insults ended meanwhile
    await pings.drain()
    assert host.sent == []
    assert pings._last_sent[THREAD] < asyncio.get_running_loop().time()  # the slot was given back


async def test_a_dm_ping_queued_behind_another_is_dropped_when_its_prompt_closes() -> None:
    pings, host, game = setup(where="dm")
    order = pings._order.setdefault(game.id, asyncio.Lock())
    async with order:  # the game's previous ping is still going out
        await pings.after(asked(game, APPLAUSE))
        await asyncio.sleep(0)
        game.deadlines = [COUNT]
    await pings.drain()
    assert host.sent == []


async def test_a_seat_whose_prompt_closed_is_left_out_of_a_shared_ping() -> None:
    pings, host, game = setup(log=["the duel begins"])
    hold(pings, 0.2)
    await pings.after(asked(game, *INSULTS))
    await asyncio.sleep(0.05)
    game.deadlines = INSULTS[1:]  # alice insulted while the ping waited for the thread
    await pings.drain()
    [sent] = host.sent
    assert sent.content.startswith(f"<@{BOB}> — your turn to insult your opponent (or skip)")
    assert f"<@{ALICE}>" not in sent.content
    assert sent.allowed is not None and sent.allowed.to_dict() == {"parse": [], "users": [BOB]}


async def test_a_ping_for_several_players_carries_one_digest() -> None:
    lines = [f"line {n}" for n in range(1, 6)]
    pings, host, game = setup(log=lines)
    game.seats[0].seen_log, game.seats[1].seen_log = 3, 1  # bob missed more
    await pings.after(asked(game, *INSULTS))
    await pings.drain()
    [sent] = host.sent
    assert [line for line in sent.content.splitlines() if line.startswith("<@")] == [
        f"<@{ALICE}> — your turn to insult your opponent (or skip)",
        f"<@{BOB}> — your turn to insult your opponent (or skip)"]
    assert [line for line in sent.content.splitlines() if line.startswith(">")] == [
        "> line 2", "> line 3", "> line 4", "> line 5"]  # from the earliest line either missed, once
    assert sent.allowed is not None and sent.allowed.to_dict()["users"] == [ALICE, BOB]
    assert stored_pings(pings) == [(sent.id, {0: 5, 1: 5})]


async def test_quoted_player_text_is_defused_and_pings_only_the_player() -> None:
    pings, host, game = setup(log=["🗯️ alice: “@everyone @here <@123> <@&456>”"])
    await pings.after(asked(game, COUNT))
    await pings.drain()
    [sent] = host.sent
    assert "> 🗯️ alice: “@\u200beveryone @\u200bhere <@\u200b123> <@\u200b&456>”" in sent.content
    assert sent.allowed is not None
    assert sent.allowed.to_dict() == {"parse": [], "users": [CARA]}


async def test_a_dm_ping_allows_no_mention() -> None:
    pings, host, game = setup(where="dm", log=["🗯️ alice: “@everyone”"])
    await pings.after(asked(game, COUNT))
    await pings.drain()
    [sent] = host.sent
    assert sent.channel.id == 602 and sent.content.startswith("🔔 Your turn to count to three")
    assert sent.allowed is not None and sent.allowed.to_dict() == {"parse": []}


async def test_with_a_shared_database_what_is_asked_is_read_afresh_before_the_ping() -> None:
    """Several processes: another one applied the step that closed the prompt; this process
    learns it by the version check its ping makes first, and sends nothing."""
    pings, host, game = setup()
    service: Any = pings.delivery.service
    service.storage.shared = True

    async def stored(game_id: int) -> GameRecord:
        game.deadlines = [COUNT]  # refreshed in place: the insults ended elsewhere
        return game
    service.game = stored
    await pings.after(asked(game, APPLAUSE))
    await pings.drain()
    assert host.sent == []


async def test_a_ping_whose_prompt_closes_while_it_is_on_its_way_is_taken_back() -> None:
    pings, host, game = setup()
    thread = host.get_partial_messageable(THREAD)
    thread.during_send = lambda: setattr(game, "deadlines", [COUNT])  # the insults end meanwhile
    await pings.after(asked(game, APPLAUSE))
    await pings.drain()
    [sent] = host.sent
    assert thread.deleted == [sent.id]
    assert stored_pings(pings) == []  # not kept as the thread's ping


# ----- what a ping costs -----------------------------------------------------------------------
async def ping_turns(pings: Pings, game: GameRecord, turns: int) -> None:
    """`turns` turns, each asking the other of alice and bob to insult (one thread ping each)."""
    for n in range(turns):
        pings._last_sent.clear()  # no spacing between the turns of this test
        await pings.after(asked(game, wait(n % 2, f"duel-{n}-insult", "insult your opponent (or skip)")))
        await pings.drain()
        game.ping_message_id = stored_pings(pings)[-1][0]


async def test_thread_pings_cost_one_call_each_and_older_ones_go_in_one_bulk_delete() -> None:
    pings, host, game = setup()
    thread = host.get_partial_messageable(THREAD)
    turns = 4 * (PINGS_KEPT - 1) + 1
    for _ in range(turns):
        await ping_turns(pings, game, 1)
        shown = [m.id for m in host.sent if m.id not in thread.deleted
                 and not any(m.id in ids for _, ids in host.http.bulk)]
        assert 1 <= len(shown) <= PINGS_KEPT and shown[-1] == game.ping_message_id
    assert thread.deleted == []  # no single deletes
    assert [len(ids) for _, ids in host.http.bulk] == [PINGS_KEPT - 1] * 4
    assert all(channel == THREAD for channel, _ in host.http.bulk)
    calls = len(host.sent) + len(host.http.bulk)
    assert calls / turns <= 1 + 1 / (PINGS_KEPT - 1)

    await pings.game_over(game.id, game)  # the newest ping goes with the game (alone: one by one)
    assert thread.deleted == [game.ping_message_id] and len(host.http.bulk) == 4


async def test_at_game_over_the_pings_left_go_in_one_call() -> None:
    pings, host, game = setup()
    await ping_turns(pings, game, 4)
    await pings.game_over(game.id, game)
    assert [ids for _, ids in host.http.bulk] == [[m.id for m in host.sent]]


async def test_without_manage_messages_each_previous_ping_goes_one_by_one() -> None:
    pings, host, game = setup()
    host.http.allowed = False
    thread = host.get_partial_messageable(THREAD)
    await ping_turns(pings, game, PINGS_KEPT + 3)
    assert host.http.bulk == [] and game.guild_id in pings._one_by_one
    assert [m.id for m in host.sent if m.id not in thread.deleted] == [game.ping_message_id]


async def test_dm_pings_are_kept_and_reply_to_the_hand() -> None:
    """A DM ping is never deleted (the DM is the player's; each ping notifies of one turn)."""
    pings, host, game = setup(where="dm")
    game.seats[0].dm_message_id = 777
    for n in range(3):
        await pings.after(asked(game, wait(0, f"turn-{n}", "roll the die")))
        await pings.drain()
    await pings.game_over(game.id, game)
    dm = host.get_partial_messageable(600)
    assert len(host.sent) == 3 and dm.deleted == [] and host.http.bulk == []
    assert all(m.reference is not None and m.reference.message_id == 777 for m in host.sent)


# -- the grace: a player at the table answers before anyone pings them ---------------------------
def acted(game: GameRecord, seat: int) -> Applied:
    """A step of `seat` that asks nothing (it notes the seat at the table)."""
    return Applied(game, get_engine("hallway"), [], [], seat=seat)


async def test_a_player_who_acted_lately_is_pinged_only_after_the_grace() -> None:
    pings, host, game = setup()
    pings.presence.grace = 0.3
    await pings.after(acted(game, 2))  # cara just played
    await pings.after(asked(game, COUNT))  # and is asked again
    await asyncio.sleep(0.15)
    assert host.sent == []  # still within the grace: she is watching the table
    await pings.drain()
    [sent] = host.sent
    assert sent.content.startswith(f"<@{CARA}> — your turn to count to three")


async def test_a_player_at_the_table_who_answers_within_the_grace_is_not_pinged() -> None:
    pings, host, game = setup()
    pings.presence.grace = 0.3
    await pings.after(acted(game, 2))
    await pings.after(asked(game, COUNT))
    await asyncio.sleep(0.1)
    game.deadlines = []  # cara counted
    await pings.drain()
    assert host.sent == []
    assert stored_pings(pings) == []


async def test_a_player_who_has_not_acted_lately_is_pinged_at_once() -> None:
    pings, host, game = setup()
    pings.presence.grace = 30.0
    await pings.after(acted(game, 0))  # alice played; cara has not played yet
    await pings.after(asked(game, COUNT))
    await asyncio.wait_for(pings.drain(), 2.0)
    [sent] = host.sent
    assert sent.content.startswith(f"<@{CARA}>")


async def test_a_prompt_about_to_end_pings_a_player_at_the_table_at_once() -> None:
    pings, host, game = setup()
    pings.presence.grace = 30.0
    await pings.after(acted(game, 2))
    soon = {**COUNT, "at": pings.delivery.now + 6}  # a third of 6 s is under 3 s: no wait
    await pings.after(asked(game, soon))
    await asyncio.wait_for(pings.drain(), 2.0)
    assert [s.content.split(" — ")[0] for s in host.sent] == [f"<@{CARA}>"]


def test_how_long_a_ping_waits() -> None:
    presence = Presence(20.0)
    presence.acted(1, 0, now=100.0)
    wait = {**COUNT, "seat": 0, "at": None}
    assert presence.delay(1, wait, 110.0, 5_000.0) == 20.0  # at the table: the grace
    assert presence.delay(1, {**wait, "at": 5_045.0}, 110.0, 5_000.0) == 15.0  # a third of 45 s
    assert presence.delay(1, {**wait, "at": 5_006.0}, 110.0, 5_000.0) == 0.0  # 2 s: at once
    assert presence.delay(1, {**wait, "seat": 1}, 110.0, 5_000.0) == 0.0  # never acted: away
    assert presence.delay(1, wait, 100.0 + AT_THE_TABLE + 1, 5_000.0) == 0.0  # acted too long ago
    assert Presence(0.0).delay(1, wait, 110.0, 5_000.0) == 0.0


async def test_a_grace_of_zero_pings_everyone_at_once() -> None:
    pings, host, game = setup()
    pings.presence.grace = 0.0
    await pings.after(acted(game, 2))
    await pings.after(asked(game, COUNT))
    await asyncio.wait_for(pings.drain(), 2.0)
    assert len(host.sent) == 1


async def test_a_game_ending_in_the_grace_drops_the_ping() -> None:
    pings, host, game = setup()
    pings.presence.grace = 30.0
    await pings.after(acted(game, 2))
    await pings.after(asked(game, COUNT))
    await asyncio.sleep(0.05)
    await pings.game_over(game.id)
    await asyncio.wait_for(pings.drain(), 2.0)  # the waiting ping wakes and goes nowhere
    assert host.sent == []


def test_the_grace_comes_from_the_settings() -> None:
    assert Settings(token=None).ping_grace == PING_GRACE == 20.0
    host = type("Host", (), {"settings": Settings(token=None, ping_grace=5.0)})()
    assert Pings(type("Delivery", (), {"host": host})()).presence.grace == 5.0  # type: ignore[arg-type]
    with pytest.raises(SettingsError):
        Settings(token=None, ping_grace=-1)


async def test_shutting_down_drops_the_pings_still_in_their_grace_at_once() -> None:
    pings, host, game = setup()
    pings.presence.grace = 30.0
    await pings.after(acted(game, 2))
    await pings.after(asked(game, COUNT))
    await asyncio.wait_for(pings.settle(within=5.0), 1.0)  # not the 5 s (nor the 30 s grace)
    assert host.sent == [] and not pings._tasks


async def test_a_ping_in_its_grace_is_a_timer_and_starts_nothing_when_answered() -> None:
    """A brisk game asks something at every step and it is nearly always answered within the
    grace: the wait is a timer, and when it is due with nothing left to ask no task is started."""
    pings, host, game = setup()
    pings.presence.grace = 0.2
    await pings.after(acted(game, 2))
    await pings.after(asked(game, COUNT))
    assert not pings._tasks and pings.graces.of(game.id) == 1
    started: list[str] = []
    spawn = pings._spawn

    def counted(work: Any, name: str) -> Any:
        started.append(name)
        return spawn(work, name)

    pings._spawn = counted  # type: ignore[method-assign]
    game.deadlines = []  # cara counted
    await asyncio.sleep(0.3)
    assert started == [] and pings.graces.next_due() is None and host.sent == []
