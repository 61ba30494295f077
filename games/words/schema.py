"""Fighting Words' declared contract: the actions a player may send, the events the engine
emits, and the views the screens, pictures and computer player read (docs/engines.md).

The engine's `view` returns `PublicView` for the table and `SeatView` (the public view plus
the seat's hand and its own pending picks) for a seat; mypy (strict, `tasks.py lint`) checks
`views.py`, `ai.py`, `cogs/words/ui.py` and `render.py` against them. Actions arrive as
untrusted JSON: the rule modules still check each field (`state.need_int`, `need_str`).
`tests/test_schemas.py` checks events, views and listed actions of seeded games against this.
A card's face is a capital letter ("Q") or an event card's name ("backspace", "sting").
"""

# No `from __future__ import annotations` here: on Python 3.11 a TypedDict only counts a key as
# NotRequired (`__optional_keys__`, which the shape test reads) when its annotation is evaluated.
from typing import Literal, NotRequired, TypedDict

# ----- actions -------------------------------------------------------------------------------
Kind = Literal["play", "backspace", "editor", "skip", "pick", "ask", "steal", "no_steal", "trash",
               "challenge", "stand", "claim", "keep", "tip", "no_tip", "rps", "close", "coin", "wordblitz"]
Shape = Literal["rock", "paper", "scissors"]
TiebreakPick = Literal["coin", "wordblitz"]


class Play(TypedDict):
    """Play letter `card` at position `at` (0: before the first letter) (rule 8a)."""

    type: Literal["play"]
    card: str
    at: int


class Backspace(TypedDict):
    type: Literal["backspace"]
    index: int


#: Editor: move the letter at `from` to `to` (`from` is a Python keyword: the functional syntax).
EditorMove = TypedDict("EditorMove", {"type": Literal["editor"], "from": int, "to": int})


class Skip(TypedDict):
    """Discard one card and pass (rule 8d); no card when the hand is empty."""

    type: Literal["skip"]
    card: NotRequired[str]
    timeout: NotRequired[bool]


#: The hand menu's first step: a letter to place next, or "editor" with the letter to move.
Pick = TypedDict("Pick", {"type": Literal["pick"], "card": str, "from": NotRequired[int]})


class Ask(TypedDict):
    """How Do You Say…?: the letter asked for (rule 16)."""

    type: Literal["ask"]
    letter: str
    timeout: NotRequired[bool]


class Steal(TypedDict):
    type: Literal["steal", "no_steal"]
    timeout: NotRequired[bool]


class Trash(TypedDict):
    """Trash Talk: a letter from the discard pile; none when it holds no letter (rule 17)."""

    type: Literal["trash"]
    letter: NotRequired[str]
    timeout: NotRequired[bool]


class Challenge(TypedDict):
    type: Literal["challenge"]
    change: int


class Simple(TypedDict):
    """The kinds with no field but their name."""

    type: Literal["stand", "claim", "keep", "tip", "no_tip", "coin", "wordblitz", "close"]
    timeout: NotRequired[bool]


class Rps(TypedDict):
    type: Literal["rps"]
    shape: Shape
    timeout: NotRequired[bool]


Action = Play | Backspace | EditorMove | Skip | Pick | Ask | Steal | Trash | Challenge | Simple | Rps
#: Each kind's payload, for the shape check of listed actions.
ACTIONS: dict[Kind, type] = {
    "play": Play, "backspace": Backspace, "editor": EditorMove, "skip": Skip, "pick": Pick, "ask": Ask,
    "steal": Steal, "no_steal": Steal, "trash": Trash, "challenge": Challenge, "stand": Simple,
    "claim": Simple, "keep": Simple, "tip": Simple, "no_tip": Simple, "rps": Rps, "close": Simple,
    "coin": Simple, "wordblitz": Simple,
}


