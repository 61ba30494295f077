"""Partners conferring: a private thread per team, `/<game> confer`, and closing the threads.

A game says, per lobby options, whether its partners may talk in private (`GameUI.team_chat`).
Then, when a game whose engine reports teams starts, each team gets a private thread in the
table's parent text channel (a thread cannot hold a thread), which only its members see. When
the bot may not make one, `/<game> confer` relays the words by DM instead.
"""

from __future__ import annotations

import logging

import discord

from cogs.table.answers import Answers
from cogs.table.host import Outbox
from cogs.table.mentions import NOBODY, neutral
from cogs.table.registry import ui_for
from games.registry import AnyEngine, get_engine
from runtime.access import may_press
from runtime.computers import is_computer
from runtime.errors import Refusal
from runtime.service import TableService
from storage import GameRecord

log = logging.getLogger(__name__)

#: The most of a conferring message relayed (Discord allows 2,000; the header takes some).
CONFER_LIMIT = 1000
QUIET = NOBODY


def teams_of(game: GameRecord, engine: AnyEngine) -> tuple[tuple[int, ...], ...]:
    """The game's partnerships (empty before the start or for a game without teams)."""
    if game.state is None:
        return ()
    return engine.teams(game.state) or ()


def team_name(engine: AnyEngine, team: int) -> str:
    return engine.team_name(team) if team < len(engine.lobby_teams) else f"Team {team + 1}"


def introduction(game: GameRecord, engine: AnyEngine, team: int, teams: tuple[tuple[int, ...], ...]) -> str:
    """The thread's first line: who is in it, what it is for, and that the other team cannot
    read it (names, never pings: everyone in it was just added)."""
    members = " and ".join(f"**{discord.utils.escape_markdown(neutral(game.seats[s].name))}**" for s in teams[team])
    others = " and ".join(team_name(engine, t) for t in range(len(teams)) if t != team)
    return (f"🤝 **{team_name(engine, team)}'s private thread** for {engine.title} game #{game.id}: {members}. "
            f"Plan your play here (or with `/{game.kind} confer`): {others} cannot read this thread. "
            "It is locked when the game ends, kept to read back.")


def confers(game: GameRecord) -> bool:
    """Whether this game's partners may confer (its UI says so for its lobby options)."""
    return ui_for(game.kind).team_chat(dict(game.options))


def tidy(text: str) -> str:
    """The words as relayed: trimmed, at most CONFER_LIMIT characters, mentions defused."""
    text = neutral(text.strip())
    return text if len(text) <= CONFER_LIMIT else text[:CONFER_LIMIT - 1] + "…"


