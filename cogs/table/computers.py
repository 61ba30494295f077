"""Computer players at the table: adding and removing them in a lobby, and the host's choice
after a leaver's seat was handed to a computer, or when the game found a player away.

The runtime does the work (`TableService.add_computer`, `remove_computer`, `leave`,
`end_for_leaver`) and owns the rules of computer seats (`runtime.computers`: names, who is
one); this module is their Discord face. Its components are drawn in `components.py` with
`rp:c:` ids (`codec`), and the edge hands their routes here, so they work after a restart
like every other button of ours.
"""

from __future__ import annotations

import logging

import discord

from cogs.table import codec
from cogs.table.answers import Answers
from cogs.table.components import (
    NAME_FIELD,
    computer_name_modal,
    hand_to_computer_view,
    keep_or_end_view,
    sent,
    text_inputs,
)
from cogs.table.delivery import Delivery
from cogs.table.intake import pressed_at
from cogs.table.lobby import Lobby
from cogs.table.mentions import neutral
from games.registry import get_engine
from runtime.computers import humans, is_computer, offers_computers, shown_name
from runtime.errors import NotAllowed, Refusal
from runtime.service import Applied, Left, TableService
from storage import GameRecord, Status

log = logging.getLogger(__name__)

NO_LONGER_VALID = "That button is no longer valid."


def typed_name(interaction: discord.Interaction) -> str | None:
    """The name field of a submitted modal (None: left empty or missing)."""
    components = sent(interaction).get("components")
    found = dict(text_inputs(components if isinstance(components, list) else []))
    return found.get(NAME_FIELD)


