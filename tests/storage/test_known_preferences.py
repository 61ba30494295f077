"""Ping preferences are read once per player, not once per ping (every press that asks someone
something pings them): one process alone on its database knows every change it made; on a
shared database another process's `/notify` is read again after `NOTIFY_TRUSTED` seconds."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from storage import Storage
from storage import seats as seats_module

Connect = Callable[[], Awaitable[Storage]]


def count_reads(store: Storage, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Every transaction the store's backend runs (True: a write)."""
    runs: list[bool] = []
    run = store.backend.run

    async def counted(body: Any, *, write: bool) -> Any:
        runs.append(write)
        return await run(body, write=write)

    monkeypatch.setattr(store.backend, "run", counted)
    return runs


async def test_a_preference_is_read_once_per_player(store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    await store.set_notify(3, "dm")
    runs = count_reads(store, monkeypatch)
    assert await store.notify_preferences([3, 4]) == {3: "dm"}  # 4 never chose: left out
    assert runs == [False]
    for _ in range(5):
        assert await store.notify_preferences([4, 3]) == {3: "dm"}
    assert runs == [False]  # both known now, the one who never chose too
    assert await store.notify_preferences([3, 5]) == {3: "dm"}
    assert runs == [False, False]  # only the newcomer is read
    await store.set_notify(4, "off")
    assert await store.notify_preferences([3, 4]) == {3: "dm", 4: "off"}
    assert runs == [False, False, True]  # its own change is known without a read


async def test_another_process_change_is_read_after_a_while(connect: Connect,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    here, there = await connect(), await connect()
    await here.set_notify(3, "dm")
    assert await here.notify_preferences([3]) == {3: "dm"}
    await there.set_notify(3, "off")
    clock = [1000.0]
    monkeypatch.setattr(seats_module.time, "monotonic", lambda: clock[0])
    here._notify_known[3] = ("dm", clock[0])
    clock[0] += seats_module.NOTIFY_TRUSTED + 1
    expected = {3: "off"} if here.shared else {3: "dm"}  # one process on SQLite wrote every change
    assert await here.notify_preferences([3]) == expected
