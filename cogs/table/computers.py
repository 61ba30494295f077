"""Computer players at the table: adding and removing them in a lobby, and the host's choice
after a leaver's seat was handed to a computer.

The runtime does the work (`TableService.add_computer`, `remove_computer`, `leave`,
`end_for_leaver`); this module is their Discord face. Its components carry everything in their
custom_id under a prefix of their own, `rb:`, caught by one dynamic item the TableCog registers,
so they work after a restart like every other button of ours:

    rb:add:<game>[:<team>]          🤖 Add computer (in a team lobby, one button per team)
    rb:name:<game>[:<team>]         the modal asking its name (optional)
    rb:rm:<game>                    the select of the lobby's computers; values are seat numbers
    rb:keep:<game>:<seat>:<user>    after a hand-off, to <user> only: keep the computer …
    rb:end:<game>:<seat>:<user>     … or end the game (the leaver forfeits)
    rb:afk:<game>:<seat>:<user>     a player the game found away ("afk" event): <user>, the host,
                                    may hand that seat to a computer instead of waiting or voting
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from cogs.table.mentions import neutral
from games.registry import get_policy
from runtime.errors import NotAllowed, Refusal
from runtime.service import Left
from storage import GameRecord, SeatRecord, Status

if TYPE_CHECKING:
    from cogs.table.edge import TableEdge

log = logging.getLogger(__name__)

PREFIX = "rb:"
ROBOT = "🤖"
#: Characters a computer's name may hold: letters, digits, spaces and a few marks (no mentions,
#: no markdown, no links), and how long it may be (the runtime adds "🤖 ").
NAME_LIMIT = 24
_NAME_JUNK = re.compile(r"[^\w '\-.]", re.UNICODE)
_N = r"[0-9]{1,18}"
_IDS = {
    "add": re.compile(rf"rb:add:(?P<game>{_N})(?::(?P<team>[0-9]))?"),
    "name": re.compile(rf"rb:name:(?P<game>{_N})(?::(?P<team>[0-9]))?"),
    "rm": re.compile(rf"rb:rm:(?P<game>{_N})"),
    "keep": re.compile(rf"rb:keep:(?P<game>{_N}):(?P<seat>[0-9]{{1,2}}):(?P<user>[0-9]{{1,20}})"),
    "afk": re.compile(rf"rb:afk:(?P<game>{_N}):(?P<seat>[0-9]{{1,2}}):(?P<user>[0-9]{{1,20}})"),
    "end": re.compile(rf"rb:end:(?P<game>{_N}):(?P<seat>[0-9]{{1,2}}):(?P<user>[0-9]{{1,20}})"),
}
NAME_FIELD = "name"
NO_LONGER_VALID = "That button is no longer valid."


def is_computer(seat: SeatRecord) -> bool:
    """Whether a computer plays this seat (its synthetic user id is negative)."""
    return bool(getattr(seat, "computer", False)) or seat.user_id < 0


def humans(game: GameRecord) -> list[SeatRecord]:
    return [s for s in game.seats if not is_computer(s)]


def offers_computers(kind: str) -> bool:
    """Whether a game has a computer player (its `games/<game>/ai.py`)."""
    try:
        return get_policy(kind) is not None
    except Exception:  # a broken policy module must not break the lobby
        log.exception("could not load the computer player of %s", kind)
        return False


def clean_name(typed: str | None) -> str | None:
    """The name the host typed, fit to show: one line, no mentions or markdown, at most
    NAME_LIMIT characters; None for nothing typed. A name with nothing left is refused."""
    if typed is None or not typed.strip():
        return None
    words = " ".join(_NAME_JUNK.sub("", typed).split())
    words = words.removeprefix(ROBOT).strip()
    if not words or not any(c.isalnum() for c in words):
        raise Refusal(f"Give the computer a name of letters or digits (up to {NAME_LIMIT}), or leave it empty.")
    if len(words) > NAME_LIMIT:
        raise Refusal(f"A computer's name is at most {NAME_LIMIT} characters.")
    return words


def shown_name(seat: SeatRecord) -> str:
    """A computer seat's name as stored ("🤖 Ada"); older records without the robot get it."""
    return seat.name if seat.name.startswith(ROBOT) else f"{ROBOT} {seat.name}"


# ----- custom ids ----------------------------------------------------------------------------
def add_id(game: int, team: int | None = None) -> str:
    return f"rb:add:{game}" + (f":{team}" if team is not None else "")


def name_id(game: int, team: int | None = None) -> str:
    return f"rb:name:{game}" + (f":{team}" if team is not None else "")


def remove_id(game: int) -> str:
    return f"rb:rm:{game}"


def offer_id(verb: str, game: int, seat: int, user: int) -> str:
    return f"rb:{verb}:{game}:{seat}:{user}"


@dataclass(frozen=True)
class ComputerRoute:
    verb: str
    game: int
    team: int | None = None
    seat: int | None = None
    user: int | None = None


