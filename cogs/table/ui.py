"""What a game's interface is made of, described without discord.py.

A game's cog module provides a `GameUI` that turns views into `Screen`s: an embed-like
card, an optional image (a PNG drawn from the same view) and `Control`s. The table runtime
turns them into real embeds, files, buttons, selects and modals, wires every control to
the one action loop, and adds what every game shares (who we wait for, time left, log).

Controls carry the engine action they send. The runtime encodes it (with the game id and
state version) into the component's custom_id, so it must stay small: Discord allows 100
characters per custom_id and the prefix takes about 20.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal

from cogs.table.wording import plural
from games.core import PublicT, SeatT

Style = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class Button:
    """A button that sends `action` for the presser's seat.

    `lasting`: the action names what it acts on (a challenge of change #12), so the engine
    alone judges whether it still applies; the button is drawn without a state version,
    never refused as "from an earlier turn", and does not make the table stale."""

    label: str
    action: dict[str, Any]
    style: Style = "secondary"
    emoji: str | None = None
    disabled: bool = False
    row: int | None = None
    lasting: bool = False


@dataclass(frozen=True)
class Choice:
    """One option of a `Select`; `default=True` shows it already picked (the kniggit the
    move panel is about). Picking it still sends its action."""

    label: str
    action: dict[str, Any]
    description: str | None = None
    emoji: str | None = None
    default: bool = False


@dataclass(frozen=True)
class Select:
    """A select menu (≤ 25 choices); picking one sends that choice's action.

    With `pick > 1` the player picks exactly `pick` choices at once (discard two cards). Each
    choice's action then holds a one-item list under the key `gather` and is otherwise the
    same as the others; what reaches the engine is that common action with the picked items'
    lists joined in the order the choices are listed: `{"type": "discard", "cards": ["CU-10"]}`
    and `{"type": "discard", "cards": ["SW-2"]}` picked together send
    `{"type": "discard", "cards": ["CU-10", "SW-2"]}`."""

    placeholder: str
    choices: Sequence[Choice]
    row: int | None = None
    pick: int = 1
    gather: str | None = None

    def joined(self, picked: Sequence[Choice]) -> dict[str, Any]:
        """The action sent when `picked` (in listed order) are chosen together."""
        if self.gather is None or not picked:
            return dict(picked[0].action) if picked else {}
        key = self.gather
        return {**picked[0].action, key: [item for c in picked for item in c.action[key]]}


@dataclass(frozen=True)
class Field:
    """One text input of a modal. With `integer=True` the runtime turns the text into an
    int before the action reaches the engine (non-numbers get a friendly refusal);
    ranges and every other rule stay the engine's to check. `paragraph=True` gives a
    multi-line box (an army list, one kniggit a line)."""

    name: str
    label: str
    placeholder: str = ""
    integer: bool = False
    max_length: int = 20
    required: bool = True
    paragraph: bool = False


@dataclass(frozen=True)
class FormButton:
    """A button that opens a modal; the submitted fields are merged into `action`."""

    label: str
    title: str
    fields: Sequence[Field]
    action: dict[str, Any]
    style: Style = "primary"
    emoji: str | None = None
    row: int | None = None


Control = Button | Select | FormButton


@dataclass(frozen=True)
class Param:
    """One option of a game's slash shortcut. `choices` are fixed (value → label shown);
    `suggest` autocompletes from the player's own view: (view, seat) → [(label, value)], or
    (view, seat, info) → … to word the labels with the players' names. `required=False`
    makes the option optional; left out, it is absent from what `build` receives."""

    name: str
    description: str
    integer: bool = False
    choices: Mapping[str, str] = field(default_factory=dict)
    suggest: Callable[..., Sequence[tuple[str, str]]] | None = None
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True


@dataclass(frozen=True)
class Shortcut:
    """`/<game> <name> [params]`: a slash alternative to a control. `build` turns the
    options into the engine action; the engine judges it like any button press."""

    name: str
    description: str
    build: Callable[[dict[str, Any]], dict[str, Any]]
    params: Sequence[Param] = ()


@dataclass(frozen=True)
class Lookup:
    """`/<game> <name> [params]`: something to look up, shown only to the caller (the last
    trick, the score, the map). `show(view, info)` — or `show(view, info, options)` when it
    has `params` — returns a `Card`, or a `Screen` whose picture comes along (its controls
    are ignored). It draws from the public view, so it can reveal nothing more than the
    table; with `private=True`, from the caller's own seat view (a kniggit's reach, only
    for its owner), and only seated players may ask."""

    name: str
    description: str
    show: Callable[..., Card | Screen]
    params: Sequence[Param] = ()
    private: bool = False


def press(kind: str, **fixed: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A `Shortcut.build` that sends `{"type": kind, **fixed, **options}`."""
    return lambda options: {"type": kind, **fixed, **options}


