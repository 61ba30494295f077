"""The table runtime's Discord edge: every interaction goes through here.

It resolves the game and seat, hands the action to the TableService (which commits it),
acknowledges the player only after the commit, then publishes: one edit of the table
message (the interaction response itself when the press was on it), and DMs only to the
seats whose private view changed — and of those, only the ones whose DM would look different
(a hand that only shows your tokens does not change when someone else plays). Refusals become
short ephemeral sentences.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import discord

from cogs.table import codec
from cogs.table.controls import build_modal, find_form, read_field, text_inputs
from cogs.table.present import (
    Rendered,
    closed_lobby,
    render_lobby,
    render_private,
    render_table,
    result_embed,
    table_info,
)
from cogs.table.registry import ui_for
from cogs.table.ui import GameUI
from games.core import Engine, Event, IllegalAction
from games.registry import get_engine
from runtime.errors import NotSeated, Refusal, StaleComponent
from runtime.service import Applied, TableService, check_current, record_delivery
from storage import GameRecord, Status

if TYPE_CHECKING:
    from bot import RumpusBot

log = logging.getLogger(__name__)

#: Discord throttles edits of messages older than an hour; re-post a bit before that.
REPOST_AFTER = 50 * 60
DM_CLOSED = 50007
#: Seconds an answer waits for the previous step to finish showing before it defers the
#: interaction (Discord allows 3 s for the first response).
QUEUE_PATIENCE = 1.5
#: Remembered DM fingerprints (game, seat) -> (message id, fingerprint); cleared past this size.
MAX_REMEMBERED_DMS = 20_000


async def redraw_in_place(interaction: discord.Interaction, rendered: Rendered) -> None:
    """Edit the message whose component was used: as the response, or after a deferral."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**rendered.edit_kwargs())
    else:
        await interaction.response.edit_message(**rendered.edit_kwargs())


def manages_guild(interaction: discord.Interaction) -> bool:
    """Manage Server, as Discord resolved it for this interaction (roles the bot never
    cached included; an administrator has every permission)."""
    return interaction.guild is not None and interaction.permissions.manage_guild


