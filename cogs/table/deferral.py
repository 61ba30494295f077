"""Answering in time: Discord fails an interaction it has no answer to within 3 s of the press
("This interaction failed"), and the action loop answers only after its commit, often with
a picture. Whatever makes a step slow — the bot still catching up after a start (tables
redrawn, pictures drawn cold, deadlines resumed, a database connecting), a game's lock held
by a slow step, a busy database or machine — must not cost the player the press.

So an action is watched from the moment it was pressed (the interaction's own time): when
nothing has answered it PATIENCE seconds later (STARTING_PATIENCE while the bot catches up
after a start, when the machine is busiest and the deferral itself may be slow), it is
acknowledged with a deferral, and the answer then edits the original response or follows up
(`answers.respond`, `answers.redraw_in_place`). Most answers go out well inside either and
cost no extra call.

A deferral and a first answer never cross: both take the interaction's answering lock around
"answered already? else respond", so a response in flight is never doubled (Discord refuses
the second with 40060, and the player's answer would be the one lost).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import discord

from cogs.table.pressed import has_message

log = logging.getLogger(__name__)

#: Seconds after the press an action may go unanswered before it is deferred: Discord allows
#: 3, and the deferral itself is a call to Discord that a busy machine can make slow.
PATIENCE = 1.5
#: The same while the start-up redraws tables (its answers wait behind those redraws).
STARTING_PATIENCE = 0.5
#: Discord's window for the first response, in seconds.
WINDOW = 3.0
#: Where an interaction carries its watch (discord.py's `Interaction.extras`).
WATCH = "rumpus.watch"


class Watch:
    """Defers one interaction after `delay` seconds unless it was answered by then. A pressed
    message stays as it is until the answer edits it; a command or a form without one (or,
    with `thinking`, any press) shows "thinking…", which the answer replaces."""

    def __init__(self, interaction: discord.Interaction, delay: float, *, thinking: bool | None = None) -> None:
        self.interaction = interaction
        self.thinking = not has_message(interaction) if thinking is None else thinking
        #: Held around every first response of this interaction, the deferral's included.
        self.lock = asyncio.Lock()
        self.deferred = False
        #: The deferral's task, made only when it fires (most presses are answered first: a
        #: timer costs them far less than a task of their own would). Once made, it runs to its
        #: end (never cut mid-call).
        self.task: asyncio.Task[None] | None = None
        self._timer = asyncio.get_running_loop().call_later(max(delay, 0.0), self._fire)

    def _fire(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.defer(), name=f"defer-{self.interaction.id}")

    async def defer(self) -> None:
        interaction = self.interaction
        async with self.lock:
            if interaction.response.is_done():
                return
            try:
                await interaction.response.defer(ephemeral=True, thinking=self.thinking)
                self.deferred = True
            except discord.InteractionResponded:
                pass
            except discord.HTTPException as exc:
                log.warning("could not defer interaction %s: %s", interaction.id, exc)

    def stop(self) -> None:
        self._timer.cancel()  # nothing once it fired: the deferral under way goes on


def patience_left(interaction: discord.Interaction, now: float, patience: float = PATIENCE) -> float:
    """Seconds of `patience` left, counted from the press (the interaction's snowflake time),
    so time the press spent queued before its handler ran counts too. An age outside
    Discord's window means the clocks disagree (or nothing can help any more): then it
    counts from now."""
    age = now - interaction.created_at.timestamp()
    if not 0.0 <= age < WINDOW:
        age = 0.0
    return max(patience - age, 0.0)


@contextlib.asynccontextmanager
async def watched(interaction: discord.Interaction, *, patience: float = PATIENCE,
                  thinking: bool | None = None) -> AsyncIterator[Watch]:
    """Watch `interaction` while the body handles it (nested uses share the outer watch)."""
    outer = interaction.extras.get(WATCH)
    if isinstance(outer, Watch):
        yield outer
        return
    watch = Watch(interaction, patience_left(interaction, time.time(), patience), thinking=thinking)
    interaction.extras[WATCH] = watch
    try:
        yield watch
    finally:
        watch.stop()
        if watch.task is None:  # no deferral can come now: the interaction and its watch part
            del interaction.extras[WATCH]  # (they pointed at each other: a cycle for the collector)


def answering(interaction: discord.Interaction) -> Any:
    """`async with answering(interaction):` around a first response: the interaction's
    answering lock when it is watched (nothing to wait for otherwise)."""
    watch = interaction.extras.get(WATCH)
    return watch.lock if isinstance(watch, Watch) else contextlib.nullcontext()
