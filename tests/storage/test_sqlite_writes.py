"""SQLite: a write (a step's commit, a ping's bookkeeping) runs at once on the event loop,
without the hop to aiosqlite's thread and back that cost more than the write; a read goes to
the thread; a write while anything is on the thread queues behind it there, so the one
connection never runs two transactions at once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from storage import Storage, open_storage


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    opened = await open_storage(str(tmp_path / "rumpus.db"))
    yield opened
    await opened.close()


def count_hops(store: Storage, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    hops: list[str] = []
    connection = store._db
    execute = connection._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(fn, "__name__", "?"))
        return await execute(fn, *args, **kwargs)

    monkeypatch.setattr(connection, "_execute", counted)
    return hops


async def test_a_write_makes_no_hop_to_the_thread_and_a_read_one(store: Storage,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    hops = count_hops(store, monkeypatch)
    await store.set_notify(3, "dm")
    assert hops == []
    store._notify_known.clear()
    assert await store.notify_preferences([3]) == {3: "dm"}  # read back on the thread
    assert hops == ["transaction"]


async def test_a_write_while_a_read_is_on_the_thread_queues_behind_it(store: Storage,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    await store.set_notify(3, "dm")
    store._notify_known.clear()
    hops = count_hops(store, monkeypatch)
    reading = asyncio.ensure_future(store.notify_preferences([3]))
    await asyncio.sleep(0)  # the read is on the thread now
    assert store.backend.on_thread == 1  # type: ignore[attr-defined]
    await store.set_notify(3, "off")
    assert hops == ["transaction", "transaction"]  # the write went to the thread too, after it
    assert await reading == {3: "dm"} and store.backend.on_thread == 0  # type: ignore[attr-defined]
    store._notify_known.clear()
    assert await store.notify_preferences([3]) == {3: "off"}
