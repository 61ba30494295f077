"""`GameUI.private_key` and the private messages kept by it (`cogs/table/kept_screens.py`):
equal keys give equal screens on every step of seeded games of each game that names keys, a
kept message is what a fresh drawing would show, and it is never shown where it would be out
of date."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.table.kept_screens import KEPT_SCREENS, Basis, Kept, KeptScreens
from cogs.table.present import build_view, render_private
from cogs.table.registry import UIS, load_builtin_uis
from cogs.table.ui import GameUI, Screen
from games.registry import get_engine
from tests.playout import random_playout
from tests.runtime.test_built_controls import _info
from tests.runtime.test_presentation import record_for
from tests.runtime.test_presentation import shown as shown_message

load_builtin_uis()

GAMES = [("hallway", 2), ("words", 3), ("words", 5), ("tarot", 4), ("kniggits", 2), ("fencing", 3)]
#: The games whose UI names a private key (the others draw every private message from the view).
KEYED = [(kind, players) for kind, players in GAMES if type(UIS[kind]).private_key is not GameUI.private_key]


def test_fighting_words_names_its_waiting_seats_keys() -> None:
    assert {kind for kind, _ in KEYED} == {"words"}  # a game that names keys is checked below


def shown(screen: Screen | None, version: int) -> str:
    """Everything a private screen puts in its message (controls as drawn at `version`)."""
    if screen is None:
        return "none"
    view = build_view(9, version, screen, hand_button=False)
    card = screen.card
    return json.dumps([card.title, card.description, card.fields, card.footer, str(card.colour), screen.image_name,
                       screen.image_key, view.to_components() if view is not None else []], default=str)


@pytest.mark.parametrize(("kind", "players"), KEYED)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_equal_private_keys_give_equal_screens(kind: str, players: int, seed: int) -> None:
    engine, ui = get_engine(kind), UIS[kind]
    seen: dict[tuple[int, Any], str] = {}
    keyed = 0
    for version, state in enumerate(random_playout(engine, players, seed).states[:600]):
        info = _info(kind, state)
        for seat in range(players):
            view = engine.view(state, seat)
            key = ui.private_key(view, seat)
            if key is None:
                continue
            keyed += 1
            now = shown(ui.private(view, seat, info), version)
            assert seen.setdefault((seat, key), now) == now, f"seat {seat}, step {version}: equal keys, different screens"
    assert keyed > 100  # waiting seats are keyed on most steps


def kept(basis: Basis, version: int, *, bound: bool) -> Kept:
    return Kept(basis, version, bound, embed=None, controls=None, png=None, image_name=None, image_digest=None,
                fingerprint="f")


def test_a_kept_message_is_used_only_for_the_same_basis_and_its_version_when_bound() -> None:
    screens = KeptScreens(limit=3)
    info = object()
    basis = Basis(("waiting", ("A", "B")), (), True, False, "https://t", info)
    screens.put(1, 0, kept(basis, 5, bound=False))
    assert screens.get(1, 0, basis, 9) is not None  # nothing on it names the version
    for other in (basis._replace(key=("waiting", ("A",))), basis._replace(notes=("You drew a B",)),
                  basis._replace(live=False), basis._replace(hinted=True), basis._replace(jump_url=None),
                  basis._replace(info=object())):
        assert screens.get(1, 0, other, 5) is None
    assert screens.get(1, 1, basis, 5) is None and screens.get(2, 0, basis, 5) is None
    screens.put(1, 1, kept(basis, 5, bound=True))
    assert screens.get(1, 1, basis, 5) is not None and screens.get(1, 1, basis, 6) is None
    screens.drop(1, [0, 1])
    assert screens.get(1, 0, basis, 5) is None
    for game in range(4):  # bounded
        screens.put(game, 0, kept(basis, 5, bound=False))
    assert len(screens._kept) <= 3


async def test_a_waiting_seats_message_is_drawn_once_and_is_what_a_fresh_drawing_shows(monkeypatch: Any) -> None:
    """Through `render_private`: a waiting seat whose hand stayed the same while the game moved
    gets the kept message (its screen is not drawn again), equal to a fresh drawing of the new
    state; new notes draw it afresh."""
    engine, ui = get_engine("words"), UIS["words"]
    states = random_playout(engine, 3, 2).states
    step, seat = next((n, s) for n in range(1, len(states)) for s in range(3)
                      if (key := ui.private_key(engine.view(states[n], s), s)) is not None
                      and key == ui.private_key(engine.view(states[n - 1], s), s)
                      and engine.view(states[n], s) != engine.view(states[n - 1], s))
    game = record_for("words", states[step - 1], step)
    KEPT_SCREENS.drop(game.id, [seat])
    await render_private(game, engine, ui, seat, jump_url="https://discord.com/channels/1/2/99")
    drawn: list[int] = []
    real = type(ui).private

    def counted(self: Any, *args: Any) -> Any:
        drawn.append(1)
        return real(self, *args)

    monkeypatch.setattr(type(ui), "private", counted)
    game.state, game.version = states[step], step + 1  # the game moved; this seat only waited
    kept = await render_private(game, engine, ui, seat, jump_url="https://discord.com/channels/1/2/99")
    assert drawn == []  # the kept message, not drawn again
    KEPT_SCREENS.drop(game.id, [seat])
    fresh = await render_private(game, engine, ui, seat, jump_url="https://discord.com/channels/1/2/99")
    assert drawn == [1] and shown_message(kept) == shown_message(fresh)
    noted = await render_private(game, engine, ui, seat, jump_url="https://discord.com/channels/1/2/99",
                                 notes=["You drew a card."])
    assert drawn == [1, 1] and noted is not None and "You drew a card." in str(noted.embed.to_dict())
