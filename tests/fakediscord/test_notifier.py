"""The fake world's waiters: a cancelled waiter ends, even when a change lands in the same loop turn."""

from __future__ import annotations

import asyncio

from tests.fakediscord.state import Notifier


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
