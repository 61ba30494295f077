"""Answering in time (cogs/table/deferral.py): an action not answered within PATIENCE of its
press is deferred, counting the time it waited before its handler ran; while the bot catches
up after a start it is deferred sooner; a deferral never crosses a response already on its
way; a late answer then follows up or edits the original. Checked against a stand-in for
discord.py's interaction that, like discord.py, marks a response done only once its call to
Discord returns."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from cogs.table import deferral
from cogs.table.answers import Answers, redraw_in_place, respond, send
from cogs.table.deferral import PATIENCE, STARTING_PATIENCE, watched

#: Seconds a stand-in call to Discord takes.
CALL = 0.05


class Response:
    """discord.py's InteractionResponse as far as answers use it: refused once done, and done
    only when the call returns."""

    def __init__(self, interaction: Interaction, took: float) -> None:
        self.interaction = interaction
        self.took = took
        self.calls: list[tuple[str, float]] = []  # (what, seconds after the press it started)
        self._done = False

    def is_done(self) -> bool:
        return self._done

    async def _call(self, what: str) -> None:
        if self._done:
            raise discord.InteractionResponded(self.interaction)  # type: ignore[arg-type]
        self.calls.append((what, time.monotonic() - self.interaction.pressed))
        await asyncio.sleep(self.took)
        self._done = True

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        await self._call("defer thinking" if thinking else "defer")

    async def edit_message(self, **kwargs: Any) -> None:
        await self._call("edit")

    async def send_message(self, *args: Any, **kwargs: Any) -> None:
        await self._call("send")


class Followup:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> Any:
        self.sent.append(kwargs)
        return type("Sent", (), {"id": 99, "attachments": []})()


class Interaction:
    """An interaction pressed `age` seconds ago, on a message unless `command`."""

    def __init__(self, *, age: float = 0.0, command: bool = False, took: float = CALL) -> None:
        self.id = 1
        self.extras: dict[str, Any] = {}
        self.message = None if command else object()
        self.created_at = datetime.fromtimestamp(time.time() - age, UTC)
        self.pressed = time.monotonic() - age
        self.response = Response(self, took)
        self.followup = Followup()
        self.edits: list[dict[str, Any]] = []

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.edits.append(kwargs)


async def test_an_answer_in_time_costs_no_deferral() -> None:
    interaction = Interaction()
    async with watched(interaction):  # type: ignore[arg-type]
        await send(interaction, "Done.")  # type: ignore[arg-type]
    await asyncio.sleep(PATIENCE + 0.2)
    assert [what for what, _ in interaction.response.calls] == ["send"]


async def test_a_watch_answered_in_time_makes_no_task() -> None:
    """Every press is watched and almost every one answered in time: its watch is a timer, and
    a task (a coroutine, its scheduling, its cancellation) is made only for a deferral."""
    interaction = Interaction()
    before = len(asyncio.all_tasks())
    async with watched(interaction) as watch:  # type: ignore[arg-type]
        assert len(asyncio.all_tasks()) == before
        await send(interaction, "Done.")  # type: ignore[arg-type]
    assert watch.task is None and len(asyncio.all_tasks()) == before
    late = Interaction(age=PATIENCE - 0.1)
    async with watched(late) as watch:  # type: ignore[arg-type]
        await asyncio.sleep(0.3)
        assert watch.task is not None and watch.deferred


async def test_a_late_answer_is_deferred_at_patience_then_follows_up() -> None:
    interaction = Interaction(age=PATIENCE - 0.2)  # 0.2 s of patience left
    async with watched(interaction):  # type: ignore[arg-type]
        await asyncio.sleep(0.5)  # a slow step
        await send(interaction, "You played the 7 of Cups.", ephemeral=True)  # type: ignore[arg-type]
    [(what, at)] = interaction.response.calls
    assert what == "defer" and PATIENCE - 0.05 <= at < PATIENCE + 0.2
    assert [sent["content"] for sent in interaction.followup.sent] == ["You played the 7 of Cups."]


async def test_a_command_is_deferred_as_thinking_and_the_answer_replaces_it() -> None:
    interaction = Interaction(age=PATIENCE, command=True)
    async with watched(interaction):  # type: ignore[arg-type]
        await asyncio.sleep(0.1)
        await send(interaction, "Done.")  # type: ignore[arg-type]
    assert [what for what, _ in interaction.response.calls] == ["defer thinking"]
    assert len(interaction.followup.sent) == 1


async def test_time_spent_queued_before_the_handler_counts() -> None:
    """A press that waited 2 s before its handler ran (a busy event loop) is deferred at once."""
    interaction = Interaction(age=2.0)
    async with watched(interaction):  # type: ignore[arg-type]
        await asyncio.sleep(0.1)
        [(what, at)] = interaction.response.calls
        assert what == "defer" and at < 2.1
        await redraw_in_place(interaction, content="the hand")  # type: ignore[arg-type]
    assert interaction.edits == [{"content": "the hand"}]


@pytest.mark.parametrize("age", [-30.0, 3600.0], ids=["ahead", "behind"])
async def test_a_clock_that_disagrees_with_discords_counts_from_receipt(age: float) -> None:
    """A press time minutes off this machine's clock (or a test's manual one) is not taken
    for a press queued that long: the patience counts from when the handler saw it."""
    interaction = Interaction(age=age)
    interaction.pressed = time.monotonic()
    async with watched(interaction):  # type: ignore[arg-type]
        await asyncio.sleep(PATIENCE - 0.3)
        assert interaction.response.calls == []
        await asyncio.sleep(0.5)
        assert [what for what, _ in interaction.response.calls] == ["defer"]


@pytest.mark.parametrize("hurry", [False, True], ids=["running", "catching up"])
async def test_while_the_bot_catches_up_a_late_answer_is_deferred_sooner(hurry: bool) -> None:
    """While the start-up redraws tables the machine is busiest: a late answer is deferred
    after STARTING_PATIENCE, leaving the deferral time to get through; a quick one still
    costs nothing."""
    answers = Answers(lambda game_id: asyncio.sleep(0, None))
    answers.hurry = hurry
    quick, late = Interaction(), Interaction()
    async with answers.watched(quick):  # type: ignore[arg-type]
        await redraw_in_place(quick, content="the table")  # type: ignore[arg-type]
    async with answers.watched(late):  # type: ignore[arg-type]
        await asyncio.sleep(STARTING_PATIENCE + 0.2)
        assert [what for what, _ in late.response.calls] == (["defer"] if hurry else [])
        await redraw_in_place(late, content="the table")  # type: ignore[arg-type]
    assert [what for what, _ in quick.response.calls] == ["edit"]
    if hurry:
        _, at = late.response.calls[0]
        assert STARTING_PATIENCE - 0.05 <= at < STARTING_PATIENCE + 0.15
        assert late.edits == [{"content": "the table"}]
    else:
        assert [what for what, _ in late.response.calls] == ["edit"] and late.edits == []


@pytest.mark.parametrize("answer", ["redraw", "send"])
async def test_a_deferral_never_crosses_an_answer_on_its_way(answer: str) -> None:
    """The answer's call to Discord is still running when the patience runs out: the deferral
    waits for it, finds the interaction answered and sends nothing (a second response would be
    refused, and the answer lost)."""
    interaction = Interaction(age=PATIENCE - 0.1, took=0.5)
    async with watched(interaction):  # type: ignore[arg-type]
        if answer == "redraw":
            await redraw_in_place(interaction, content="the hand")  # type: ignore[arg-type]
        else:
            await respond(interaction, content="Done.")  # type: ignore[arg-type]
        await asyncio.sleep(0.3)
    assert [what for what, _ in interaction.response.calls] == ["edit" if answer == "redraw" else "send"]


async def test_a_nested_watch_is_the_outer_one() -> None:
    interaction = Interaction()
    async with watched(interaction) as outer, watched(interaction) as inner:  # type: ignore[arg-type]
        assert inner is outer and interaction.extras[deferral.WATCH] is outer
