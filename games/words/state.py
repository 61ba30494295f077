"""Building the opening state and the small helpers every rule module shares.

A *board* is the dict holding one deal's piles: the main game keeps them at the top level
of the state, Wordblitz in `state["blitz"]`. Both have the same keys (`draw`, `hands`,
`wip`, `discard`, `forced_skip`, `turn`), so drawing, playing and challenging are written
once.
"""

from __future__ import annotations

from typing import Any

from games import choices
from games.core import IllegalAction, Rng, State
from games.phase import Phase
from games.words.cards import FACE, HAND_SIZE, draw_pile_size, face, is_immediate, is_letter
from games.words.dictionary import lexicon
from games.words.schema import PhaseName, Step


def board(state: State) -> dict[str, Any]:
    """The piles in play: Wordblitz's once it started, else the main game's."""
    return state["blitz"] if state.get("blitz") else state


def in_blitz(state: State) -> bool:
    return bool(state.get("blitz"))


def seats_in_play(state: State) -> list[int]:
    """Seats still taking turns on the current board, in turn order."""
    left = set(state["left"])
    order = state["blitz"]["seats"] if in_blitz(state) else range(state["players"])
    return [s for s in order if s not in left]


def next_seat(state: State, seat: int) -> int:
    """The next seat in play after `seat` (clockwise = seat order)."""
    order = state["blitz"]["seats"] if in_blitz(state) else list(range(state["players"]))
    left = set(state["left"])
    i = order.index(seat)
    for step in range(1, len(order) + 1):
        candidate = order[(i + step) % len(order)]
        if candidate not in left:
            return candidate
    return seat


def spell(cards: list[str]) -> str:
    """The letters of a list of cards, as one uppercase string."""
    return "".join(face(c) for c in cards)


def valid_fragment(state: State, text: str) -> bool:
    """The challenge test: valid4 in the main game, valid3 in Wordblitz."""
    lex = lexicon()
    return lex.fragment3(text) if in_blitz(state) else lex.fragment(text)


def next_number(state: State) -> int:
    """A fresh number for a phase, a change of the word or a round (keys and targets)."""
    state["window"] += 1
    return int(state["window"])


def close_windows(state: State) -> None:
    """The game is over (or Wordblitz starts): nothing can be challenged or taken with Tip."""
    state["changes"] = []
    state["tip"] = None
    state["rps"] = None


def phase(state: State) -> Phase[PhaseName, Step | None]:
    """Where the game is, read one way (issue 22): the stored phase's name and, on a turn, its
    step ("act", or the Ask / Steal / Trash card's)."""
    now = state["phase"]
    return Phase(now["name"], now.get("step"))


def open_phase(state: State, name: str, **fields: Any) -> dict[str, Any]:
    """Start a new phase; its number keys the waits so every window gets a fresh timer."""
    phase = {"name": name, "n": next_number(state), **fields}
    state["phase"] = phase
    return phase


#: What a rule asks of the turn order once it is done. Rule modules only *signal* turn
#: changes (they return one of these); `turns.follow`, which the engine's dispatch calls,
#: carries them out, so no rule module needs the one that owns the turn order.
END_TURN = "end_turn"
#: Start the turn of the seat already set as `board(state)["turn"]` (Wordblitz's first).
START_TURN = "start_turn"
Next = str | None


def need_int(action: dict[str, Any], key: str, what: str, rule: str) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"Say which {what} (a number).", rule=rule)
    return value


def need_str(action: dict[str, Any], key: str, what: str, rule: str) -> str:
    value = action.get(key)
    if not isinstance(value, str) or not value:
        raise IllegalAction(f"Say which {what}.", rule=rule)
    return value


def take_from_pile(state: State, area: dict[str, Any], card: str) -> None:
    """Remove one named card from the draw pile; emptying it ends the game after this turn."""
    area["draw"].remove(card)
    if not area["draw"] and not in_blitz(state):
        state["last_card_drawn"] = True


