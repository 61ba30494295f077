"""A fake Discord (REST v10 + gateway on 127.0.0.1) for end-to-end tests of the real bot.

    server = await FakeDiscord().start()
    with pointed_at(server):
        runner = ClientRunner(server, my_bot); await runner.start()
        alice = server.user("alice")
        result = await alice.slash("tokens new")
        await alice.click(server.general.last_message(), "Join")
"""

from .driver import FakeUser, InteractionFailed, InteractionResult, Raw
from .harness import ClientRunner, pointed_at
from .server import FakeDiscord
from .state import Channel, Interaction, Message, User

__all__ = [
    "Channel",
    "ClientRunner",
    "FakeDiscord",
    "FakeUser",
    "Interaction",
    "InteractionFailed",
    "InteractionResult",
    "Message",
    "Raw",
    "User",
    "pointed_at",
]
