"""The turn order, and the one module that changes it (rules 5-7, 12, 15-19).

A turn starts with the stalemate check, a forced skip, the mandatory draw and its
immediate event; then the player acts. The rule modules (`actions`, `windows`, `ending`)
never start or end a turn themselves: they return `END_TURN` or `START_TURN`, and the
engine's dispatch hands that to `follow`. This module imports them; none imports it.
"""

from __future__ import annotations

from games.core import Event, Rng, State
from games.words import ending, tips, windows
from games.words.cards import HOW_DO_YOU_SAY, REVERSAL, STING, THATLL_WORK, TRASH_TALK, face, is_immediate
from games.words.state import (
    END_TURN,
    START_TURN,
    Next,
    board,
    in_blitz,
    letters_in,
    next_seat,
    open_phase,
    phase,
    seats_in_play,
    spell,
    take_from_pile,
)

#: Wordblitz ends in a coin toss after this many turns without a winner.
BLITZ_TURNS = 30


def follow(state: State, step: Next, events: list[Event]) -> None:
    """Carry out what a rule asked of the turn order; a game that is closing ends once its
    last window (Tip, rock-paper-scissors) is closed."""
    if step == END_TURN:
        end_turn(state, events)
    elif step == START_TURN:
        start_turn(state, board(state)["turn"], events)
    if phase(state).name == "closing" and state["tip"] is None and state["rps"] is None:
        ending.finish(state, state["phase"]["reason"], events)


def conclude(state: State, reason: str, events: list[Event]) -> None:
    """The game is over (rules 5, 12, 20) — once a Tip window still inside its minimum has
    had it and rock-paper-scissors has settled. Until then the game is *closing*: no turns,
    no challenges; the game itself waits for the Tip window (a wait with no seat)."""
    state["changes"] = []
    if state["rps"] is not None or (state["tip"] is not None and tips.tip_time_left(state) > 0):
        open_phase(state, "closing", reason=reason)
        return
    ending.finish(state, reason, events)


def start_turn(state: State, seat: int, events: list[Event]) -> None:
    """Run the automatic start of `seat`'s turn; stops at the first thing a player decides."""
    rng = Rng(state)
    for _ in range(10 * state["players"] + 10):  # every pass spends a forced skip
        area = board(state)
        area["turn"] = seat
        state["turn_no"] += 1
        state["drawn"] = None
        if in_blitz(state):
            area["turns"] += 1
            if area["turns"] > BLITZ_TURNS:
                ending.blitz_coin_toss(state, events)
                return
        elif stalemate_check(state, events):
            return
        if area["forced_skip"][seat] > 0:
            area["forced_skip"][seat] -= 1
            events.append(Event("forced_skip", {"seat": seat}))
            seat = next_seat(state, seat)
            continue
        if not area["draw"]:  # only reachable if a search emptied the pile mid-turn
            conclude(state, ending.PILE_EMPTY, events)
            return
        card = area["draw"][-1]
        take_from_pile(state, area, card)
        if not is_immediate(card):
            area["hands"][seat].append(card)
            state["drawn"] = card
            events.append(Event("draw", {"seat": seat}))
            events.append(Event("drew", {"seat": seat, "card": face(card)}, (seat,)))
            open_phase(state, "main", seat=seat, step="act")
            return
        state["discard"].append(card)  # used at once; it lands in the discard pile now
        events.append(Event("immediate", {"seat": seat, "card": face(card)}))
        if face(card) == REVERSAL:
            if end_turn(state, events, check_only=True):
                return
            seat = next_seat(state, seat)
            continue
        resolve_immediate(state, seat, face(card), rng, events)
        return
    conclude(state, ending.NO_TURNS, events)  # pragma: no cover - safety net


def stalemate_check(state: State, events: list[Event]) -> bool:
    """Rule 5: a WIP everyone skipped is thrown away. True when that ended the game."""
    active = seats_in_play(state)
    if not state["wip"] or not set(active) <= set(state["skip_streak"]):
        return False
    thrown = spell(state["wip"])
    state["discard"].extend(state["wip"])
    state["wip"] = []
    windows.word_gone(state)
    state["stalemates"] += 1
    state["skip_streak"] = []
    events.append(Event("stalemate", {"word": thrown, "count": state["stalemates"]}))
    if state["stalemates"] >= 3:
        conclude(state, ending.STALEMATES, events)
        return True
    return False


def resolve_immediate(state: State, seat: int, kind: str, rng: Rng, events: list[Event]) -> None:
    """Rules 16-19 (Reversal is handled by the caller). A card with nothing to act on
    fizzles, and the turn goes on."""
    if kind == STING:
        stung = spell(state["wip"])
        state["discard"].extend(state["wip"])
        state["wip"] = []
        if stung:
            windows.word_gone(state)
        state["skip_streak"] = []
        events.append(Event("sting", {"seat": seat, "word": stung}) if stung
                      else Event("fizzle", {"seat": seat, "card": STING}))
        open_phase(state, "main", seat=seat, step="act")
    elif kind == THATLL_WORK:
        if not state["wip"]:
            events.append(Event("fizzle", {"seat": seat, "card": THATLL_WORK}))
            open_phase(state, "main", seat=seat, step="act")
            return
        follow(state, windows.complete_word(state, seat, events, then="main"), events)
    elif kind == HOW_DO_YOU_SAY:
        letters = letters_in(state["draw"])
        fallback = rng.choice(letters) if letters else "E"
        open_phase(state, "main", seat=seat, step="ask", fallback=fallback)
    elif kind == TRASH_TALK:
        letters = letters_in(state["discard"])
        if not letters:
            events.append(Event("fizzle", {"seat": seat, "card": TRASH_TALK}))
            open_phase(state, "main", seat=seat, step="act")
            return
        open_phase(state, "main", seat=seat, step="trash", fallback=rng.choice(letters))


def end_turn(state: State, events: list[Event], *, check_only: bool = False) -> bool:
    """Rule 12: after the last card's turn the game ends; else the next seat starts.
    With `check_only` only the ending is checked (Reversal continues its own loop)."""
    area = board(state)
    state["picks"] = [None] * state["players"]
    if not in_blitz(state) and state["last_card_drawn"]:
        conclude(state, ending.LAST_CARD, events)
        return True
    if check_only:
        return False
    open_phase(state, "between")
    start_turn(state, next_seat(state, area["turn"]), events)
    return True