# ----- the handler ---------------------------------------------------------------------------------
class ComputerSeats:
    """Presses and submissions of the computer components, and the offers to the host."""

    def __init__(self, service: TableService, answers: Answers, delivery: Delivery, lobby: Lobby) -> None:
        self.service = service
        self.answers = answers
        self.delivery = delivery
        self.lobby = lobby

    async def on_component(self, interaction: discord.Interaction, route: codec.Route) -> None:
        """A press of a computer component (the edge checked it is one, on its message)."""
        async with self.answers.guard(interaction):
            if route.verb == "name":
                raise Refusal(NO_LONGER_VALID)
            if route.verb == "add":
                await self.open_name_form(interaction, route)
            elif route.verb == "rm":
                values = sent(interaction).get("values") or []
                if len(values) != 1 or not str(values[0]).isdigit():
                    raise Refusal(NO_LONGER_VALID)
                await self.lobby.remove_computer(interaction, route.game, int(values[0]), in_place=True)
            elif route.verb in ("keep", "end"):
                await self.on_offer(interaction, route)
            elif route.verb == "afk":
                await self.on_away(interaction, route)

    async def on_modal(self, interaction: discord.Interaction, route: codec.Route) -> None:
        """The name form submitted (handled from its id, so it works across restarts)."""
        async with self.answers.guard(interaction):
            if route.verb != "name":
                raise Refusal("That form is no longer valid.")
            await self.lobby.add_computer(interaction, route.game, typed_name(interaction), route.team,
                                          in_place=interaction.message is not None)

    async def not_carried(self, interaction: discord.Interaction, route: codec.Route) -> None:
        """A press of a computer component that is not on its message (forged, or an offer
        already answered and taken off)."""
        settled = route.verb in ("keep", "end", "afk")
        await self.answers.tell(interaction, "That choice was made already." if settled else NO_LONGER_VALID)

    async def open_name_form(self, interaction: discord.Interaction, route: codec.Route) -> None:
        """The host's 🤖 button: checked first (host, an open lobby, a game with a computer
        player), so nobody fills in a form only to be refused."""
        game = await self.service.game(route.game)
        if game.status is not Status.LOBBY:
            raise Refusal("This lobby is closed.")
        if interaction.user.id != game.host_id:
            raise NotAllowed("Only the host can add computer players.")
        engine = get_engine(game.kind)
        if not offers_computers(game.kind):
            raise Refusal(f"{engine.title} has no computer player.")
        label = None
        if route.team is not None:
            if not 0 <= route.team < len(engine.lobby_teams):
                raise Refusal(NO_LONGER_VALID)
            label = engine.team_name(route.team)
        await interaction.response.send_modal(computer_name_modal(game.id, route.team, label))

    # ----- after a hand-off -----------------------------------------------------------------
    async def after_leave(self, interaction: discord.Interaction, left: Left, leaver: str) -> None:
        """Show a leave: a hand-off to a computer (the table, and the offer to the host), or
        the forfeit that ended the game."""
        if not left.replaced:
            stopped = left.game.status is Status.CANCELLED
            await interaction.response.send_message(
                "You left the game; only computers were left, so it stopped without a result." if stopped
                else "You left the game; it counts as a loss.", ephemeral=True)
            if left.applied is not None:
                await self.delivery.publish(left.applied)
            return
        stand_in = left.game.seats[left.seat].name
        await interaction.response.send_message(
            f"You left the game. **{stand_in}** plays your seat now; the host decides whether it stays.",
            ephemeral=True)
        if left.applied is not None:
            await self.delivery.publish(left.applied)
        else:
            async with self.delivery.lock(left.game.id):
                await self.delivery.update_table(left.game)
        if left.offer_to is not None:
            await self.offer(left.game, left.seat, left.offer_to, leaver)

    async def offer(self, game: GameRecord, seat: int, offer_to: int, leaver: str) -> None:
        """Tell the table a computer took the leaver's seat, and ask the host (`offer_to`,
        mentioned) whether to keep it or end the game."""
        stand_in = game.seats[seat].name if seat < len(game.seats) else "a computer"
        gone = neutral(discord.utils.escape_markdown(leaver))
        text = (f"{gone} left the game: **{neutral(discord.utils.escape_markdown(stand_in))}** "
                f"took the seat and plays on.\n<@{offer_to}>, keep the computer, or end the game "
                f"({gone} forfeits)?")
        channel = self.delivery.host.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        try:
            await channel.send(text[:2000], view=keep_or_end_view(game.id, seat, offer_to),
                               allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=offer_to)]))
        except discord.HTTPException as exc:
            log.warning("could not offer the host of game %s to keep the computer: %s", game.id, exc)

    async def on_offer(self, interaction: discord.Interaction, route: codec.Route) -> None:
        assert route.seat is not None and route.user is not None
        if interaction.user.id != route.user:
            raise NotAllowed(f"Only <@{route.user}> (the host) can choose this.")
        game = await self.service.game(route.game)
        if game.status is not Status.ACTIVE:
            await interaction.response.edit_message(content=_settled(interaction, "This game is already over."),
                                                    view=None)
            return
        seat = game.seats[route.seat] if route.seat < len(game.seats) else None
        if seat is None or not is_computer(seat):
            await interaction.response.edit_message(
                content=_settled(interaction, "That seat is no longer played by a computer."), view=None)
            return
        if route.verb == "keep":
            await interaction.response.edit_message(
                content=_settled(interaction, f"✅ {interaction.user.mention} kept **{shown_name(seat)}** at the table."),
                view=None, allowed_mentions=discord.AllowedMentions.none())
            return
        applied = await self.service.end_for_leaver(route.game, interaction.user.id, route.seat,
                                                    pressed_at=pressed_at(interaction))
        async with self.answers.committed(interaction):
            await interaction.response.edit_message(
                content=_settled(interaction, f"🏁 {interaction.user.mention} ended the game."),
                view=None, allowed_mentions=discord.AllowedMentions.none())
            await self.delivery.publish(applied)
    # ----- a player the game found away -----------------------------------------------------
    async def after_step(self, applied: Applied) -> None:
        """After a published step: a player the game just found away (an "afk" event of a game
        that goes on — tarot pauses for the table's vote, Fighting Words shortens their turns)
        may be replaced by a computer; the host is offered it (never for a game that ended, a
        game without a computer player, or when the away player is the only human)."""
        game = applied.game
        if applied.outcome is not None or game.status is not Status.ACTIVE or not offers_computers(game.kind):
            return
        for event in applied.events:
            seat = event.data.get("seat") if event.type == "afk" and event.to is None else None
            if not isinstance(seat, int) or not 0 <= seat < len(game.seats):
                continue
            away = game.seats[seat]
            others = [s for s in humans(game) if s.seat != seat]
            if is_computer(away) or not others:
                continue
            host = game.host_id if game.host_id != away.user_id else others[0].user_id
            await self.offer_away(game, seat, host)

    async def offer_away(self, game: GameRecord, seat: int, host: int) -> None:
        name = neutral(discord.utils.escape_markdown(game.seats[seat].name))
        view = hand_to_computer_view(game, seat, host)
        channel = self.delivery.host.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        try:
            await channel.send(f"💤 {name} seems to be away. <@{host}>, a computer can take their seat and "
                               "play on.", view=view,
                               allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=host)]))
        except discord.HTTPException as exc:
            log.warning("could not offer a computer for an away player of game %s: %s", game.id, exc)

    async def on_away(self, interaction: discord.Interaction, route: codec.Route) -> None:
        """The host hands an away player's seat to a computer: the runtime's leave, on the away
        player's behalf (as if they had left)."""
        assert route.seat is not None and route.user is not None
        if interaction.user.id != route.user:
            raise NotAllowed(f"Only <@{route.user}> (the host) can choose this.")
        game = await self.service.game(route.game)
        seat = game.seats[route.seat] if game.status is Status.ACTIVE and route.seat < len(game.seats) else None
        if seat is None or is_computer(seat):
            said = "This game is already over." if seat is None else "A computer already plays that seat."
            await interaction.response.edit_message(content=_settled(interaction, said), view=None)
            return
        left = await self.service.leave(route.game, seat.user_id, pressed_at=pressed_at(interaction))
        async with self.answers.committed(interaction):
            stand_in = left.game.seats[left.seat].name if left.replaced else None
            line = (f"🤖 {interaction.user.mention} handed the seat to **{stand_in}**." if stand_in
                    else f"{neutral(seat.name)} forfeits.")
            await interaction.response.edit_message(content=_settled(interaction, line), view=None,
                                                    allowed_mentions=discord.AllowedMentions.none())
            if left.applied is not None:
                await self.delivery.publish(left.applied)


def _settled(interaction: discord.Interaction, line: str) -> str:
    """The offer's text with its answer below (its buttons go)."""
    before = interaction.message.content if interaction.message is not None else ""
    return f"{before}\n{line}"[:2000] if before else line