# ----- the views -------------------------------------------------------------------------------
PhaseName = Literal["main", "claim", "closing", "tiebreak", "over", "between", "challenge", "tip", "rps"]
Step = Literal["act", "ask", "steal", "trash"]
Reason = Literal["last_card", "stalemates", "everyone_left"]


class Box(TypedDict):
    """A secret-choice round as the table sees it: who is in it, who has chosen."""

    key: str
    seats: list[int]
    chosen: list[int]
    commitments: NotRequired[dict[str, str]]


class Phase(TypedDict):
    """What the game is doing; `n` numbers it. `main`: `seat`'s turn at `step` ("steal" only
    in that seat's own view); `claim`: `seat` may claim `word`; `closing`: the game ends for
    `reason` once the Tip window closes; `tiebreak`: the `tied` seats choose in `box`."""

    name: PhaseName
    n: int
    seat: NotRequired[int]
    step: NotRequired[Step]
    word: NotRequired[str]
    tied: NotRequired[list[int]]
    reason: NotRequired[Reason]
    box: NotRequired[Box]


class Discard(TypedDict):
    """The face-up discard pile: its letters in order (one string) and its event cards."""

    size: int
    letters: str
    events: list[str]


class Change(TypedDict):
    """A change open to a challenge; `index`: where a played letter stands in the word now."""

    n: int
    seat: int
    kind: Literal["letter", "backspace", "editor"]
    word: str
    last: bool
    undoable: bool
    index: int | None


class Tip(TypedDict):
    """The Tip of My Tongue window on the last completed word (`holder` owns it now)."""

    n: int
    seat: int
    holder: int
    word: str
    changed: bool
    users: list[int]


class RpsView(TypedDict):
    """Rock-paper-scissors over a Tipped word: who plays, and who has chosen (never what)."""

    n: int
    players: list[int]
    word: str
    holder: int
    round: int
    box: Box


class Tiebreak(TypedDict):
    """How a tie was broken: by coin, by a Wordblitz word (`word`), by walkover."""

    winner: int
    tied: list[int]
    how: Literal["coin", "wordblitz", "walkover"]
    word: NotRequired[str]
    after_blitz: NotRequired[bool]


class Blitz(TypedDict):
    """The Wordblitz tie-break's own table (its seats, turn, word and piles)."""

    seats: list[int]
    turn: int
    turns: int
    wip: str
    draw_size: int
    discard: Discard
    hand_sizes: list[int]
    forced_skip: list[int]


class Windows(TypedDict):
    """The windows open while play goes on (`views.public_windows`)."""

    changes: list[Change]
    tip: Tip | None
    rps: RpsView | None


class PublicView(Windows):
    """The table; per-seat lists are indexed by seat."""

    players: int
    turn: int
    phase: Phase
    wip: str
    draw_size: int
    boxed_size: int
    discard: Discard
    hand_sizes: list[int]
    scores: list[int]
    words: list[list[str]]
    word_values: list[list[int]]
    forced_skip: list[int]
    skip_streak: list[int]
    stalemates: int
    last_card_drawn: bool
    in_play: list[int]
    left: list[int]
    afk: list[bool]
    over: Reason | None
    tiebreak: Tiebreak | None
    blitz: Blitz | None


class Own(TypedDict):
    """What only the seat sees: its hand (card id -> face), the letter it picked to place, its
    own pending rock-paper-scissors or tie-break pick and, on How Do You Say…?, the letter it
    asked for and whether anyone holds it."""

    seat: int
    hand: dict[str, str]
    hand_faces: list[str]
    picked: str | None
    my_pick: NotRequired[str | None]
    steal_letter: NotRequired[str]
    steal_held: NotRequired[bool]


class SeatView(PublicView, Own):
    """A seat's view: the table and what is its own."""


# ----- events ----------------------------------------------------------------------------------
class Seat(TypedDict):
    """An event about one seat and nothing more (draw, forced_skip, tip, afk)."""

    seat: int


class Seats(TypedDict):
    seats: list[int]


