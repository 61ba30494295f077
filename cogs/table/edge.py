"""The table runtime's Discord edge: every interaction with a game goes through here.

A thin front over the parts, each with one job:

    lobby.py      `/<game> new`, Join / Leave / Start / Cancel, the game's thread
    rematch.py    🔁 Rematch under a result: the same seats at a new lobby
    replays.py    `/game replay`: a finished game step by step, only for the caller
    learn.py      `/<game> learn` practice tables and their 💡 Hint
    computers.py  🤖 computer players: add and remove in a lobby, the offers to the host
    teams.py      partners' private threads and `/<game> confer`
    intake.py     taking actions in (buttons, selects, forms, commands) and acknowledging them
    delivery.py   showing committed steps: the table message, DMs, the closed-DM notice, results
    answers.py    short private answers: refusals, reference codes, Discord's limits

Who may press what is answered once, in `runtime.access.may_press`. The edge knows the bot
only as a `Host` (channels and users by id), so nothing here imports bot.py. Imports in
`cogs/table` go one way, from the words and ids at the bottom to the commands at the top
(`LAYERS` in tests/runtime/test_edge_layout.py): a part is given its collaborators, never
reaches up for them.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from cogs.table import codec
from cogs.table.answers import Answers
from cogs.table.components import sent
from cogs.table.computers import ComputerSeats
from cogs.table.deferral import WATCH
from cogs.table.delivery import Delivery
from cogs.table.host import Host
from cogs.table.intake import Intake, carried_by_message
from cogs.table.learn import LearnDesk
from cogs.table.lobby import Lobby
from cogs.table.options import misfit
from cogs.table.rematch import RematchDesk
from cogs.table.replays import ReplayDesk
from cogs.table.teams import TeamRooms
from cogs.table.warmup import warm_pictures
from runtime.service import Applied, TableService
from storage import GameRecord, Status

log = logging.getLogger(__name__)


class TableEdge:
    def __init__(self, host: Host, service: TableService) -> None:
        self.service = service
        self.delivery = Delivery(host, service, service.clock)
        self.answers = Answers(self._table_now)
        self.intake = Intake(service, self.answers, self.delivery)
        self.teams = TeamRooms(service, self.answers, self.delivery)
        self.lobby = Lobby(service, self.answers, self.delivery, self.teams)
        self.rematch = RematchDesk(service, self.answers, self.delivery)
        self.replays = ReplayDesk(service, self.answers)
        self.learn = LearnDesk(service, self.answers, self.delivery)
        self.computers = ComputerSeats(service, self.answers, self.delivery, self.lobby)
        self.delivery.observe(self.computers.after_step)  # the host's offer for an away player
        self.guard = self.answers.guard
        self.committed = self.answers.committed
        self.tell = self.answers.tell
        self.publish = self.delivery.publish

    @property
    def now(self) -> float:
        return self.service.clock.now()

    async def _table_now(self, game_id: int) -> discord.Embed | None:
        game = await self.service.game(game_id)
        if game.status is not Status.ACTIVE:
            return None
        return (await self.delivery.draw_table(game, with_image=False)).embed

    # ----- routing ----------------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, route: codec.Route | None) -> None:
        """A press of one of our components, its custom_id already parsed (None: unreadable)."""
        kind = sent(interaction).get("component_type")
        if route is None or route.component_type != kind:
            await self.intake.not_ours(interaction)
        elif route.kind == "action" and route.action is not None and route.version is not None:
            # version 0: a lasting button, judged by the engine alone (never stale)
            await self.intake.on_action(interaction, route.game, route.action, route.version or None)
        elif route.kind == "select":
            await self.intake.on_select(interaction, route)
        elif route.kind == "form" and route.action is not None and route.version is not None:
            await self.intake.open_form(interaction, route.game, route.action, route.version)
        elif route.kind == "lobby" and route.verb is not None:
            await self.lobby.on_button(interaction, route.game, route.verb)
        elif route.kind == "hand":
            await self.intake.show_hand(interaction, route.game)
        elif route.kind == "rule" and route.verb is not None:
            await self.intake.show_rule(interaction, route.game, route.verb)
        elif route.kind == "rematch":
            await self.rematch.press(interaction, route.game)
        elif route.kind == "replay":
            await self.replays.page(interaction, route)
        elif route.kind == "jump":
            await self.replays.jump(interaction, route)
        elif route.kind == "hint":
            await self.learn.hint(interaction, route.game)
        elif route.kind == "computer":
            await self.computers.on_component(interaction, route)
        else:
            await self.intake.not_ours(interaction)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction whose custom_id is ours, read straight from the raw interaction (no
        view of ours is stored with discord.py, and it dispatches none of them): a press of a
        component on its message goes to `on_component`; our modals are handled here (so they
        work across restarts); a press of a component that is not on its message (forged) is
        answered, not dropped. Called once per interaction (the cog's listener), so a press is
        handled once."""
        custom_id = str(sent(interaction).get("custom_id", ""))
        if not codec.ours(custom_id):
            return
        route = codec.parse(custom_id)
        computer = route is not None and route.kind == "computer"
        try:
            if interaction.type is discord.InteractionType.modal_submit:
                if route is not None and computer:
                    await self.computers.on_modal(interaction, route)
                else:
                    await self.intake.on_modal(interaction)
            elif interaction.type is discord.InteractionType.component:
                if carried_by_message(interaction):
                    await self.on_component(interaction, route)
                elif route is not None and computer:
                    await self.computers.not_carried(interaction, route)
                else:
                    await self.intake.not_ours(interaction)
        finally:
            let_go(interaction)

    async def check_options(self, interaction: discord.Interaction) -> bool:
        """Before any slash command runs: every option is what the command declared (a whole
        number where it takes one, a user Discord resolved …); else a short answer and no run."""
        problem = misfit(interaction)
        if problem is None:
            return True
        await self.tell(interaction, problem)
        return False

    # ----- for the timers and the start-up ----------------------------------------------
    async def publish_timeout(self, applied: Applied) -> None:
        """Timers publish through here (no interaction to answer)."""
        await self.delivery.publish(applied)

    async def update_table(self, game: GameRecord) -> None:
        """Redraw a table after a change made outside the action loop (an ended game, a restart)."""
        async with self.delivery.lock(game.id):
            await self.delivery.update_table(game)

    async def warm(self) -> None:
        """Draw each game's pictures once, off the event loop (see `warmup`)."""
        took = await asyncio.to_thread(warm_pictures)
        log.info("drew each game's pictures ahead in %.2f s", sum(took.values()))

    def expect_catch_up(self) -> None:
        """Until `catch_up` has run, actions are deferred sooner (`deferral.STARTING_PATIENCE`):
        their answers wait behind the start-up's redraws, on a machine busy with them."""
        self.answers.hurry = True

    async def catch_up(self, behind: dict[int, int], graced: list[int]) -> None:
        """At start-up: redraw the tables a crash left on an older move (game id -> the version
        each shows) with the hands that changed since, then the countdowns of restart grace."""
        try:
            await self.delivery.catch_up(behind)
            for game_id in graced:
                if game_id in behind:
                    continue
                await asyncio.sleep(0)  # presses go first, between games
                try:
                    await self.update_table(await self.service.game(game_id))
                except Exception:
                    log.exception("could not show the restart grace of game %s", game_id)
        finally:
            self.answers.hurry = False

    def start(self) -> None:
        self.delivery.start()

    async def before_disconnect(self) -> None:
        """Shutdown, while Discord can still be reached: the pings on their way go out."""
        await self.delivery.pings.settle()

    async def close(self) -> None:
        await self.delivery.close()


def tables_of(client: discord.Client) -> TableEdge:
    """The table edge a bot carries as `tables` (made in its setup_hook)."""
    edge = getattr(client, "tables", None)
    if not isinstance(edge, TableEdge):
        raise RuntimeError("this client has no table edge (`client.tables`)")
    return edge


def let_go(interaction: discord.Interaction) -> None:
    """Once a press is answered, its interaction and discord.py's response object stop pointing
    at each other: the cycle kept the whole press (its message, components, user, channel: ~75
    objects) alive until the garbage collector swept it, and at 1,000 live games those sweeps
    set the slowest answers. The response keeps saying it is done; answering it again would be
    a bug (an ephemeral panel is edited later through its token, not through the response)."""
    response = getattr(interaction, "_cs_response", None)
    if response is not None and response.is_done() and WATCH not in interaction.extras:
        setattr(response, "_parent", None)  # noqa: B010 - a slot discord.py's stubs do not name
