"""🔁 Rematch on a result: the press opens the rematch lobby in the game's channel with every
former seat taken (runtime/rematch.py says who and how), pings the people seated again,
and checks each one's DMs as Join would (stored per user, `record_delivery`).

The button is stateless (`rp:x:<game>`, cogs/table/codec.py), so a result posted before a
restart still opens its rematch after it.
"""

from __future__ import annotations

import logging

import discord

from cogs.table import codec
from cogs.table.answers import Answers, respond
from cogs.table.components import BuiltView
from cogs.table.host import Outbox
from cogs.table.lobby_screen import render_lobby
from cogs.table.mentions import only
from cogs.table.registry import ui_for
from cogs.table.ui import GameUI
from games.registry import get_engine
from runtime.errors import Refusal
from runtime.rematch import Rematches
from runtime.service import TableService, record_delivery
from storage import GameRecord

log = logging.getLogger(__name__)

LABEL = "Rematch"
EMOJI = "🔁"


def rematch_button(game_id: int) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(label=LABEL, emoji=EMOJI, style=discord.ButtonStyle.primary,
                             custom_id=codec.rematch_id(game_id))


def rematch_view(game: GameRecord) -> discord.ui.View | None:
    """The controls under a finished game's result: 🔁 Rematch (none for a practice table:
    `/<game> learn` opens another)."""
    if game.practice:
        return None
    view = BuiltView(timeout=None)
    view.add_item(rematch_button(game.id))
    return view


def call_line(game: GameRecord, of_game: int) -> str:
    """The message over the rematch lobby: who is seated again (pinged), who hosts."""
    engine = get_engine(game.kind)
    others = [f"<@{s.user_id}>" for s in game.seats if not s.computer and s.user_id != game.host_id]
    seated = (" ".join(others) + ": you're seated again; press **Leave** if you're out. ") if others else ""
    return (f"🔁 **Rematch** of {engine.title} #{of_game}, hosted by <@{game.host_id}>. {seated}"
            "The host presses **Start** when everyone is ready.")[:2000]


class RematchDesk:
    """Answers 🔁 Rematch presses."""

    def __init__(self, service: TableService, answers: Answers, delivery: Outbox) -> None:
        self.service = service
        self.answers = answers
        self.delivery = delivery
        self.rematches = Rematches(service)

    async def press(self, interaction: discord.Interaction, game_id: int) -> None:
        opened = None
        async with self.answers.watched(interaction, thinking=True), self.answers.guard(interaction):
            opened = await self.rematches.open(game_id, interaction.user.id)
            game = opened.game
            channel = self.delivery.host.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            people = [s.user_id for s in game.seats if not s.computer and s.user_id != game.host_id]
            try:
                message = await channel.send(content=call_line(game, opened.of.id), allowed_mentions=only(people),
                                             **render_lobby(game, get_engine(game.kind)).send_kwargs())
            except discord.HTTPException as exc:
                log.warning("could not post the rematch lobby of game %s: %s", game_id, exc)
                await self.service.cancel(game.id, game.host_id)
                raise Refusal(f"I couldn't post the rematch lobby in <#{game.channel_id}>.") from None
            await self.service.storage.set_table_message(game.id, message.id, self.delivery.now)
            await self.service.storage.set_lobby_message(game.id, message.id)
            game.table_message_id = game.lobby_message_id = message.id
            await respond(interaction, ephemeral=True, content=(
                f"🔁 The rematch is open: {message.jump_url}. Everyone from game #{opened.of.id} is seated "
                "again; press **Start** there when you're ready."))
        if opened is not None:
            await self.check_dms(opened.game)

    async def check_dms(self, game: GameRecord) -> None:
        """Each person seated again is told by DM, as Join tells a joiner; whether it arrived
        is stored against the user (a seat number could change as people leave meanwhile)."""
        ui = ui_for(game.kind)
        if type(ui).private is GameUI.private:
            return  # no private view: nothing will ever be sent by DM
        engine = get_engine(game.kind)
        for seat in [s for s in game.seats if not s.computer]:
            try:
                user = self.delivery.host.get_user(seat.user_id) or await self.delivery.host.fetch_user(seat.user_id)
                dm = await user.create_dm()
                await dm.send(f"🔁 You're seated in the rematch of **{engine.title}** (game #{game.id}). "
                              f"Your private {ui.private_noun} will arrive here once the game starts; "
                              "press **Leave** on the lobby if you're out.")
                await record_delivery(self.service, game, seat.user_id, dm_ok=True, dm_channel_id=dm.id)
            except discord.Forbidden:
                await record_delivery(self.service, game, seat.user_id, dm_ok=False)
            except discord.HTTPException as exc:  # a hiccup: delivery tries again at the start
                log.warning("DM check of the rematch %s failed: %s", game.id, exc)
