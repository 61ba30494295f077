"""Showing committed steps: the table message, private views by DM (or the closed-DM notice
in the channel), the result.

One edit of the table message per step, and DMs only to the seats whose private view changed —
and of those, only the ones whose DM would look different. Everything runs under a per-game
publish lock and draws the newest committed state, so the last picture is the newest.

Which state version each table message shows is remembered, and written to the database in
batches (every few seconds and on close): after a crash between a commit and its picture, the
start-up redraws the tables that were left behind (`catch_up`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.table.components import version_bound
from cogs.table.due_answers import DueAnswers
from cogs.table.host import Host
from cogs.table.kept_pictures import KeptPictures
from cogs.table.kept_screens import KEPT_SCREENS
from cogs.table.mentions import only
from cogs.table.panels import LivePanels
from cogs.table.pings import Pings
from cogs.table.present import Rendered, render_private, render_table
from cogs.table.quiet import editor
from cogs.table.registry import ui_for
from cogs.table.results import post_result
from games.registry import AnyEngine, get_engine
from runtime.clock import Clock
from runtime.service import Applied, TableService, record_delivery
from storage import GameRecord, Status

log = logging.getLogger(__name__)

#: Discord throttles edits of messages older than an hour; re-post a bit before that.
REPOST_AFTER = 50 * 60
DM_CLOSED = 50007
#: Remembered DM fingerprints (game, seat) -> (message id, fingerprint); cleared past this size.
MAX_REMEMBERED_DMS = 20_000
#: Seconds between writes of the table versions shown (one transaction for all games).
FLUSH_EVERY = 3.0
#: Redraws after our own when other processes keep moving the game (see `converge`).
CONVERGE_ROUNDS = 3


class Delivery:
    def __init__(self, host: Host, service: TableService, clock: Clock) -> None:
        self.host = host
        self.service = service
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        #: What each seat's DM shows now, as far as this process knows: (message id, fingerprint).
        #: Lets `deliver_private` skip an edit that would change nothing (after a restart the
        #: first edit of every DM simply goes out).
        self._dm_shown: dict[tuple[int, int], tuple[int, str]] = {}
        #: Presses on a seat's DM about to be answered by redrawing it (a publish leaves it to them).
        self.due = DueAnswers()
        #: The (table message id, state version) each live table shows, so a step whose
        #: newest state an earlier answer already drew costs no second edit.
        self._table_shown: dict[int, tuple[int, int]] = {}
        #: Whether a game's table message carries controls bound to its state version (a
        #: table without them stays good through a step that changed nothing public).
        self._table_bound: dict[int, bool] = {}
        #: Pictures messages show, kept by the next edit that would show them again.
        self.pictures = KeptPictures()
        #: Each seat's newest ephemeral panel, redrawn with its DM.
        self.panels = LivePanels(self.pictures)
        #: Table versions shown since the last flush (game id -> version).
        self._unflushed: dict[int, int] = {}
        self._flusher: asyncio.Task[None] | None = None
        self.pings = Pings(self)
        #: Called after each published step (a game's own follow-ups: the host's offer to hand
        #: an away player's seat to a computer); one failing does not stop the others.
        self.observers: list[Callable[[Applied], Awaitable[None]]] = []

    @property
    def now(self) -> float:
        return self.clock.now()

    def observe(self, observer: Callable[[Applied], Awaitable[None]]) -> None:
        """Call `observer` after each published step (see `observers`)."""
        self.observers.append(observer)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # ----- drawing ----------------------------------------------------------------------
    async def draw_table(self, game: GameRecord, *, with_image: bool = True) -> Rendered:
        """The table message of `game` as it is now (every table picture is drawn here)."""
        return await render_table(game, get_engine(game.kind), ui_for(game.kind), self.now,
                                  with_image=with_image)

    async def draw_private(self, applied: Applied, seat: int, *, earlier: list[str] | None = None) -> Rendered | None:
        """The seat's private view now, with the lines of this step (after `earlier` ones)."""
        game = applied.game
        return await render_private(game, applied.engine, ui_for(game.kind), seat, jump_url=self.table_url(game),
                                    notes=[*(earlier or ()), *self.private_notes(applied, seat)])

    @staticmethod
    def title_of(game: GameRecord) -> str:
        return get_engine(game.kind).title

    def table_url(self, game: GameRecord) -> str | None:
        if game.table_message_id is None:
            return None
        return f"https://discord.com/channels/{game.guild_id}/{game.home_channel_id}/{game.table_message_id}"

    def private_notes(self, applied: Applied, seat: int) -> list[str]:
        describe = self.service.describe
        return [line for e in applied.events
                if e.to is not None and seat in e.to and (line := describe(applied.game, e))]

    def fresh_table(self, game: GameRecord) -> bool:
        """Whether the table message is young enough to be edited (see REPOST_AFTER)."""
        return game.table_message_at is not None and self.now - game.table_message_at < REPOST_AFTER

    # ----- publishing -------------------------------------------------------------------
    async def publish(self, applied: Applied, *, table_done: bool = False, private_done: set[int] | None = None,
                      post_new_table: bool = False) -> None:
        """Show the committed step: the table message, changed private views, the result."""
        async with self.lock(applied.game.id):
            await self.publish_locked(applied, table_done=table_done, private_done=private_done,
                                      post_new_table=post_new_table)
            if self.service.storage.shared and applied.outcome is None:
                await self.converge(applied)

    async def converge(self, applied: Applied) -> None:
        """Several processes edit one game's messages, each after its own commits, and their
        edits can land out of order. After ours, if the stored game has moved past what we
        drew, we draw it again: whoever edits last then shows the newest state. The stored
        version is read only when this process does not know its copy is current (it hears
        every commit, `GameCache.current`)."""
        for _ in range(CONVERGE_ROUNDS):
            shown = self._table_shown.get(applied.game.id)
            drawn = shown[1] if shown is not None else applied.game.version
            if self.service.current(applied.game) and applied.game.version <= drawn:
                return  # it hears every commit, and none is newer than what it drew
            stored = await self.service.storage.game_version(applied.game.id) or 0
            if stored <= drawn or stored == self.service.committed_here(applied.game.id):
                return  # nothing newer, or this process's own step, whose publish draws it
            game = await self.service.game(applied.game.id)  # refreshed in place
            if game.status is not Status.ACTIVE or game.version <= drawn:
                return
            people = [s.seat for s in game.seats if not s.computer]
            applied = Applied(game, get_engine(game.kind), [], people)
            await self.publish_locked(applied)

    async def publish_locked(self, applied: Applied, *, table_done: bool = False,
                             private_done: set[int] | None = None, post_new_table: bool = False) -> None:
        """`publish` with the game's publish lock held. Pictures are drawn from the game record,
        which always holds the newest committed state, so the last drawing is the newest."""
        game = applied.game
        drawn = self._table_shown.get(game.id) == (game.table_message_id, game.version)
        if not (table_done or drawn or post_new_table) and self.still_shows(applied):
            drawn = True  # a private step: the table shows exactly what it showed
        if not (table_done or drawn) or post_new_table:
            await self.update_table(game, post_new=post_new_table)
        # a finished game's every panel says so and loses its controls, changed or not
        over = applied.outcome is not None or game.status is not Status.ACTIVE
        seats = ([s.seat for s in game.seats if not s.computer] if over
                 else applied.changed_seats + self.panels.drawn.stale(game, applied.changed_seats))
        for seat in seats:
            await self.deliver_private(applied, seat, dm=seat not in (private_done or set()))
        if over:
            self.panels.forget(game.id, len(game.seats))
        await self.pings.after(applied)
        for observe in self.observers:
            try:
                await observe(applied)
            except Exception:
                log.exception("an observer of game %s failed", game.id)
        if applied.outcome is not None:
            await post_result(self, applied)
            self._locks.pop(game.id, None)
            KEPT_SCREENS.drop(game.id, range(len(game.seats)))
            for seat in range(len(game.seats)):
                self._dm_shown.pop((game.id, seat), None)
            self._table_shown.pop(game.id, None)
            self._table_bound.pop(game.id, None)

    def still_shows(self, applied: Applied) -> bool:
        """Whether the table message needs no edit for this step: nothing public changed and
        no control on it is bound to the old state version. Then it counts as showing the new
        version (choosing a letter before placing it edits no public message)."""
        game = applied.game
        shown = self._table_shown.get(game.id)
        if (applied.public_changed or shown is None or shown[0] != game.table_message_id
                or self._table_bound.get(game.id, True) or not self.fresh_table(game)):
            return False
        self._table_shown[game.id] = (shown[0], game.version)
        self._unflushed[game.id] = max(game.version, self._unflushed.get(game.id, 0))
        return True

    async def show_stopped(self, game: GameRecord) -> None:
        """A game stopped without a result (`/game end`): the table and every hand say it is
        over and lose their controls."""
        async with self.lock(game.id):
            await self.update_table(game)
            applied = Applied(game, get_engine(game.kind), [], [])
            for record in game.seats:
                if not record.computer:
                    await self.deliver_private(applied, record.seat)
            self.panels.forget(game.id, len(game.seats))

    async def update_table(self, game: GameRecord, *, post_new: bool = False) -> None:
        """Edit the table message (or post a new one: the first, or once the old is too old to edit)."""
        rendered = await self.draw_table(game)
        channel = self.host.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        old = game.table_message_id
        if old is not None and not post_new and self.fresh_table(game):
            try:
                edited, _ = await self.pictures.edit(old, rendered, editor(self.host, game.home_channel_id, old))
                self.remember_table(game.id, old, rendered)
                self.pictures.remember(old, rendered, edited.attachments if edited else ())
                return
            except discord.NotFound:
                log.info("table message of game %s vanished; posting a new one", game.id)
            except discord.HTTPException as exc:
                log.warning("could not edit the table of game %s: %s", game.id, exc)
                return
        try:
            message = await channel.send(**rendered.send_kwargs())
        except discord.HTTPException as exc:
            log.warning("could not post the table of game %s: %s", game.id, exc)
            return
        await self.service.storage.set_table_message(game.id, message.id, self.now)
        game.table_message_id, game.table_message_at = message.id, self.now
        self.remember_table(game.id, message.id, rendered)
        self.pictures.remember(message.id, rendered, message.attachments)

    async def deliver_private(self, applied: Applied, seat: int, *, dm: bool = True) -> None:
        """Show a seat its new private view: by DM (unless `dm` is False: the press redrew it)
        and on its newest ephemeral panel; on closed DMs, say so once in the channel."""
        game = applied.game
        record = game.seats[seat]
        dm = dm and record.dm_ok
        if record.computer or not (dm or self.panels.holds(game.id, seat)):
            return
        rendered = await self.draw_private(applied, seat)
        if rendered is None:
            return
        self.panels.drawn.mark(game.id, seat, rendered)
        await self.panels.refresh(game.id, seat, rendered.fingerprint(), lambda: self.draw_private(applied, seat))
        if not dm:
            return
        if self.due.leave(game.id, seat, self.private_notes(applied, seat)):
            return  # the seat's own answer redraws this DM next, from the newest state
        try:
            fresh = record.dm_message_at is not None and self.now - record.dm_message_at < REPOST_AFTER
            if record.dm_channel_id and record.dm_message_id and fresh:
                if self.dm_shows(game.id, seat, record.dm_message_id, rendered):
                    return  # the DM already shows exactly this
                edited, _ = await self.pictures.edit(
                    record.dm_message_id, rendered, editor(self.host, record.dm_channel_id, record.dm_message_id))
                self.remember_dm(game.id, seat, record.dm_message_id, rendered)
                self.pictures.remember(record.dm_message_id, rendered, edited.attachments if edited else ())
                return
            if record.dm_channel_id:
                inbox: discord.abc.Messageable = self.host.get_partial_messageable(record.dm_channel_id)
            else:
                user = self.host.get_user(record.user_id) or await self.host.fetch_user(record.user_id)
                inbox = await user.create_dm()
            message = await inbox.send(**rendered.send_kwargs())
            await record_delivery(self.service, game, record.user_id, dm_ok=True,
                                  dm_channel_id=message.channel.id, dm_message_id=message.id,
                                  dm_message_at=self.now)
            self.remember_dm(game.id, seat, message.id, rendered)
            self.pictures.remember(message.id, rendered, message.attachments)
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to seat %s of game %s refused: %s", seat, game.id, exc)
            await record_delivery(self.service, game, record.user_id, dm_ok=False)
            await self.announce_closed_dms(game, record.user_id)
        except discord.HTTPException as exc:
            log.warning("DM to seat %s of game %s failed: %s", seat, game.id, exc)

    async def announce_closed_dms(self, game: GameRecord, user_id: int) -> None:
        """Tell the channel — never with private content — where the player's hand is instead."""
        channel = self.host.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(
                f"<@{user_id}>, I can't send you direct messages. Use the **My hand** button "
                "on the table or `/hand` to see your hand privately.",
                allowed_mentions=only([user_id]),
            )

    # ----- what is shown ----------------------------------------------------------------
    def remember_table(self, game_id: int, message_id: int, rendered: Rendered) -> None:
        if rendered.version is None:
            return
        if len(self._table_shown) >= MAX_REMEMBERED_DMS:
            self._table_shown.clear()
        self._table_shown[game_id] = (message_id, rendered.version)
        self._table_bound[game_id] = version_bound(rendered.view)
        self._unflushed[game_id] = max(rendered.version, self._unflushed.get(game_id, 0))

    def dm_shows(self, game_id: int, seat: int, message_id: int, rendered: Rendered) -> bool:
        """Whether the seat's DM shows exactly `rendered`, as far as this process knows (another
        process sharing the database that moved the game lately may have edited it since)."""
        return (self._dm_shown.get((game_id, seat)) == (message_id, rendered.fingerprint())
                and not self.service.moved_elsewhere_lately(game_id))

    def remember_dm(self, game_id: int, seat: int, message_id: int, rendered: Rendered) -> None:
        if len(self._dm_shown) >= MAX_REMEMBERED_DMS:
            self._dm_shown.clear()
        self._dm_shown[(game_id, seat)] = (message_id, rendered.fingerprint())
        self.panels.drawn.mark(game_id, seat, rendered)

    def table_shows(self, game_id: int) -> tuple[int, int] | None:
        """(message id, state version) the table of `game_id` shows, as far as this process knows."""
        return self._table_shown.get(game_id)

    def forget_shown(self) -> None:
        """Forget what every table shows (the next publish edits it whatever it shows)."""
        self._table_shown.clear()

    # ----- table versions: batched writes, catching up at start-up ----------------------
    def start(self) -> None:
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush_every(), name="table-versions")

    async def _flush_every(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_EVERY)
            try:
                await self.flush()
            except Exception:  # the next round writes them; at worst a table is redrawn at start-up
                log.exception("could not record the table versions shown")

    async def flush(self) -> None:
        """Write the table versions shown since the last flush, in one transaction."""
        shown, self._unflushed = self._unflushed, {}
        try:
            await self.service.storage.set_table_versions(shown)
        except BaseException:
            for game_id, version in shown.items():
                self._unflushed[game_id] = max(version, self._unflushed.get(game_id, 0))
            raise

    async def close(self) -> None:
        await self.pings.drain()
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flusher
            self._flusher = None
        await self.flush()

    async def catch_up(self, shown: dict[int, int]) -> None:
        """Redraw the tables of running games that show an older state than the stored one
        (game id -> the version its table shows), and re-send the private views that changed
        since then (found by replaying the game to the version the table shows)."""
        for game_id, version in shown.items():
            try:
                game = await self.service.game(game_id)
                if game.status is not Status.ACTIVE:
                    continue
                async with self.lock(game_id):
                    if game.version <= version:
                        continue
                    await self.update_table(game)
                    engine = get_engine(game.kind)
                    changed = await self._changed_since(game, engine, version)
                    for seat in changed:
                        await self.deliver_private(Applied(game, engine, [], changed), seat)
            except Exception:
                log.exception("could not catch up the table of game %s", game_id)

    async def _changed_since(self, game: GameRecord, engine: AnyEngine, version: int) -> list[int]:
        """Seats whose private view differs from the one they had at `version` (all seats when
        that state cannot be rebuilt)."""
        everyone = list(range(len(game.seats)))
        if version < 1 or game.state is None:
            return everyone
        try:
            then = await self.service.replay(game.id, upto=version)
        except Exception:
            log.warning("could not replay game %s to version %s; re-sending every hand", game.id, version)
            return everyone
        return [s for s in everyone if engine.view(then, s) != engine.view(game.state, s)]


