"""Telling players it is their turn. Editing a message notifies nobody, so when a seat is
asked something new (`deadlines.newly_asked`) it gets one fresh, notifying message: in the
game's thread a line mentioning each player asked, then one digest of what happened since
their last turn; or, for a player who plays from DMs (or asked for it with `/notify`), a new
DM. Pings keep to one message a second per channel, inside Discord's five messages per five
seconds.

A ping costs one REST call on average. In a thread the older pings are swept away together:
when the newest makes `PINGS_KEPT`, the ones before it go in one bulk delete (Discord: 2-100
messages under 14 days old, with Manage Messages; where the bot lacks it they go one by one,
each when the next ping comes). A DM ping is never deleted: the DM is the player's own, each
ping is a notification of its turn, and it replies to the player's hand so the hand is a click
away; the hand itself says when the game is over.

A player at the table (cogs/table/presence.py: who acted lately) is pinged only if they have
not answered within `ping_grace` (20 s; a third of a shorter prompt's time): the table already
says it is their turn, and a brisk game makes no notifications.

A ping announces only a live prompt: while it waits its turn the game may move on, so what it
says is decided at the moment it is sent, and a ping whose prompt closed meanwhile is dropped.
It pings exactly the players it names; the digest quotes player text with mentions defused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any

import discord

from cogs.table.host import Outbox
from cogs.table.mentions import NOBODY, neutral, only
from cogs.table.presence import Asked, Graces, Presence, asked_of
from cogs.table.present import table_info
from cogs.table.quiet import post
from cogs.table.registry import ui_for
from cogs.table.ui import GameUI
from cogs.table.wording import for_the_player
from runtime.deadlines import awaited_seats
from runtime.service import Applied
from runtime.settings import PING_GRACE
from storage import Deadline, GameRecord, Status

log = logging.getLogger(__name__)

#: Seconds between two pings in one thread (Discord: five messages per five s per channel).
PING_SPACING = 1.1
#: Ping messages a thread shows at most: when the newest makes this many, the ones before it
#: go in one bulk delete (one call per PINGS_KEPT - 1 pings).
PINGS_KEPT = 10
#: Discord bulk-deletes messages younger than 14 days only; older ones go one by one.
BULK_MAX_AGE = 14 * 24 * 3600 - 3600
DIGEST_LINES = 6
NOTIFY_CHOICES = ("thread", "dm", "off")

class Pings:
    def __init__(self, delivery: Outbox, grace: float | None = None) -> None:
        self.delivery = delivery
        settings = getattr(getattr(delivery, "host", None), "settings", None)
        self.presence = Presence(grace if grace is not None else float(getattr(settings, "ping_grace", PING_GRACE)))
        self._last_sent: dict[int, float] = {}  # channel id -> when its last ping went out
        #: game id -> its thread's pings older than the newest, still shown (in memory only:
        #: after a restart the ones left stay in the thread)
        self._older: dict[int, list[int]] = {}
        self._one_by_one: set[int] = set()  # guilds where bulk delete was refused (no Manage Messages)
        self._tasks: set[asyncio.Task[None]] = set()
        self.graces = Graces()  # the pings of players at the table, waiting out their grace
        self._order: dict[int, asyncio.Lock] = {}  # one ping at a time per game, in step order
        self._over: dict[int, asyncio.Event] = {}  # set when a game's result is about to be posted

    async def after(self, applied: Applied) -> None:
        """Ping every seat the step asked something new (never for a finished game). The ping
        goes out on its own task, in order per game, so waiting for a channel's turn never
        holds the game's publish lock (the next press is answered at once)."""
        game = applied.game
        now = asyncio.get_running_loop().time()
        if applied.seat is not None:
            self.presence.acted(game.id, applied.seat, now)
        if applied.outcome is None:
            self._nudge(applied)
        if applied.outcome is not None or not applied.asked:
            return
        by_delay: dict[float, set[Asked]] = {}
        for wait in applied.asked:
            by_delay.setdefault(self.presence.delay(game.id, wait, now, self.delivery.now), set()).add(asked_of(wait))
        for delay, asked in by_delay.items():
            if delay > 0:
                self.graces.wait(game.id, delay, self._grace_over, game, asked)
            else:
                self._spawn(self._ping_in_order(game, asked), f"ping-{game.id}")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        self._tasks.add(task := asyncio.get_running_loop().create_task(work, name=name))
        task.add_done_callback(self._tasks.discard)
        return task

    def _grace_over(self, game: GameRecord, asked: set[Asked]) -> None:
        """The ping of players at the table, once their grace is over: sent only if what it asks
        is still open (nearly always answered by then, so nothing is started)."""
        if not self.over_event(game.id).is_set() and self.live(game, asked):
            self._spawn(self._ping_in_order(game, asked), f"ping-{game.id}")

    def _nudge(self, applied: Applied) -> None:
        """A private event the game marks as a nudge (`GameUI.nudges`: "you may call an
        allegiance") is a DM ping to its seats alone: their hand message is only edited,
        which notifies nobody, and a public ping would tell the table who can act."""
        ui = ui_for(applied.game.kind)
        for event in applied.events:
            if event.to is None or event.type not in ui.nudges:
                continue
            line = self.delivery.service.describe(applied.game, event)
            for seat in event.to:
                if line:
                    self._spawn(self._nudge_seat(applied.game, seat, line), f"nudge-{applied.game.id}")

    async def _nudge_seat(self, game: GameRecord, seat: int, line: str) -> None:
        wanted = await self.delivery.service.storage.notify_preferences([game.user_of(seat)])
        if wanted.get(game.user_of(seat), "auto") == "off" or not game.seats[seat].dm_ok:
            return
        try:
            await self.ping_by_dm(game, seat, text=f"🔔 {line}")
        except Exception:  # a lost nudge must not lose anything else
            log.exception("could not nudge seat %s of game %s", seat, game.id)

    async def game_over(self, game_id: int, game: GameRecord | None = None) -> None:
        """The result is about to be posted and the thread archived: pings still waiting for
        their channel are dropped, and one being sent is let finish first (a ping after the
        result would tell someone to move in a finished game, or hit the archived thread).
        The thread's pings go too, in one bulk delete (those of this game this process knows,
        with the newest when `game` is given): they asked for moves that no longer exist. DM
        pings stay (see the module's docstring)."""
        self.over_event(game_id).set()
        self.graces.drop(game_id)
        lock = self._order.get(game_id)
        if lock is not None:
            async with lock:
                pass
        older = self._older.pop(game_id, [])
        if game is not None:
            await self.sweep(game.guild_id, game.home_channel_id,
                             [*older, *([game.ping_message_id] if game.ping_message_id is not None else [])])

    def over_event(self, game_id: int) -> asyncio.Event:
        if len(self._over) > 20_000:
            self._over = {g: e for g, e in self._over.items() if not e.is_set()}
        return self._over.setdefault(game_id, asyncio.Event())

    async def _ping_in_order(self, game: GameRecord, asked: set[Asked]) -> None:
        lock = self._order.setdefault(game.id, asyncio.Lock())
        async with lock:
            if self.over_event(game.id).is_set() or not self.live(game, asked):
                return
            try:
                await self.ping(game, asked)
            except Exception:  # a lost ping must not lose anything else
                log.exception("could not ping the players of game %s", game.id)
        if not lock.locked() and len(self._order) > 20_000:
            self._order.clear()

    async def settle(self, within: float = 3.0) -> None:
        """Shutdown: pings on their way get `within` seconds to go out; the rest are cancelled."""
        self.graces.drop()  # pings waiting out their grace are not on their way
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.drain(), within)  # a timeout cancels the pings drain waits on

    async def drain(self) -> None:
        """Wait for the pings on their way, and those still in their grace (shutdown, tests)."""
        loop = asyncio.get_running_loop()
        while self._tasks or self.graces.next_due() is not None:
            if self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)
            elif (due := self.graces.next_due()) is not None:
                await asyncio.sleep(max(0.0, due - loop.time()) + 0.001)

    def live(self, game: GameRecord, asked: set[Asked], seat: int | None = None) -> list[Deadline]:
        """The asked waits (of `seat`, or of anyone) still open now: the game moves on while a
        ping waits its turn, and a later step's own ping tells of anything newer. `game` is the
        record the action loop keeps current in place."""
        if game.status is not Status.ACTIVE:
            return []
        return [d for d in game.deadlines if d["seat"] is not None and asked_of(d) in asked
                and (seat is None or d["seat"] == seat)]

    async def refreshed(self, game: GameRecord) -> None:
        """Several processes on one database: another may have moved the game on, so the
        record is brought up to date in place (a version read) before a ping says what is
        asked. One process keeps it current itself."""
        service = self.delivery.service
        if getattr(service.storage, "shared", False):
            try:
                await service.game(game.id)
            except Exception:  # gone or unreadable: the ping goes by what this process knows
                log.info("could not refresh game %s before its ping", game.id)

    async def ping(self, game: GameRecord, asked: set[Asked]) -> None:
        storage = self.delivery.service.storage
        await self.refreshed(game)
        seats = awaited_seats(self.live(game, asked))
        wanted = await storage.notify_preferences([game.user_of(s) for s in seats])
        private_game = type(ui_for(game.kind)).private is not GameUI.private
        in_thread: list[int] = []
        seen: dict[int, int] = {}
        for seat in seats:
            record = game.seats[seat]
            where = wanted.get(record.user_id, "auto")
            if where == "off":
                continue
            if where == "dm" or (where == "auto" and private_game and record.dm_ok):
                shown = await self.ping_by_dm(game, seat, asked=asked)
                if shown is not None:
                    seen[seat] = shown
                    continue
                if not self.live(game, asked, seat):
                    continue  # its prompt closed meanwhile: no ping anywhere
            in_thread.append(seat)
        message_id: int | None = None
        if in_thread:
            sent = await self.ping_in_thread(game, in_thread, asked)
            if sent is not None:
                message_id, pinged, shown = sent
                seen.update({seat: shown for seat in pinged})
        if message_id is not None or seen:
            await storage.set_ping(game.id, message_id, seen)
            for seat, total in seen.items():
                game.seats[seat].seen_log = total
            if message_id is not None:
                game.ping_message_id = message_id

    def turn_line(self, game: GameRecord, seat: int, waits: list[Deadline], *, mention: bool) -> str:
        """"@alice — your turn to roll the die · ends in 45 s": what `waits` ask of the seat,
        the required first."""
        mine = sorted((d for d in waits if d["seat"] == seat), key=lambda d: bool(d.get("optional")))
        prompts = list(dict.fromkeys(neutral(d["prompt"]) for d in mine)) or ["play"]
        said = " and ".join(for_the_player(prompt) for prompt in prompts)
        text = f"{table_info(game).mention_of(seat)} — your turn {said}" if mention else f"🔔 Your turn {said}"
        wait = mine[0] if mine else None
        if wait and (at := wait.get("at")) is not None and wait.get("countdown", True):
            text += f" · ends <t:{int(at)}:R>"
        return text

    @staticmethod
    def digest(game: GameRecord, since: int) -> str:
        """What happened since log line `since` (the last `DIGEST_LINES` lines at most), quoted
        with every mention defused: the lines hold player text (insults, names)."""
        missed = min(len(game.log), max(0, game.log_total - since), DIGEST_LINES)
        return "\n".join(f"> {neutral(line)}" for line in game.log[len(game.log) - missed:])

    def thread_text(self, game: GameRecord, seats: list[int], waits: list[Deadline]) -> str:
        """One line per player asked, then one digest for them all: from the earliest line
        any of them has not seen."""
        text = "\n".join(self.turn_line(game, seat, waits, mention=True) + hand_hint(game, seat) for seat in seats)
        since = min(game.seats[seat].seen_log for seat in seats)
        if digest := self.digest(game, since):
            text += "\n" + digest
        link = self.delivery.table_url(game)
        return text + (f"\n[Go to the table]({link})" if link else "")

    async def spaced(self, channel_id: int, game_id: int) -> bool:
        """Wait until this channel may take another ping; False if the game ended meanwhile."""
        over = self.over_event(game_id)
        wait = self._last_sent.get(channel_id, 0.0) + PING_SPACING - asyncio.get_running_loop().time()
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(over.wait(), wait)
        if over.is_set():
            return False
        self._last_sent[channel_id] = asyncio.get_running_loop().time()
        if len(self._last_sent) > 20_000:
            self._last_sent.clear()
        return True

    async def ping_in_thread(self, game: GameRecord, seats: list[int],
                             asked: set[Asked]) -> tuple[int, list[int], int] | None:
        """The thread's ping, once the channel may take it, for the seats still asked then:
        (its message id, the seats it pinged, the log lines it showed); None if nothing went."""
        host = self.delivery.host
        channel = host.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        previous = self._last_sent.get(game.home_channel_id)
        if not await self.spaced(game.home_channel_id, game.id):
            return None
        await self.refreshed(game)
        waits = self.live(game, asked)
        seats = [seat for seat in seats if any(d["seat"] == seat for d in waits)]
        if not seats:  # every prompt closed while the ping waited: the slot stays free
            if previous is None:
                self._last_sent.pop(game.home_channel_id, None)
            else:
                self._last_sent[game.home_channel_id] = previous
            return None
        shown = game.log_total
        content = self.thread_text(game, seats, waits)
        try:
            sent = await post(self.delivery.host, channel, content[:2000], allowed_mentions=only(game.user_of(s) for s in seats))
        except discord.HTTPException as exc:
            log.info("could not ping in game %s: %s", game.id, exc)
            return None
        if not any(d["seat"] in seats for d in self.live(game, asked)):  # all closed on its way: it goes
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(sent).delete()
            return None
        if game.ping_message_id is not None:
            await self.retire(game, game.ping_message_id)
        return sent, seats, shown

    async def retire(self, game: GameRecord, previous: int) -> None:
        """The thread's previous ping is no longer the newest: it stays until the pings before
        the newest make `PINGS_KEPT` - 1, then they all go in one call."""
        older = self._older.setdefault(game.id, [])
        if previous not in older:
            older.append(previous)
        if len(older) >= PINGS_KEPT - 1 or game.guild_id in self._one_by_one:
            del self._older[game.id]
            await self.sweep(game.guild_id, game.home_channel_id, older)
        if len(self._older) > 20_000:  # games a restart or another process ended: let them go
            self._older.clear()

    async def sweep(self, guild_id: int | None, channel_id: int, ids: list[int]) -> None:
        """Delete the messages `ids` of a guild channel: in one bulk delete where Discord allows
        it (2-100 messages under 14 days old, and the bot holds Manage Messages), else one by
        one. A guild that refuses bulk deletes gets single ones from then on."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return
        oldest = discord.utils.time_snowflake(discord.utils.utcnow()) - (BULK_MAX_AGE * 1000 << 22)
        young = [i for i in ids if i >= oldest]
        single = [i for i in ids if i < oldest]
        channel = self.delivery.host.get_partial_messageable(channel_id, guild_id=guild_id)
        # discord.py's partial channel has no bulk delete: the client's HTTP client does it
        http: Any = getattr(self.delivery.host, "http", None)
        if len(young) >= 2 and guild_id not in self._one_by_one and http is not None:
            try:
                for start in range(0, len(young), 100):
                    await http.delete_messages(channel_id, young[start:start + 100])
                young = []
            except discord.Forbidden:
                log.info("bulk delete refused in guild %s: pings go one by one there", guild_id)
                if guild_id is not None:
                    self._one_by_one.add(guild_id)
            except discord.HTTPException as exc:
                log.info("could not sweep the pings of channel %s: %s", channel_id, exc)
                young = []
        for message_id in [*single, *young]:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(message_id).delete()

    async def ping_by_dm(self, game: GameRecord, seat: int, *, asked: set[Asked] | None = None,
                         text: str | None = None) -> int | None:
        """A new DM (an edit would notify nobody) telling the seat what `asked` still asks of
        it, or saying `text` (a nudge), in reply to the seat's hand; earlier ping DMs stay.
        The log lines it showed, or None when nothing was sent (the DM failed, or the prompt
        closed first)."""
        record = game.seats[seat]
        host = self.delivery.host
        try:
            if record.dm_channel_id:
                dm: Any = host.get_partial_messageable(record.dm_channel_id)
            else:
                user = host.get_user(record.user_id) or await host.fetch_user(record.user_id)
                dm = await user.create_dm()
            shown = game.log_total
            if text is not None:
                said = text
            else:
                waits = self.live(game, asked or set(), seat)
                if not waits:
                    return None
                said = self.turn_line(game, seat, waits, mention=False)
                if digest := self.digest(game, record.seen_log):
                    said += "\n" + digest
            said += f"\n— {self.delivery.title_of(game)} #{game.id}"
            if link := self.delivery.table_url(game):
                said += f" · [table]({link})"
            hand = (discord.MessageReference(message_id=record.dm_message_id, channel_id=dm.id,
                                             fail_if_not_exists=False) if record.dm_message_id else None)
            sent = await post(self.delivery.host, dm, said[:2000], allowed_mentions=NOBODY, reference=hand)
        except discord.HTTPException as exc:
            log.info("could not ping seat %s of game %s by DM: %s", seat, game.id, exc)
            return None
        if text is None and not self.live(game, asked or set(), seat):  # closed on its way: it goes
            with contextlib.suppress(discord.HTTPException):
                await host.get_partial_messageable(dm.id).get_partial_message(sent).delete()
            return None
        return shown


def hand_hint(game: GameRecord, seat: int) -> str:
    """Where a player whose DMs are closed finds their hand, in a game with hands: the ping is
    the moment they need it."""
    ui = ui_for(game.kind)
    if game.seats[seat].dm_ok or type(ui).private is GameUI.private:
        return ""
    return (f" · your DMs are closed: press **{ui.hand_button}** on the table (or use `/hand`) "
            f"to see your {ui.private_noun}")
