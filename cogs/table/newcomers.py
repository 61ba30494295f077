"""The first game of a kind a player joins mentions `/<game> learn` (issue 23.3): these games
are obscure, and a practice table with hints is the quickest way in. Told once, privately, to
whoever opens or joins their first lobby of that game (any earlier seat of theirs at that game,
practice included, means they were told then)."""

from __future__ import annotations

import logging

import discord

from games.registry import get_engine
from runtime.computers import offers_computers
from runtime.service import TableService
from storage import GameRecord
from storage.practice import has_played

log = logging.getLogger(__name__)


def learn_line(kind: str) -> str:
    title = get_engine(kind).title
    return (f"🎓 New to {title}? `/{kind} learn` opens a practice table against computer players, with a "
            "💡 Hint on each of your prompts (not rated).")


async def mention_learn(service: TableService, interaction: discord.Interaction, game: GameRecord) -> None:
    """Tell the joiner about `/<game> learn` if this is their first game of the kind."""
    if game.practice or not offers_computers(game.kind):
        return
    try:
        if await has_played(service.storage, interaction.user.id, game.kind, besides=game.id):
            return
        await interaction.followup.send(learn_line(game.kind), ephemeral=True)
    except discord.HTTPException as exc:
        log.info("could not mention /%s learn to a newcomer: %s", game.kind, exc)
