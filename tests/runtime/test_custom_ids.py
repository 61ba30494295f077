"""One custom_id grammar (`cogs/table/codec.py`): every component of ours, the computer players'
too, is drawn with an `rp:` id and read by `codec.parse`. Buttons posted by older releases carry
`rb:` ids for the computer components; they still read as the same routes after an upgrade."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cogs.table import codec
from cogs.table.components import (
    add_computer_button,
    computer_name_modal,
    hand_to_computer_view,
    keep_or_end_view,
    remove_computer_select,
)
from storage import GameRecord, SeatRecord, Status

ROOT = Path(__file__).resolve().parents[2]

#: An id as an older release drew it, and the id drawn now for the same thing.
OLD_AND_NEW = [
    ("rb:add:12", "rp:c:12:add"),
    ("rb:add:12:1", "rp:c:12:add:1"),
    ("rb:name:12", "rp:c:12:name"),
    ("rb:name:12:0", "rp:c:12:name:0"),
    ("rb:rm:12", "rp:c:12:rm"),
    ("rb:keep:12:3:555", "rp:c:12:keep:3:555"),
    ("rb:end:12:3:555", "rp:c:12:end:3:555"),
    ("rb:afk:12:0:555", "rp:c:12:afk:0:555"),
]


@pytest.mark.parametrize(("old", "new"), OLD_AND_NEW)
def test_an_old_computer_id_reads_as_the_route_drawn_now(old: str, new: str) -> None:
    route = codec.parse(new)
    assert route is not None and route.kind == "computer"
    assert codec.parse(old) == route
    assert re.fullmatch(codec.ANY_ID, old) and re.fullmatch(codec.ANY_ID, new)  # one dynamic item takes both
    assert codec.ours(old) and codec.ours(new)


def test_computer_routes_carry_what_their_handler_needs() -> None:
    assert codec.parse("rp:c:12:add:1") == codec.Route("computer", 12, verb="add", team=1)
    assert codec.parse("rp:c:12:keep:3:555") == codec.Route("computer", 12, verb="keep", seat=3, user=555)
    assert codec.parse("rp:c:12:rm").component_type == codec.SELECT  # type: ignore[union-attr]
    assert codec.parse("rp:c:12:name").component_type is None  # type: ignore[union-attr]  # a modal
    assert codec.parse("rp:c:12:end:3:555").component_type == codec.BUTTON  # type: ignore[union-attr]


@pytest.mark.parametrize("junk", ["rb:zap:1", "rb:name:1:x", "rb:add:0", "rp:c:0:add", "rp:c:12:rm:3",
                                  "rp:c:12:keep:3", "rp:c:1234567890123456789:add", "rb:keep:12:123:5",
                                  "rp:c:12:zap", "rpc:12:add"])
def test_a_forged_computer_id_reads_as_nothing(junk: str) -> None:
    assert codec.parse(junk) is None


def custom_ids(view: object) -> list[str]:
    return [str(item.get("custom_id")) for row in view.to_components()  # type: ignore[attr-defined]
            for item in row.get("components", [])]


def test_computer_components_are_drawn_with_rp_ids_only() -> None:
    seats = [SeatRecord(0, 7, "Al"), SeatRecord(1, -1, "🤖 Ada", computer=True)]
    game = GameRecord(id=12, guild_id=1, channel_id=2, thread_id=None, kind="tokens", host_id=7, options={},
                      status=Status.LOBBY, version=0, seed=0, state=None, deadlines=[], log=[],
                      table_message_id=None, table_message_at=None, created_at=0.0, updated_at=0.0, seats=seats)
    drawn = [add_computer_button(12).item.custom_id, add_computer_button(12, 1).item.custom_id,
             remove_computer_select(game).item.custom_id,  # type: ignore[union-attr]
             computer_name_modal(12, 1, "Team B").custom_id,
             *custom_ids(keep_or_end_view(12, 1, 7)), *custom_ids(hand_to_computer_view(game, 0, 7))]
    assert drawn == ["rp:c:12:add", "rp:c:12:add:1", "rp:c:12:rm", "rp:c:12:name:1",
                     "rp:c:12:keep:1:7", "rp:c:12:end:1:7", "rp:c:12:afk:0:7"]
    assert all(codec.parse(i) is not None for i in drawn)


def literal_ids(path: Path) -> list[str]:
    """String literals (and f-strings' first parts) of `path` that look like our custom_ids."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.match(r"r[a-z]:", node.value):
            found.append(node.value)
    return found


def test_only_the_codec_spells_a_custom_id() -> None:
    spelled = {str(path.relative_to(ROOT)): ids for folder in ("cogs", "runtime")
               for path in sorted((ROOT / folder).rglob("*.py")) if (ids := literal_ids(path))}
    assert list(spelled) == ["cogs/table/codec.py"], spelled
