"""`/<game> learn`: a practice table — the caller against computer players, unrated, with a
💡 Hint button on each of the caller's prompts (issue 23.3).

The table is a game like any other (its own thread, the one action loop, timers, DMs), marked
practice in storage (migration 7), so it is never rated and leaves no result. The Hint button
(`rp:i:<game>`, drawn by present.py only on a practice table's prompts) answers only the
presser, from their own seat's view (runtime/hints.py), in one sentence with the rule it
follows — the 📖 Rule button's text. A forged Hint on any other game is refused.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from cogs.table.answers import Answers, respond
from cogs.table.controls import controls_for
from cogs.table.delivery import Delivery
from cogs.table.intake import pressed_at
from cogs.table.lobby import add_players
from cogs.table.mentions import neutral
from cogs.table.present import table_info
from cogs.table.registry import ui_for
from cogs.table.rules import rule_text
from cogs.table.ui import FormButton, Select
from games.core import Action
from games.registry import get_engine, get_policy
from runtime.access import may_press
from runtime.errors import Refusal
from runtime.hints import Hint, hint_for
from runtime.service import TableService
from storage import GameRecord
from storage.practice import mark_practice

log = logging.getLogger(__name__)

HINT_COLOUR = 0xFEE75C


class LearnDesk:
    """Opens practice tables and answers their 💡 Hint presses."""

    def __init__(self, service: TableService, answers: Answers, delivery: Delivery) -> None:
        self.service = service
        self.answers = answers
        self.delivery = delivery

    async def open(self, interaction: discord.Interaction, kind: str, options: dict[str, Any]) -> None:
        """Seat the caller and enough computers, start at once, and play in a thread of its own."""
        engine = get_engine(kind)
        applied = None
        async with self.answers.guard(interaction):
            if interaction.guild is None or interaction.channel is None:
                raise Refusal("Practice tables are played in a server channel, not in DMs.")
            if get_policy(kind) is None:
                raise Refusal(f"{engine.title} has no computer player to practise against yet.")
            user = interaction.user
            lobby = await self.service.open_lobby(
                guild_id=interaction.guild.id, channel_id=interaction.channel.id, kind=kind, host_id=user.id,
                host_name=neutral(user.display_name), options=options)
            await mark_practice(self.service.storage, lobby.id)
            self.service.forget(lobby.id)  # read again, practice mark and all
            for _ in range(engine.min_players - 1):
                await self.service.add_computer(lobby.id, user.id)
            applied = await self.service.start(lobby.id, user.id, pressed_at=pressed_at(interaction))
        if applied is None:
            return
        game = applied.game
        async with self.answers.committed(interaction), self.delivery.lock(game.id):
            said = (f"🎓 {user.mention} is learning **{engine.title}** against computer players (game #{game.id}, "
                    "practice: not rated). Press **💡 Hint** on any of your prompts to see what the computer "
                    "would do in your place, and why.")
            await interaction.response.send_message(said, allowed_mentions=discord.AllowedMentions.none())
            thread = await self._open_thread(interaction, game)
            if thread is not None:
                await self.service.set_thread(game.id, thread.id)
                await add_players(thread, game)
                with contextlib.suppress(discord.HTTPException):
                    await interaction.edit_original_response(content=f"{said}\nPlay in {thread.mention}.",
                                                             allowed_mentions=discord.AllowedMentions.none())
            await self.delivery.publish_locked(applied, post_new_table=True)

    async def _open_thread(self, interaction: discord.Interaction, game: GameRecord) -> discord.Thread | None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            return None
        me = channel.guild.me
        if me is None or not channel.permissions_for(me).create_public_threads:
            return None
        try:
            message = await interaction.original_response()
            return await message.create_thread(name=f"🎓 {get_engine(game.kind).title} #{game.id}"[:100],
                                               auto_archive_duration=1440)
        except discord.HTTPException:
            log.info("could not open a thread for practice game %s; playing in the channel", game.id)
            return None

    async def hint(self, interaction: discord.Interaction, game_id: int) -> None:
        """💡 Hint: what the computer would do in the presser's place, only to them."""
        async with self.answers.watched(interaction, thinking=True), self.answers.guard(interaction):
            game = await self.service.game(game_id)
            engine = get_engine(game.kind)
            if not game.practice:
                raise Refusal(f"Hints are offered only at practice tables: `/{game.kind} learn` opens one.")
            seat = may_press(game, interaction.user.id)
            hint = hint_for(engine, get_policy(game.kind), game, seat, self.service.clock.now())
            await respond(interaction, ephemeral=True, embed=hint_embed(game, hint))


def hint_embed(game: GameRecord, hint: Hint) -> discord.Embed:
    """"The computer would choose **Roll**: …" and, under it, the rule's text."""
    what = control_label(game, hint.seat, hint.action)
    embed = discord.Embed(title="💡 Hint", colour=HINT_COLOUR,
                          description=f"In your place, the computer would choose **{what}**: {hint.reason.why}.")
    rule = hint.reason.rule
    text = rule_text(game.kind, rule) if rule else None
    if rule and text:
        embed.add_field(name=f"📖 Rule {rule}", value=text[:1024], inline=False)
    embed.set_footer(text=f"{get_engine(game.kind).title} · game #{game.id} · practice · only you can see this")
    return embed


def control_label(game: GameRecord, seat: int, action: Action) -> str:
    """The control on the player's screens that sends `action` (so the hint names what to
    press), else the action's own name."""
    offered = controls_for(game, seat)
    for label, control, sent in offered:
        if sent == action:
            return label
        if isinstance(control, FormButton) and control.fields and all(
                {**sent, f.name: action.get(f.name)} == action for f in control.fields[:1]):
            field = control.fields[0]
            return f"{control.label} ({field.label}: {action.get(field.name)})"
    return str(action.get("type", "that")).replace("_", " ").capitalize() + _multi_pick(game, seat, action)


def _multi_pick(game: GameRecord, seat: int, action: Action) -> str:
    """", picking A and B" for an action made of several picks of one menu."""
    assert game.state is not None
    engine, ui = get_engine(game.kind), ui_for(game.kind)
    screen = ui.private(engine.view(game.state, seat), seat, table_info(game))
    for control in screen.controls if screen else []:
        if isinstance(control, Select) and control.gather and isinstance(action.get(control.gather), list):
            items = action[control.gather]
            picked = [c.label for c in control.choices if c.action.get(control.gather, [None])[0] in items]
            if picked:
                return ", picking " + " and ".join(picked)
    return ""
