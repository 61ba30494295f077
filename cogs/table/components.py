"""Stateless components: each carries what it needs in its custom_id.

A press of any of them (every custom_id starting with `rp:`) is read by the table edge from
the raw interaction (`TableEdge.on_interaction`: the id parsed once by `codec.parse`, a
select's values from the interaction's data), so a button drawn before a restart still works
after it, and an id it cannot read (a forgery, an older release's) is answered, not dropped.
Nothing of ours is stored with discord.py or dispatched by it: `TableItem` and `BuiltView` say
they are not dispatchable, so no view is kept per message (and no dynamic-item dispatch
rebuilds the pressed message's components as discord.py items on every press), and a form's
modal is never kept waiting for a submission that may not come.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

import discord

from cogs.table import codec
from cogs.table.rows import RowLayout
from runtime.computers import NAME_LENGTH, ROBOT, is_computer, shown_name
from storage import GameRecord


def sent(interaction: discord.Interaction) -> Mapping[str, Any]:
    """The interaction's data (custom_id, values, components, options, resolved) as the JSON it
    is: a forged one may hold anything, so each reader checks the fields it takes."""
    data: Mapping[str, Any] = interaction.data or {}
    return data


class TableItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=codec.ANY_ID):
    """Any component of ours (its template checks the custom_id is ours). Not dispatchable:
    discord.py never stores a view holding it, nor calls it; the edge reads its presses."""

    def is_dispatchable(self) -> bool:
        return False


class DrawnOnce:
    """Controls (a view, a modal) whose payload is made once, though a message's fingerprint,
    its version check and discord.py's send each ask for it. Once made, they let their items
    go: each item points back at its view, a cycle that only the garbage collector frees, and
    one is made per screen drawn or form opened (at 1,000 live games the young collections
    that swept them up took 130-210 ms each). After that the payload is all there is: no item
    can be added or removed."""

    _payload: list[dict[str, Any]] | None = None
    #: Controls laid out without discord.ui items (`BuiltView.laid_out`): their payload is its rows.
    layout: RowLayout | None = None

    def to_components(self) -> list[dict[str, Any]]:
        if self._payload is None:
            if self.layout is not None:
                self._payload = self.layout.rows()
            else:
                self._payload = super().to_components()  # type: ignore[misc]
                super().clear_items()  # type: ignore[misc]
        return self._payload

    def add_item(self, item: discord.ui.Item[Any]) -> Self:
        if self._payload is not None or self.layout is not None:
            raise RuntimeError("these controls were drawn already: add items before sending them")
        super().add_item(item)  # type: ignore[misc]
        return self

    def remove_item(self, item: discord.ui.Item[Any]) -> Self:
        if self._payload is not None:
            raise RuntimeError("these controls were drawn already: remove items before sending them")
        super().remove_item(item)  # type: ignore[misc]
        return self

    def clear_items(self) -> Self:
        self._payload = None
        super().clear_items()  # type: ignore[misc]
        return self


def version_bound(view: discord.ui.View | None) -> bool:
    """Whether controls carry an item tied to the state version they were drawn at (a press of it
    once the game moved on is stale): what their layout was told, else read from their ids."""
    if view is None:
        return False
    layout = getattr(view, "layout", None)
    if isinstance(layout, RowLayout):
        return layout.bound
    ids = [str(item.get("custom_id", "")) for row in view.to_components() for item in row.get("components", [])]
    return any(i.startswith(codec.VERSIONED_PREFIXES) and (route := codec.parse(i)) is not None
               and route.version != 0 for i in ids)


class BuiltView(DrawnOnce, discord.ui.View):
    """The controls of one screen, as drawn for a (game, version, seat). Not stored with
    discord.py: the edge dispatches every press of ours by its custom_id
    (`TableEdge.on_interaction`), so a stored view would only cost a walk of its items on every
    send and edit, and stay in memory per message. Every view of ours is one of these."""

    @classmethod
    def laid_out(cls, layout: RowLayout) -> BuiltView:
        """The view of controls laid out as payload (`cogs/table/rows.py`), not as discord.ui items."""
        view = cls(timeout=None)
        view.layout = layout
        return view

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        """Finished as drawn: `InteractionResponse.send_message` stores any unfinished view
        (dispatchable or not), and an ephemeral one with a 15-minute timeout of its own."""
        return True


class LobbyButton(TableItem, template=codec.ANY_ID):
    def __init__(self, game: int, verb: str, *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=codec.lobby_id(game, verb)))


class FormModal(DrawnOnce, discord.ui.Modal):
    """A modal whose submission the edge handles in `on_interaction` (so it works even
    if the bot restarted while the modal was open); its own on_submit does nothing.

    Finished from the start, so `send_modal` does not store it with discord.py: one closed
    without submitting (Discord says nothing then) would stay there, one per form opened."""

    def is_finished(self) -> bool:
        return True

    async def on_submit(self, interaction: discord.Interaction) -> None:  # pragma: no cover
        return None

    # Modal's own on_error (this signature) already drops BaseView's `item`: discord.py's override.
    async def on_error(  # type: ignore[override]
            self, interaction: discord.Interaction, error: Exception, /) -> None:
        return None  # a submission it could not read is answered by the edge all the same


def text_inputs(components: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Every (custom_id, value) of a modal submission, whatever the row/label nesting."""
    found: list[tuple[str, str]] = []
    for component in components:
        if not isinstance(component, dict):
            continue  # a forged submission: whatever it holds is ignored
        if "value" in component and "custom_id" in component:
            found.append((component["custom_id"], str(component["value"])))
        for key in ("components", "component"):
            nested = component.get(key)
            if isinstance(nested, dict):
                nested = [nested]
            if isinstance(nested, list):
                found.extend(text_inputs(nested))
    return found


