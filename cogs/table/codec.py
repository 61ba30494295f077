"""custom_id formats: every component carries what it needs, so buttons are stateless
and keep working after a restart (DESIGN.md, "Buttons are stateless").

    rp:a:<game>:<version>:<action json>   a game action button
    rp:s:<game>:<version>                  a select; each option value is an action json
    rp:f:<game>:<version>:<action json>   opens a modal for a form (fields from the UI)
    rp:m:<game>:<version>:<action json>   that modal's submission
    rp:l:<game>:<verb>                    lobby: join / leave / start / cancel
    rp:h:<game>                           "My hand"
"""

from __future__ import annotations

import json
from typing import Any

CUSTOM_ID_LIMIT = 100
SELECT_VALUE_LIMIT = 100

ACTION_ID = r"rp:a:(?P<game>\d+):(?P<version>\d+):(?P<payload>.+)"
SELECT_ID = r"rp:s:(?P<game>\d+):(?P<version>\d+)(?::(?P<slot>\d+))?"
FORM_ID = r"rp:f:(?P<game>\d+):(?P<version>\d+):(?P<payload>.+)"
MODAL_PREFIX = "rp:m:"
LOBBY_ID = r"rp:l:(?P<game>\d+):(?P<verb>join|leave|start|cancel)"
HAND_ID = r"rp:h:(?P<game>\d+)"


class CodecError(ValueError):
    """A component could not be encoded within Discord's limits (a game UI bug)."""


def pack(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def unpack(payload: str) -> dict[str, Any]:
    try:
        action = json.loads(payload)
    except ValueError:
        return {}
    return action if isinstance(action, dict) else {}


def _checked(custom_id: str) -> str:
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise CodecError(f"custom_id too long ({len(custom_id)}): {custom_id[:40]}…")
    return custom_id


def action_id(game: int, version: int, action: dict[str, Any]) -> str:
    return _checked(f"rp:a:{game}:{version}:{pack(action)}")


def select_id(game: int, version: int, slot: int) -> str:
    return _checked(f"rp:s:{game}:{version}:{slot}")


def select_value(action: dict[str, Any]) -> str:
    value = pack(action)
    if len(value) > SELECT_VALUE_LIMIT:
        raise CodecError(f"select value too long: {value[:40]}…")
    return value


def form_id(game: int, version: int, action: dict[str, Any]) -> str:
    return _checked(f"rp:f:{game}:{version}:{pack(action)}")


def modal_id(game: int, version: int, action: dict[str, Any]) -> str:
    return _checked(f"{MODAL_PREFIX}{game}:{version}:{pack(action)}")


def parse_modal_id(custom_id: str) -> tuple[int, int, dict[str, Any]] | None:
    if not custom_id.startswith(MODAL_PREFIX):
        return None
    game, version, payload = custom_id[len(MODAL_PREFIX):].split(":", 2)
    return int(game), int(version), unpack(payload)


def lobby_id(game: int, verb: str) -> str:
    return f"rp:l:{game}:{verb}"


def hand_id(game: int) -> str:
    return f"rp:h:{game}"
