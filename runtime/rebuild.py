"""A game's state rebuilt from its stored seed and action log with the pure engine: what an
audit, a test or a crash's leftovers check the stored state against (`TableService.replay`).
A computer taking a leaver's seat is logged but changes nothing the rules see.
"""

from __future__ import annotations

from games.core import State
from games.record import HANDOFF
from games.registry import get_engine
from runtime.errors import NoGame
from runtime.replays import advance
from storage import Storage


async def rebuild(storage: Storage, game_id: int, *, upto: int | None = None) -> State:
    """Rebuild a game's state from its seed and action log (audits, tests, and the tables
    a crash left behind); with `upto`, the state at that version (1 is the first state)."""
    game = await storage.game(game_id)
    if game is None or game.state is None:
        raise NoGame("That game never started.")
    engine = get_engine(game.kind)
    state = engine.new_game(len(game.seats), game.seed, game.options)
    for record in await storage.actions(game_id):
        if upto is not None and record.seq > upto:
            break
        if record.action.get("type") != HANDOFF:  # a computer took a seat: the rules saw nothing
            state, _ = advance(engine, state, record.seat, record.action, record.at)
    return state

