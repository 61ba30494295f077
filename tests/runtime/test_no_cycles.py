"""What a press makes leaves no reference cycles behind: objects in a cycle outlive their use
until the garbage collector sweeps them, and at 1,000 live games those sweeps (130-210 ms each)
set the slowest answers. A screen's controls let their items go once drawn, and a press's
watch lets its interaction go once it is answered."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from types import SimpleNamespace

import discord
import pytest

from cogs.table.deferral import WATCH, watched
from cogs.table.present import build_view
from cogs.table.ui import Button, Card, Choice, Screen, Select


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
        assert view is not None and len(view.children) == 4
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