def parse(custom_id: str) -> ComputerRoute | None:
    for verb, pattern in _IDS.items():
        match = pattern.fullmatch(custom_id)
        if match is None:
            continue
        found = match.groupdict()
        game = int(found["game"])
        if game == 0:
            return None
        return ComputerRoute(
            verb, game,
            team=int(found["team"]) if found.get("team") is not None else None,
            seat=int(found["seat"]) if found.get("seat") is not None else None,
            user=int(found["user"]) if found.get("user") is not None else None,
        )
    return None


# ----- components --------------------------------------------------------------------------------
class ComputerItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"rb:(?s:.*)"):
    """Any component of this module, as pressed (a forged or old id is answered, not dropped)."""

    def __init__(self, item: discord.ui.Item[Any], route: ComputerRoute | None = None) -> None:
        super().__init__(item)
        self.route = route

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ComputerItem:
        return ComputerItem(item, parse(match.string))

    async def callback(self, interaction: discord.Interaction) -> None:
        await seats_of(interaction.client).on_component(interaction, self.route)


def add_button(game: int, team: int | None = None, label: str = "Add computer") -> discord.ui.Item[Any]:
    return ComputerItem(discord.ui.Button(label=label[:80], emoji=ROBOT, style=discord.ButtonStyle.secondary,
                                          custom_id=add_id(game, team)))


def remove_select(game: GameRecord) -> discord.ui.Item[Any] | None:
    """"Remove a computer…": one option per computer seat of the lobby (None: no computer)."""
    options = [discord.SelectOption(label=shown_name(s)[:100], value=str(s.seat))
               for s in game.seats if is_computer(s)][:25]
    if not options:
        return None
    return ComputerItem(discord.ui.Select(custom_id=remove_id(game.id), placeholder="Remove a computer…",
                                          options=options, min_values=1, max_values=1))


def offer_view(game_id: int, seat: int, user: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ComputerItem(discord.ui.Button(label="Keep the computer", emoji=ROBOT,
                                                 style=discord.ButtonStyle.success,
                                                 custom_id=offer_id("keep", game_id, seat, user))))
    view.add_item(ComputerItem(discord.ui.Button(label="End the game", style=discord.ButtonStyle.danger,
                                                 custom_id=offer_id("end", game_id, seat, user))))
    return view


def name_modal(game: int, team: int | None, team_label: str | None) -> discord.ui.Modal:
    from cogs.table.components import FormModal  # its submission is handled in on_modal

    title = f"Add a computer to {team_label}" if team_label else "Add a computer player"
    modal = FormModal(title=title[:45], custom_id=name_id(game, team), timeout=None)
    modal.add_item(discord.ui.TextInput(label="Name (optional)", custom_id=NAME_FIELD, required=False,
                                        max_length=NAME_LIMIT, placeholder="e.g. Ada"))
    return modal


def typed_name(interaction: discord.Interaction) -> str | None:
    """The name field of a submitted modal (None: left empty or missing)."""
    from cogs.table.controls import text_inputs  # whatever the row/label nesting

    components = (interaction.data or {}).get("components")
    found = dict(text_inputs(components if isinstance(components, list) else []))
    return found.get(NAME_FIELD)


