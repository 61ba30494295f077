"""Form values: integer fields take plain whole numbers only; anything else is a refusal,
never a crash. `/<game> do` sends only what the seat's controls offer."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.table import registry
from cogs.table.codec import pack
from cogs.table.controls import offered_action, read_field
from cogs.table.ui import Field, FormButton, Screen, TableInfo
from games.registry import get_engine
from runtime.errors import Refusal
from storage import GameRecord, SeatRecord, Status
from tests.engines.tokens_ui import TokensUI

AMOUNT = Field("amount", "Amount", integer=True)


@pytest.mark.parametrize(("raw", "value"), [("0", 0), (" 42 ", 42), ("-3", -3), ("+7", 7),
                                            ("999999999", 999_999_999)])
def test_whole_numbers_are_read(raw: str, value: int) -> None:
    assert read_field(AMOUNT, raw) == value


@pytest.mark.parametrize("raw", ["", "abc", "2.5", "--3", "-", "³", "٣", "１２", "1 000", "1234567890", "0x10"])
def test_anything_else_is_refused_with_the_field_name(raw: str) -> None:
    with pytest.raises(Refusal, match="Amount: please enter a whole number"):
        read_field(AMOUNT, raw)


def test_text_fields_are_trimmed_not_judged() -> None:
    assert read_field(Field("word", "Word"), "  hello ") == "hello"


# -- `/<game> do`: only what the seat's controls offer now ---------------------------------------------
class BiddingTokensUI(TokensUI):
    """Tokens with a form on the hand: a bid of a whole number."""

    def private(self, view: dict[str, Any], seat: int, info: TableInfo) -> Screen | None:
        screen = super().private(view, seat, info)
        if screen is not None and view["turn"] == seat:
            screen.controls.append(FormButton("Bid", "Your bid", [AMOUNT], {"type": "bid"}))
        return screen


@pytest.fixture
def bidding(monkeypatch: pytest.MonkeyPatch) -> GameRecord:
    monkeypatch.setitem(registry.UIS, "tokens", BiddingTokensUI())
    state = get_engine("tokens").new_game(2, 7, {"hand": 2})
    return GameRecord(
        id=3, guild_id=1, channel_id=2, thread_id=None, kind="tokens", host_id=10, options={},
        status=Status.ACTIVE, version=4, seed=7, state=state, deadlines=[], log=[], table_message_id=None,
        table_message_at=None, created_at=0.0, updated_at=0.0,
        seats=[SeatRecord(0, 10, "ana"), SeatRecord(1, 11, "ben")],
    )


def test_do_sends_an_offered_action_as_offered(bidding: GameRecord) -> None:
    token = bidding.state["hands"][0][1]["id"]
    assert offered_action(bidding, 0, pack({"type": "play", "token": token}), "ignored") == {
        "type": "play", "token": token}


def test_do_fills_a_forms_field_and_nothing_else(bidding: GameRecord) -> None:
    assert offered_action(bidding, 0, pack({"type": "bid"}), " 12 ") == {"type": "bid", "amount": 12}
    with pytest.raises(Refusal, match="needs a value"):
        offered_action(bidding, 0, pack({"type": "bid"}), None)
    with pytest.raises(Refusal, match="whole number"):
        offered_action(bidding, 0, pack({"type": "bid"}), "lots")
    with pytest.raises(Refusal, match="not one of your options"):  # the filled form is not itself offered
        offered_action(bidding, 0, pack({"type": "bid", "amount": 12}), None)


@pytest.mark.parametrize("packed", [
    '{"type":"play","token":"s0t0","timeout":true}', '{"type":"play","token":"s0t0","x":1}',
    '{"type":"bid"}', "not json", "[]", "",
])
def test_do_refuses_what_no_control_offers(bidding: object, packed: str) -> None:
    with pytest.raises(Refusal, match="not one of your options"):
        offered_action(bidding, 1, packed, "3")  # seat 1: not its turn


def test_a_typed_value_is_held_to_the_fields_length() -> None:
    with pytest.raises(Refusal, match="at most 20 characters"):
        read_field(Field("word", "Word"), "x" * 4000)


def test_a_paragraph_field_is_a_multi_line_box() -> None:
    import discord

    from cogs.table.controls import build_modal

    form = FormButton("Army", "Your army", [Field("lines", "One kniggit a line", max_length=1000, paragraph=True),
                                             AMOUNT], {"type": "army"})
    boxes = build_modal(form, "m").children
    assert [box.style for box in boxes] == [discord.TextStyle.paragraph, discord.TextStyle.short]
    assert boxes[0].max_length == 1000
