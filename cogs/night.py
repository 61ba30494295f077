"""`/night`: a channel's game night. `/night action:start` starts it; every game finished in the
channel from then on (any of the five, any players, in the channel or its game threads) adds
places to a running table shown under each result; `/night` shows the table; `/night
action:end` posts the night's winner and a picture of the evening, and closes the night.

Who may: anyone starts a night where none is going (one per channel); the one who started it,
or anyone with Manage Server, ends it. Counting: runtime/night.py; storage: storage/gamenight.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.answers import respond
from cogs.table.edge import TableEdge, tables_of
from cogs.table.lobby import manages_guild
from cogs.table.night import evening_file, night_embed, scoring_line, winner_line
from runtime.errors import NotAllowed, Refusal
from runtime.night import night_table
from storage.gamenight import GameNights, NightBusy, NightRecord

START, END = "start", "end"


@dataclass(frozen=True)
class Where:
    """The channel a night belongs to, and its name (for the picture)."""

    id: int
    name: str


def channel_of(interaction: discord.Interaction) -> Where:
    """Where the command was used, or the channel a game's thread hangs from (a game's thread
    counts for its channel)."""
    channel = interaction.channel
    if interaction.guild is None or channel is None:
        raise Refusal("A game night is held in a server channel, not in DMs.")
    if isinstance(channel, discord.Thread):
        parent = channel.parent
        return Where(channel.parent_id, getattr(parent, "name", "") or "")
    return Where(channel.id, getattr(channel, "name", "") or "")


class NightCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def edge(self) -> TableEdge:
        return tables_of(self.bot)

    @property
    def nights(self) -> GameNights:
        return GameNights(self.edge.service.storage)

    @app_commands.command(name="night", description="Tonight's scoreboard in this channel (start, show, end)")
    @app_commands.describe(action="start a night here, or end it; leave out to see the table")
    @app_commands.choices(action=[
        app_commands.Choice(name="start a night in this channel", value=START),
        app_commands.Choice(name="end the night and crown its winner", value=END),
    ])
    @app_commands.guild_only()
    async def night(self, interaction: discord.Interaction, action: str | None = None) -> None:
        # Not watched: a late answer would be deferred privately, and these answers are for the
        # channel (the end, which draws a picture, defers publicly itself).
        async with self.edge.guard(interaction):
            channel = channel_of(interaction)
            if action == START:
                await self.start(interaction, channel)
            elif action == END:
                await self.end(interaction, channel)
            elif action is None:
                await self.show(interaction, channel)
            else:
                raise Refusal("Choose start or end, or leave it out to see the table.")

    async def going(self, channel_id: int) -> NightRecord:
        night = await self.nights.night_in(channel_id)
        if night is None:
            raise Refusal(f"No night is going in <#{channel_id}>. Start one with `/night action:start`.")
        return night

    async def start(self, interaction: discord.Interaction, channel: Where) -> None:
        assert interaction.guild is not None
        try:
            night = await self.nights.start_night(guild_id=interaction.guild.id, channel_id=channel.id,
                                                  user_id=interaction.user.id, now=self.edge.now)
        except NightBusy:
            night = await self.going(channel.id)
            raise Refusal(f"A night is already going in <#{channel.id}> (started by <@{night.started_by}> "
                          f"<t:{int(night.started_at)}:R>). `/night` shows its table.") from None
        await respond(interaction, content=(
            f"🌙 Game night in <#{night.channel_id}>, started by <@{night.started_by}>: every game finished "
            f"here from now on scores ({scoring_line()}). `/night` shows the table; "
            "`/night action:end` crowns the winner."))

    async def show(self, interaction: discord.Interaction, channel: Where) -> None:
        night = await self.going(channel.id)
        table = night_table(await self.nights.night_seats(night))
        await respond(interaction, embed=night_embed(night, table))

    async def end(self, interaction: discord.Interaction, channel: Where) -> None:
        night = await self.going(channel.id)
        if interaction.user.id != night.started_by and not manages_guild(interaction):
            raise NotAllowed(f"Only <@{night.started_by}>, who started the night, or someone with Manage "
                             "Server can end it.")
        ended = await self.nights.end_night(night.id, interaction.user.id, self.edge.now)
        if ended is None:
            raise Refusal("This night has just ended.")
        await interaction.response.defer(thinking=True)  # the picture takes a moment
        table = night_table(await self.nights.night_seats(ended))
        embed = night_embed(ended, table, heading="🌙 The night is over")
        embed.description = winner_line(table) + "\n" + (embed.description or "")
        kwargs: dict[str, object] = {"embed": embed}
        if table.games:
            embed.set_image(url="attachment://night.png")
            kwargs["file"] = evening_file(table, channel.name)
        await respond(interaction, **kwargs)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NightCog(bot))
