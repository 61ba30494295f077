"""The `/<game>` group built for each game: `new`, `do` (any control the player could press,
autocompleted from the same screens the buttons come from), `board`, the lobby's `join`,
`addbot`, `removebot` and `learn`, partners' `confer`, and the game's own shortcuts and lookups.

Slash commands are an alternative to buttons, never the only way: each ends in the same
lobby, intake or action loop a press reaches.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeAlias

import discord
from discord import app_commands

from cogs.table import codec
from cogs.table.answers import respond
from cogs.table.controls import controls_for
from cogs.table.edge import TableEdge
from cogs.table.options import SlashOption, from_engine_option, from_param, given_options, with_options
from cogs.table.present import embed_of, image_file, table_info
from cogs.table.registry import ui_for
from cogs.table.ui import GameUI, Lookup, Param, Screen, Shortcut
from games.registry import AnyEngine, get_engine
from runtime.computers import is_computer, offers_computers
from runtime.errors import Refusal
from storage import GameRecord

#: Subcommand names every game's group has already.
RESERVED = frozenset({"new", "do", "board", "join", "confer", "addbot", "removebot", "learn"})
#: A `/<game> …` subcommand (its callback's options vary: typed by discord.py from the signature).
Subcommand: TypeAlias = app_commands.Command[Any, ..., None]


class GameGroups:
    """Builds each game's `/<game>` group. Its collaborators are passed in: the edge (looked
    up when a command runs, as the bot makes it after its cogs load), the `/game status`
    answer `board` repeats, and how the game shown to a caller is found."""

    def __init__(self, edge: Callable[[], TableEdge],
                 show_table: Callable[[discord.Interaction], Awaitable[None]],
                 game_to_show: Callable[[discord.Interaction], Awaitable[GameRecord]]) -> None:
        self._edge = edge
        self.show_table = show_table
        self._game_to_show = game_to_show

    @property
    def edge(self) -> TableEdge:
        return self._edge()

    def group(self, engine: AnyEngine) -> app_commands.Group:
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

        do_command: Subcommand = app_commands.Command(
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
                        lookup: Lookup) -> Subcommand:
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
        command: Subcommand = app_commands.Command(
            name=lookup.name, description=lookup.description[:100],
            callback=callback, parent=group)
        self._autocomplete(command, kind, lookup.params)
        return command

    def _join_command(self, group: app_commands.Group, engine: AnyEngine) -> Subcommand:
        """`/<game> join team:` for a partnership lobby: the Join button of that team."""
        async def join(interaction: discord.Interaction, **options: Any) -> None:
            await self.edge.lobby.join_team(interaction, engine.name, options["team"])

        with_options(join, [SlashOption("team", str, "Which team to join (or switch to)", [
            app_commands.Choice(name=engine.team_name(i), value=label) for i, label in enumerate(engine.lobby_teams)])])
        return app_commands.Command(name="join", description="Join a team in the lobby here",
                                    callback=join, parent=group)

    def _learn_command(self, group: app_commands.Group, engine: AnyEngine) -> Subcommand:
        """`/<game> learn [options]`: a practice table against computers, with hints (cogs/table/learn.py)."""
        async def learn(interaction: discord.Interaction, **options: Any) -> None:
            await self.edge.learn.open(interaction, engine.name, options)

        with_options(learn, [from_engine_option(o) for o in engine.options if o.name != engine.champion_option])
        return app_commands.Command(
            name="learn", description=f"Practise {engine.title} against computers, with hints (not rated)"[:100],
            callback=learn, parent=group)

    def _addbot_command(self, group: app_commands.Group, engine: AnyEngine) -> Subcommand:
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

    def _removebot_command(self, group: app_commands.Group, engine: AnyEngine) -> Subcommand:
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

        command: Subcommand = app_commands.Command(
            name="removebot", description="Take a computer player out of the lobby here",
            callback=removebot, parent=group)
        command._params["name"].description = "Which computer (its name)"
        command._params["name"].autocomplete = complete
        return command

    def _confer_command(self, group: app_commands.Group, engine: AnyEngine) -> Subcommand:
        """`/<game> confer text:` — a word to your partners, for games whose partners may confer."""
        async def confer(interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000]) -> None:
            await self.edge.teams.confer(interaction, engine.name, text)

        command: Subcommand = app_commands.Command(
            name="confer", description="Send a message to your partners",
            callback=confer, parent=group)
        command._params["text"].description = "What to tell your partners (up to 1,000 characters)"
        return command

    def _shortcut_command(self, group: app_commands.Group, kind: str,
                          shortcut: Shortcut) -> Subcommand:
        """`/<game> <shortcut>`: options typed from its params, autocompleted from the
        player's own view, sent through the same action loop as a button."""
        if shortcut.name in RESERVED:
            raise ValueError(f"{kind}: the shortcut name {shortcut.name!r} is taken")

        async def callback(interaction: discord.Interaction, **options: Any) -> None:
            await self.run_shortcut(interaction, kind, shortcut, options)

        with_options(callback, [from_param(p) for p in shortcut.params])
        command: Subcommand = app_commands.Command(
            name=shortcut.name, description=shortcut.description[:100],
            callback=callback, parent=group)
        self._autocomplete(command, kind, shortcut.params)
        return command

    def _autocomplete(self, command: Subcommand, kind: str,
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
            if game.state is None:  # a running game always has one; a suggestion never raises
                return []
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
