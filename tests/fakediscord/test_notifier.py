"""The fake world's waiters: a cancelled waiter ends, even when a change lands in the same loop turn;
a click waits on its own answer."""

from __future__ import annotations

import asyncio

from tests.fakediscord import FakeDiscord
from tests.fakediscord.ids import snowflake
from tests.fakediscord.state import Interaction, Notifier


async def test_a_cancel_arriving_with_a_change_ends_the_waiter() -> None:
    """bench/floor.py hung at 1,000 games: a user's click was cancelled just as the world changed, and
    Python 3.11's asyncio.wait_for returned the change instead of the cancellation, so the waiter
    (and the task that clicked) went on for ever."""
    notifier = Notifier()
    give_up = False
    waiter = asyncio.create_task(notifier.wait_for(lambda: give_up, 60.0, "never"))
    await asyncio.sleep(0)  # the waiter is parked on its future
    notifier.notify()  # the change and the cancellation in the same loop turn
    waiter.cancel()
    done, _ = await asyncio.wait({waiter}, timeout=2.0)
    give_up = True  # lets a waiter that swallowed the cancellation end, so a failure does not hang
    notifier.notify()
    await asyncio.wait({waiter}, timeout=2.0)
    assert done and waiter.cancelled()


async def test_a_change_wakes_the_waiter_with_the_value() -> None:
    notifier = Notifier()
    box: list[int] = []
    waiter = asyncio.create_task(notifier.wait_for(lambda: box and box[0], 5.0, "a value"))
    await asyncio.sleep(0)
    box.append(7)
    notifier.notify()
    assert await waiter == 7


async def test_a_click_waits_on_its_own_answer_not_on_every_change() -> None:
    """With hundreds of clicks in flight (bench/e2e.py at 1,000 games) waking every click on every
    change of the world was most of the bench's own CPU; a click now waits on its interaction."""
    server = FakeDiscord()
    alice = server.user("alice")
    inter = Interaction(snowflake(), 3, alice.user, server.general, {}, server.world.application.id)
    answer: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    inter.waiters.append(answer)
    server.world.notifier.notify()  # somebody else's message changed
    assert not answer.done()
    inter.answered()
    assert answer.done() and not inter.waiters
