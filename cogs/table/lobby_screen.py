"""The lobby's message: who sits where (by team in a team lobby), the options and their
warnings, Join/Leave/Start/Cancel, and the host's computer controls; and a closed lobby's.
"""

from __future__ import annotations

import discord

from cogs.table.components import BuiltView, LobbyButton, add_computer_button, remove_computer_select
from cogs.table.present import Rendered
from cogs.table.registry import UIS
from games.core import IllegalAction
from games.registry import AnyEngine
from runtime.computers import is_computer, offers_computers
from storage import GameRecord, SeatRecord


def render_lobby(game: GameRecord, engine: AnyEngine) -> Rendered:
    def line(s: SeatRecord, number: int) -> str:
        if is_computer(s):
            return f"`{number}.` {s.name}"
        return f"`{number}.` <@{s.user_id}>" + (" (host)" if s.user_id == game.host_id else "")

    head = engine.summary + "\n\n" if engine.summary else ""
    if engine.lobby_teams:
        size = engine.team_size()
        fewest = engine.team_bounds()[0]
        blocks = []
        for team in range(len(engine.lobby_teams)):
            seated = [s for s in game.seats if s.team == team]
            listed = "\n".join(line(s, n + 1) for n, s in enumerate(seated)) or "—"
            count = (f"{len(seated)}/{size}" if fewest == size
                     else f"{fewest} or {size} players" if size == fewest + 1 else f"{fewest} to {size} players")
            blocks.append(f"**{engine.team_name(team)} ({count})**\n{listed}")
        body = "\n\n".join(blocks)
    else:
        body = (f"**Players ({len(game.seats)}/{engine.max_players})**\n"
                + "\n".join(line(s, s.seat + 1) for s in game.seats))
    notes = UIS[game.kind].lobby_notes(dict(game.options)) if game.kind in UIS else []
    body += "".join(f"\n\n{note}" for note in notes)
    embed = discord.Embed(title=f"🎲 {engine.title} — new table", description=(head + body)[:4096],
                          colour=0x57F287)
    if game.options:
        embed.add_field(name="Options", value=", ".join(f"{k}: {v}" for k, v in game.options.items())[:1024],
                        inline=False)
    try:
        warnings = engine.option_warnings(engine.resolve_options(dict(game.options)))
    except IllegalAction:
        warnings = []
    if warnings:
        embed.add_field(name="⚠️ Note", value="\n".join(warnings)[:1024], inline=False)
    need = engine.player_range()
    teams = f" in {len(engine.lobby_teams)} teams" if engine.lobby_teams else ""
    embed.set_footer(text=f"game #{game.id} · needs {need} players{teams} · the host presses Start")
    view = BuiltView(timeout=None)
    joins = ([(f"join-{team}", f"Join {label}", discord.ButtonStyle.success)
              for team, label in enumerate(engine.lobby_teams)]
             or [("join", "Join", discord.ButtonStyle.success)])
    for verb, label, style in (
        *joins,
        ("leave", "Leave", discord.ButtonStyle.secondary),
        ("start", "Start", discord.ButtonStyle.primary),
        ("cancel", "Cancel", discord.ButtonStyle.danger),
    ):
        view.add_item(LobbyButton(game.id, verb, label=label[:80], style=style))
    if offers_computers(engine.name):
        add_computer_controls(view, game, engine)
    return Rendered(embed, view)


def add_computer_controls(view: discord.ui.View, game: GameRecord, engine: AnyEngine) -> None:
    """The host's computer controls, on their own row: 🤖 Add computer (one per team with
    room in a team lobby), and a "Remove a computer…" select when computers sit."""
    if engine.lobby_teams:
        size = engine.team_size()
        for team, label in enumerate(engine.lobby_teams):
            if sum(1 for s in game.seats if s.team == team) < size:
                button = add_computer_button(game.id, team, f"Add computer to {label}")
                button.item.row = 1
                view.add_item(button)
    elif len(game.seats) < engine.max_players:
        button = add_computer_button(game.id)
        button.item.row = 1
        view.add_item(button)
    remove = remove_computer_select(game)
    if remove is not None:
        remove.item.row = 2
        view.add_item(remove)


def closed_lobby(game: GameRecord, engine: AnyEngine, text: str) -> Rendered:
    embed = discord.Embed(title=f"🎲 {engine.title}", description=text, colour=0x99AAB5)
    embed.set_footer(text=f"game #{game.id}")
    return Rendered(embed, None)

