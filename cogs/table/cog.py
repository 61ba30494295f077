"""Slash commands every game shares (`/hand`, `/notify`, `/game …`, `/rules`); each game's own
`/<game>` group is built by `cogs.table.game_groups`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.answers import echo, respond
from cogs.table.edge import TableEdge, tables_of
from cogs.table.game_groups import GameGroups
from cogs.table.intake import pressed_at
from cogs.table.lobby import manages_guild
from cogs.table.present import table_info
from cogs.table.records import RecordsCog
from cogs.table.registry import UIS, load_builtin_uis, ui_for
from cogs.table.teams import close_team_threads
from games.registry import get_engine
from runtime.errors import NoGame, Refusal
from runtime.service import Left, TableService
from storage import GameRecord, Status


class TableCog(commands.Cog):
    """Lobby, hands, status, leaving and ending, rules — for every game."""

    game = app_commands.Group(name="game", description="The game in this channel")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._game_groups: list[app_commands.Group] = []
        self.groups = GameGroups(lambda: self.edge, self.show_table, self._game_to_show)

    @property
    def edge(self) -> TableEdge:
        return tables_of(self.bot)

    @property
    def service(self) -> TableService:
        return self.edge.service

    async def cog_load(self) -> None:
        for kind in sorted(UIS):
            group = self.groups.group(get_engine(kind))
            self.bot.tree.add_command(group)
            self._game_groups.append(group)

    async def cog_unload(self) -> None:
        for group in self._game_groups:
            self.bot.tree.remove_command(group.name)

    # ----- shared commands --------------------------------------------------------------
    @app_commands.command(name="hand", description="See your private hand (only you can see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.edge.intake.show_hand(interaction, None)

    @app_commands.command(name="notify", description="Where you are told it's your turn")
    @app_commands.describe(where="thread: a mention in the game's thread · dm: a direct message · off")
    @app_commands.choices(where=[
        app_commands.Choice(name="in the game's thread", value="thread"),
        app_commands.Choice(name="by direct message", value="dm"),
        app_commands.Choice(name="off", value="off"),
        app_commands.Choice(name="automatic (DM for games with a hand, else the thread)", value="auto"),
    ])
    async def notify(self, interaction: discord.Interaction, where: str) -> None:
        async with self.edge.guard(interaction):
            if where not in ("thread", "dm", "off", "auto"):
                raise Refusal("Choose thread, dm, off or automatic.")
            await self.service.storage.set_notify(interaction.user.id, where)
            said = {"thread": "with a mention in the game's thread", "dm": "by direct message",
                    "off": "not at all (watch the table)", "auto": "by DM in games with a hand, else in the thread"}
            await interaction.response.send_message(f"Got it: you'll be told it's your turn {said[where]}.",
                                                    ephemeral=True)

    @game.command(name="status", description="Show the table of the game here")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_table(interaction)

    async def show_table(self, interaction: discord.Interaction) -> None:
        """The table here as a picture only the caller sees (no second set of controls)."""
        async with self.edge.answers.watched(interaction), self.edge.guard(interaction):
            game = await self._game_to_show(interaction)
            rendered = await self.edge.delivery.draw_table(game)
            if game.status is not Status.ACTIVE:
                rendered.embed.description = (await self.ended_line(game) + "\n\n"
                                              + (rendered.embed.description or ""))[:4096]
            kwargs = rendered.send_kwargs()
            kwargs.pop("view", None)  # a status card is a picture, not a second control panel
            await respond(interaction, ephemeral=True, **kwargs)

    async def _game_to_show(self, interaction: discord.Interaction) -> GameRecord:
        """The caller's game here; right after the end, the last game here (with its result)."""
        try:
            game = await self.service.game_for(interaction.user.id, _channel_id(interaction))
        except NoGame:
            last = await self.service.storage.last_game_in(_channel_id(interaction) or 0)
            if last is None:
                raise
            game = last
        if game.status is Status.LOBBY or game.state is None:
            raise Refusal("That game is still in its lobby.")
        return game

    async def ended_line(self, game: GameRecord) -> str:
        """"Game over: …" with the reason in the game's own words, for a finished table."""
        if game.status is Status.CANCELLED:
            return "**This game was ended without a result.**"
        engine = get_engine(game.kind)
        assert game.state is not None
        outcome = engine.outcome(game.state)
        if outcome is None:
            return "**This game is over.**"
        return f"**Game over.** {ui_for(game.kind).result_reason(outcome.to_json(), table_info(game))}"

    @game.command(name="replay", description="Replay a finished game of this server step by step (only you see it)")
    @app_commands.rename(game_id="id")
    @app_commands.describe(game_id="The game's number (on its table); empty: this server's latest finished game")
    async def replay(self, interaction: discord.Interaction, game_id: str | None = None) -> None:
        await self.edge.replays.open(interaction, game_id)

    @game.command(name="leave", description="Leave your game here (a computer may take your seat)")
    async def leave(self, interaction: discord.Interaction) -> None:
        edge = self.edge
        left: Left | None = None
        async with edge.guard(interaction):
            game = await self.service.game_for(interaction.user.id, _channel_id(interaction))
            at = pressed_at(interaction)
            if game.status is Status.LOBBY:
                lobby = await self.service.leave_lobby(game.id, interaction.user.id, pressed_at=at)
                await interaction.response.send_message("You left the lobby.", ephemeral=True)
                await edge.lobby.redraw(lobby)
                return
            leaver = game.seats[game.seat_of(interaction.user.id) or 0].name
            left = await self.service.leave(game.id, interaction.user.id, pressed_at=at)
        if left is None:
            return
        async with edge.committed(interaction):
            await edge.computers.after_leave(interaction, left, leaver)

    @game.command(name="end", description="End a stuck game without a result (host or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        edge = self.edge
        async with edge.guard(interaction):
            game = await self.service.game_here(_channel_id(interaction) or 0)
            ended = await self.service.end(game.id, interaction.user.id, manager=manages_guild(interaction),
                                           pressed_at=pressed_at(interaction))
            await interaction.response.send_message(
                f"{interaction.user.mention} ended game #{ended.id}. No result was recorded.")
            await edge.delivery.pings.game_over(ended.id, ended)
            if ended.table_message_id and ended.state is not None:
                await edge.delivery.show_stopped(ended)
            await close_team_threads(edge.delivery, ended)

    @app_commands.command(name="rules", description="How to play one of the games")
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        async with self.edge.guard(interaction):
            if game not in UIS:
                raise Refusal(f"There is no game called “{echo(game)}”. Try: {', '.join(sorted(UIS))}.")
            engine, ui = get_engine(game), ui_for(game)
            embed = discord.Embed(title=f"📜 {engine.title}", colour=ui.colour,
                                  description=(ui.rules or engine.summary)[:4096])
            embed.set_footer(text=f"{engine.player_range()} players · start with /{game} new")
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @rules.autocomplete("game")
    async def _rules_games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=get_engine(k).title, value=k)
                for k in sorted(UIS) if str(current).lower() in k][:25]

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.edge.on_interaction(interaction)


def _channel_id(interaction: discord.Interaction) -> int | None:
    return interaction.channel.id if interaction.channel is not None else None


async def setup(bot: commands.Bot) -> None:
    """Add the table's cogs to a bot that carries its table edge as `bot.tables`."""
    load_builtin_uis()
    await bot.add_cog(TableCog(bot))
    await bot.add_cog(RecordsCog(bot, lambda: tables_of(bot)))  # after TableCog: /game record joins /game
