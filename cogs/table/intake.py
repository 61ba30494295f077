"""Taking actions in — buttons, selects, forms, `/<game> do`, shortcuts — and acknowledging them.

Every action is checked the same way (`runtime.access.may_press`, then the action loop), and
the player is answered only after the commit: the pressed message redrawn in place when it is
the table or their own hand, else the step's lines. Then the step is published.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord

from cogs.table import codec
from cogs.table.answers import NO_LONGER_VALID, Answers, echo, redraw_in_place, respond, send
from cogs.table.components import sent, text_inputs
from cogs.table.controls import build_modal, find_form, offered_action, read_field
from cogs.table.deferral import answering
from cogs.table.delivery import Delivery
from cogs.table.kept_pictures import kept
from cogs.table.present import Rendered, render_private
from cogs.table.pressed import Pressed, holds, menu_of, pressed
from cogs.table.registry import ui_for
from cogs.table.rules import rule_text
from games.registry import get_engine
from runtime.access import SPENT, may_press
from runtime.errors import Refusal, StaleComponent
from runtime.service import Applied, TableService
from storage import GameRecord, Status

log = logging.getLogger(__name__)

FORM_NO_LONGER_VALID = "That form is no longer valid. Open it again from the current table."
#: The note on a hand redrawn for a press from an earlier turn.
EARLIER_TURN = "⏪ That button was from an earlier turn: this is your hand as it is now."
#: The note on a hand redrawn for the same press made twice (a double click): the first counted.
ALREADY_DONE = "✅ Already done: that press counted once. This is your hand as it is now."


def pressed_at(interaction: discord.Interaction) -> float:
    """When the player pressed (the interaction's own snowflake time), for the action loop."""
    return interaction.created_at.timestamp()


def carried_by_message(interaction: discord.Interaction) -> bool:
    """Whether the pressed component is on the interaction's message: only then is the press
    acted on (`TableEdge.on_interaction`); a forged custom_id is not, and is answered as such."""
    data = sent(interaction)
    message = pressed(interaction)
    return message is not None and holds(message.components, data.get("custom_id"), data.get("component_type"))


def picked_together(interaction: discord.Interaction, key: str, values: Any) -> dict[str, Any] | None:
    """A multi-pick's action, read against the menu on the pressed message: its options give
    the order the picks are joined in, its min/max the count a real client can send."""
    message = pressed(interaction)
    menu = menu_of(message.components, sent(interaction).get("custom_id")) if message is not None else None
    if menu is None:
        return None
    listed = [o["value"] for o in menu.get("options") or () if isinstance(o, Mapping) and isinstance(o.get("value"), str)]
    return codec.gathered(values, listed, key, pick=(menu.get("min_values", 1), menu.get("max_values", 1)))


class Intake:
    def __init__(self, service: TableService, answers: Answers, delivery: Delivery) -> None:
        self.service = service
        self.answers = answers
        self.delivery = delivery

    # ----- the ways in ------------------------------------------------------------------
    async def on_action(self, interaction: discord.Interaction, game_id: int, action: dict[str, Any],
                        version: int | None, *, typed: bool = False) -> None:
        applied: Applied | None = None
        async with self.answers.watched(interaction):  # deferred if the answer is late
            async with self.answers.guard(interaction):
                try:
                    applied = await self.service.act(game_id, interaction.user.id, action, version=version,
                                                     pressed_at=pressed_at(interaction), typed=typed)
                except StaleComponent as exc:
                    note = ALREADY_DONE if exc.message == SPENT else EARLIER_TURN
                    if not await self.current_panel(interaction, game_id, note=note):
                        raise
            if applied is not None:
                await self.acknowledge(interaction, applied)

    async def on_select(self, interaction: discord.Interaction, route: codec.Route) -> None:
        values = sent(interaction).get("values") or []
        if route.gather is not None:
            action = picked_together(interaction, route.gather, values)
        else:
            action = codec.action_of(values[0]) if len(values) == 1 and isinstance(values[0], str) else None
        if action is None:
            await self.answers.tell(interaction, "That choice is no longer valid. Use the menu on the current table.")
            return
        await self.on_action(interaction, route.game, action, route.version)

    async def open_form(self, interaction: discord.Interaction, game_id: int, action: dict[str, Any],
                        version: int) -> None:
        async with self.answers.guard(interaction):
            game = await self.service.game(game_id)
            try:
                seat = may_press(game, interaction.user.id, version=version)
            except StaleComponent:
                if await self.current_panel(interaction, game_id):
                    return
                raise
            form = find_form(game, seat, action)
            if form is None:
                raise Refusal("That choice is not open to you right now.")
            await interaction.response.send_modal(build_modal(form, codec.modal_id(game.id, game.version, action)))

    async def on_modal(self, interaction: discord.Interaction) -> None:
        data = sent(interaction)
        route = codec.parse(str(data.get("custom_id", "")))
        if route is None or route.kind != "modal" or route.action is None:
            await self.answers.tell(interaction, FORM_NO_LONGER_VALID)
            return
        filled: dict[str, Any] | None = None
        async with self.answers.watched(interaction):
            async with self.answers.guard(interaction):
                game = await self.service.game(route.game)
                seat = may_press(game, interaction.user.id)
                form = find_form(game, seat, route.action)
                if form is None:
                    raise Refusal("That choice is not open to you any more.")
                components = data.get("components")
                values = dict(text_inputs(components if isinstance(components, list) else []))
                read = {field.name: read_field(field, values.get(field.name, "")) for field in form.fields}
                filled = {**route.action, **read}  # only once every field reads: one refusal, no action
            if filled is not None:
                await self.on_action(interaction, route.game, filled, route.version)

    async def do(self, interaction: discord.Interaction, kind: str, packed: str, value: str | None) -> None:
        """`/<game> do`: only an action the seat's controls offer now (a form's, with its value)."""
        game_id: int | None = None
        action: dict[str, Any] | None = None
        async with self.answers.guard(interaction):
            game, seat = await self.seated(interaction, kind)
            game_id, action = game.id, offered_action(game, seat, packed, value)
        if game_id is not None and action is not None:
            await self.on_action(interaction, game_id, action, None, typed=True)

    async def seated(self, interaction: discord.Interaction, kind: str) -> tuple[GameRecord, int]:
        """The caller's running game of `kind` here and their seat, or a refusal saying why not."""
        channel_id = interaction.channel.id if interaction.channel is not None else None
        game = await self.service.game_for(interaction.user.id, channel_id)
        if game.kind != kind:
            raise Refusal(f"The game here is not {get_engine(kind).title}.")
        return game, may_press(game, interaction.user.id)

    async def show_rule(self, interaction: discord.Interaction, game_id: int, rule: str) -> None:
        """The text of the rule a refusal cited, only to whoever asks, from the game's rules."""
        async with self.answers.guard(interaction):
            game = await self.service.game(game_id)
            text = rule_text(game.kind, rule)
            if text is None:
                raise Refusal("I can't find that rule; `/rules` has the whole game.")
            embed = discord.Embed(title=f"📖 {get_engine(game.kind).title} — rule {rule}",
                                  description=text[:4096], colour=0x5865F2)
            await interaction.response.send_message(embed=embed, ephemeral=True)

    async def show_hand(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """The ephemeral private view: the fallback when DMs are closed, and `/hand`. When late,
        deferred as "thinking…" (even for a button): the panel must be the original response,
        which later steps edit."""
        async with self.answers.watched(interaction, thinking=True), self.answers.guard(interaction):
            if game_id is None:
                channel_id = interaction.channel.id if interaction.channel else None
                game = await self.service.game_for(interaction.user.id, channel_id)
            else:
                game = await self.service.game(game_id)
            seat = may_press(game, interaction.user.id)
            applied = Applied(game, get_engine(game.kind), [], [])
            rendered = await self.delivery.draw_private(applied, seat)
            if rendered is None:
                raise Refusal("This game has no hidden hands: everything is on the table.")
            message_id, attachments = await respond(interaction, ephemeral=True, **rendered.send_kwargs())
            if message_id is not None:
                self.delivery.panels.remember(game.id, seat, interaction, message_id, rendered)
                self.delivery.pictures.remember(message_id, rendered, attachments)

    async def not_ours(self, interaction: discord.Interaction) -> None:
        """The answer to a press whose custom_id is ours but says nothing we can do."""
        custom_id = str(sent(interaction).get("custom_id", ""))
        log.info("unreadable component %r from user %s", echo(custom_id, 40), interaction.user.id)
        await self.answers.tell(interaction, NO_LONGER_VALID)

    # ----- acknowledging ----------------------------------------------------------------
    async def acknowledge(self, interaction: discord.Interaction, applied: Applied) -> None:
        """Answer the player (the commit is done), then publish, under the game's publish lock
        so an older picture never lands after a newer one. While someone else's step is being
        shown, the press's watch (`on_action`) defers it if its 3 seconds would run out."""
        game, delivery = applied.game, self.delivery
        seat = game.seat_of(interaction.user.id)
        message = pressed(interaction)
        dm_seat = (seat if seat is not None and message is not None
                   and message.id == game.seats[seat].dm_message_id else None)
        if dm_seat is not None:  # a publish before this answer leaves the DM to it (DueAnswers)
            delivery.due.expect(game.id, dm_seat)
        lock = delivery.lock(game.id)
        try:
            await lock.acquire()
            try:
                table_done, private_done = False, set[int]()
                async with self.answers.committed(interaction):
                    table_done, private_done = await self._answer(interaction, applied)
                if dm_seat is not None and delivery.due.answered(game.id, dm_seat) and dm_seat not in private_done:
                    async with self.answers.committed(interaction):  # left to an answer that did not draw it
                        await delivery.deliver_private(applied, dm_seat)
                async with self.answers.committed(interaction):
                    await self.delivery.publish_locked(applied, table_done=table_done, private_done=private_done)
            finally:
                lock.release()
        finally:
            if dm_seat is not None:
                delivery.due.answered(game.id, dm_seat)

    async def _answer(self, interaction: discord.Interaction, applied: Applied) -> tuple[bool, set[int]]:
        """The cheapest useful response: the pressed message redrawn in place when it is the
        table or the player's own hand, else the step's lines. Returns what it redrew."""
        game = applied.game
        message = pressed(interaction)
        seat = game.seat_of(interaction.user.id)
        delivery = self.delivery
        table_done = redrawn = False
        private_done: set[int] = set()
        if message is not None and message.id == game.table_message_id and delivery.fresh_table(game):
            rendered = await delivery.draw_table(game)
            _, edit = await delivery.pictures.edit(
                message.id, rendered, lambda **kw: redraw_in_place(interaction, **kw))
            delivery.remember_table(game.id, message.id, rendered)
            delivery.pictures.remember(message.id, rendered, kept(edit))
            table_done = True
        elif message is not None and seat is not None and self._is_private_message(game, seat, message):
            drawn = await delivery.draw_private(applied, seat, earlier=delivery.due.left(game.id, seat))
            if drawn is not None:
                await self._redraw_private(interaction, game, seat, message, drawn)
                redrawn = True
                if message.id == game.seats[seat].dm_message_id:
                    private_done.add(seat)  # an ephemeral's seat still gets its DM redrawn
        if not (table_done or redrawn):
            describe = self.service.describe
            lines = [line for e in applied.events if e.visible_to(seat) and (line := describe(game, e))]
            await send(interaction, "\n".join(lines) or "Done.", ephemeral=True)
        return table_done, private_done

    async def _redraw_private(self, interaction: discord.Interaction, game: GameRecord, seat: int,
                              message: Pressed, drawn: Rendered) -> None:
        """Redraw the pressed DM or ephemeral panel in place, and remember what it shows (an
        ephemeral becomes the seat's newest panel, redrawn with every later step)."""
        delivery = self.delivery
        if message.id == game.seats[seat].dm_message_id and delivery.dm_shows(game.id, seat, message.id, drawn):
            async with answering(interaction):  # the DM shows this already: acknowledged, not re-sent
                if not interaction.response.is_done():
                    await interaction.response.defer()
            return
        _, edit = await delivery.pictures.edit(message.id, drawn, lambda **kw: redraw_in_place(interaction, **kw))
        delivery.pictures.remember(message.id, drawn, kept(edit))
        if message.id == game.seats[seat].dm_message_id:
            delivery.remember_dm(game.id, seat, message.id, drawn)
        else:
            delivery.panels.remember(game.id, seat, interaction, message.id, drawn)

    async def current_panel(self, interaction: discord.Interaction, game_id: int, *,
                            note: str = EARLIER_TURN) -> bool:
        """A press from an earlier turn on the player's own hand (DM or ephemeral) is answered
        with the hand as it is now, redrawn in place with its controls; False when the press
        was elsewhere (the table), which the refusal answers."""
        message = pressed(interaction)
        if message is None:
            return False
        game = await self.service.game(game_id)
        seat = game.seat_of(interaction.user.id)
        if seat is None or game.status is not Status.ACTIVE or not self._is_private_message(game, seat, message):
            return False
        drawn = await render_private(game, get_engine(game.kind), ui_for(game.kind), seat,
                                     jump_url=self.delivery.table_url(game), notes=[note])
        if drawn is None:
            return False
        await self._redraw_private(interaction, game, seat, message, drawn)
        return True

    @staticmethod
    def _is_private_message(game: GameRecord, seat: int, message: Pressed) -> bool:
        return message.ephemeral or message.id == game.seats[seat].dm_message_id
