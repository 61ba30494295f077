"""Plays Tokens games forever, printing "ACK <game> <seq>" after each committed action.

Run by test_crash_safety, which kills it with SIGKILL mid-stream.
"""

from __future__ import annotations

import asyncio
import random
import sys

from games.registry import load_game
from runtime.clock import ManualClock
from runtime.service import TableService
from storage import Storage


async def main(path: str) -> None:
    load_game("tests.engines.tokens")
    storage = await Storage.open(path)
    clock = ManualClock()
    service = TableService(storage, clock, random.Random(7))
    channel = 0
    while True:
        channel += 1
        game = await service.open_lobby(guild_id=1, channel_id=channel, kind="tokens", host_id=1,
                                        host_name="a", options={"hand": 5})
        for user in (2, 3):
            await service.join(game.id, user, f"u{user}")
        await service.start(game.id, 1)
        while True:
            game = await service.game(game.id)
            if game.state is None or not any(game.state["hands"]):
                break
            seat = game.state["turn"]
            applied = await service.act(
                game.id, game.user_of(seat), {"type": "play", "token": game.state["hands"][seat][-1]["id"]}
            )
            print(f"ACK {game.id} {applied.game.version}", flush=True)
            clock.advance(1)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
