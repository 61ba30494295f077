"""`/leaderboard` and `/stats`: per-server ratings (openskill ordinal), games and wins."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.answers import echo
from cogs.table.edge import TableEdge, tables_of
from cogs.table.wording import MINUS, ordinal, plural
from games.registry import ENGINES, get_engine
from runtime.errors import Refusal
from storage import PairRecord, RatingRecord, ResultRecord, Storage

MEDALS = ("🥇", "🥈", "🥉")
#: Results shown per game in /stats, newest first.
RECENT = 5


def _title(kind: str) -> str:
    return ENGINES[kind].title if kind in ENGINES else kind


def shared_places(keys: Sequence[object]) -> list[int]:
    """Places (0 = first) in a list sorted best first: equal keys share a place, and the next
    place skips as many as shared (two 2.4 ratings are both 🥇, the next is 🥉)."""
    places: list[int] = []
    for i, key in enumerate(keys):
        places.append(places[i - 1] if i and key == keys[i - 1] else i)
    return places


def mark_of(place: int) -> str:
    return MEDALS[place] if place < 3 else f"`{place + 1}.`"


def pair_lines(pairs: list[PairRecord]) -> list[str]:
    """"🥇 @alice & @bob — 5 wins in 7 games", best first (computers are never listed)."""
    shown = [p for p in pairs if p.user_a > 0 and p.user_b > 0]
    places = shared_places([(p.wins, p.games) for p in shown])
    return [f"{mark_of(place)} <@{pair.user_a}> & <@{pair.user_b}> — {plural(pair.wins, 'win')} in "
            f"{plural(pair.games, 'game')}" for place, pair in zip(places, shown, strict=True)]


def board_lines(records: list[RatingRecord]) -> dict[str, list[str]]:
    """Per game, "🥇 @alice — **2.4** · 3 games · 1 win", best first; equal ratings as shown
    (to one decimal) share a place. Computers are never rated, never listed."""
    by_kind: dict[str, list[RatingRecord]] = {}
    for record in records:
        if record.user_id > 0:
            by_kind.setdefault(record.kind, []).append(record)
    out: dict[str, list[str]] = {}
    for kind, rated in by_kind.items():
        places = shared_places([rating_text(r.ordinal) for r in rated])
        out[kind] = [f"{mark_of(place)} <@{r.user_id}> — **{rating_text(r.ordinal)}** "
                     f"· {plural(r.games, 'game')} · {plural(r.wins, 'win')}"
                     for place, r in zip(places, rated, strict=True)]
    return out


def rating_text(value: float) -> str:
    """A rating to one decimal with the minus sign players read ("−0.0" shows as "0.0")."""
    shown = f"{value:.1f}"
    return "0.0" if shown == "-0.0" else shown.replace("-", MINUS)


def last_line(last: list[ResultRecord]) -> str:
    """"Last: 3rd of 3 (game #3) · 1st of 2 (game #1)", newest first."""
    if not last:
        return "Last: —"
    return "Last: " + " · ".join(
        f"{ordinal(r.rank + 1)}{f' of {r.places}' if r.places else ''} (game #{r.game_id})" for r in last)


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
            for kind, lines in list(board_lines(records).items())[:24]:
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
                value = (f"Rating **{rating_text(record.ordinal)}** (μ {rating_text(record.mu)}, "
                         f"σ {rating_text(record.sigma)})\n"
                         f"{plural(record.games, 'game')} · {plural(record.wins, 'win')}\n{last_line(last)}")
                if record.kind in versus:
                    value += "\n" + versus_line(*versus.pop(record.kind))
                embed.add_field(name=_title(record.kind), value=value, inline=True)
            for kind, (games, wins) in sorted(versus.items()):  # played only against computers
                embed.add_field(name=_title(kind), value=f"Not rated yet\n{versus_line(games, wins)}", inline=True)
            await interaction.response.send_message(embed=embed)


def versus_line(games: int, wins: int) -> str:
    """"🤖 vs computers: 3 games, 2 wins" — games with computer seats, counted apart."""
    return f"🤖 vs computers: {plural(games, 'game')}, {plural(wins, 'win')}"


async def computer_record(storage: Storage, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
    """Per game, (games, wins) of the user's finished games that had computer seats."""
    return await storage.computer_record(guild_id, user_id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeaderboardCog(bot))