class TableEdge:
    def __init__(self, bot: RumpusBot, service: TableService) -> None:
        self.bot = bot
        self.service = service
        self._publish_locks: dict[int, asyncio.Lock] = {}
        #: What each seat's DM shows now, as far as this process knows: (message id, fingerprint).
        #: Lets `deliver_private` skip an edit that would change nothing (after a restart the
        #: first edit of every DM simply goes out).
        self._dm_shown: dict[tuple[int, int], tuple[int, str]] = {}
        #: The (table message id, state version) each live table shows, so a step whose
        #: newest state an earlier answer already drew costs no second edit.
        self._table_shown: dict[int, tuple[int, int]] = {}
        service.describe = self.line_of

    @staticmethod
    def line_of(game: GameRecord, event: Event) -> str | None:
        """An event as players read it: the game's UI puts names where the engine has seats."""
        return ui_for(game.kind).event_line(event.to_json(), table_info(game))

    @property
    def now(self) -> float:
        return self.service.clock.now()

    # ----- errors -----------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def guard(self, interaction: discord.Interaction) -> AsyncIterator[None]:
        """Turn refusals into an ephemeral sentence and surprises into a reference code."""
        try:
            yield
        except (Refusal, IllegalAction) as exc:
            await self.tell(interaction, exc.message, extra=await self._stale_extra(interaction, exc))
        except Exception:
            ref = secrets.token_hex(3)
            log.exception("interaction failed (ref %s)", ref)
            await self.tell(interaction, f"Something went wrong (ref `{ref}`). The game is unchanged.")

    @contextlib.asynccontextmanager
    async def committed(self, interaction: discord.Interaction) -> AsyncIterator[None]:
        """After the commit a failure no longer means "unchanged": the move counts, only
        showing it went wrong, and the player is told so."""
        try:
            yield
        except Exception:
            ref = secrets.token_hex(3)
            log.exception("showing a committed step failed (ref %s)", ref)
            await self.tell(interaction, f"Your move counts, but I could not show it (ref `{ref}`). "
                                         "`/game status` shows the table.")

    async def _stale_extra(self, interaction: discord.Interaction, exc: Exception) -> discord.Embed | None:
        if not isinstance(exc, StaleComponent):
            return None
        if exc.game_id is None:
            return None
        game = await self.service.game(exc.game_id)
        if game.status is not Status.ACTIVE:
            return None
        rendered = await render_table(game, get_engine(game.kind), ui_for(game.kind), self.now,
                                      with_image=False)
        return rendered.embed

    async def tell(self, interaction: discord.Interaction, text: str,
                   *, extra: discord.Embed | None = None) -> None:
        """A short ephemeral answer, whether or not the interaction was answered already."""
        kwargs: dict[str, Any] = {"ephemeral": True}
        if extra is not None:
            kwargs["embed"] = extra
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, **kwargs)
            else:
                await interaction.response.send_message(text, **kwargs)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id)

    # ----- lobby ------------------------------------------------------------------------
    async def open_lobby(self, interaction: discord.Interaction, kind: str, options: dict[str, Any]) -> None:
        async with self.guard(interaction):
            if interaction.guild is None or interaction.channel is None:
                raise Refusal("Games are played in a server channel, not in DMs.")
            game = await self.service.open_lobby(
                guild_id=interaction.guild.id, channel_id=interaction.channel.id, kind=kind,
                host_id=interaction.user.id, host_name=interaction.user.display_name, options=options,
            )
            sent = await interaction.response.send_message(**render_lobby(game, get_engine(kind)).send_kwargs())
            if sent.message_id is not None:  # remembered so `/game leave` can redraw the lobby
                await self.service.storage.set_table_message(game.id, sent.message_id, self.now)
            await self.check_dm(interaction, game, 0)

    async def redraw_lobby(self, game: GameRecord) -> None:
        """Show a lobby's seats after a change made elsewhere than on its buttons."""
        if game.table_message_id is None:
            return
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        try:
            await channel.get_partial_message(game.table_message_id).edit(
                **render_lobby(game, get_engine(game.kind)).edit_kwargs())
        except discord.HTTPException as exc:
            log.warning("could not redraw the lobby of game %s: %s", game.id, exc)

    async def on_lobby(self, interaction: discord.Interaction, game_id: int, verb: str) -> None:
        async with self.guard(interaction):
            user = interaction.user
            if verb == "join":
                game = await self.service.join(game_id, user.id, user.display_name)
                await interaction.response.edit_message(**render_lobby(game, get_engine(game.kind)).edit_kwargs())
                await self.check_dm(interaction, game, game.seat_of(user.id) or 0)
            elif verb == "leave":
                game = await self.service.leave_lobby(game_id, user.id)
                await interaction.response.edit_message(**render_lobby(game, get_engine(game.kind)).edit_kwargs())
            elif verb == "cancel":
                game = await self.service.cancel(game_id, user.id, manager=manages_guild(interaction))
                text = f"Cancelled by {user.mention}."
                await interaction.response.edit_message(
                    **closed_lobby(game, get_engine(game.kind), text).edit_kwargs())
            elif verb == "start":
                await self.start(interaction, game_id)

    async def start(self, interaction: discord.Interaction, game_id: int) -> None:
        game = await self.service.game(game_id)
        if interaction.user.id != game.host_id:
            raise Refusal("Only the host can start the game.")
        engine = get_engine(game.kind)
        players = len(game.seats)
        if not engine.min_players <= players <= engine.max_players:
            raise Refusal(f"{engine.title} needs {engine.player_range()} players; {players} joined.")
        await interaction.response.defer()
        thread = await self._open_thread(interaction, game, engine)
        applied = await self.service.start(game_id, interaction.user.id,
                                           thread_id=thread.id if thread else None)
        where = thread.mention if thread else "below"
        async with self.committed(interaction):
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(
                    **closed_lobby(applied.game, engine, f"Started! Play {where}.").edit_kwargs())
            await self.publish(applied, post_new_table=True)

    async def _open_thread(self, interaction: discord.Interaction, game: GameRecord,
                           engine: Engine) -> discord.Thread | None:
        """A thread per game, when the channel and permissions allow one."""
        channel = interaction.channel
        message = interaction.message
        if not isinstance(channel, discord.TextChannel) or message is None:
            return None
        me = channel.guild.me
        if me is None or not channel.permissions_for(me).create_public_threads:
            return None
        try:
            return await message.create_thread(name=f"{engine.title} #{game.id}"[:100],
                                               auto_archive_duration=1440)
        except discord.HTTPException:
            log.info("could not open a thread for game %s; playing in the channel", game.id)
            return None

    async def check_dm(self, interaction: discord.Interaction, game: GameRecord, seat: int) -> None:
        """Joining tests the DM path, so nobody finds out mid-game that DMs are closed."""
        ui = ui_for(game.kind)
        if type(ui).private is GameUI.private:
            return
        engine = get_engine(game.kind)
        try:
            dm = await interaction.user.create_dm()
            await dm.send(f"You joined **{engine.title}** (game #{game.id}). "
                          "Your private hand will arrive here once the game starts.")
            await record_delivery(self.service, game, seat, dm_ok=True, dm_channel_id=dm.id)
            note = "✅ I can DM you: your hand will arrive by direct message."
        except discord.Forbidden:
            await record_delivery(self.service, game, seat, dm_ok=False)
            note = ("⚠️ I can't DM you (your DMs are closed). During the game, use the "
                    "**My hand** button or `/hand` to see your hand privately.")
        except discord.HTTPException as exc:  # Discord hiccup: the seat is taken all the same
            log.warning("DM check for game %s seat %s failed: %s", game.id, seat, exc)
            note = ("You're in. I couldn't test your DMs just now; if your hand doesn't arrive "
                    "by DM, use the **My hand** button or `/hand`.")
        await interaction.followup.send(note, ephemeral=True)

    # ----- actions ----------------------------------------------------------------------
    async def on_action(self, interaction: discord.Interaction, game_id: int, action: dict[str, Any],
                        version: int | None) -> None:
        applied: Applied | None = None
        async with self.guard(interaction):
            applied = await self.service.act(game_id, interaction.user.id, action, version=version,
                                             pressed_at=interaction.created_at.timestamp())
        if applied is not None:
            await self.acknowledge(interaction, applied)

    async def open_form(self, interaction: discord.Interaction, game_id: int, action: dict[str, Any],
                        version: int) -> None:
        async with self.guard(interaction):
            game = await self.service.game(game_id)
            seat = game.seat_of(interaction.user.id)
            if seat is None:
                raise NotSeated("You are not playing in this game.")
            check_current(game, seat, version)
            form = find_form(game, seat, action)
            if form is None:
                raise Refusal("That choice is not open to you right now.")
            await interaction.response.send_modal(build_modal(form, codec.modal_id(game.id, game.version, action)))

    async def on_modal(self, interaction: discord.Interaction) -> None:
        parsed = codec.parse_modal_id((interaction.data or {}).get("custom_id", ""))
        if parsed is None:
            return
        game_id, version, action = parsed
        filled: dict[str, Any] | None = None
        async with self.guard(interaction):
            game = await self.service.game(game_id)
            seat = game.seat_of(interaction.user.id)
            if seat is None:
                raise NotSeated("You are not playing in this game.")
            form = find_form(game, seat, action)
            if form is None:
                raise Refusal("That choice is not open to you any more.")
            values = dict(text_inputs((interaction.data or {}).get("components", [])))
            filled = dict(action)
            for field in form.fields:
                filled[field.name] = read_field(field, values.get(field.name, ""))
        if filled is not None:
            await self.on_action(interaction, game_id, filled, version)

    async def show_hand(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """The ephemeral private view: the fallback when DMs are closed, and `/hand`."""
        async with self.guard(interaction):
            if game_id is None:
                channel_id = interaction.channel.id if interaction.channel else None
                game = await self.service.game_for(interaction.user.id, channel_id)
            else:
                game = await self.service.game(game_id)
            seat = game.seat_of(interaction.user.id)
            if seat is None:
                raise NotSeated("You are not playing in this game, so there is no hand to show.")
            if game.status is not Status.ACTIVE:
                raise Refusal("This game has not started yet." if game.status is Status.LOBBY
                              else "This game is over.")
            rendered = await render_private(game, get_engine(game.kind), ui_for(game.kind), seat,
                                            jump_url=self.table_url(game))
            if rendered is None:
                raise Refusal("This game has no hidden hands: everything is on the table.")
            await interaction.response.send_message(ephemeral=True, **rendered.send_kwargs())

    # ----- acknowledging and publishing -------------------------------------------------
    async def acknowledge(self, interaction: discord.Interaction, applied: Applied) -> None:
        """Answer the player (the commit is done), then publish, under the game's publish lock
        so an older picture never lands after a newer one. When someone else's step is being
        shown for longer than QUEUE_PATIENCE, the interaction is deferred so its 3 seconds do
        not run out in the queue."""
        lock = self.lock(applied.game.id)
        try:
            await asyncio.wait_for(lock.acquire(), QUEUE_PATIENCE)
        except TimeoutError:
            if not interaction.response.is_done():
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.defer(ephemeral=True, thinking=interaction.message is None)
            await lock.acquire()
        try:
            table_done, private_done = False, set[int]()
            async with self.committed(interaction):
                table_done, private_done = await self._answer(interaction, applied)
            async with self.committed(interaction):
                await self._publish(applied, table_done=table_done, private_done=private_done)
        finally:
            lock.release()

    async def _answer(self, interaction: discord.Interaction, applied: Applied) -> tuple[bool, set[int]]:
        """The cheapest useful response: the pressed message redrawn in place when it is the
        table or the player's own hand, else the step's lines. Returns what it redrew."""
        game = applied.game
        engine, ui = applied.engine, ui_for(game.kind)
        message = interaction.message
        seat = game.seat_of(interaction.user.id)
        table_done = False
        private_done: set[int] = set()
        fresh_table = game.table_message_at is not None and self.now - game.table_message_at < REPOST_AFTER
        if message is not None and message.id == game.table_message_id and fresh_table:
            rendered = await render_table(game, engine, ui, self.now)
            await redraw_in_place(interaction, rendered)
            self._remember_table(game.id, message.id, rendered)
            table_done = True
        elif message is not None and seat is not None and self._is_private_message(game, seat, message):
            notes = self.private_notes(applied, seat)
            rendered = await render_private(game, engine, ui, seat, jump_url=self.table_url(game), notes=notes)
            if rendered is not None:
                await redraw_in_place(interaction, rendered)
                private_done.add(seat)
                if message.id == game.seats[seat].dm_message_id:
                    self._remember_dm(game.id, seat, message.id, rendered)
        if not (table_done or private_done):
            lines = [line for e in applied.events
                     if e.visible_to(seat) and (line := self.line_of(game, e))]
            text = "\n".join(lines)[:2000] or "Done."
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        return table_done, private_done

    def _is_private_message(self, game: GameRecord, seat: int, message: discord.Message) -> bool:
        record = game.seats[seat]
        ephemeral = bool(message.flags.ephemeral)
        return ephemeral or message.id == record.dm_message_id

    def private_notes(self, applied: Applied, seat: int) -> list[str]:
        return [line for e in applied.events
                if e.to is not None and seat in e.to and (line := self.line_of(applied.game, e))]

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._publish_locks.get(game_id)
        if lock is None:
            lock = self._publish_locks[game_id] = asyncio.Lock()
        return lock

    async def publish(self, applied: Applied, *, table_done: bool = False, private_done: set[int] | None = None,
                      post_new_table: bool = False) -> None:
        """Show the committed step: the table message, changed private views, the result."""
        async with self.lock(applied.game.id):
            await self._publish(applied, table_done=table_done, private_done=private_done,
                                post_new_table=post_new_table)

    async def _publish(self, applied: Applied, *, table_done: bool = False, private_done: set[int] | None = None,
                       post_new_table: bool = False) -> None:
        """`publish` with the game's publish lock held. Pictures are drawn from the game record,
        which always holds the newest committed state, so the last drawing is the newest."""
        game = applied.game
        drawn = self._table_shown.get(game.id) == (game.table_message_id, game.version)
        if not (table_done or drawn) or post_new_table:
            await self.update_table(game, applied.engine, post_new=post_new_table)
        for seat in applied.changed_seats:
            if seat not in (private_done or set()):
                await self.deliver_private(game, applied, seat)
        if applied.outcome is not None:
            await self.post_result(applied)
            self._publish_locks.pop(game.id, None)
            for seat in range(len(game.seats)):
                self._dm_shown.pop((game.id, seat), None)
            self._table_shown.pop(game.id, None)

    def _remember_dm(self, game_id: int, seat: int, message_id: int, rendered: Rendered) -> None:
        if len(self._dm_shown) >= MAX_REMEMBERED_DMS:
            self._dm_shown.clear()
        self._dm_shown[(game_id, seat)] = (message_id, rendered.fingerprint())

    def table_url(self, game: GameRecord) -> str | None:
        if game.table_message_id is None:
            return None
        return f"https://discord.com/channels/{game.guild_id}/{game.home_channel_id}/{game.table_message_id}"

    async def update_table(self, game: GameRecord, engine: Engine, *, post_new: bool = False) -> None:
        rendered = await render_table(game, engine, ui_for(game.kind), self.now)
        channel = self.bot.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        old = game.table_message_id
        stale = game.table_message_at is None or self.now - game.table_message_at >= REPOST_AFTER
        if old is not None and not post_new and not stale:
            try:
                await channel.get_partial_message(old).edit(**rendered.edit_kwargs())
                self._remember_table(game.id, old, rendered)
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
        self._remember_table(game.id, message.id, rendered)

    def _remember_table(self, game_id: int, message_id: int, rendered: Rendered) -> None:
        if len(self._table_shown) >= MAX_REMEMBERED_DMS:
            self._table_shown.clear()
        if rendered.version is not None:
            self._table_shown[game_id] = (message_id, rendered.version)

    async def deliver_private(self, game: GameRecord, applied: Applied, seat: int) -> None:
        """DM a seat its new private view; on closed DMs, say so once in the channel."""
        record = game.seats[seat]
        if not record.dm_ok:
            return
        rendered = await render_private(game, applied.engine, ui_for(game.kind), seat,
                                        jump_url=self.table_url(game),
                                        notes=self.private_notes(applied, seat))
        if rendered is None:
            return
        try:
            fresh = record.dm_message_at is not None and self.now - record.dm_message_at < REPOST_AFTER
            if record.dm_channel_id and record.dm_message_id and fresh:
                shown = self._dm_shown.get((game.id, seat))
                if shown is not None and shown == (record.dm_message_id, rendered.fingerprint()):
                    return  # the DM already shows exactly this
                dm_channel = self.bot.get_partial_messageable(record.dm_channel_id)
                await dm_channel.get_partial_message(record.dm_message_id).edit(**rendered.edit_kwargs())
                self._remember_dm(game.id, seat, record.dm_message_id, rendered)
                return
            if record.dm_channel_id:
                dm: discord.abc.Messageable = self.bot.get_partial_messageable(record.dm_channel_id)
            else:
                user = self.bot.get_user(record.user_id) or await self.bot.fetch_user(record.user_id)
                dm = await user.create_dm()
            message = await dm.send(**rendered.send_kwargs())
            await record_delivery(self.service, game, seat, dm_ok=True, dm_channel_id=message.channel.id,
                                  dm_message_id=message.id, dm_message_at=self.now)
            self._remember_dm(game.id, seat, message.id, rendered)
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to seat %s of game %s refused: %s", seat, game.id, exc)
            await record_delivery(self.service, game, seat, dm_ok=False)
            await self._announce_closed_dms(game, record.user_id)
        except discord.HTTPException as exc:
            log.warning("DM to seat %s of game %s failed: %s", seat, game.id, exc)

    async def _announce_closed_dms(self, game: GameRecord, user_id: int) -> None:
        channel = self.bot.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(
                f"<@{user_id}>, I can't send you direct messages. Use the **My hand** button "
                "on the table or `/hand` to see your hand privately.",
                allowed_mentions=discord.AllowedMentions(users=True),
            )

    async def post_result(self, applied: Applied) -> None:
        game, outcome = applied.game, applied.outcome
        assert outcome is not None
        users = [s.user_id for s in game.seats]
        ratings = await self.service.storage.ratings(game.guild_id, game.kind, users)
        lines = [f"<@{u}> {ratings[u].ordinal:.1f}" for u in users if u in ratings]
        reason = ui_for(game.kind).result_reason(outcome.to_json(), table_info(game))
        embed = result_embed(game, applied.engine, list(outcome.ranks), reason, lines, outcome.scores)
        channel = self.bot.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(embed=embed)

    async def publish_timeout(self, applied: Applied) -> None:
        """Timers publish through here (no interaction to answer)."""
        await self.publish(applied)

    async def post_table(self, game: GameRecord) -> Rendered:
        return await render_table(game, get_engine(game.kind), ui_for(game.kind), self.now)

