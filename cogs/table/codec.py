"""custom_id formats: every component carries what it needs, so buttons are stateless
and keep working after a restart (DESIGN.md, "Buttons are stateless").

    rp:a:<game>:<version>:<action json>   a game action button
    rp:s:<game>:<version>:<slot>[:<key>]   a select; each option value is an action json; a
                                          multi-pick names the key whose one-item lists it joins
    rp:f:<game>:<version>:<action json>   opens a modal for a form (fields from the UI)
    rp:m:<game>:<version>:<action json>   that modal's submission
    rp:l:<game>:<verb>                    lobby: join / leave / start / cancel; join-<team>
                                          in a team lobby (the team's index)
    rp:h:<game>                           "My hand"
    rp:r:<game>:<rule>                    "📖 Rule 7": that rule's text, under a refusal
    rp:x:<game>                           "🔁 Rematch" under a finished game's result
    rp:v:<game>:<step>:<verb>             a replay viewer's ⏮ ◀ ▶ ⏭ (first/prev/next/last),
                                          showing step <step> of a finished game
    rp:j:<game>                           the viewer's "Jump to …" select; values are steps
    rp:i:<game>                           "💡 Hint" on a practice table's prompt
    rp:c:<game>:add[:<team>]              🤖 Add computer (in a team lobby, one per team)
    rp:c:<game>:name[:<team>]             the modal asking that computer's name (optional)
    rp:c:<game>:rm                        "Remove a computer…"; values are seat numbers
    rp:c:<game>:<verb>:<seat>:<user>      to <user> only: keep the computer that took a
                                          leaver's seat, end the game, or hand an away
                                          player's seat to a computer (keep / end / afk)

`parse` is the one reader: a custom_id it cannot read is answered "no longer valid". Releases
before this one drew the computer components as `rb:<verb>:<game>…`; buttons already posted
carry them, so `parse` still reads those (as the same routes) while only `rp:` is drawn.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

CUSTOM_ID_LIMIT = 100
SELECT_VALUE_LIMIT = 100
PREFIX = "rp:"

#: Game ids, versions and slots: at most 18 digits, so every one fits SQLite's signed
#: 64-bit integers (a longer number is a forgery, never a component of ours).
_N = r"[0-9]{1,18}"
#: The action key a multi-pick select gathers its picks under.
_KEY = r"[A-Za-z_][A-Za-z0-9_]{0,23}"
GATHER_KEY = re.compile(_KEY)
#: Every custom_id of ours, whatever follows the prefix: the edge takes every press matching
#: it, so a forged or outdated one is answered instead of silently dropped.
ANY_ID = r"r[pb]:(?s:.*)"
#: The prefix of the computer components of older releases (read, never drawn).
LEGACY_PREFIX = "rb:"
BUTTON, SELECT = 2, 3
_SEAT, _USER = r"[0-9]{1,2}", r"[0-9]{1,20}"
_OFFER = "keep|end|afk"

_ROUTES: dict[str, re.Pattern[str]] = {
    "action": re.compile(rf"rp:a:(?P<game>{_N}):(?P<version>{_N}):(?P<payload>.+)", re.S),
    "select": re.compile(rf"rp:s:(?P<game>{_N}):(?P<version>{_N})(?::(?P<slot>{_N})(?::(?P<gather>{_KEY}))?)?"),
    "form": re.compile(rf"rp:f:(?P<game>{_N}):(?P<version>{_N}):(?P<payload>.+)", re.S),
    "modal": re.compile(rf"rp:m:(?P<game>{_N}):(?P<version>{_N}):(?P<payload>.+)", re.S),
    "lobby": re.compile(rf"rp:l:(?P<game>{_N}):(?P<verb>join(?:-[0-9])?|leave|start|cancel)"),
    "hand": re.compile(rf"rp:h:(?P<game>{_N})"),
    "rule": re.compile(rf"rp:r:(?P<game>{_N}):(?P<verb>[0-9A-Za-z.]{{1,12}})"),
    "rematch": re.compile(rf"rp:x:(?P<game>{_N})"),
    "replay": re.compile(rf"rp:v:(?P<game>{_N}):(?P<step>{_N}):(?P<verb>first|prev|next|last)"),
    "jump": re.compile(rf"rp:j:(?P<game>{_N})"),
    "hint": re.compile(rf"rp:i:(?P<game>{_N})"),
    "computer": re.compile(rf"rp:c:(?P<game>{_N}):(?:(?P<verb>add|name)(?::(?P<team>[0-9]))?|(?P<rm>rm)"
                           rf"|(?P<offer>{_OFFER}):(?P<seat>{_SEAT}):(?P<user>{_USER}))"),
    # the same computer routes as older releases drew them: the verb first
    "legacy computer": re.compile(rf"rb:(?:(?P<verb>add|name):(?P<game>{_N})(?::(?P<team>[0-9]))?"
                                  rf"|(?P<rm>rm):(?P<game_rm>{_N})"
                                  rf"|(?P<offer>{_OFFER}):(?P<game_offer>{_N}):(?P<seat>{_SEAT}):(?P<user>{_USER}))"),
}
MODAL_PREFIX = "rp:m:"
#: The ids that carry a state version (action buttons, selects, form buttons).
VERSIONED_PREFIXES = ("rp:a:", "rp:s:", "rp:f:")


@dataclass(frozen=True)
class Route:
    """What a custom_id of ours asks for, parsed once (`parse`)."""

    kind: str  # action | select | form | modal | lobby | hand | rule | rematch | replay | jump | hint | computer
    game: int
    version: int | None = None
    action: dict[str, Any] | None = None
    verb: str | None = None
    #: A multi-pick select's key (see `ui.Select.gather`).
    gather: str | None = None
    #: The step of a finished game a replay viewer's button shows.
    step: int | None = None
    #: A computer route's team (add, name), or seat and user (keep, end, afk).
    team: int | None = None
    seat: int | None = None
    user: int | None = None

    @property
    def component_type(self) -> int | None:
        """The component that carries this id (None: a modal)."""
        if self.kind == "modal" or (self.kind == "computer" and self.verb == "name"):
            return None
        if self.kind in ("select", "jump") or (self.kind == "computer" and self.verb == "rm"):
            return SELECT
        return BUTTON


def ours(custom_id: str) -> bool:
    """Whether a custom_id is one of ours (drawn by this release or an older one)."""
    return custom_id.startswith((PREFIX, LEGACY_PREFIX))


def parse(custom_id: str) -> Route | None:
    """The route of one of our custom_ids; None for anything we never drew (a forgery, an id
    from an older release, numbers past SQLite's range, a payload that is not an action)."""
    for kind, pattern in _ROUTES.items():
        match = pattern.fullmatch(custom_id)
        if match is None:
            continue
        found = match.groupdict()
        if kind.endswith("computer"):
            return _computer(found)
        action = None
        if found.get("payload") is not None:
            action = action_of(found["payload"])
            if action is None:
                return None
        game = int(found["game"])
        if game == 0:
            return None
        version = int(found["version"]) if found.get("version") is not None else None
        step = int(found["step"]) if found.get("step") is not None else None
        return Route(kind, game, version, action, found.get("verb"), found.get("gather"), step)
    return None


def _computer(found: dict[str, str | None]) -> Route | None:
    game = int(found.get("game") or found.get("game_rm") or found.get("game_offer") or 0)
    if game == 0:
        return None
    verb = found.get("verb") or found.get("rm") or found.get("offer")

    def number(key: str) -> int | None:
        value = found.get(key)
        return int(value) if value is not None else None

    return Route("computer", game, verb=verb, team=number("team"), seat=number("seat"), user=number("user"))


def action_of(payload: str) -> dict[str, Any] | None:
    """An action packed by `pack` (a JSON object with a string "type"), or None."""
    try:
        action = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return None
    return action


class CodecError(ValueError):
    """A component could not be encoded within Discord's limits (a game UI bug)."""


def pack(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def unpack(payload: str) -> dict[str, Any]:
    """`action_of`, with {} for anything that is not an action (the engine refuses it)."""
    return action_of(payload) or {}


def _checked(custom_id: str) -> str:
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise CodecError(f"custom_id too long ({len(custom_id)}): {custom_id[:40]}…")
    return custom_id


def action_id(game: int, version: int, action: dict[str, Any]) -> str:
    return _checked(f"rp:a:{game}:{version}:{pack(action)}")


def select_id(game: int, version: int, slot: int, gather: str | None = None) -> str:
    if gather is None:
        return _checked(f"rp:s:{game}:{version}:{slot}")
    if not GATHER_KEY.fullmatch(gather):
        raise CodecError(f"a multi-pick select gathers under a plain key, not {gather[:30]!r}")
    return _checked(f"rp:s:{game}:{version}:{slot}:{gather}")


def gathered(values: Any, listed: list[str], key: str, *, pick: tuple[int, int]) -> dict[str, Any] | None:
    """A multi-pick's action from the option values picked: the choices' common action with
    their one-item lists under `key` joined in the order the options are `listed`. None for
    anything a real client could not send (a value not listed, a repeat, a count outside
    `pick` (min, max)) or choices that do not share one action."""
    if not isinstance(values, list) or not all(isinstance(v, str) and v in listed for v in values):
        return None
    if len(set(values)) != len(values) or not pick[0] <= len(values) <= pick[1] or not values:
        return None
    items: list[Any] = []
    common: dict[str, Any] | None = None
    for value in sorted(values, key=listed.index):
        action = action_of(value)
        if action is None or not isinstance(action.get(key), list) or len(action[key]) != 1:
            return None
        items.extend(action[key])
        rest = {k: v for k, v in action.items() if k != key}
        if common is not None and rest != common:
            return None
        common = rest
    assert common is not None
    return {**common, key: items}


def select_value(action: dict[str, Any]) -> str:
    value = pack(action)
    if len(value) > SELECT_VALUE_LIMIT:
        raise CodecError(f"select value too long: {value[:40]}…")
    return value


def form_id(game: int, version: int, action: dict[str, Any]) -> str:
    return _checked(f"rp:f:{game}:{version}:{pack(action)}")


def modal_id(game: int, version: int, action: dict[str, Any]) -> str:
    return _checked(f"{MODAL_PREFIX}{game}:{version}:{pack(action)}")


def rule_id(game: int, rule: str) -> str:
    return _checked(f"rp:r:{game}:{rule}")


def lobby_id(game: int, verb: str) -> str:
    return f"rp:l:{game}:{verb}"


def hand_id(game: int) -> str:
    return f"rp:h:{game}"


def rematch_id(game: int) -> str:
    return f"rp:x:{game}"


def replay_id(game: int, step: int, verb: str) -> str:
    return _checked(f"rp:v:{game}:{step}:{verb}")


def jump_id(game: int) -> str:
    return f"rp:j:{game}"


def hint_id(game: int) -> str:
    return f"rp:i:{game}"


def computer_id(game: int, verb: str, team: int | None = None) -> str:
    """A lobby's computer component: `add` or `name` (of a team, in a team lobby), or `rm`."""
    return f"rp:c:{game}:{verb}" + (f":{team}" if team is not None else "")


def offer_id(verb: str, game: int, seat: int, user: int) -> str:
    """An offer to `user` about `seat`'s computer: keep, end or afk."""
    return f"rp:c:{game}:{verb}:{seat}:{user}"
