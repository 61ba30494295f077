"""`/leaderboard` and `/stats`: per-server ratings (openskill ordinal), games and wins."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.answers import echo
from cogs.table.edge import TableEdge, tables_of
from games.registry import ENGINES, get_engine
from runtime.errors import Refusal
from storage import PairRecord

MEDALS = ("🥇", "🥈", "🥉")
#: Results shown per game in /stats, newest first.
RECENT = 5


def _title(kind: str) -> str:
    return ENGINES[kind].title if kind in ENGINES else kind


def pair_lines(pairs: list[PairRecord]) -> list[str]:
    """"🥇 @alice & @bob — 5 wins in 7 games", best first (computers are never listed)."""
    lines = []
    for place, pair in enumerate(p for p in pairs if p.user_a > 0 and p.user_b > 0):
        mark = MEDALS[place] if place < 3 else f"`{place + 1}.`"
        wins = f"{pair.wins} win{'' if pair.wins == 1 else 's'}"
        games = f"{pair.games} game{'' if pair.games == 1 else 's'}"
        lines.append(f"{mark} <@{pair.user_a}> & <@{pair.user_b}> — {wins} in {games}")
    return lines


class LeaderboardCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def edge(self) -> TableEdge:
        return tables_of(self.bot)

    @app_commands.command(name="leaderboard", description="Top players of this server")
    @app_commands.describe(game="One game (all games when left out)")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        async with self.edge.guard(interaction):
            if game is not None and game not in ENGINES:
                raise Refusal(f"There is no game called “{echo(game)}”.")
            assert interaction.guild is not None
            records = await self.edge.service.storage.leaderboard(interaction.guild.id, game, limit=10)
            embed = discord.Embed(
                title=f"🏆 Leaderboard — {_title(game) if game else 'all games'}", colour=0xFEE75C)
            if not records:
                embed.description = "No finished games yet. Start one with `/<game> new`!"
            by_kind: dict[str, list[str]] = {}
            for record in records:
                if record.user_id < 0:  # a computer is never rated; never listed either
                    continue
                lines = by_kind.setdefault(record.kind, [])
                place = len(lines)
                mark = MEDALS[place] if place < 3 else f"`{place + 1}.`"
                lines.append(f"{mark} <@{record.user_id}> — **{record.ordinal:.1f}** "
                             f"· {record.games} games · {record.wins} wins")
            for kind, lines in list(by_kind.items())[:24]:
                embed.add_field(name=_title(kind), value="\n".join(lines)[:1024], inline=False)
            if game is not None:
                pairs = await self.edge.service.storage.best_pairs(interaction.guild.id, game, limit=5)
                if pairs:
                    embed.add_field(name="Best pairs", value="\n".join(pair_lines(pairs))[:1024], inline=False)
            embed.set_footer(text="Rating = openskill ordinal (μ − 3σ): it grows as you win and play.")
            await interaction.response.send_message(embed=embed)

    @leaderboard.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=get_engine(k).title, value=k)
                for k in sorted(ENGINES) if str(current).lower() in k][:25]

    @app_commands.command(name="stats", description="A player's ratings and recent results")
    @app_commands.describe(user="Whose stats (yours when left out)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        async with self.edge.guard(interaction):
            assert interaction.guild is not None
            who = user or interaction.user
            if not isinstance(who, discord.User | discord.Member):  # options are checked first; in case
                raise Refusal("I can't find that user here.")
            storage = self.edge.service.storage
            ratings = await storage.player_ratings(interaction.guild.id, who.id)
            recent = await storage.recent_results(interaction.guild.id, who.id, limit=RECENT * 10)
            embed = discord.Embed(title=f"📊 {who.display_name}", colour=0x5865F2)
            versus = await computer_record(storage, interaction.guild.id, who.id)
            if not ratings and not versus:
                embed.description = "No finished games in this server yet."
            for record in ratings:
                last = [r for r in recent if r.kind == record.kind][:RECENT]
                places = " ".join(f"#{r.rank + 1}" for r in last) or "—"
                value = (f"Rating **{record.ordinal:.1f}** (μ {record.mu:.1f}, σ {record.sigma:.1f})\n"
                         f"{record.games} games · {record.wins} wins\nLast: {places}")
                if record.kind in versus:
                    value += "\n" + versus_line(*versus.pop(record.kind))
                embed.add_field(name=_title(record.kind), value=value, inline=True)
            for kind, (games, wins) in sorted(versus.items()):  # played only against computers
                embed.add_field(name=_title(kind), value=f"Not rated yet\n{versus_line(games, wins)}", inline=True)
            await interaction.response.send_message(embed=embed)


def versus_line(games: int, wins: int) -> str:
    """"🤖 vs computers: 3 games, 2 wins" — games with computer seats, counted apart."""
    return f"🤖 vs computers: {games} game{'' if games == 1 else 's'}, {wins} win{'' if wins == 1 else 's'}"


async def computer_record(storage: Any, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
    """Per game, (games, wins) of the user's finished games that had computer seats."""
    record = getattr(storage, "computer_record", None)
    if record is None:  # a storage from before computer seats
        return {}
    return dict(await record(guild_id, user_id))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeaderboardCog(bot))
