"""Each game's pictures drawn once before the bot connects (cogs/table/warmup.py): the table
and a seat's private picture of every game with a UI, a game that fails skipped, not fatal."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.table.registry import UIS, load_builtin_uis
from cogs.table.warmup import warm_pictures
from games.registry import BUILTIN_GAMES


def recording(ui: Any, drawn: list[tuple[str, str]], which: str) -> Any:
    original = getattr(ui, which)

    def screen(*args: Any) -> Any:
        shown = original(*args)
        if shown is not None and shown.image is not None:
            image = shown.image
            shown.image = lambda: (drawn.append((ui.name, which)), image())[1]
        return shown
    return screen


def test_every_game_draws_its_table_picture_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    load_builtin_uis()
    drawn: list[tuple[str, str]] = []
    for ui in UIS.values():
        for which in ("table", "private"):
            monkeypatch.setattr(ui, which, recording(ui, drawn, which))
    took = warm_pictures()
    assert set(took) == set(UIS)
    assert {kind for kind, which in drawn if which == "table"} >= set(BUILTIN_GAMES)
    assert ("tarot", "private") in drawn  # a hand with cards on it


def test_a_game_that_cannot_be_drawn_is_skipped(monkeypatch: pytest.MonkeyPatch,
                                               caplog: pytest.LogCaptureFixture) -> None:
    load_builtin_uis()
    drawn: list[tuple[str, str]] = []

    def broken(*args: Any) -> Any:
        raise RuntimeError("no fonts here")

    monkeypatch.setattr(UIS["fencing"], "table", broken)
    monkeypatch.setattr(UIS["words"], "table", recording(UIS["words"], drawn, "table"))
    took = warm_pictures()
    assert "fencing" in took and ("words", "table") in drawn
    assert "could not draw the pictures of fencing ahead" in caplog.text
