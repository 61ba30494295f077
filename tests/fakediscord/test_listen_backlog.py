"""The fake takes every connection even while its event loop is busy, as Discord does."""

from __future__ import annotations

import socket
from concurrent.futures import ThreadPoolExecutor

from tests.fakediscord import FakeDiscord

#: More than aiohttp's default listen backlog (128), far fewer than the fake's.
CONNECTIONS = 600


def connect(port: int, count: int) -> int:
    """Open `count` connections one after another; how many the kernel took before one timed out."""
    opened: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket()
            opened.append(sock)
            sock.settimeout(0.5)
            try:
                sock.connect(("127.0.0.1", port))
            except OSError:  # the SYN was dropped: the listen queue is full
                return len(opened) - 1
        return len(opened)
    finally:
        for sock in opened:
            sock.close()


async def test_a_busy_fake_still_takes_every_connection() -> None:
    """At 1,000 benchmark games the fake's listen queue overflowed: the bot's connects waited for
    SYN retries (1-7 s, or aiohttp's 30 s connect timeout) and the latencies measured that."""
    server = await FakeDiscord().start()
    try:
        with ThreadPoolExecutor(1) as pool:
            # .result() without awaiting: the fake's loop is blocked, accepting nothing meanwhile
            taken = pool.submit(connect, server.port, CONNECTIONS).result()
    finally:
        await server.stop()
    assert taken == CONNECTIONS