def replacement_draw(state: State, rng: Rng) -> str | None:
    """Draw a card that is not an immediate event (deal and replacement rule, rules 4 and 16).

    Immediate events go back and the pile is reshuffled; if only events are left, nothing.
    """
    draw = state["draw"]
    if not any(not is_immediate(c) for c in draw):
        return None
    while is_immediate(draw[-1]):
        draw[:] = rng.shuffled(draw)
    card: str = draw[-1]
    take_from_pile(state, state, card)
    return card


def deal(state: State, deck: list[str], rng: Rng) -> None:
    """Deal 7 each from the top (the end of `deck`), replace opening immediate events,
    reshuffle, then box the bottom of the pile so `draw_pile_size` cards remain."""
    players = state["players"]
    hands: list[list[str]] = [[] for _ in range(players)]
    for _ in range(HAND_SIZE):
        for seat in range(players):
            hands[seat].append(deck.pop())
    while any(is_immediate(c) for hand in hands for c in hand):
        for hand in hands:
            returned = [c for c in hand if is_immediate(c)]
            hand[:] = [c for c in hand if not is_immediate(c)]
            deck[:0] = returned  # under the pile, so the replacements come from the top
            while len(hand) < HAND_SIZE:
                hand.append(deck.pop())
    deck = rng.shuffled(deck)
    boxed = len(deck) - draw_pile_size(players)
    state["hands"] = hands
    state["boxed"] = deck[:boxed]
    state["draw"] = deck[boxed:]


def new_state(players: int, rng_state: dict[str, int], options: dict[str, Any],
              deck: list[str] | None = None) -> State:
    """The opening state; `deck` (top = last) lets tests fix the order."""
    state: State = {
        "rng": rng_state, "players": players, "options": dict(options),
        "turn": 0, "turn_no": 0, "window": 0, "phase": {"name": "start", "n": 0},
        "draw": [], "boxed": [], "discard": [], "hands": [], "wip": [],
        "stacks": [[] for _ in range(players)], "score": [0] * players,
        "forced_skip": [0] * players, "skip_streak": [], "stalemates": 0,
        "last_card_drawn": False, "drawn": None, "picks": [None] * players,
        "left": [], "timeouts": [0] * players, "afk": [False] * players, "away_since": [None] * players,
        "stats": [{"challenges_won": 0, "challenges_lost": 0, "tips": 0} for _ in range(players)],
        "over": None, "tiebreak": None, "blitz": None,
        # The windows that stay open while play goes on (windows.py): the changes of the word
        # still open to a challenge, the last few closed ones, the Tip window, its RPS.
        "changes": [], "closed": [], "tip": None, "rps": None,
        # When the last action was pressed (the `now` of `play`): windows are judged by it.
        "clock": 0.0,
    }
    rng = Rng(state)
    if deck is None:
        deck = rng.shuffled(list(FACE))
    deal(state, list(deck), rng)
    state["turn"] = rng.randint(0, players - 1)
    return state


def hand_faces(hand: list[str]) -> list[str]:
    """Distinct faces in a hand, in a stable order (letters A-Z, then events)."""
    faces = {face(c) for c in hand}
    return sorted(faces, key=lambda f: (len(f) > 1, f))


def card_with_face(hand: list[str], wanted: str) -> str | None:
    """One card of that face in the hand (the last-drawn copy first)."""
    for card in reversed(hand):
        if face(card) == wanted:
            return card
    return None


def letters_in(cards: list[str]) -> list[str]:
    return sorted({face(c) for c in cards if is_letter(c)})


def verify_pick(box: dict[str, Any] | None, seat: int, closed: str, rule: str) -> None:
    """The secret-choice block's own check (round open, seat in it, not chosen yet), with
    the rule it applies: "You already chose." stays the block's sentence."""
    try:
        choices.verify(box, seat, closed=closed)
    except IllegalAction as exc:
        raise IllegalAction(exc.message, rule=rule, seats=exc.seats) from None
