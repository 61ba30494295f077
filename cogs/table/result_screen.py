"""A finished game's message: places, scores, how it ended, the ratings moved and the fair-play
reveal (the seed and nonce behind the table's commitment); or why a game stopped without one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from cogs.table.present import fit, named
from cogs.table.wording import plural
from games.registry import AnyEngine
from storage import GameRecord


def fair_play(game: GameRecord) -> str:
    """The result's reveal: the seed and nonce behind the commitment, and how to check them."""
    return (f"Seed `{game.seed}` · nonce `{game.nonce or '(none)'}`\n"
            f"SHA-256 of `{game.seed}:{game.nonce}` is `{game.commitment}`, the commitment the table "
            "showed from the first move.\n"
            f"Check the whole game: `/game record {game.id}`, then `python -m games.replay <file>`.")


def points(score: float) -> str:
    return plural(score, "point")


def abandoned_embed(game: GameRecord, engine: AnyEngine, reason: str) -> discord.Embed:
    """A game that stopped without a result (everyone away): nobody won, nothing is rated."""
    embed = discord.Embed(title=f"💤 {engine.title} — abandoned", description=reason[:4096] or None,
                          colour=0x99AAB5)
    embed.add_field(name="Fair play", value=fair_play(game)[:1024], inline=False)
    embed.set_footer(text=f"game #{game.id} · no result recorded")
    return fit(embed)


def result_embed(game: GameRecord, engine: AnyEngine, ranks: list[int], reason: str,
                 rating_lines: list[str], scores: Sequence[float] | None = None,
                 score_words: Callable[[float], str] = points) -> discord.Embed:
    order = sorted(range(len(ranks)), key=lambda s: ranks[s])
    medals = ["🥇", "🥈", "🥉"]
    lines = [f"{medals[ranks[s]] if ranks[s] < 3 else f'{ranks[s] + 1}.'} {named(game, s)}"
             + (f" — {score_words(scores[s])}" if scores is not None else "")
             for s in order]
    embed = discord.Embed(title=f"🏁 {engine.title} — game over", description="\n".join(lines),
                          colour=0xFEE75C)
    if reason:
        embed.add_field(name="How it ended", value=reason[:1024], inline=False)
    if rating_lines:
        embed.add_field(name="Ratings", value="\n".join(rating_lines)[:1024], inline=False)
    embed.add_field(name="Fair play", value=fair_play(game)[:1024], inline=False)
    embed.set_footer(text=f"game #{game.id}")
    return fit(embed)