class Played(TypedDict):
    seat: int
    letter: str
    at: int
    word: str


class Removed(TypedDict):
    seat: int
    index: int
    letter: str
    word: str


Moved = TypedDict("Moved", {"seat": int, "letter": str, "from": int, "to": int, "word": str})


class Card(TypedDict):
    """A card shown: skipped (None: an empty hand), drawn (to its drawer only), an immediate
    event card, or one that fizzled."""

    seat: int
    card: str | None


class Asked(TypedDict):
    seat: int
    in_pile: bool


class AskedLetter(TypedDict):
    """To the asker only: where the letter is (`pile`: drawn from it; `held`: someone has it)."""

    seat: int
    letter: str
    found: Literal["pile", "held", "nobody"]


class Stolen(TypedDict):
    seat: int
    victim: int
    letter: str


class Replaced(TypedDict):
    """To the victim only: the card drawn in place of the stolen letter."""

    seat: int
    letter: str
    card: str


class Letter(TypedDict):
    seat: int
    letter: str


class Word(TypedDict):
    """A seat and a word: stung, kept building, a Wordblitz word or bust, a Tip kept."""

    seat: int
    word: str


class Stalemate(TypedDict):
    word: str
    count: int


class ChallengeMade(TypedDict):
    """`seat` challenged `actor`'s change; upheld: the word goes back to `restored`."""

    seat: int
    actor: int
    upheld: bool
    word: str
    restored: NotRequired[str]


class Claimed(TypedDict):
    seat: int
    word: str
    points: int


class TipSteal(TypedDict):
    seat: int
    victim: int
    word: str
    points: int


class RpsRound(TypedDict):
    seats: list[int]
    round: int


class Picked(TypedDict):
    """To the picker only: their rock-paper-scissors shape or tie-break choice."""

    seat: int
    choice: str


class Reveal(TypedDict):
    """Every pick of a round, as [seat, pick] pairs."""

    picks: list[list[int | str]]


class GameOver(TypedDict):
    reason: Reason


class TiebreakWon(TypedDict):
    seat: int
    how: Literal["coin", "wordblitz", "walkover"]
    word: NotRequired[str]
    after_blitz: NotRequired[bool]


class Left(TypedDict):
    seat: int
    why: Literal["left", "timeouts"]


EventKind = Literal["play", "backspace", "editor", "skip", "draw", "drew", "immediate", "forced_skip", "ask",
                    "asked", "steal", "replaced", "fizzle", "trash_talk", "sting", "stalemate", "challenge",
                    "keep", "claim", "tip", "tip_steal", "tip_kept", "rps", "picked", "rps_reveal",
                    "blitz_bust", "game_over", "tiebreak", "tiebreak_reveal", "tiebreak_won", "wordblitz",
                    "blitz_word", "blitz_timeout", "abandoned", "afk", "left"]
#: The event catalogue: every event type the engine emits and its payload.
EVENTS: dict[EventKind, type] = {
    "play": Played, "backspace": Removed, "editor": Moved, "skip": Card, "draw": Seat, "drew": Card,
    "immediate": Card, "forced_skip": Seat, "ask": Asked, "asked": AskedLetter, "steal": Stolen,
    "replaced": Replaced, "fizzle": Card, "trash_talk": Letter, "sting": Word, "stalemate": Stalemate,
    "challenge": ChallengeMade, "keep": Word, "claim": Claimed, "tip": Seat, "tip_steal": TipSteal,
    "tip_kept": Word, "rps": RpsRound, "picked": Picked, "rps_reveal": Reveal, "blitz_bust": Word,
    "game_over": GameOver, "tiebreak": Seats, "tiebreak_reveal": Reveal, "tiebreak_won": TiebreakWon,
    "wordblitz": Seats, "blitz_word": Word, "blitz_timeout": Seats, "abandoned": Seats, "afk": Seat,
    "left": Left,
}