# ----- computer players (`rp:c:` ids, handled by `computers.ComputerSeats`) --------------------
#: The name field of the modal that adds a computer.
NAME_FIELD = "name"


def add_computer_button(game: int, team: int | None = None, label: str = "Add computer") -> TableItem:
    return TableItem(discord.ui.Button(label=label[:80], emoji=ROBOT, style=discord.ButtonStyle.secondary,
                                       custom_id=codec.computer_id(game, "add", team)))


def remove_computer_select(game: GameRecord) -> TableItem | None:
    """"Remove a computer…": one option per computer seat of the lobby (None: no computer)."""
    options = [discord.SelectOption(label=shown_name(s)[:100], value=str(s.seat))
               for s in game.seats if is_computer(s)][:25]
    if not options:
        return None
    return TableItem(discord.ui.Select(custom_id=codec.computer_id(game.id, "rm"), placeholder="Remove a computer…",
                                       options=options, min_values=1, max_values=1))


def keep_or_end_view(game_id: int, seat: int, user: int) -> BuiltView:
    """To the host, after a computer took a leaver's seat."""
    view = BuiltView(timeout=None)
    view.add_item(TableItem(discord.ui.Button(label="Keep the computer", emoji=ROBOT,
                                              style=discord.ButtonStyle.success,
                                              custom_id=codec.offer_id("keep", game_id, seat, user))))
    view.add_item(TableItem(discord.ui.Button(label="End the game", style=discord.ButtonStyle.danger,
                                              custom_id=codec.offer_id("end", game_id, seat, user))))
    return view


def hand_to_computer_view(game: GameRecord, seat: int, host: int) -> BuiltView:
    """To the host, when the game found a player away."""
    view = BuiltView(timeout=None)
    view.add_item(TableItem(discord.ui.Button(label=f"Hand {game.seats[seat].name}'s seat to a computer"[:80],
                                              emoji=ROBOT, style=discord.ButtonStyle.primary,
                                              custom_id=codec.offer_id("afk", game.id, seat, host))))
    return view


def computer_name_modal(game: int, team: int | None, team_label: str | None) -> discord.ui.Modal:
    """The optional name of a computer being added (its submission comes back as a route)."""
    title = f"Add a computer to {team_label}" if team_label else "Add a computer player"
    modal = FormModal(title=title[:45], custom_id=codec.computer_id(game, "name", team), timeout=None)
    modal.add_item(discord.ui.TextInput(label="Name (optional)", custom_id=NAME_FIELD, required=False,
                                        max_length=NAME_LENGTH, placeholder="e.g. Ada"))
    return modal

