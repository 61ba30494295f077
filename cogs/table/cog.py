"""Slash commands every game shares, and the `/<game>` group built for each game.

`/<game> new` takes the engine's own options; `/<game> do` reaches every control the
player could press (autocompleted from the same screens the buttons come from), so slash
commands are an alternative to buttons, never the only way.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table import codec
from cogs.table.answers import echo, respond
from cogs.table.computers import ComputerItem, ComputerSeats, is_computer, offers_computers
from cogs.table.controls import controls_for
from cogs.table.edge import TableEdge, tables_of
from cogs.table.intake import pressed_at
from cogs.table.lobby import manages_guild
from cogs.table.options import SlashOption, from_engine_option, from_param, given_options, with_options
from cogs.table.present import embed_of, image_file, table_info
from cogs.table.registry import UIS, ui_for
from cogs.table.teams import close_team_threads
from cogs.table.ui import GameUI, Lookup, Param, Screen, Shortcut
from games.core import Engine
from games.registry import get_engine
from runtime.errors import NoGame, Refusal
from runtime.service import Left, TableService
from storage import GameRecord, Status

#: Subcommand names every game's group has already.
RESERVED = frozenset({"new", "do", "board", "join", "confer", "addbot", "removebot", "learn"})


class TableCog(commands.Cog):
    """Lobby, hands, status, leaving and ending, rules — for every game."""

    game = app_commands.Group(name="game", description="The game in this channel")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._game_groups: list[app_commands.Group] = []

    @property
    def edge(self) -> TableEdge:
        return tables_of(self.bot)

    @property
    def service(self) -> TableService:
        return self.edge.service

    async def cog_load(self) -> None:
        self.computers = ComputerSeats(self.edge)
        self.bot.add_dynamic_items(ComputerItem)
        self.edge.delivery.observers.append(self.computers.after_step)  # after each published step
        for kind in sorted(UIS):
            group = self._game_group(get_engine(kind))
            self.bot.tree.add_command(group)
            self._game_groups.append(group)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ComputerItem)
        for group in self._game_groups:
            self.bot.tree.remove_command(group.name)

    # ----- per-game groups --------------------------------------------------------------
    def _game_group(self, engine: Engine) -> app_commands.Group:
        group = app_commands.Group(name=engine.name, description=f"Play {engine.title}"[:100])
        async def new(interaction: discord.Interaction, **options: Any) -> None:
            await self.edge.lobby.open(interaction, engine.name, options)

        with_options(new, [from_engine_option(o) for o in engine.options if o.name != engine.champion_option])
        group.add_command(app_commands.Command(
            name="new", description=f"Open a {engine.title} table here ({engine.player_range()} players)"[:100],
            callback=new, parent=group,
        ))

        async def do(interaction: discord.Interaction, action: str, value: str | None = None) -> None:
            await self.edge.intake.do(interaction, engine.name, action, value)

        async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return await self.complete_action(interaction, engine.name, current)

        do_command = app_commands.Command(
            name="do", description="Take any action you could take with a button", callback=do, parent=group,
        )
        do_command._params["action"].description = "What to do (start typing to see your options)"
        do_command._params["action"].autocomplete = complete
        do_command._params["value"].description = "A number or text, for actions that need one"
        group.add_command(do_command)

        async def board(interaction: discord.Interaction) -> None:
            await self.show_table(interaction)

        group.add_command(app_commands.Command(
            name="board", description="Show the table of the game here (only to you)", callback=board, parent=group,
        ))
        if engine.lobby_teams:
            group.add_command(self._join_command(group, engine))
        if offers_computers(engine.name):
            group.add_command(self._addbot_command(group, engine))
            group.add_command(self._learn_command(group, engine))
            group.add_command(self._removebot_command(group, engine))
        if type(ui_for(engine.name)).team_chat is not GameUI.team_chat:
            group.add_command(self._confer_command(group, engine))
        for shortcut in ui_for(engine.name).shortcuts:
            group.add_command(self._shortcut_command(group, engine.name, shortcut))
        for lookup in ui_for(engine.name).lookups:
            group.add_command(self._lookup_command(group, engine.name, lookup))
        return group

    def _lookup_command(self, group: app_commands.Group, kind: str,
                        lookup: Lookup) -> app_commands.Command[Any, ..., None]:
        """`/<game> <lookup> [params]`: drawn from the public view of the game here (or, for a
        private lookup, the caller's own view), only for the caller."""
        if lookup.name in RESERVED or lookup.name in {s.name for s in ui_for(kind).shortcuts}:
            raise ValueError(f"{kind}: the lookup name {lookup.name!r} is taken")

        async def callback(interaction: discord.Interaction, **options: Any) -> None:
            async with self.edge.answers.watched(interaction), self.edge.guard(interaction):
                if lookup.private:
                    game, seat = await self.edge.intake.seated(interaction, kind)
                else:
                    game, seat = await self._game_to_show(interaction), None
                    if game.kind != kind:
                        raise Refusal(f"The game here is not {get_engine(kind).title}.")
                assert game.state is not None
                view = get_engine(kind).view(game.state, seat)
                args = (given_options(lookup.params, options),) if lookup.params else ()
                shown = lookup.show(view, table_info(game), *args)
                if isinstance(shown, Screen):
                    file = await image_file(shown)
                    embed = embed_of(shown.card)
                    if file is not None:
                        embed.set_image(url=f"attachment://{shown.image_name}")
                        await respond(interaction, embed=embed, file=file, ephemeral=True)
                        return
                    shown = shown.card
                await respond(interaction, embed=embed_of(shown), ephemeral=True)

        with_options(callback, [from_param(p) for p in lookup.params])
        command = app_commands.Command(name=lookup.name, description=lookup.description[:100],
                                       callback=callback, parent=group)
        self._autocomplete(command, kind, lookup.params)
        return command

    def _join_command(self, group: app_commands.Group, engine: Engine) -> app_commands.Command[Any, ..., None]:
        """`/<game> join team:` for a partnership lobby: the Join button of that team."""
        async def join(interaction: discord.Interaction, **options: Any) -> None:
            await self.edge.lobby.join_team(interaction, engine.name, options["team"])

        with_options(join, [SlashOption("team", str, "Which team to join (or switch to)", [
            app_commands.Choice(name=engine.team_name(i), value=label) for i, label in enumerate(engine.lobby_teams)])])
        return app_commands.Command(name="join", description="Join a team in the lobby here",
                                    callback=join, parent=group)

    def _learn_command(self, group: app_commands.Group, engine: Engine) -> app_commands.Command[Any, ..., None]:
        """`/<game> learn [options]`: a practice table against computers, with hints (cogs/table/learn.py)."""
        async def learn(interaction: discord.Interaction, **options: Any) -> None:
            await self.edge.learn.open(interaction, engine.name, options)

        with_options(learn, [from_engine_option(o) for o in engine.options if o.name != engine.champion_option])
        return app_commands.Command(
            name="learn", description=f"Practise {engine.title} against computers, with hints (not rated)"[:100],
            callback=learn, parent=group)

    def _addbot_command(self, group: app_commands.Group, engine: Engine) -> app_commands.Command[Any, ..., None]:
        """`/<game> addbot [name] [team]`: the lobby's 🤖 Add computer button, for the host."""
        async def addbot(interaction: discord.Interaction, **options: Any) -> None:
            await self.edge.lobby.add_computer_typed(interaction, engine.name, options.get("name"),
                                                     options.get("team"))

        params = [SlashOption("name", str | None, "Its name (a default one when left out)", default=None)]
        if engine.lobby_teams:
            params.append(SlashOption("team", str | None, "Which team it joins (the one with most room when left out)", [
                app_commands.Choice(name=engine.team_name(i), value=label) for i, label in enumerate(engine.lobby_teams)],
                default=None))
        with_options(addbot, params)
        return app_commands.Command(name="addbot", description="Seat a computer player in the lobby here (host)",
                                    callback=addbot, parent=group)

    def _removebot_command(self, group: app_commands.Group, engine: Engine) -> app_commands.Command[Any, ..., None]:
        """`/<game> removebot name`: the lobby's "Remove a computer…" select, for the host."""
        async def removebot(interaction: discord.Interaction, name: str) -> None:
            await self.edge.lobby.remove_computer_typed(interaction, engine.name, name)

        async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            try:
                lobby = await self.edge.lobby.lobby_here(interaction, engine.name)
            except Refusal:
                return []
            return [app_commands.Choice(name=s.name[:100], value=s.name[:100]) for s in lobby.seats
                    if is_computer(s) and str(current).lower() in s.name.lower()][:25]

        command = app_commands.Command(name="removebot", description="Take a computer player out of the lobby here",
                                       callback=removebot, parent=group)
        command._params["name"].description = "Which computer (its name)"
        command._params["name"].autocomplete = complete
        return command

    def _confer_command(self, group: app_commands.Group, engine: Engine) -> app_commands.Command[Any, ..., None]:
        """`/<game> confer text:` — a word to your partners, for games whose partners may confer."""
        async def confer(interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000]) -> None:
            await self.edge.teams.confer(interaction, engine.name, text)

        command = app_commands.Command(name="confer", description="Send a message to your partners",
                                       callback=confer, parent=group)
        command._params["text"].description = "What to tell your partners (up to 1,000 characters)"
        return command

    def _shortcut_command(self, group: app_commands.Group, kind: str,
                          shortcut: Shortcut) -> app_commands.Command[Any, ..., None]:
        """`/<game> <shortcut>`: options typed from its params, autocompleted from the
        player's own view, sent through the same action loop as a button."""
        if shortcut.name in RESERVED:
            raise ValueError(f"{kind}: the shortcut name {shortcut.name!r} is taken")

        async def callback(interaction: discord.Interaction, **options: Any) -> None:
            await self.run_shortcut(interaction, kind, shortcut, options)

        with_options(callback, [from_param(p) for p in shortcut.params])
        command = app_commands.Command(name=shortcut.name, description=shortcut.description[:100],
                                       callback=callback, parent=group)
        self._autocomplete(command, kind, shortcut.params)
        return command

    def _autocomplete(self, command: app_commands.Command[Any, ..., None], kind: str,
                      params: Sequence[Param]) -> None:
        for param in params:
            if param.suggest is not None:
                command._params[from_param(param).python_name].autocomplete = self._suggester(kind, param)

    def _suggester(self, kind: str, param: Param) -> Any:
        assert param.suggest is not None
        named = len(inspect.signature(param.suggest).parameters) >= 3  # (view, seat, info)

        async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            try:
                game, seat = await self.edge.intake.seated(interaction, kind)
            except Refusal:
                return []
            assert param.suggest is not None
            view = get_engine(kind).view(game.state, seat)
            listed = param.suggest(view, seat, table_info(game)) if named else param.suggest(view, seat)
            return [app_commands.Choice(name=label[:100], value=value[:100])
                    for label, value in listed if str(current).lower() in label.lower()][:25]

        return suggest

    async def run_shortcut(self, interaction: discord.Interaction, kind: str, shortcut: Shortcut,
                           options: dict[str, Any]) -> None:
        action: dict[str, Any] | None = None
        async with self.edge.guard(interaction):
            game, _seat = await self.edge.intake.seated(interaction, kind)
            action = shortcut.build(given_options(shortcut.params, options))
        if action is not None:
            await self.edge.intake.on_action(interaction, game.id, action, None, typed=True)

    async def complete_action(self, interaction: discord.Interaction, kind: str,
                              current: str) -> list[app_commands.Choice[str]]:
        try:
            game, seat = await self.edge.intake.seated(interaction, kind)
        except Refusal:
            return []
        choices = []
        for label, _control, action in controls_for(game, seat):
            if str(current).lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=codec.pack(action)[:100]))
        return choices[:25]

    # ----- shared commands --------------------------------------------------------------
    @app_commands.command(name="hand", description="See your private hand (only you can see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.edge.intake.show_hand(interaction, None)

    @app_commands.command(name="notify", description="Where you are told it's your turn")
    @app_commands.describe(where="thread: a mention in the game's thread · dm: a direct message · off")
    @app_commands.choices(where=[
        app_commands.Choice(name="in the game's thread", value="thread"),
        app_commands.Choice(name="by direct message", value="dm"),
        app_commands.Choice(name="off", value="off"),
        app_commands.Choice(name="automatic (DM for games with a hand, else the thread)", value="auto"),
    ])
    async def notify(self, interaction: discord.Interaction, where: str) -> None:
        async with self.edge.guard(interaction):
            if where not in ("thread", "dm", "off", "auto"):
                raise Refusal("Choose thread, dm, off or automatic.")
            await self.service.storage.set_notify(interaction.user.id, where)
            said = {"thread": "with a mention in the game's thread", "dm": "by direct message",
                    "off": "not at all (watch the table)", "auto": "by DM in games with a hand, else in the thread"}
            await interaction.response.send_message(f"Got it: you'll be told it's your turn {said[where]}.",
                                                    ephemeral=True)

    @game.command(name="status", description="Show the table of the game here")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_table(interaction)

    async def show_table(self, interaction: discord.Interaction) -> None:
        """The table here as a picture only the caller sees (no second set of controls)."""
        async with self.edge.answers.watched(interaction), self.edge.guard(interaction):
            game = await self._game_to_show(interaction)
            rendered = await self.edge.delivery.draw_table(game)
            if game.status is not Status.ACTIVE:
                rendered.embed.description = (await self.ended_line(game) + "\n\n"
                                              + (rendered.embed.description or ""))[:4096]
            kwargs = rendered.send_kwargs()
            kwargs.pop("view", None)  # a status card is a picture, not a second control panel
            await respond(interaction, ephemeral=True, **kwargs)

    async def _game_to_show(self, interaction: discord.Interaction) -> GameRecord:
        """The caller's game here; right after the end, the last game here (with its result)."""
        try:
            game = await self.service.game_for(interaction.user.id, _channel_id(interaction))
        except NoGame:
            last = await self.service.storage.last_game_in(_channel_id(interaction) or 0)
            if last is None:
                raise
            game = last
        if game.status is Status.LOBBY or game.state is None:
            raise Refusal("That game is still in its lobby.")
        return game

    async def ended_line(self, game: GameRecord) -> str:
        """"Game over: …" with the reason in the game's own words, for a finished table."""
        if game.status is Status.CANCELLED:
            return "**This game was ended without a result.**"
        engine = get_engine(game.kind)
        assert game.state is not None
        outcome = engine.outcome(game.state)
        if outcome is None:
            return "**This game is over.**"
        return f"**Game over.** {ui_for(game.kind).result_reason(outcome.to_json(), table_info(game))}"

    @game.command(name="replay", description="Replay a finished game of this server step by step (only you see it)")
    @app_commands.rename(game_id="id")
    @app_commands.describe(game_id="The game's number (on its table); empty: this server's latest finished game")
    async def replay(self, interaction: discord.Interaction, game_id: str | None = None) -> None:
        await self.edge.replays.open(interaction, game_id)

    @game.command(name="leave", description="Leave your game here (a computer may take your seat)")
    async def leave(self, interaction: discord.Interaction) -> None:
        edge = self.edge
        left: Left | None = None
        async with edge.guard(interaction):
            game = await self.service.game_for(interaction.user.id, _channel_id(interaction))
            at = pressed_at(interaction)
            if game.status is Status.LOBBY:
                lobby = await self.service.leave_lobby(game.id, interaction.user.id, pressed_at=at)
                await interaction.response.send_message("You left the lobby.", ephemeral=True)
                await edge.lobby.redraw(lobby)
                return
            leaver = game.seats[game.seat_of(interaction.user.id) or 0].name
            left = await self.service.leave(game.id, interaction.user.id, pressed_at=at)
        if left is None:
            return
        async with edge.committed(interaction):
            await self.computers.after_leave(interaction, left, leaver)

    @game.command(name="end", description="End a stuck game without a result (host or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        edge = self.edge
        async with edge.guard(interaction):
            game = await self.service.game_here(_channel_id(interaction) or 0)
            ended = await self.service.end(game.id, interaction.user.id, manager=manages_guild(interaction),
                                           pressed_at=pressed_at(interaction))
            await interaction.response.send_message(
                f"{interaction.user.mention} ended game #{ended.id}. No result was recorded.")
            await edge.delivery.pings.game_over(ended.id, ended)
            if ended.table_message_id and ended.state is not None:
                await edge.delivery.show_stopped(ended)
            await close_team_threads(edge.delivery, ended)

    @app_commands.command(name="rules", description="How to play one of the games")
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        async with self.edge.guard(interaction):
            if game not in UIS:
                raise Refusal(f"There is no game called “{echo(game)}”. Try: {', '.join(sorted(UIS))}.")
            engine, ui = get_engine(game), ui_for(game)
            embed = discord.Embed(title=f"📜 {engine.title}", colour=ui.colour,
                                  description=(ui.rules or engine.summary)[:4096])
            embed.set_footer(text=f"{engine.player_range()} players · start with /{game} new")
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @rules.autocomplete("game")
    async def _rules_games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=get_engine(k).title, value=k)
                for k in sorted(UIS) if str(current).lower() in k][:25]

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.edge.on_interaction(interaction)
        await self.computers.on_interaction(interaction)


def _channel_id(interaction: discord.Interaction) -> int | None:
    return interaction.channel.id if interaction.channel is not None else None
