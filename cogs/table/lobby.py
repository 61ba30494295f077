"""The lobby: `/<game> new`, Join / Leave / Start / Cancel, computer players (🤖 Add computer,
`/<game> addbot`, the Remove select), the DM check on joining, and the game's thread.

Start claims the lobby (lobby → running game, in one step under the game's lock) before the
thread is made, so a Cancel pressed at the same moment either wins — and no thread is made —
or is refused.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from cogs.table.answers import Answers, redraw_in_place
from cogs.table.deferral import answering
from cogs.table.delivery import Delivery
from cogs.table.intake import pressed_at
from cogs.table.lobby_screen import closed_lobby, render_lobby
from cogs.table.mentions import neutral
from cogs.table.newcomers import mention_learn
from cogs.table.registry import ui_for
from cogs.table.teams import TeamRooms
from cogs.table.ui import GameUI
from games.registry import AnyEngine, get_engine
from runtime.computers import answers_to, clean_name, is_computer, offers_computers
from runtime.errors import Refusal
from runtime.service import TableService, record_delivery
from storage import GameRecord, Status

log = logging.getLogger(__name__)


def manages_guild(interaction: discord.Interaction) -> bool:
    """Manage Server, as Discord resolved it for this interaction (roles the bot never
    cached included; an administrator has every permission)."""
    return interaction.guild is not None and interaction.permissions.manage_guild


class Lobby:
    def __init__(self, service: TableService, answers: Answers, delivery: Delivery,
                 teams: TeamRooms | None = None) -> None:
        self.service = service
        self.answers = answers
        self.delivery = delivery
        self.teams = teams

    async def open(self, interaction: discord.Interaction, kind: str, options: dict[str, Any]) -> None:
        async with self.answers.guard(interaction):
            if interaction.guild is None or interaction.channel is None:
                raise Refusal("Games are played in a server channel, not in DMs.")
            game = await self.service.open_lobby(
                guild_id=interaction.guild.id, channel_id=interaction.channel.id, kind=kind,
                host_id=interaction.user.id, host_name=neutral(interaction.user.display_name), options=options,
            )
            sent = await interaction.response.send_message(**render_lobby(game, get_engine(kind)).send_kwargs())
            if sent.message_id is not None:  # remembered so `/game leave` can redraw the lobby
                await self.service.storage.set_table_message(game.id, sent.message_id, self.delivery.now)
                await self.service.storage.set_lobby_message(game.id, sent.message_id)
            await self.check_dm(interaction, game)
            await mention_learn(self.service, interaction, game)

    async def redraw(self, game: GameRecord) -> None:
        """Show a lobby's seats after a change made elsewhere than on its buttons."""
        if game.table_message_id is None:
            return
        channel = self.delivery.host.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        try:
            await channel.get_partial_message(game.table_message_id).edit(
                **render_lobby(game, get_engine(game.kind)).edit_kwargs())
        except discord.HTTPException as exc:
            log.warning("could not redraw the lobby of game %s: %s", game.id, exc)

    async def on_button(self, interaction: discord.Interaction, game_id: int, verb: str) -> None:
        # Watched like a move (deferral.py): a lobby pressed while the bot starts up, or behind
        # a busy database, is acknowledged in time and redrawn when the answer is ready.
        async with self.answers.watched(interaction), self.answers.guard(interaction):
            user, at = interaction.user, pressed_at(interaction)
            if verb == "join" or verb.startswith("join-"):
                team = int(verb.removeprefix("join-")) if verb != "join" else None
                was_seated = (await self.service.game(game_id)).seat_of(user.id) is not None
                game = await self.service.join(game_id, user.id, neutral(user.display_name), team=team,
                                               pressed_at=at)
                await redraw_in_place(interaction, **render_lobby(game, get_engine(game.kind)).edit_kwargs())
                if not was_seated:  # a switch of team keeps the DM check already made
                    await self.check_dm(interaction, game)
                    await mention_learn(self.service, interaction, game)
            elif verb == "leave":
                game = await self.service.leave_lobby(game_id, user.id, pressed_at=at)
                await redraw_in_place(interaction, **render_lobby(game, get_engine(game.kind)).edit_kwargs())
            elif verb == "cancel":
                game = await self.service.cancel(game_id, user.id, manager=manages_guild(interaction), pressed_at=at)
                closed = closed_lobby(game, get_engine(game.kind), f"Cancelled by {user.mention}.")
                await redraw_in_place(interaction, **closed.edit_kwargs())
            elif verb == "start":
                await self.start(interaction, game_id)

    async def add_computer(self, interaction: discord.Interaction, game_id: int, typed: str | None,
                           team: int | None, *, in_place: bool) -> None:
        """The host seats a computer (the 🤖 form, or `/<game> addbot`); the runtime checks
        host, lobby, a free place and the game's computer player, and names it when unnamed."""
        name = clean_name(typed)
        game = await self.service.add_computer(game_id, interaction.user.id, name=name, team=team,
                                               pressed_at=pressed_at(interaction))
        added = next((s for s in reversed(game.seats) if is_computer(s)), None)
        engine = get_engine(game.kind)
        if in_place:
            await interaction.response.edit_message(**render_lobby(game, engine).edit_kwargs())
        else:
            where = (f" in {engine.team_name(added.team)}"
                     if added is not None and added.team is not None and engine.lobby_teams else "")
            said = f"**{added.name}** joined{where}." if added is not None else "A computer joined."
            await interaction.response.send_message(said, ephemeral=True)
            await self.redraw(game)

    async def remove_computer(self, interaction: discord.Interaction, game_id: int, seat: int, *,
                              in_place: bool) -> None:
        """The host takes a computer out of the lobby (the Remove select, `/<game> removebot`)."""
        game = await self.service.game(game_id)
        if game.status is not Status.LOBBY:
            raise Refusal("This lobby is closed.")
        if not 0 <= seat < len(game.seats) or not is_computer(game.seats[seat]):
            raise Refusal("That seat has no computer player.")
        name = game.seats[seat].name
        game = await self.service.remove_computer(game_id, interaction.user.id, seat,
                                                  pressed_at=pressed_at(interaction))
        if in_place:
            await interaction.response.edit_message(**render_lobby(game, get_engine(game.kind)).edit_kwargs())
        else:
            await interaction.response.send_message(f"**{name}** left the table.", ephemeral=True)
            await self.redraw(game)

    async def lobby_here(self, interaction: discord.Interaction, kind: str) -> GameRecord:
        """The lobby of `kind` open in this channel (for its slash commands)."""
        engine = get_engine(kind)
        channel_id = interaction.channel.id if interaction.channel is not None else 0
        lobby = await self.service.game_here(channel_id)
        if lobby.status is not Status.LOBBY or lobby.kind != kind:
            raise Refusal(f"There is no {engine.title} lobby here. Open one with `/{kind} new`.")
        return lobby

    async def add_computer_typed(self, interaction: discord.Interaction, kind: str, name: str | None,
                                 team: str | None) -> None:
        """`/<game> addbot [name] [team]`."""
        async with self.answers.guard(interaction):
            engine = get_engine(kind)
            if not offers_computers(kind):
                raise Refusal(f"{engine.title} has no computer player.")
            index = None
            if team is not None and engine.lobby_teams:
                if team not in engine.lobby_teams:
                    raise Refusal(f"{engine.title} has teams {', '.join(engine.lobby_teams)}.")
                index = engine.lobby_teams.index(team)
            lobby = await self.lobby_here(interaction, kind)
            await self.add_computer(interaction, lobby.id, name, index, in_place=False)

    async def remove_computer_typed(self, interaction: discord.Interaction, kind: str, name: str) -> None:
        """`/<game> removebot name`: by its name (with or without the 🤖), or its seat number."""
        async with self.answers.guard(interaction):
            lobby = await self.lobby_here(interaction, kind)
            found = [s for s in lobby.seats if answers_to(s, str(name))]
            if not found:
                raise Refusal("There is no computer of that name in this lobby.")
            await self.remove_computer(interaction, lobby.id, found[0].seat, in_place=False)

    async def join_team(self, interaction: discord.Interaction, kind: str, label: str) -> None:
        """`/<game> join team:` — the Join button of that team, for the lobby in this channel."""
        async with self.answers.guard(interaction):
            engine = get_engine(kind)
            if label not in engine.lobby_teams:
                raise Refusal(f"{engine.title} has teams {', '.join(engine.lobby_teams)}.")
            lobby = await self.lobby_here(interaction, kind)
            user = interaction.user
            was_seated = lobby.seat_of(user.id) is not None
            game = await self.service.join(lobby.id, user.id, neutral(user.display_name),
                                           team=engine.lobby_teams.index(label), pressed_at=pressed_at(interaction))
            await interaction.response.send_message(
                f"You're in {engine.team_name(engine.lobby_teams.index(label))}.", ephemeral=True)
            await self.redraw(game)
            if not was_seated:
                await self.check_dm(interaction, game)
                await mention_learn(self.service, interaction, game)

    async def start(self, interaction: discord.Interaction, game_id: int) -> None:
        """Claim the lobby first (the service checks host, seats and that it is still a lobby,
        and starts the game), then open the thread and show the table there."""
        applied = await self.service.start(game_id, interaction.user.id, pressed_at=pressed_at(interaction))
        engine = applied.engine
        # The game's publish lock is held until the first table is posted: a computer that
        # moves at once waits for it, instead of editing the lobby's message as the table.
        async with self.answers.committed(interaction), self.delivery.lock(game_id):
            async with answering(interaction):  # the watch may have deferred it already
                if not interaction.response.is_done():
                    await interaction.response.defer()
            thread = await self._open_thread(interaction, applied.game, engine)
            if thread is not None:
                await self.service.set_thread(game_id, thread.id)
                await add_players(thread, applied.game)
            where = thread.mention if thread else "below"
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(
                    **closed_lobby(applied.game, engine, f"Started! Play {where}.").edit_kwargs())
            await self.delivery.publish_locked(applied, post_new_table=True)
            if self.teams is not None:
                await self.teams.open(applied.game, engine)

    async def _open_thread(self, interaction: discord.Interaction, game: GameRecord,
                           engine: AnyEngine) -> discord.Thread | None:
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

    async def check_dm(self, interaction: discord.Interaction, game: GameRecord) -> None:
        """Joining tests the DM path, so nobody finds out mid-game that DMs are closed. What
        is learnt is stored against the user who pressed (never a seat number: others may
        join or leave while the DM is on its way, renumbering the seats)."""
        ui = ui_for(game.kind)
        if type(ui).private is GameUI.private:
            return
        engine = get_engine(game.kind)
        user_id = interaction.user.id
        try:
            dm = await interaction.user.create_dm()
            await dm.send(f"You joined **{engine.title}** (game #{game.id}). "
                          f"Your private {ui.private_noun} will arrive here once the game starts.")
            await record_delivery(self.service, game, user_id, dm_ok=True, dm_channel_id=dm.id)
            note = f"✅ I can DM you: your {ui.private_noun} will arrive by direct message."
        except discord.Forbidden:
            await record_delivery(self.service, game, user_id, dm_ok=False)
            note = ("⚠️ I can't DM you (your DMs are closed). During the game, use the "
                    f"**{ui.hand_button}** button or `/hand` to see your {ui.private_noun} privately.")
        except discord.HTTPException as exc:  # Discord hiccup: the seat is taken all the same
            log.warning("DM check for game %s failed: %s", game.id, exc)
            note = (f"You're in. I couldn't test your DMs just now; if your {ui.private_noun} doesn't arrive "
                    f"by DM, use the **{ui.hand_button}** button or `/hand`.")
        await interaction.followup.send(note, ephemeral=True)


async def add_players(thread: discord.Thread, game: GameRecord) -> None:
    """Every player joins the game's thread, so its pings and results reach them."""
    for seat in game.seats:
        if is_computer(seat):
            continue
        try:
            await thread.add_user(discord.Object(id=seat.user_id))
        except discord.HTTPException as exc:
            log.info("could not add a player to the thread of game %s: %s", game.id, exc)
