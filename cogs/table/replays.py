"""`/game replay [id]`: a finished game of this server, step by step, only for the caller.

The viewer is an ephemeral message: the table picture and the log lines at one step, with
⏮ ◀ ▶ ⏭ and, where the game has hands, rounds or bumpers, a "Jump to …" select. Each step is
rebuilt from the stored seed and actions with the pure engine (runtime/replays.py) and drawn
from the public view of that step, so it shows only what the table showed then (and, at the
end, what the game reveals).

Every button carries the game and the step it shows (`rp:v:<game>:<step>:<verb>`, `rp:j:<game>`,
cogs/table/codec.py), so a viewer opened before a restart pages on after it. Pictures are
cached by the view they are drawn from (present.IMAGES), so paging back and forth through a
long game draws each step once.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from cogs.table import codec
from cogs.table.answers import Answers, redraw_in_place, respond
from cogs.table.components import BuiltView, sent
from cogs.table.present import embed_of, fit, image_file, table_info, view_digest
from cogs.table.records import game_to_record
from cogs.table.registry import ui_for
from cogs.table.ui import TableInfo
from cogs.table.wording import for_the_table
from games.core import Event
from games.registry import get_engine
from runtime.errors import Refusal
from runtime.replays import Chapter, Replay, ReplayBroken, Replays, build
from runtime.service import TableService
from storage import GameRecord, Status

#: Where each game's chapters begin, read from its public view (a game not listed has none).
CHAPTERS: dict[str, Chapter] = {
    "tarot": lambda v: f"Hand {v['hand_no']}" if v.get("hand_no") else None,
    "fencing": lambda v: f"Bumper {v['bumper_no']}" if v.get("bumper_no") else None,
    "hallway": lambda v: f"Round {v['round']}" if v.get("round") else None,
    "kniggits": lambda v: f"Round {v['turn']['round']}" if isinstance(v.get("turn"), dict) else None,
}
#: Discord's limit of options in a select.
MAX_OPTIONS = 25
PAGES = (("first", "⏮"), ("prev", "◀"), ("next", "▶"), ("last", "⏭"))


class ReplayDesk:
    """Opens replay viewers and turns their pages."""

    def __init__(self, service: TableService, answers: Answers) -> None:
        self.service = service
        self.answers = answers
        self.replays = Replays()

    async def open(self, interaction: discord.Interaction, raw: str | None) -> None:
        """`/game replay [id]`: the viewer at the game's first step."""
        async with self.answers.watched(interaction, thinking=True), self.answers.guard(interaction):
            if interaction.guild is None:
                raise Refusal("Replays belong to a server: use `/game replay` in the server where the game "
                              "was played.")
            game = await game_to_record(self.service.storage, interaction.guild.id, raw)
            replay = await self.replay_of(game)
            await respond(interaction, ephemeral=True, **await self.frame(game, replay, 0))

    async def page(self, interaction: discord.Interaction, route: codec.Route) -> None:
        """⏮ ◀ ▶ ⏭: the step the button carries."""
        await self._show(interaction, route.game, route.step or 0)

    async def jump(self, interaction: discord.Interaction, route: codec.Route) -> None:
        """"Jump to …": the first step of the chapter picked."""
        values = sent(interaction).get("values") or []
        picked = values[0] if isinstance(values, list) and len(values) == 1 else ""
        if not (isinstance(picked, str) and picked.isascii() and picked.isdigit() and len(picked) < 10):
            async with self.answers.guard(interaction):
                raise Refusal("That is not a step of this replay.")
            return
        await self._show(interaction, route.game, int(picked))

    async def _show(self, interaction: discord.Interaction, game_id: int, step: int) -> None:
        async with self.answers.watched(interaction), self.answers.guard(interaction):
            game = await self.service.storage.game(game_id)
            guild = interaction.guild.id if interaction.guild is not None else None
            if game is None or game.guild_id != guild or game.status is not Status.FINISHED or game.state is None:
                raise Refusal("That replay is no longer available. `/game replay` opens a new one.")
            replay = await self.replay_of(game)
            await redraw_in_place(interaction, **await self.frame(game, replay, step, edit=True))

    async def replay_of(self, game: GameRecord) -> Replay:
        """The game's replay (built off the event loop once, then kept a while)."""
        kept = self.replays.get(game.id)
        if kept is not None:
            return kept
        engine = get_engine(game.kind)
        actions = await self.service.storage.actions(game.id)

        def describe(event: Event) -> str | None:
            return self.service.describe(game, event)

        try:
            replay = await asyncio.to_thread(build, engine, game, actions, describe=describe,
                                             chapter=CHAPTERS.get(game.kind))
        except ReplayBroken as exc:
            raise Refusal(f"Game #{game.id} no longer replays with the current rules ({exc}). "
                          f"Its record is still there: `/game record {game.id}`.") from None
        return self.replays.put(replay)

    async def frame(self, game: GameRecord, replay: Replay, step: int, *, edit: bool = False) -> dict[str, Any]:
        """The viewer at `step`: the public table then, its lines, and the pager."""
        step = replay.clamp(step)
        ui, engine = ui_for(game.kind), replay.engine
        state = await asyncio.to_thread(replay.state_at, step)
        view = engine.view(state, None)
        ended = step == replay.last
        info = TableInfo(game.id, table_info(game).seats, finished=ended)
        screen = ui.table(view, info)
        embed = embed_of(screen.card)
        embed.set_author(name=f"⏪ Replay of game #{game.id} · step {step} of {replay.last}")
        now: list[str] = []
        chapter = replay.steps[step].chapter
        if chapter:
            now.append(f"📍 {chapter}")
        if ended:
            outcome = engine.outcome(state)
            reason = ui.result_reason(outcome.to_json(), info) if outcome is not None else "The game is over."
            now.append(f"🏁 **Game over.** {reason}")
            now.append("✅ Replayed to the recorded end (its final state's SHA-256 matches)." if replay.matches
                       else "⚠️ This replay does not end in the stored final state.")
        else:
            for wait in engine.to_act(state):
                if wait.seat is not None:
                    now.append(f"⏳ Waiting for {info.name_of(wait.seat)} {for_the_table(wait.prompt)}")
        if now:
            embed.add_field(name="Now" if not ended else "The end", value="\n".join(now)[:1024], inline=False)
        recent = replay.recent(step)
        if recent:
            embed.add_field(name="Recent", value="\n".join(f"• {line}" for line in recent)[:1024], inline=False)
        embed.set_footer(text=f"{engine.title} · game #{game.id} · replay, only you can see this")
        file = await image_file(screen, view_digest(ui, view, info, None)) if screen.image is not None else None
        if file is not None:
            embed.set_image(url=f"attachment://{screen.image_name}")
        out: dict[str, Any] = {"embed": fit(embed), "view": pager(game.id, replay, step)}
        if edit:
            out["attachments"] = [file] if file is not None else []
        elif file is not None:
            out["file"] = file
        return out