# ----- the handler ---------------------------------------------------------------------------------
class ComputerSeats:
    """Presses and submissions of the `rb:` components, and the offer after a hand-off."""

    def __init__(self, edge: TableEdge) -> None:
        self.edge = edge

    @property
    def service(self) -> Any:
        return self.edge.service

    async def on_component(self, interaction: discord.Interaction, route: ComputerRoute | None) -> None:
        async with self.edge.guard(interaction):
            if route is None or route.verb == "name":
                raise Refusal(NO_LONGER_VALID)
            if route.verb == "add":
                await self.open_name_form(interaction, route)
            elif route.verb == "rm":
                values = (interaction.data or {}).get("values") or []
                if len(values) != 1 or not str(values[0]).isdigit():
                    raise Refusal(NO_LONGER_VALID)
                await self.edge.lobby.remove_computer(interaction, route.game, int(values[0]), in_place=True)
            elif route.verb in ("keep", "end"):
                await self.on_offer(interaction, route)
            elif route.verb == "afk":
                await self.on_away(interaction, route)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction: our modals (handled here, so they work across restarts) and
        presses of our components that are not on their message (forged)."""
        from cogs.table.intake import carried_by_message

        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not custom_id.startswith(PREFIX):
            return
        if interaction.type is discord.InteractionType.modal_submit:
            async with self.edge.guard(interaction):
                route = parse(custom_id)
                if route is None or route.verb != "name":
                    raise Refusal("That form is no longer valid.")
                await self.edge.lobby.add_computer(interaction, route.game, typed_name(interaction), route.team,
                                                   in_place=interaction.message is not None)
        elif interaction.type is discord.InteractionType.component and not carried_by_message(interaction):
            route = parse(custom_id)
            settled = route is not None and route.verb in ("keep", "end", "afk")
            await self.edge.tell(interaction, "That choice was made already." if settled else NO_LONGER_VALID)

    async def open_name_form(self, interaction: discord.Interaction, route: ComputerRoute) -> None:
        """The host's 🤖 button: checked first (host, an open lobby, a game with a computer
        player), so nobody fills in a form only to be refused."""
        from games.registry import get_engine

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
        await interaction.response.send_modal(name_modal(game.id, route.team, label))

    # ----- after a hand-off -----------------------------------------------------------------
    async def after_leave(self, interaction: discord.Interaction, left: Left, leaver: str) -> None:
        """Show a leave: a hand-off to a computer (the table, and the offer to the host), or
        the forfeit that ended the game."""
        edge = self.edge
        if not left.replaced:
            stopped = left.game.status is Status.CANCELLED
            await interaction.response.send_message(
                "You left the game; only computers were left, so it stopped without a result." if stopped
                else "You left the game; it counts as a loss.", ephemeral=True)
            if left.applied is not None:
                await edge.publish(left.applied)
            return
        stand_in = left.game.seats[left.seat].name
        await interaction.response.send_message(
            f"You left the game. **{stand_in}** plays your seat now; the host decides whether it stays.",
            ephemeral=True)
        if left.applied is not None:
            await edge.publish(left.applied)
        else:
            await edge.update_table(left.game)
        if left.offer_to is not None:
            await self.offer(left.game, left.seat, left.offer_to, leaver)

    async def offer(self, game: GameRecord, seat: int, offer_to: int, leaver: str) -> None:
        """Tell the table a computer took the leaver's seat, and ask the host (`offer_to`,
        mentioned) whether to keep it or end the game."""
        stand_in = game.seats[seat].name if seat < len(game.seats) else f"{ROBOT} {leaver}'s stand-in"
        gone = neutral(discord.utils.escape_markdown(leaver))
        text = (f"{gone} left the game: **{neutral(discord.utils.escape_markdown(stand_in))}** "
                f"took the seat and plays on.\n<@{offer_to}>, keep the computer, or end the game "
                f"({gone} forfeits)?")
        channel = self.edge.delivery.host.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        try:
            await channel.send(text[:2000], view=offer_view(game.id, seat, offer_to),
                               allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=offer_to)]))
        except discord.HTTPException as exc:
            log.warning("could not offer the host of game %s to keep the computer: %s", game.id, exc)

    async def on_offer(self, interaction: discord.Interaction, route: ComputerRoute) -> None:
        from cogs.table.intake import pressed_at

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
        async with self.edge.committed(interaction):
            await interaction.response.edit_message(
                content=_settled(interaction, f"🏁 {interaction.user.mention} ended the game."),
                view=None, allowed_mentions=discord.AllowedMentions.none())
            await self.edge.publish(applied)


    # ----- a player the game found away -----------------------------------------------------
    async def after_step(self, applied: Any) -> None:
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
        view = discord.ui.View(timeout=None)
        view.add_item(ComputerItem(discord.ui.Button(label=f"Hand {game.seats[seat].name}'s seat to a computer"[:80],
                                                     emoji=ROBOT, style=discord.ButtonStyle.primary,
                                                     custom_id=offer_id("afk", game.id, seat, host))))
        channel = self.edge.delivery.host.get_partial_messageable(game.home_channel_id, guild_id=game.guild_id)
        try:
            await channel.send(f"💤 {name} seems to be away. <@{host}>, a computer can take their seat and "
                               "play on.", view=view,
                               allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=host)]))
        except discord.HTTPException as exc:
            log.warning("could not offer a computer for an away player of game %s: %s", game.id, exc)

    async def on_away(self, interaction: discord.Interaction, route: ComputerRoute) -> None:
        """The host hands an away player's seat to a computer: the runtime's leave, on the away
        player's behalf (as if they had left)."""
        from cogs.table.intake import pressed_at

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
        async with self.edge.committed(interaction):
            stand_in = left.game.seats[left.seat].name if left.replaced else None
            line = (f"🤖 {interaction.user.mention} handed the seat to **{stand_in}**." if stand_in
                    else f"{neutral(seat.name)} forfeits.")
            await interaction.response.edit_message(content=_settled(interaction, line), view=None,
                                                    allowed_mentions=discord.AllowedMentions.none())
            if left.applied is not None:
                await self.edge.publish(left.applied)


def _settled(interaction: discord.Interaction, line: str) -> str:
    """The offer's text with its answer below (its buttons go)."""
    before = interaction.message.content if interaction.message is not None else ""
    return f"{before}\n{line}"[:2000] if before else line


def seats_of(client: discord.Client) -> ComputerSeats:
    """The computer-seat handler the TableCog keeps (made in its cog_load)."""
    get_cog = getattr(client, "get_cog", None)
    cog = get_cog("TableCog") if get_cog is not None else None
    seats = getattr(cog, "computers", None)
    if not isinstance(seats, ComputerSeats):
        raise RuntimeError("this client has no TableCog with computer seats")
    return seats
