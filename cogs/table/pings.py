"""Telling players it is their turn. Editing a message notifies nobody, so when a seat
becomes awaited (and was not a moment before) it gets one fresh, notifying message: in the
game's thread a short line mentioning the player, with what happened since their last turn;
or, for a player who plays from DMs (or asked for it with `/notify`), a new DM. The previous
ping is deleted so the thread and the DM stay readable. Pings keep to one message a second per
channel, inside Discord's five messages per five seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs.table.present import table_info
from cogs.table.registry import ui_for
from cogs.table.ui import GameUI
from cogs.table.wording import for_the_player
from runtime.service import Applied
from storage import GameRecord

if TYPE_CHECKING:
    from cogs.table.delivery import Delivery

log = logging.getLogger(__name__)

#: Seconds between two pings in one thread (Discord allows five messages per five seconds
#: per channel; a DM gets a ping only when its own player's turn comes, at human pace).
PING_SPACING = 1.1
#: Lines of "since your last turn" at most.
DIGEST_LINES = 6
NOTIFY_CHOICES = ("thread", "dm", "off")
MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


class Pings:
    def __init__(self, delivery: Delivery) -> None:
        self.delivery = delivery
        self._last_sent: dict[int, float] = {}  # channel id -> when its last ping went out
        self._dm_pings: dict[tuple[int, int], tuple[int, int]] = {}  # (game, seat) -> (channel, message)
        self._tasks: set[asyncio.Task[None]] = set()
        self._order: dict[int, asyncio.Lock] = {}  # one ping at a time per game, in step order
        self._over: dict[int, asyncio.Event] = {}  # set when a game's result is about to be posted

    async def after(self, applied: Applied) -> None:
        """Ping every seat the step made awaited (never for a finished game). The ping goes
        out on its own task, in order per game, so waiting for a channel's turn never holds
        the game's publish lock (the next press is answered at once)."""
        game = applied.game
        if applied.outcome is None:
            self._nudge(applied)
        if applied.outcome is not None or not applied.newly_awaited:
            return
        asked = {(d["seat"], d["key"]) for d in game.deadlines if d["seat"] in applied.newly_awaited}
        task = asyncio.get_running_loop().create_task(self._ping_in_order(game, asked), name=f"ping-{game.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
                    task = asyncio.get_running_loop().create_task(
                        self._nudge_seat(applied.game, seat, line), name=f"nudge-{applied.game.id}")
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)

    async def _nudge_seat(self, game: GameRecord, seat: int, line: str) -> None:
        wanted = await self.delivery.service.storage.notify_preferences([game.user_of(seat)])
        if wanted.get(game.user_of(seat), "auto") == "off" or not game.seats[seat].dm_ok:
            return
        try:
            await self.ping_by_dm(game, seat, game.log_total, text=f"🔔 {line}")
        except Exception:  # a lost nudge must not lose anything else
            log.exception("could not nudge seat %s of game %s", seat, game.id)

    async def game_over(self, game_id: int) -> None:
        """The result is about to be posted and the thread archived: pings still waiting for
        their channel are dropped, and one being sent is let finish first (a ping after the
        result would tell someone to move in a finished game, or hit the archived thread)."""
        self.over_event(game_id).set()
        lock = self._order.get(game_id)
        if lock is not None:
            async with lock:
                pass

    def over_event(self, game_id: int) -> asyncio.Event:
        if len(self._over) > 20_000:
            self._over = {g: e for g, e in self._over.items() if not e.is_set()}
        return self._over.setdefault(game_id, asyncio.Event())

    async def _ping_in_order(self, game: GameRecord, asked: set[tuple[int, str]]) -> None:
        lock = self._order.setdefault(game.id, asyncio.Lock())
        async with lock:
            if self.over_event(game.id).is_set():
                return
            # only seats still asked the same thing when their turn to be pinged comes (a
            # later step's own ping tells them of anything newer)
            now_asked = {(d["seat"], d["key"]) for d in game.deadlines}
            seats = sorted(seat for seat, key in asked & now_asked)
            if not seats:
                return
            try:
                await self.ping(game, seats)
            except Exception:  # a lost ping must not lose anything else
                log.exception("could not ping the players of game %s", game.id)
        if not lock.locked() and len(self._order) > 20_000:
            self._order.clear()

    async def settle(self, within: float = 3.0) -> None:
        """Shutdown, before the connection closes: the pings on their way get `within` seconds
        to go out; the rest are cancelled (sent later they would hit the closed session)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.drain(), within)  # a timeout cancels the pings drain waits on

    async def drain(self) -> None:
        """Wait for the pings on their way (shutdown, tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def ping(self, game: GameRecord, seats: list[int]) -> None:
        storage = self.delivery.service.storage
        users = [game.user_of(s) for s in seats]
        wanted = await storage.notify_preferences(users)
        private_game = type(ui_for(game.kind)).private is not GameUI.private
        in_thread: list[int] = []
        seen: dict[int, int] = {}
        # what the digest shows is what the lines are drawn from now; the game may move on
        # while the ping waits for its channel, and those later lines are still unseen
        total = game.log_total
        for seat in seats:
            record = game.seats[seat]
            where = wanted.get(record.user_id, "auto")
            if where == "off":
                continue
            by_dm = where == "dm" or (where == "auto" and private_game and record.dm_ok)
            if by_dm and await self.ping_by_dm(game, seat, total):
                seen[seat] = total
                continue
            in_thread.append(seat)
        message_id = await self.ping_in_thread(game, in_thread, total) if in_thread else None
        seen.update({seat: total for seat in in_thread if message_id is not None})
        if message_id is not None or seen:
            await storage.set_ping(game.id, message_id, seen)
            for seat, total in seen.items():
                game.seats[seat].seen_log = total
            if message_id is not None:
                game.ping_message_id = message_id

    def line_for(self, game: GameRecord, seat: int, *, mention: bool, upto: int | None = None) -> str:
        """"@alice — your turn to roll the die · ends in 45 s", then what happened since the
        seat's last ping, up to log line `upto` (the game may have moved on meanwhile)."""
        info = table_info(game)
        who = info.mention_of(seat) if mention else "Your turn"
        wait = next((d for d in game.deadlines if d["seat"] == seat), None)
        prompt = for_the_player(wait["prompt"] if wait else "play")
        text = f"{who} — your turn {prompt}" if mention else f"🔔 Your turn {prompt}"
        if wait and wait.get("at") is not None and wait.get("countdown", True):
            text += f" · ends <t:{int(wait['at'])}:R>"
        upto = game.log_total if upto is None else upto
        end = max(0, len(game.log) - (game.log_total - upto))  # game.log keeps only the latest lines
        missed = min(end, max(0, upto - game.seats[seat].seen_log), DIGEST_LINES)
        if missed:
            text += "\n" + "\n".join(f"> {line}" for line in game.log[end - missed:end])
        return text

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

    async def ping_in_thread(self, game: GameRecord, seats: list[int], total: int) -> int | None:
        host = self.delivery.host
        channel = host.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        lines = [self.line_for(game, seat, mention=True, upto=total) for seat in seats]
        link = self.delivery.table_url(game)
        content = "\n".join(lines) + (f"\n[Go to the table]({link})" if link else "")
        if not await self.spaced(game.home_channel_id, game.id):
            return None
        try:
            sent = await channel.send(content[:2000], allowed_mentions=MENTION_USERS, suppress_embeds=True)
        except discord.HTTPException as exc:
            log.info("could not ping in game %s: %s", game.id, exc)
            return None
        if game.ping_message_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(game.ping_message_id).delete()
        return sent.id

    async def ping_by_dm(self, game: GameRecord, seat: int, total: int, *, text: str | None = None) -> bool:
        """A new DM (an edit would notify nobody); the previous ping DM goes. `text` replaces
        the turn line (a nudge)."""
        record = game.seats[seat]
        host = self.delivery.host
        try:
            if record.dm_channel_id:
                dm: Any = host.get_partial_messageable(record.dm_channel_id)
            else:
                user = host.get_user(record.user_id) or await host.fetch_user(record.user_id)
                dm = await user.create_dm()
            engine_title = self.delivery.title_of(game)
            link = self.delivery.table_url(game)
            said = text if text is not None else self.line_for(game, seat, mention=False, upto=total)
            said += f"\n— {engine_title} #{game.id}"
            if link:
                said += f" · [table]({link})"
            sent = await dm.send(said[:2000], suppress_embeds=True)
        except discord.HTTPException as exc:
            log.info("could not ping seat %s of game %s by DM: %s", seat, game.id, exc)
            return False
        old = self._dm_pings.get((game.id, seat))
        self._dm_pings[(game.id, seat)] = (sent.channel.id, sent.id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await host.get_partial_messageable(old[0]).get_partial_message(old[1]).delete()
        return True

    def forget(self, game_id: int, seats: int) -> None:
        for seat in range(seats):
            self._dm_pings.pop((game_id, seat), None)
