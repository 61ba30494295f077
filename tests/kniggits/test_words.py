"""Kniggits in words that fit (issue 20 item 6): the lobby says "Army A (1 or 2 players)", the
join DM promises a commander's panel (no hand of cards), Army B's deployment form shows B
kniggits in B's rows, and an army line that cannot be used is quoted in the refusal."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.kniggits.ui import KniggitsUI
from cogs.table.lobby_screen import render_lobby
from cogs.table.present import table_info
from cogs.table.registry import UIS, load_builtin_uis
from cogs.table.ui import FormButton
from games.core import IllegalAction
from games.kniggits import ENGINE
from games.kniggits.army import parse_lines
from games.kniggits.samples import act
from games.registry import get_engine
from storage import GameRecord, SeatRecord, Status

load_builtin_uis()


def lobby(kind: str, teams: list[int]) -> GameRecord:
    seats = [SeatRecord(n, 100 + n, f"P{n}", team=team) for n, team in enumerate(teams)]
    return GameRecord(id=5, guild_id=1, channel_id=2, thread_id=None, kind=kind, host_id=100, options={},
                      status=Status.LOBBY, version=1, seed=0, state=None, deadlines=[], log=[],
                      table_message_id=None, table_message_at=0.0, created_at=0.0, updated_at=0.0, seats=seats)


def test_the_lobby_names_armies_and_how_many_each_takes() -> None:
    text = render_lobby(lobby("kniggits", [0]), get_engine("kniggits")).embed.description or ""
    assert "**Army A (1 or 2 players)**" in text and "**Army B (1 or 2 players)**" in text
    assert "Team" not in text and "1-2" not in text
    tarot = render_lobby(lobby("tarot", [0, 1]), get_engine("tarot")).embed.description or ""
    assert "**Team A (1/2)**" in tarot and "**Team B (1/2)**" in tarot


def test_the_join_dm_promises_a_panel_not_a_hand() -> None:
    ui = UIS["kniggits"]
    assert isinstance(ui, KniggitsUI) and "hand" not in ui.private_noun and ui.hand_button == "✋"
    assert UIS["tarot"].private_noun == "hand"


def deploying(players: int = 2) -> dict[str, Any]:
    state = ENGINE.new_game(players, 7, {})
    for army in state["armies"]:
        state = act(state, army[0], {"type": "accept"})
    for seat in range(players):
        state = act(state, seat, {"type": "army", "lines": "Lance 3 2 2\nMace 2 3 2"})
        state = act(state, seat, {"type": "lock"})
    assert state["phase"] == "deploy"
    return state


def test_army_bs_deployment_form_names_b_kniggits_in_bs_rows() -> None:
    state = deploying()
    b_seat = state["armies"][1][0]
    view = ENGINE.view(state, b_seat)
    from tests.runtime.test_presentation import record_for
    screen = UIS["kniggits"].private(view, b_seat, table_info(record_for("kniggits", state, 1)))
    assert screen is not None
    form = next(c for c in screen.controls if isinstance(c, FormButton) and c.label.startswith("Place"))
    example = form.fields[0].placeholder
    zone = view["me"]["deploy"]["zone"] if "deploy" in view["me"] else None
    assert example.startswith("B1 ") and "A1" not in example, example
    assert "A1" not in (screen.card.description or ""), screen.card.description
    if zone:
        assert example.splitlines()[0].endswith(f",{zone[0]}")
    act(state, b_seat, {"type": "deploy", "lines": example})  # the example itself is accepted


def test_an_army_line_that_cannot_be_used_is_quoted() -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_lines("Lance 2 2 2\nGiant 2 2 999")
    assert "Line 2" in caught.value.message and "`Giant 2 2 999`" in caught.value.message
    assert caught.value.rule == "K2"
    with pytest.raises(IllegalAction) as caught:
        parse_lines("Lance 2 2 two")
    assert "line 1" in caught.value.message and "`Lance 2 2 two`" in caught.value.message


def test_the_turn_limit_is_won_on_strength_not_points() -> None:
    from cogs.table.ui import TableInfo
    outcome = {"reason": "on_points", "teams": [[0], [1]],
               "detail": {"winner": "B", "strength": {"A": 11, "B": 16}, "on_points": True}}
    text = UIS["kniggits"].result_reason(outcome, TableInfo(game_id=1, seats=[], finished=True))
    assert "wins on strength after the turn limit (strength A 11 – B 16)" in text and "points" not in text
    assert UIS["kniggits"].result_score(16.0) == "army strength 16"
