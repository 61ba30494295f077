"""The engine protocol every game implements (see DESIGN.md).

An engine is a stateless object whose methods are pure functions of a JSON-compatible
state dict. The runtime stores the state, asks `to_act` who is awaited, feeds player
actions to `apply` and renders `view`s. Nothing here touches I/O, the clock or the
global RNG: randomness comes from `Rng`, whose seed and counter live inside the state.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any, ClassVar, Generic, TypeVar, overload

import orjson

from games.outcome import Outcome as Outcome  # how a game ended, in its own module
from games.rng import Rng as Rng  # the contract's chance, in its own module

JSON = Any
State = dict[str, Any]
Action = dict[str, Any]
#: A game's public view and one seat's view: the TypedDicts its `schema.py` declares. An engine,
#: policy or UI left unparameterised (`Engine`) reads plain dicts (Any).
PublicT = TypeVar("PublicT", bound=Mapping[str, Any])
SeatT = TypeVar("SeatT", bound=Mapping[str, Any])
#: The same for the engine, which only makes views: covariant, so every game's engine is an
#: `Engine[Mapping[str, Any], Mapping[str, Any]]` (games.registry.AnyEngine, the runtime's).
PublicT_co = TypeVar("PublicT_co", bound=Mapping[str, Any], covariant=True)
SeatT_co = TypeVar("SeatT_co", bound=Mapping[str, Any], covariant=True)


def copy_state(state: State) -> State:
    """A private copy of a JSON state for `play` to change: a JSON round trip (which is what
    the state must survive anyway) through orjson, ~20x faster than `json` or `deepcopy`;
    non-string keys become strings exactly as `json` makes them."""
    copied: State = orjson.loads(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS))  # a dict in, a dict out
    return copied


class IllegalAction(Exception):
    """A player tried something the rules forbid.

    `message` is a sentence for the player. Where it names players it says `{who}`-style
    placeholders and `seats` maps each to a seat, so the interface fills in real names
    (`IllegalAction("It is {turn}'s turn.", seats={"turn": 2})`); engines never write a
    player's name. `rule` cites the rule applied ("7", "R4"), where the game numbers them.
    """

    def __init__(self, message: str, *, rule: str | None = None,
                 seats: Mapping[str, int] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.seats = dict(seats or {})

    def render(self, name_of: Callable[[int], str]) -> str:
        """The sentence with every seat placeholder replaced by `name_of(seat)`."""
        if not self.seats:
            return self.message
        return self.message.format_map({key: name_of(seat) for key, seat in self.seats.items()})


@dataclass(frozen=True)
class Option:
    """One variant option of a game, offered on `/<game> new`."""

    name: str
    description: str
    default: bool | int | str
    choices: tuple[Any, ...] = ()

    def coerce(self, value: Any) -> Any:
        if value is None:
            return self.default
        if isinstance(self.default, bool):
            if isinstance(value, str):
                return value.strip().lower() in {"1", "true", "yes", "on"}
            return bool(value)
        if isinstance(self.default, int):
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise IllegalAction(f"Option `{self.name}` must be a whole number.") from None
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise IllegalAction(f"Option `{self.name}` must be one of: {allowed}.")
        return value


@dataclass(frozen=True)
class Wait:
    """One seat the game is waiting for — or, with `seat=None`, the game itself (a random
    delay before "GO!", a round that resolves at its deadline): such a wait has no player to
    name, and its `default` is applied with seat None when `timeout` runs out.

    `key` names the thing awaited ("roll", "offer", "gesture"); while the same (seat, key)
    stays awaited across actions the runtime keeps its deadline instead of restarting it.
    When `timeout` seconds pass, the runtime applies `default` for that seat as if the
    player had sent it; `default=None` means the wait never expires.

    `independent` says the seats awaited under this key choose independently (a roll-off, a
    reaction window, rock-paper-scissors): another seat's answer does not change what this
    one is choosing, so a button drawn before that answer still counts.

    `countdown=False` hides when the wait ends (a random delay before "GO!" must stay a
    surprise): the table names the wait but shows no clock.

    `optional=True` marks a prompt the seat may ignore (an applause): the game goes on without
    it. A seat awaited only for that is told again when something it must answer comes.
    """

    seat: int | None
    key: str
    prompt: str
    timeout: float | None = None
    default: Action | None = None
    independent: bool = False
    countdown: bool = True
    optional: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Event:
    """Something that happened, as facts (seats, cards, amounts, words) for the game's
    interface to put into words with the players' names. `to=None`: everyone may see it;
    otherwise only the seats listed."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    to: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        """A copy as JSON (what `asdict` gives, without its deep copy of every number and
        string: every logged event is worded through this, once per step)."""
        return {"type": self.type, "data": _copied(self.data), "to": list(self.to) if self.to is not None else None}


def _copied(value: Any) -> Any:
    """`value` with its containers copied (as `asdict` copies them); strings and numbers are
    immutable and shared."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_copied(v) for v in value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return asdict(value) if is_dataclass(value) and not isinstance(value, type) else copy.deepcopy(value)