class TeamRooms:
    def __init__(self, service: TableService, answers: Answers, delivery: Outbox) -> None:
        self.service = service
        self.answers = answers
        self.delivery = delivery

    async def open(self, game: GameRecord, engine: AnyEngine) -> dict[int, int]:
        """At the start: one private thread per team, holding exactly that team's members.
        Returns team → thread id (empty when the game has no team chat, or no thread could
        be made: `/confer` then goes by DM)."""
        teams = teams_of(game, engine)
        if not teams or not confers(game):
            return {}
        parent = await self._parent(game)
        if parent is None:
            log.info("no private team threads for game %s: no permission in its channel", game.id)
            return {}
        made: dict[int, int] = {}
        for team, seats in enumerate(teams):
            name = f"{engine.title} #{game.id} · {team_name(engine, team)}"[:100]
            try:
                thread = await parent.create_thread(name=name, type=discord.ChannelType.private_thread,
                                                    invitable=False, auto_archive_duration=1440)
            except discord.HTTPException as exc:
                log.info("could not open a team thread for game %s: %s", game.id, exc)
                break
            await self.service.storage.set_team_thread(game.id, team, thread.id)
            made[team] = thread.id
            for seat in seats:
                if is_computer(game.seats[seat]):  # no Discord user to add
                    continue
                try:
                    await thread.add_user(discord.Object(id=game.user_of(seat)))
                except discord.HTTPException as exc:
                    log.info("could not add a partner to a team thread of game %s: %s", game.id, exc)
            await self._post(game, thread.id, introduction(game, engine, team, teams))
        return made

    async def _parent(self, game: GameRecord) -> discord.TextChannel | None:
        """The text channel the game was opened in, when the bot may make private threads there."""
        channel = self.delivery.host.get_channel(game.channel_id)
        if isinstance(channel, discord.Thread):
            channel = channel.parent
        if not isinstance(channel, discord.TextChannel):
            return None
        me = channel.guild.me
        if me is None or not channel.permissions_for(me).create_private_threads:
            return None
        return channel

    async def confer(self, interaction: discord.Interaction, kind: str, text: str) -> None:
        """`/<game> confer`: the words go to the team's thread when there is one, else by DM
        to each partner; either way only the caller sees the answer."""
        async with self.answers.guard(interaction):
            channel_id = interaction.channel.id if interaction.channel is not None else None
            game = await self.service.game_for(interaction.user.id, channel_id)
            engine = get_engine(kind)
            if game.kind != kind:
                raise Refusal(f"The game here is not {engine.title}.")
            seat = may_press(game, interaction.user.id)
            if not confers(game):
                raise Refusal("Partners can't confer in this game.")
            teams = teams_of(game, engine)
            team = next((i for i, seats in enumerate(teams) if seat in seats), None)
            if team is None:
                raise Refusal("You have no partner in this game.")
            words = tidy(text)
            if not words:
                raise Refusal("Say something to your partners.")
            me = neutral(game.seats[seat].name)
            where = f"{engine.title} #{game.id}"
            thread_id = (await self.service.storage.team_threads(game.id)).get(team)
            if thread_id is not None and await self._post(game, thread_id, f"**{discord.utils.escape_markdown(me)}:** {words}"):
                await interaction.response.send_message(
                    f"Your team talks in <#{thread_id}>: I posted it there. Write there directly.", ephemeral=True)
                return
            relayed = f"**{discord.utils.escape_markdown(me)}** (your partner, {where}): {words}"
            partners = [s for s in teams[team] if s != seat and not is_computer(game.seats[s])]
            if not partners:
                raise Refusal("Your partner is a computer: it reads only the table.")
            reached = {s for s in partners if await self._dm(game.user_of(s), relayed)}
            names = [neutral(game.seats[s].name) for s in partners if s in reached]
            missed = [neutral(game.seats[s].name) for s in partners if s not in reached]
            answer = f"Sent to {', '.join(names)} by DM." if names else "I could not reach your partner by DM."
            if missed and names:
                answer += f" Not delivered to {', '.join(missed)} (DMs closed)."
            await interaction.response.send_message(answer, ephemeral=True, allowed_mentions=QUIET)

    async def _post(self, game: GameRecord, thread_id: int, text: str) -> bool:
        channel = self.delivery.host.get_partial_messageable(thread_id, guild_id=game.guild_id)
        try:
            await channel.send(text[:2000], allowed_mentions=QUIET)
            return True
        except discord.HTTPException as exc:
            log.info("could not post in a team thread of game %s: %s", game.id, exc)
            return False

    async def _dm(self, user_id: int, text: str) -> bool:
        try:
            user = self.delivery.host.get_user(user_id) or await self.delivery.host.fetch_user(user_id)
            dm = await user.create_dm()
            await dm.send(text[:2000], allowed_mentions=QUIET)
            return True
        except discord.HTTPException:
            return False


async def close_team_threads(delivery: Outbox, game: GameRecord) -> None:
    """The game is over: its team threads are archived and locked (kept, to read back)."""
    for thread_id in (await delivery.service.storage.team_threads(game.id)).values():
        try:
            thread = delivery.host.get_channel(thread_id) or await delivery.host.fetch_channel(thread_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=True, locked=True)
        except discord.HTTPException as exc:
            log.info("could not close a team thread of game %s: %s", game.id, exc)
