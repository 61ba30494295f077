"""What a press makes leaves no reference cycles behind: objects in a cycle outlive their use
until the garbage collector sweeps them, and at 1,000 live games those sweeps (130-210 ms each)
set the slowest answers. A screen's controls let their items go once drawn, and a press's
watch lets its interaction go once it is answered."""

from __future__ import annotations

import gc
import io
from collections.abc import Iterator
from types import SimpleNamespace

import discord
import pytest

from cogs.table.controls import build_modal
from cogs.table.deferral import WATCH, watched
from cogs.table.intake import carried_by_message
from cogs.table.present import Picture, build_view
from cogs.table.ui import Button, Card, Choice, Field, FormButton, Screen, Select


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def screen() -> Screen:
    return Screen(Card(title="Hallway", description="your turn"),
                  controls=[Button("Roll", {"type": "roll"}, "primary", "🎲"),
                            Button("Pass", {"type": "pass"}, "secondary"),
                            Select("Play a card", [Choice(f"card {n}", {"type": "play", "card": n}) for n in range(5)])])


async def test_drawn_controls_leave_no_cycle(no_collector: None) -> None:
    for version in range(50):
        view = build_view(7, version, screen(), hand_button=True)
        assert view is not None
        rows = view.to_components()
        assert [len(row["components"]) for row in rows] == [2, 1, 1]  # the buttons, the menu, My hand
        del view
    assert gc.collect() == 0


async def test_drawn_controls_keep_their_payload_and_take_nothing_more() -> None:
    view = build_view(7, 1, screen(), hand_button=False)
    assert view is not None
    rows = view.to_components()
    assert view.to_components() is rows and view.children == []
    with pytest.raises(RuntimeError):
        view.add_item(discord.ui.Button(label="late", custom_id="x"))


class FakeInteraction(SimpleNamespace):
    pass


async def test_an_answered_press_lets_its_watch_go(no_collector: None) -> None:
    for n in range(50):
        interaction = FakeInteraction(extras={}, message=None, id=n,
                                      created_at=discord.utils.utcnow())
        async with watched(interaction) as watch:  # type: ignore[arg-type]
            assert interaction.extras[WATCH] is watch
        assert WATCH not in interaction.extras
        del interaction, watch
    assert gc.collect() == 0


async def test_a_sent_picture_frees_its_png_with_the_last_reference(no_collector: None) -> None:
    for _ in range(20):
        picture = Picture(io.BytesIO(b"\x89PNG" + bytes(4096)), filename="table.png")
        picture.reset()
        assert picture.fp.read(4) == b"\x89PNG"
        picture.close()  # what discord.py does once the request is sent
        assert not picture.fp.closed  # discord.py may retry: the buffer stays readable
        del picture
    assert gc.collect() == 0


async def test_discord_py_file_would_leave_a_cycle(no_collector: None) -> None:
    """The reason for `Picture`: this test fails once discord.py stops making the cycle."""
    plain = discord.File(io.BytesIO(b"png"), filename="x.png")
    plain.close()
    del plain
    assert gc.collect() > 0


async def test_checking_the_pressed_component_leaves_no_cycle(no_collector: None) -> None:
    row = {"type": 1, "components": [{"type": 2, "custom_id": "k:1", "label": "Roll"}]}
    for custom_id, carried in (("k:1", True), ("forged", False)) * 10:
        interaction = FakeInteraction(data={"custom_id": custom_id, "component_type": 2},
                                      _message_data={"id": "5", "components": [row]})
        assert carried_by_message(interaction) is carried  # type: ignore[arg-type]
        del interaction
    assert gc.collect() == 0


async def test_an_opened_form_lets_its_fields_go(no_collector: None) -> None:
    form = FormButton("Offer", "Make an offer", [Field("amount", "Points", integer=True), Field("note", "Note")],
                      {"type": "offer"})
    for version in range(20):
        modal = build_modal(form, f"rp:m:7:{version}")
        payload = modal.to_dict()  # what send_modal sends
        assert [row["components"][0]["custom_id"] for row in payload["components"]] == ["amount", "note"]
        assert modal.to_dict()["components"] is payload["components"] and modal.children == []
        del modal
    assert gc.collect() == 0
