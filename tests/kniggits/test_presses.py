"""Kniggits in few presses (issue 20 item 4), screen by screen: a destination moves at once
along the route its picture drew; a gesture is one pick of the sword + shield pair, then Lock;
a lock with a hand left empty is asked about once; a reveal says "time ran out" only for a
side the timer locked; the deployment picture is one strip. The press counts through the fake
Discord are `tests/e2e/test_kniggits_presses_e2e.py`."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from cogs.kniggits import render
from cogs.kniggits import ui as kui
from cogs.kniggits.wording import exchange_words
from cogs.table.ui import Button, Select, TableInfo
from cogs.table.ui import Seat as SeatInfo
from tests.kniggits.support import ENGINE, battle, events_of, k, kniggit, play, to_fight
from tests.kniggits.test_render import drawn, items, public

UI = kui.KniggitsUI()
INFO = TableInfo(1, [SeatInfo(0, 101, "Alice"), SeatInfo(1, 102, "Bob")])


def panel(state: dict[str, Any], seat: int) -> Any:
    screen = UI.private(ENGINE.view(state, seat), seat, INFO)
    assert screen is not None
    return screen


def select(screen: Any, starts: str) -> Select:
    return next(c for c in screen.controls if isinstance(c, Select) and c.placeholder.startswith(starts))


def button(screen: Any, label: str) -> Button:
    return next(c for c in screen.controls if isinstance(c, Button) and c.label == label)


def field() -> dict[str, Any]:
    return battle([kniggit("A1", (10, 10), (3, 2, 2)), kniggit("A2", (14, 10), (2, 2, 2)),
                   kniggit("B1", (10, 15), (2, 2, 2)), kniggit("B2", (30, 30), (2, 2, 2))])


def facing_pair() -> dict[str, Any]:
    return to_fight(battle([kniggit("A1", (10, 10), (2, 2, 2), facing="B1"),
                            kniggit("B1", (10, 11), (2, 2, 2), facing="A1"),
                            kniggit("A9", (30, 2), (1, 1, 1)), kniggit("B9", (30, 35), (1, 1, 1))]))


# -- moves ------------------------------------------------------------------------------------------
def test_a_destination_moves_at_once_along_the_route_the_picture_drew() -> None:
    state = field()
    screen = panel(state, 0)
    where = select(screen, "Where does A1 go?")
    engage = next(c for c in where.choices if c.label.startswith("Engage B1"))
    assert engage.action == {"type": "move", "id": "A1", "to": [10, 13]} and engage.emoji == "1️⃣"
    assert not any(c.label == "Confirm move" for c in screen.controls if isinstance(c, Button))
    routes = screen.image.args[3]  # reach_png(view, kid, cells, routes): what the picture draws
    assert routes[0][0] == 1 and routes[0][1][-1] == [10, 13]
    moved, events = play(state, 0, **engage.action)  # one press: the move is made
    assert events_of(events, "moved")[0]["path"] == routes[0][1] and k(moved, "A1")["pos"] == [10, 13]
    after = panel(moved, 0)
    assert [c.action["id"] for c in select(after, "Kniggit to move").choices if c.default] == ["A2"]
    assert any(c.label == "Undo last move" for c in after.controls if isinstance(c, Button))


def test_after_the_last_kniggit_done_is_on_the_same_panel() -> None:
    state = field()
    state, _ = play(state, 0, type="move", id="A1", to=[10, 13])
    state, _ = play(state, 0, type="hold", id="A2")
    screen = panel(state, 0)
    assert "press **Done moving**" in screen.card.description
    assert button(screen, "Done moving").action == {"type": "done"}


def test_the_route_numbers_are_drawn_on_the_reach_picture_legibly() -> None:
    state = field()
    view = ENGINE.view(state, 0)
    cells = view["me"]["reach"]
    screen = panel(state, 0)
    routes = screen.image.args[3]
    assert [n for n, _ in routes] == list(range(1, len(routes) + 1)) and len(routes) >= 3
    plain = Image.open(io.BytesIO(render.reach(view, "A1", cells))).convert("RGB")
    drawn_png, _ = drawn(render.reach, view, "A1", cells, routes)  # legible at 500 px
    assert plain.tobytes() != Image.open(io.BytesIO(drawn_png)).convert("RGB").tobytes()


# -- gestures -----------------------------------------------------------------------------------------
def test_a_gesture_is_one_pick_of_the_pair_then_lock() -> None:
    state, _ = play(facing_pair(), 0, type="attack", id="A1", target="B1")
    pair = select(panel(state, 0), "Sword + shield")
    assert len(pair.choices) == 9 and pair.choices[0].label == "Sword High + shield High"
    choice = next(c for c in pair.choices if c.label == "Sword Mid + shield Low")
    state, _ = play(state, 0, **choice.action)
    screen = panel(state, 0)
    assert select(screen, "Sword + shield").placeholder == "Sword + shield… (now Mid + Low)"
    lock = button(screen, "Lock gesture")
    assert lock.action == {"type": "lock"}  # both hands picked: no question
    state, events = play(state, 0, **lock.action)
    assert events_of(events, "locked")


def test_locking_with_no_shield_asks_once() -> None:
    state, _ = play(facing_pair(), 0, type="attack", id="A1", target="B1")
    state, _ = play(state, 0, type="gesture", sword="high")
    lock = button(panel(state, 0), "Lock gesture")
    assert lock.action == {"type": "gesture", "asked": True}
    asked, events = play(state, 0, **lock.action)
    assert not events and asked["exchange"]["box"]["picks"][0] is None  # not locked: asked
    screen = panel(asked, 0)
    assert "**Lock with no shield?**" in screen.card.description
    again = button(screen, "Lock with no shield")
    assert again.action == {"type": "lock"} and not any(
        c.label == "Lock gesture" for c in screen.controls if isinstance(c, Button))
    locked, events = play(asked, 0, **again.action)
    assert events_of(events, "locked") and locked["exchange"]["box"]["picks"][0] == {"sword": "high"}
    # a shield picked after the question: Lock is plain again
    shielded, _ = play(asked, 0, type="gesture", shield="low")
    assert button(panel(shielded, 0), "Lock gesture").action == {"type": "lock"}


def test_a_locked_pick_is_never_said_to_have_run_out_of_time() -> None:
    state, _ = play(facing_pair(), 0, type="attack", id="A1", target="B1")
    state, _ = play(state, 0, type="gesture", sword="mid", lock=True)  # A1: no shield, locked by alice
    state, _ = play(state, 1, type="gesture", sword="low")
    state, events = play(state, 1, type="lock", timeout=True)  # B1: no shield, the timer locked it
    result = events_of(events, "exchange")[0]
    assert result["fumbled"] == {"A1": ["shield"], "B1": ["shield"]} and result["timed_out"] == ["B1"]
    words = exchange_words(ENGINE.view(state, None), state["last_exchange"], INFO)
    assert "A1 was locked with no shield (no guard)." in words
    assert "B1 fumbled its shield (time ran out)." in words
    assert "A1 fumbled" not in words


def test_two_swords_pick_both_heights_in_one_select() -> None:
    state = to_fight(battle([kniggit("A1", (10, 10), (2, 6, 0), facing="B1", two_swords=True),
                             kniggit("B1", (10, 11), (2, 2, 2), facing="A1"),
                             kniggit("A9", (30, 2), (1, 1, 1)), kniggit("B9", (30, 35), (1, 1, 1))],
                            two_swords=True))
    state, _ = play(state, 0, type="attack", id="A1", target="B1")
    swords = select(panel(state, 0), "Swords")
    assert [c.label for c in swords.choices][:3] == ["Swords High + High", "Swords High + Mid", "Swords High + Low"]
    state, _ = play(state, 0, **swords.choices[2].action)
    assert button(panel(state, 0), "Lock gesture").action == {"type": "lock"}


# -- the deployment picture ----------------------------------------------------------------------------
def test_the_deployment_picture_is_one_strip_of_rows_1_to_6() -> None:
    for size in (24, 36):
        placements = {"A1": [size // 2, 3], "A2": [size // 2 + 1, 3]}  # neighbours across the old split
        view = public(size, [], phase="deploy", **items(size))
        png = render.deployment(view, "A", placements)
        image = Image.open(io.BytesIO(png))
        win = render.Window(1, size, 1, 6, min(render.CELL_MAX, render.BOARD_W // size))
        top = render.header_height(["x"])
        assert image.height == top + render.layer_size(win)[1] + render.PAD  # one strip, whole zone
    assert render.strip_columns(48, [20, 21]) == (7, 42)  # a 48-inch zone: the 36 columns round them
    assert render.strip_columns(48, [1, 48]) == (1, 48)
    assert render.strip_columns(48, []) == (1, 48)
