"""`/game record [id]`: the verifiable record of a finished game of this server, as a JSON file.

The record (games/record.py) holds the seed and nonce behind the commitment the table showed
from the first move, every action with its seat and time, the outcome and the final state's
digest; `python -m games.replay FILE` checks it (docs/records.md). The record of a game that
is still being played is refused: its seed must stay secret until the end (the refusal gives
the full commitment instead). Only games of the server asked in are given.

The command joins the `/game` group of the TableCog, so this cog is set up after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Callable
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from games.record import build_record, record_bytes
from games.registry import AnyEngine, get_engine
from games.replay import RecordError, verify
from runtime.errors import Refusal
from runtime.service import TableService
from storage import GameRecord, Status, Storage

#: SQLite integers are signed 64-bit: a longer "id" is junk, not a query.
MAX_ID_DIGITS = 18


def parse_game_id(raw: str) -> int:
    """"12", "#12", " 12 " → 12; anything else is refused with a sentence."""
    text = raw.strip().removeprefix("#").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_ID_DIGITS or int(text) == 0:
        shown = raw.strip()[:40] or "(empty)"
        raise Refusal(f"“{shown}” is not a game number. Give the number shown on the table, "
                      "as in `/game record 12`, or leave it out for this server's latest finished game.")
    return int(text)


async def game_to_record(storage: Storage, guild_id: int, raw: str | None) -> GameRecord:
    """The finished game of this server that `raw` names (the latest one when None)."""
    if raw is None or not raw.strip():
        game = await storage.latest_finished_game(guild_id)
        if game is None:
            raise Refusal("No game has finished in this server yet, so there is no record to give.")
        return game
    game_id = parse_game_id(raw)
    game = await storage.game(game_id)
    if game is None:
        raise Refusal(f"There is no game #{game_id}.")
    if game.guild_id != guild_id:
        raise Refusal(f"Game #{game_id} was not played in this server; ask for its record where it was played.")
    if game.status is Status.LOBBY:
        raise Refusal(f"Game #{game_id} has not started yet. Its seed is sealed under the commitment "
                      f"`{game.commitment}`; the record comes when the game ends.")
    if game.status is Status.ACTIVE:
        raise Refusal(f"Game #{game_id} is still being played, so its seed stays secret until it ends. "
                      f"Its seed commitment (SHA-256) is `{game.commitment}`; the record, with the seed, "
                      "comes when the game ends.")
    if game.status is not Status.FINISHED or game.state is None:
        raise Refusal(f"Game #{game_id} was ended without a result, so it has no record.")
    return game


async def record_of(storage: Storage, game: GameRecord, engine: AnyEngine) -> dict[str, Any]:
    """The record of a finished game, from its stored seed, seats, action log and final state."""
    assert game.state is not None
    actions = await storage.actions(game.id)
    return build_record(
        engine, game_id=game.id, guild_id=game.guild_id, options=game.options,
        seats=[(s.seat, s.user_id, s.name) for s in game.seats], seed=game.seed, nonce=game.nonce,
        actions=[(a.seq, a.seat, a.action, a.at) for a in actions], final_state=game.state,
        created_at=game.created_at, finished_at=game.updated_at,
    )


def checked_note(record: dict[str, Any], engine: AnyEngine) -> str:
    """What the bot's own replay of the record found, in one line for the caller."""
    try:
        verdict = verify(record, engine)
    except RecordError as exc:
        return f"⚠️ I could not check this record myself: {exc}"
    if verdict.ok:
        return "✅ I replayed it with the current rules: it matches its commitment, outcome and final state."
    return f"⚠️ It does not replay with the current rules: {verdict.problems[0]}"[:1500]


class Desk(Protocol):
    """What `/game record` uses of the table edge (cogs.table.edge.TableEdge, above this module):
    its guard, which answers refusals, and the service holding the storage."""

    @property
    def service(self) -> TableService: ...

    def guard(self, interaction: discord.Interaction) -> contextlib.AbstractAsyncContextManager[None]: ...


class RecordsCog(commands.Cog):
    """`/game record`: a finished game's verifiable record."""

    def __init__(self, bot: commands.Bot, desk: Callable[[], Desk]) -> None:
        self.bot = bot
        self._desk = desk
        self.command: app_commands.Command[Any, ..., None] | None = None

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("/game record joins the /game group: set up cogs.table's TableCog first")
        self.command = record_command(self, group)
        group.add_command(self.command)

    async def cog_unload(self) -> None:
        if self.command is not None and self.command.parent is not None:
            self.command.parent.remove_command(self.command.name)

    async def send_record(self, interaction: discord.Interaction, raw: str | None) -> None:
        desk = self._desk()
        storage = desk.service.storage
        async with desk.guard(interaction):
            if interaction.guild is None:
                raise Refusal("Game records belong to a server: use `/game record` in the server "
                              "where the game was played.")
            game = await game_to_record(storage, interaction.guild.id, raw)
            engine = get_engine(game.kind)
            await interaction.response.defer(ephemeral=True, thinking=True)
            record = await record_of(storage, game, engine)
            note = await asyncio.to_thread(checked_note, record, engine)
            text = (f"The record of **{engine.title}** game #{game.id}: seed `{game.seed}`, nonce "
                    f"`{game.nonce}`, commitment `{game.commitment}`, {len(record['actions'])} actions.\n"
                    f"{note}\nCheck it yourself: `python -m games.replay rumpus-game-{game.id}.json`.")
            file = discord.File(io.BytesIO(record_bytes(record)), filename=f"rumpus-game-{game.id}.json")
            await interaction.followup.send(text[:2000], file=file, ephemeral=True)


def record_command(cog: RecordsCog, parent: app_commands.Group) -> app_commands.Command[Any, ..., None]:
    @app_commands.rename(game_id="id")
    @app_commands.describe(game_id="The game's number (on its table); empty: this server's latest finished game")
    async def record(interaction: discord.Interaction, game_id: str | None = None) -> None:
        await cog.send_record(interaction, game_id)

    return app_commands.Command(
        name="record", description="The verifiable record of a finished game (JSON: seed, moves, result)",
        callback=record, parent=parent,
    )