@dataclass(frozen=True)
class Secret:
    """Where one hidden item lives in the state, and who may see it.

    `path` leads into the state's JSON (keys and list indexes). `owner` is the one seat that
    may see it; None means nobody (deck order, a face-down discard, a pending default), and
    `shared` names any other seats that may (teammates' common draft). Items
    of one `pool` may stand in for each other (any card for a card, any shape for a shape):
    the contract suite swaps each secret for another value of its pool and checks that no
    view but the owner's changes. The RNG is always secret and need not be declared.
    """

    owner: int | None
    path: tuple[str | int, ...]
    pool: str = ""
    #: Other seats that may see it too (a draft shared by the players of one army).
    shared: tuple[int, ...] = ()


class Engine(Generic[PublicT_co, SeatT_co]):
    """Base of every game engine. Subclasses set the class attributes and implement the
    methods marked below; `apply` copies the state so `play` may mutate freely. A game with a
    schema names its views: `class HallwayEngine(Engine[PublicView, SeatView])`.

    Reserved state keys: `rng` (see `Rng`), `players` (seat count), `forfeit` (set by
    the default `forfeit`).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = ""
    #: Bumped when a rule changes how a recorded game replays (game records name it).
    version: ClassVar[int] = 1
    #: Values a secret of each pool may take (see `Secret`), beyond those found in the state.
    secret_pools: ClassVar[Mapping[str, Sequence[Any]]] = {}
    #: Team names for a partnership lobby (("A", "B")): players join a team, each team holds
    #: exactly max_players // len(lobby_teams) players, and at the start team i takes seats
    #: i*k … i*k+k-1 (partners side by side). Empty: one list of players, no teams.
    lobby_teams: ClassVar[tuple[str, ...]] = ()
    #: What the game calls a lobby team, in "Team A" (Kniggits: "Army A").
    team_noun: ClassVar[str] = "Team"
    #: The option the runtime sets at the start to the seat of the sole winner of this server's
    #: previous game of this kind, the reigning champion (-1: none, or not at this table). It is
    #: not offered on `/<game> new`; it is recorded with the other options, so replays match.
    champion_option: ClassVar[str | None] = None
    #: An engine that stores its own deadlines in the state (races judged against them) sets
    #: the action the runtime applies, with seat None and now = the restart, each time the bot
    #: starts again with the game running: the engine moves the deadlines that passed while
    #: nobody could press and re-keys its waits. None: the runtime's restart grace suffices.
    resume_action: ClassVar[Action | None] = None
    #: True when `view(state, seat)` is the same for every seat and the table (nothing is
    #: hidden): the runtime computes and compares one view per state instead of one per seat.
    one_view: ClassVar[bool] = False
    #: (fewest, most) players per team, for a team lobby whose teams may differ in size
    #: (Kniggits: armies of one or two). None: every team holds exactly `team_size()`. The
    #: sizes the lobby started with reach `setup` as `options["team_sizes"]` (seats grouped
    #: by team, in team order), so records and replays carry them like any option.
    team_sizes: ClassVar[tuple[int, int] | None] = None

    # ----- to implement -------------------------------------------------------------
    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        """Build the initial state (include `"rng": rng_state`)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def waits(self, state: State) -> list[Wait]:
        """Who must act now (empty when the game is over)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action `seat` may take now, where the set is finite and listable."""
        raise NotImplementedError  # pragma: no cover - abstract

    def play(self, state: State, seat: int, action: Action, now: float) -> list[Event]:
        """Apply `action` to `state` in place (it is already a private copy) or raise."""
        raise NotImplementedError  # pragma: no cover - abstract

    @overload
    def view(self, state: State, seat: None) -> PublicT_co: ...
    @overload
    def view(self, state: State, seat: int) -> SeatT_co: ...
    def view(self, state: State, seat: int | None) -> PublicT_co | SeatT_co:
        """What `seat` may see; `None` is the public view shown in the channel."""
        raise NotImplementedError  # pragma: no cover - abstract

    def views(self, state: State, seats: Sequence[int | None]) -> dict[int | None, Any]:
        """`view(state, seat)` of each of `seats` at once, as a commit compares them: an engine
        whose seats' views share a public part may work it out once (equal to asking one by one)."""
        return {seat: self.view(state, seat) for seat in seats}

    def result(self, state: State) -> Outcome | None:
        """The outcome once the rules say the game is over, else None."""
        raise NotImplementedError  # pragma: no cover - abstract

    def secrets(self, state: State) -> list[Secret]:
        """Where the hidden items are right now (hands, pending picks, deck order).

        The contract suite changes each one in turn and checks that every other seat's view
        and the public view stay byte-identical. Engines with no hidden information (beyond
        the RNG, which is always checked) keep the default.
        """
        return []

    def choices(self, state: State) -> list[dict[str, Any]]:
        """The secret-choice rounds open now (`games.choices` boxes), so the runtime can
        answer a second press of a choice with "you already chose"."""
        return []

    def prepare(self) -> None:
        """Build what every game of this kind shares, once per process (a dictionary index).
        The bot calls it at start-up, off the event loop, so no player's first move pays for it."""

    # ----- provided -----------------------------------------------------------------
    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(
                f"{self.title} needs {self.player_range()} players, not {players}."
            )
        state = self.setup(players, Rng.initial(seed), self.resolve_options(options or {}))
        state.setdefault("players", players)
        return state

    def resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        known = {opt.name: opt for opt in self.options}
        unknown = set(given) - set(known) - ({"team_sizes"} if self.team_sizes else set())
        if unknown:
            raise IllegalAction(f"Unknown option: {', '.join(sorted(unknown))}.")
        resolved = {name: opt.coerce(given.get(name)) for name, opt in known.items()}
        if self.team_sizes and given.get("team_sizes") is not None:
            resolved["team_sizes"] = self.checked_team_sizes(given["team_sizes"])
        return resolved

    def checked_team_sizes(self, sizes: Any) -> list[int]:
        """The per-team player counts of a started team lobby, refused unless each team's
        count is within `team_bounds()`."""
        low, high = self.team_bounds()
        if (not isinstance(sizes, list) or len(sizes) != len(self.lobby_teams)
                or not all(isinstance(n, int) and not isinstance(n, bool) and low <= n <= high for n in sizes)):
            raise IllegalAction(f"Each team needs {low}-{high} players.")
        return list(sizes)

    def player_range(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"

    def to_act(self, state: State) -> list[Wait]:
        if self.outcome(state) is not None:
            return []
        return self.waits(state)

    def apply(self, state: State, seat: int | None, action: Action, now: float) -> tuple[State, list[Event]]:
        """`play` on a copy. Seat None is the game itself: a seatless wait's default (`Wait`) or
        the `resume_action`, which only an engine that declares them is ever given."""
        if self.outcome(state) is not None:
            raise IllegalAction("This game is already over.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("That is not an action this game understands.")
        new_state = copy_state(state)
        # Such an engine's `play` takes `int | None` (Words, Fencing); the others keep `int`.
        events = self.play(new_state, seat, action, now)  # type: ignore[arg-type]
        return new_state, events

    def forfeit(self, state: State, seat: int, now: float) -> tuple[State, list[Event]]:
        """A player leaves. By default the game ends at once and the leaver ranks last;
        partners of the leaver (if `result` would report teams) share the last place, unrated."""
        new_state = copy_state(state)
        new_state["forfeit"] = seat
        return new_state, [Event("forfeit", {"seat": seat})]

    def outcome(self, state: State) -> Outcome | None:
        if "forfeit" in state:
            return self.forfeit_outcome(state, state["forfeit"])
        return self.result(state)

    def forfeit_outcome(self, state: State, leaver: int) -> Outcome:
        teams = self.teams(state)
        losers = {leaver}
        if teams:
            losers = set(next(t for t in teams if leaver in t))
        ranks = tuple(1 if seat in losers else 0 for seat in range(state["players"]))
        return Outcome(ranks=ranks, teams=teams, reason="forfeit", detail={"seat": leaver},
                       unrated=tuple(sorted(losers - {leaver})))

    def option_warnings(self, options: dict[str, Any]) -> list[str]:
        """Advice on a combination of options the rules allow but caution against, shown in
        the lobby before anyone starts (resolved options in)."""
        return []

    def teams(self, state: State) -> tuple[tuple[int, ...], ...] | None:
        """Partnerships, if the game has them (used for forfeits and ratings)."""
        return None

    def team_size(self) -> int:
        """Players per team in a partnership lobby (0: no teams); the most, where teams may
        differ in size."""
        return self.team_bounds()[1]

    def team_name(self, team: int) -> str:
        """"Team A", "Army B": a lobby team as players read it."""
        return f"{self.team_noun} {self.lobby_teams[team]}"

    def team_bounds(self) -> tuple[int, int]:
        """(fewest, most) players per team in a team lobby ((0, 0): no teams)."""
        if not self.lobby_teams:
            return (0, 0)
        if self.team_sizes is not None:
            return self.team_sizes
        size = self.max_players // len(self.lobby_teams)
        return (size, size)