@dataclass(frozen=True)
class Card:
    """An embed, described plainly (Discord limits apply: title 256, description 4096,
    ≤ 25 fields of 256/1024)."""

    title: str
    description: str = ""
    fields: Sequence[tuple[str, str, bool]] = ()  # (name, value, inline)
    colour: int = 0x5865F2
    footer: str = ""


@dataclass
class Screen:
    """One message's worth of a game: a card, an image made on demand, and controls.

    `image` is called on the event loop (a picture takes about half a millisecond; see
    `present.image_file`); it must draw only from the view it was given. `image_key`, when the UI knows it, is what the picture is
    drawn from, narrower than the view (a seat's cards, not its whole view): screens of a game
    with the same key and `image_name` show the same picture, so the edge draws it once and
    keeps it, on the event loop, however the rest of the view moves (JSON data: lists, dicts,
    strings, numbers).
    """

    card: Card
    image: Callable[[], bytes] | None = None
    image_name: str = "board.png"
    controls: list[Control] = field(default_factory=list)
    #: A table may relabel its "My hand" button while every player should look at their own
    #: screen (an Ace of Allegiance: "Respond"); everyone gets it, so pressing reveals nothing.
    hand_label: str | None = None
    image_key: object = None


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: int
    name: str

    @property
    def mention(self) -> str:
        return f"<@{self.user_id}>"


@dataclass(frozen=True)
class TableInfo:
    """Facts about the table the runtime knows and a game's UI may print."""

    game_id: int
    seats: Sequence[Seat]
    finished: bool = False

    def name_of(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.seats):
            return "nobody"
        return self.seats[seat].name

    def mention_of(self, seat: int) -> str:
        return self.seats[seat].mention


class GameUI(Generic[PublicT, SeatT]):
    """Base for each game's interface. Subclasses set `name` (the engine's name) and
    override `table` and, for games with private information, `private`. A game with a
    schema names the views it reads: `class HallwayUI(GameUI[PublicView, SeatView])`."""

    name: ClassVar[str]
    #: Short rules summary shown by `/rules <game>` (markdown, ≤ 4,000 characters).
    rules: ClassVar[str] = ""
    colour: ClassVar[int] = 0x5865F2
    #: Private event types that also ping their seats by DM (a choice only they may make,
    #: which the table must not show: "you may call an allegiance").
    nudges: ClassVar[frozenset[str]] = frozenset()
    #: Public things to look up with `/<game> <name>` (ephemeral).
    lookups: ClassVar[Sequence[Lookup]] = ()
    #: What a seat's private message is called in the lobby's DM check ("your hand will arrive by
    #: DM"), and the table button that shows it when DMs are closed.
    private_noun: ClassVar[str] = "hand"
    hand_button: ClassVar[str] = "My hand"
    #: The game's own slash subcommands (`/<game> roll` …), alternatives to its controls.
    shortcuts: ClassVar[Sequence[Shortcut]] = ()

    def table(self, view: PublicT, info: TableInfo) -> Screen:
        """The public table message, from the public view."""
        raise NotImplementedError  # pragma: no cover - abstract

    def private(self, view: SeatT, seat: int, info: TableInfo) -> Screen | None:
        """A seat's private message (DM, or the ephemeral "My hand"); None if the game
        has nothing private for this seat."""
        return None

    def private_key(self, view: SeatT, seat: int) -> Hashable | None:
        """What the seat's private message is drawn from, when the UI can name it more narrowly
        than the view (a waiting seat's hand): two views of a seat with equal keys give equal
        `private` screens for the same table, and the edge draws the message once for both
        (`kept_screens.py`). None (the default): the message is drawn from the whole view."""
        return None

    def team_chat(self, options: dict[str, Any]) -> bool:
        """Whether partners get a private thread per team (and `/<game> confer`) in a game
        with these lobby options; only for games whose engine reports teams."""
        return False

    def lobby_notes(self, options: dict[str, Any]) -> list[str]:
        """Lines the lobby shows under its players: what an option given or left at its
        default means at this table (partners' private threads, say)."""
        return []

    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        """One line for an event (`{"type", "data", "to"}`), in the game's words with the
        players' names; None hides it. Engines give facts, never sentences: each game words
        its own events here. The default words only what the runtime itself causes."""
        data = event.get("data") or {}
        if event.get("type") == "forfeit":
            return f"{info.name_of(data.get('seat'))} left the game."
        return None

    def result_score(self, score: float) -> str:
        """A final score in the result with its unit: "12 points"; a game whose score is not
        points names its own ("2 bumpers", "army strength 23")."""
        return plural(score, "point")

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        """How the game ended (`Outcome.to_json()`), with names: "alice wins on letters, 10-8-8"."""
        detail = outcome.get("detail") or {}
        if outcome.get("reason") == "forfeit":
            return f"{info.name_of(detail.get('seat'))} left the game."
        return str(outcome.get("reason") or "").replace("_", " ")