def pager(game_id: int, replay: Replay, step: int) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭, and "Jump to …" where the game has chapters; each carries the step it shows."""
    view = BuiltView(timeout=None)
    targets = {"first": 0, "prev": step - 1, "next": step + 1, "last": replay.last}
    for verb, emoji in PAGES:
        target = replay.clamp(targets[verb])
        still = (verb in ("first", "prev") and step == 0) or (verb in ("next", "last") and step == replay.last)
        view.add_item(discord.ui.Button(emoji=emoji, style=discord.ButtonStyle.secondary, row=0, disabled=still,
                                        custom_id=codec.replay_id(game_id, target, verb)))
    chapters = replay.chapters()
    if len(chapters) > 1:
        current = max((i for i, (start, _) in enumerate(chapters) if start <= step), default=0)
        low = max(0, min(current - MAX_OPTIONS // 2, len(chapters) - MAX_OPTIONS))
        options = [discord.SelectOption(label=label[:100], value=str(start), description=f"from step {start}",
                                        default=index == current)
                   for index, (start, label) in enumerate(chapters[low:low + MAX_OPTIONS], start=low)]
        noun = chapters[0][1].split(" ")[0].lower()
        view.add_item(discord.ui.Select(custom_id=codec.jump_id(game_id), placeholder=f"Jump to a {noun}…",
                                        options=options, row=1))
    return view
