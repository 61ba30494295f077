"""The end of a game, shown: the result in the game's thread (places, how it ended, ratings
and their change, the seed revealed), mirrored on the lobby message in the parent channel,
and the thread archived."""

from __future__ import annotations

import contextlib
import logging

import discord

from cogs.table.host import Outbox
from cogs.table.lobby_screen import closed_lobby
from cogs.table.night import night_under_result
from cogs.table.present import table_info
from cogs.table.registry import ui_for
from cogs.table.rematch import rematch_view
from cogs.table.result_screen import abandoned_embed, result_embed
from cogs.table.teams import close_team_threads
from games.registry import AnyEngine
from runtime.service import Applied
from storage import GameRecord

log = logging.getLogger(__name__)

#: Characters the embeds of one message may hold in all (Discord's limit).
EMBEDS_LIMIT = 6000


async def post_result(delivery: Outbox, applied: Applied) -> None:
    game, outcome = applied.game, applied.outcome
    assert outcome is not None
    reason = ui_for(game.kind).result_reason(outcome.to_json(), table_info(game))
    if outcome.abandoned:
        embed = abandoned_embed(game, applied.engine, reason)
    else:
        embed = result_embed(game, applied.engine, list(outcome.ranks), reason,
                             rating_lines(applied), outcome.scores, ui_for(game.kind).result_score)
    await delivery.pings.game_over(game.id, game)
    channel = delivery.host.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
    embeds, view = [embed], None
    if not outcome.abandoned:  # a finished game offers its rematch and counts for the night
        view = rematch_view(game)
        try:
            night = await night_under_result(delivery.service.storage, game)
            # within Discord's 6,000 characters a message's embeds may hold (else no night table)
            embeds = [embed, *(e for e in night if len(embed) + len(e) <= EMBEDS_LIMIT)]
        except Exception:  # the result matters more than the night's table
            log.exception("could not show the night's table under game %s", game.id)
    with contextlib.suppress(discord.HTTPException):
        if view is None:
            await channel.send(embeds=embeds)
        else:
            await channel.send(embeds=embeds, view=view)
    await mirror_on_lobby(delivery, game, applied.engine, reason, abandoned=outcome.abandoned)
    await archive_thread(delivery, game)
    await close_team_threads(delivery, game)

async def mirror_on_lobby(delivery: Outbox, game: GameRecord, engine: AnyEngine, reason: str, *, abandoned: bool) -> None:
    """The lobby message in the parent channel said "Started!": it now says how it ended."""
    if game.lobby_message_id is None or game.thread_id is None:
        return  # no thread: the result was posted in the lobby's own channel
    names = table_info(game)
    winners = [] if abandoned else [names.name_of(s) for s in range(len(game.seats))
                                    if game.state is not None and s in winners_of(game, engine)]
    head = "💤 Abandoned" if abandoned else "🏁 " + (" and ".join(winners) + " won" if winners else "Finished")
    text = f"{head}. {reason}\nThe whole game: <#{game.thread_id}> · `/game record id:{game.id}`"
    lobby = delivery.host.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
    try:
        closed = closed_lobby(game, engine, text[:4000])
        closed.view = None if abandoned else rematch_view(game)
        await lobby.get_partial_message(game.lobby_message_id).edit(**closed.edit_kwargs())
    except discord.HTTPException as exc:
        log.info("could not mirror the result of game %s on its lobby: %s", game.id, exc)

def winners_of(game: GameRecord, engine: AnyEngine) -> list[int]:
    assert game.state is not None
    outcome = engine.outcome(game.state)
    return outcome.winners() if outcome is not None else []

async def archive_thread(delivery: Outbox, game: GameRecord) -> None:
    """The game's thread is done: archived, so the channel's thread list stays short."""
    if game.thread_id is None:
        return
    try:
        thread = delivery.host.get_channel(game.thread_id) or await delivery.host.fetch_channel(game.thread_id)
        if isinstance(thread, discord.Thread):
            await thread.edit(archived=True)
    except discord.HTTPException as exc:
        log.info("could not archive the thread of game %s: %s", game.id, exc)


def rating_lines(applied: Applied) -> list[str]:
    """Each player's new rating and its change, in finishing order ("alice 3.2 (+1.4)")."""
    game, outcome = applied.game, applied.outcome
    assert outcome is not None
    if not applied.rated:
        return ["Not rated: the game ended before everyone had played a turn."]
    lines = []
    for seat in sorted(range(len(game.seats)), key=lambda s: outcome.ranks[s]):
        user = game.user_of(seat)
        if user not in applied.rating_changes:
            continue
        before, after = applied.rating_changes[user]
        change = after - (before if before is not None else 0.0)
        sign = "+" if change >= 0 else "−"
        lines.append(f"<@{user}> {signed(after)} ({sign}{abs(change):.1f})")
    return lines


def signed(value: float) -> str:
    return f"{value:.1f}" if value >= 0 else f"−{-value:.1f}"
