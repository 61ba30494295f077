"""A game record: everything needed to replay a finished game and check it was played fair.

The bot draws a game's seed (and a random nonce) when the lobby opens and shows the
SHA-256 *commitment* of "seed:nonce" on the table from the first move; the seed and the
nonce are revealed when the game ends. A record (`build_record`) holds the engine and its
version, the options, the seats, the seed, the nonce, the commitment, every action with its
seat and time, the outcome, and the SHA-256 digest of the final state's canonical JSON.
`games.replay` replays it and checks all of that (see docs/records.md).

Pure like every engine module: plain values in, plain JSON-compatible dicts out.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from games.core import Outcome, State
from games.registry import AnyEngine

FORMAT = "rumpus-game-record"
FORMAT_VERSION = 1
#: The action type the runtime logs for a forfeit (`/game leave`): replayed with `engine.forfeit`.
FORFEIT = "_forfeit"
#: The action type the runtime logs when a leaver's seat is handed to a computer: the state
#: is unchanged, so a replay skips it.
HANDOFF = "_handoff"
COMMITMENT_SCHEME = 'sha256(f"{seed}:{nonce}"), hex'
DIGEST_SCHEME = 'sha256(json.dumps(state, sort_keys=True, separators=(",", ":"))), hex'


def seed_commitment(seed: int, nonce: str) -> str:
    """The SHA-256 (hex) of "seed:nonce": shown from the start, it pins the seed down."""
    return hashlib.sha256(f"{seed}:{nonce}".encode()).hexdigest()


def canonical_json(value: Any) -> str:
    """One spelling of a JSON value: keys sorted, no spaces, ASCII. The value is first taken
    through JSON once, so a state and its stored copy (tuples as lists, keys as strings)
    spell the same."""
    plain = json.loads(json.dumps(value))
    return json.dumps(plain, sort_keys=True, separators=(",", ":"))


def state_digest(state: State) -> str:
    """SHA-256 (hex) of the state's canonical JSON."""
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    """The outcome as plain JSON (as it reads back from a file), or None."""
    return None if outcome is None else json.loads(json.dumps(outcome.to_json()))


def build_record(
    engine: AnyEngine, *, game_id: int, guild_id: int, options: Mapping[str, Any],
    seats: Iterable[tuple[int, int, str]], seed: int, nonce: str,
    actions: Iterable[tuple[int, int | None, Mapping[str, Any], float]], final_state: State,
    created_at: float | None = None, finished_at: float | None = None,
) -> dict[str, Any]:
    """The record of a finished game. `seats`: (seat, user id, name); `actions`: (seq, seat
    or None for the game itself, action, time), in order; `final_state`: the state the bot
    holds at the end (its digest and outcome are what a replay must reproduce).

    Discord ids are written as strings (they exceed JavaScript's safe integers); the seed
    stays a number, since the engines take it as one."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": {
            "id": game_id,
            "guild_id": str(guild_id),
            "created_at": created_at,
            "finished_at": finished_at,
        },
        "engine": {"name": engine.name, "title": engine.title, "version": engine.version},
        "options": dict(options),
        "seats": [{"seat": seat, "user_id": str(user), "name": name} for seat, user, name in seats],
        "seed": seed,
        "nonce": nonce,
        "commitment": seed_commitment(seed, nonce),
        "commitment_scheme": COMMITMENT_SCHEME,
        "actions": [
            {"seq": seq, "seat": seat, "action": dict(action), "at": at}
            for seq, seat, action, at in actions
        ],
        "outcome": outcome_json(engine.outcome(final_state)),
        "final_state_sha256": state_digest(final_state),
        "digest_scheme": DIGEST_SCHEME,
    }


def record_bytes(record: Mapping[str, Any]) -> bytes:
    """The record as the file the bot hands out (indented, UTF-8)."""
    return (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode()
