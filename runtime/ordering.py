"""A game's lock that serves waiting actions in the order they were pressed.

An asyncio.Lock hands itself over in the order `acquire` was called, which is the order
interactions reached this process — not the order players pressed. Behind a slow step,
two presses can arrive swapped (one took a longer network path, or its handler awaited
something first), and in a race the wrong player would win. This lock instead grants the
waiter with the earliest press time; equal times keep arrival order.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from types import TracebackType


class PressOrderedLock:
    def __init__(self) -> None:
        self._locked = False
        self._waiters: list[tuple[float, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()

    def locked(self) -> bool:
        return self._locked

    @property
    def waiting(self) -> int:
        return sum(1 for _, _, future in self._waiters if not future.done())

    def at(self, pressed_at: float) -> _Acquired:
        """`async with lock.at(t):` holds the lock, granted in order of `t` among waiters."""
        return _Acquired(self, pressed_at)

    async def acquire(self, pressed_at: float) -> None:
        if not self._locked and not any(not f.done() for _, _, f in self._waiters):
            self._locked = True
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (pressed_at, next(self._arrivals), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._grant_next()  # it was handed to us as we were cancelled: pass it on
            raise

    def release(self) -> None:
        if not self._locked:
            raise RuntimeError("release of an unlocked PressOrderedLock")
        self._locked = False
        self._grant_next()

    def _grant_next(self) -> None:
        while self._waiters:
            _, _, future = heapq.heappop(self._waiters)
            if not future.done():
                self._locked = True
                future.set_result(None)
                return
        self._locked = False


class _Acquired:
    def __init__(self, lock: PressOrderedLock, pressed_at: float) -> None:
        self.lock, self.pressed_at = lock, pressed_at

    async def __aenter__(self) -> None:
        await self.lock.acquire(self.pressed_at)

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        self.lock.release()
