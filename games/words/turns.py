"""A turn, in order (rules §3.5-§3.8): stalemate check, forced skip, the mandatory draw with
its immediate event, then one main action."""

from __future__ import annotations

from typing import Any

from games.core import Event, IllegalAction, Rng, State
from games.words import ending, windows
from games.words.cards import (
    BACKSPACE,
    EDITOR,
    HOW_DO_YOU_SAY,
    LETTERS,
    REVERSAL,
    STING,
    THATLL_WORK,
    TRASH_TALK,
    face,
    is_immediate,
    is_letter,
    label,
)
from games.words.state import (
    board,
    card_with_face,
    event,
    in_blitz,
    letters_in,
    need_int,
    need_str,
    next_seat,
    open_phase,
    replacement_draw,
    seat_name,
    seats_in_play,
    spell,
    take_from_pile,
)

#: Wordblitz ends in a coin toss after this many turns without a winner.
BLITZ_TURNS = 30


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
            events.append(event("forced_skip", f"{seat_name(seat)} loses this turn.", seat=seat))
            seat = next_seat(state, seat)
            continue
        if not area["draw"]:  # only reachable if a search emptied the pile mid-turn
            ending.finish(state, "the draw pile ran out", events)
            return
        card = area["draw"][-1]
        take_from_pile(state, area, card)
        if not is_immediate(card):
            area["hands"][seat].append(card)
            state["drawn"] = card
            events.append(event("draw", f"{seat_name(seat)} drew a card.", seat=seat))
            events.append(event("drew", f"You drew {label(card)}.", (seat,), card=face(card)))
            open_phase(state, "main", seat=seat, step="act")
            return
        state["discard"].append(card)  # used at once; it lands in the discard pile now
        events.append(event("immediate", f"{seat_name(seat)} drew {label(card)}!",
                            seat=seat, card=face(card)))
        if face(card) == REVERSAL:
            if end_turn(state, events, check_only=True):
                return
            seat = next_seat(state, seat)
            continue
        resolve_immediate(state, seat, face(card), rng, events)
        return
    ending.finish(state, "nobody could take a turn", events)  # pragma: no cover - safety net


def stalemate_check(state: State, events: list[Event]) -> bool:
    """Rule 5: a WIP everyone skipped is thrown away. True when that ended the game."""
    active = seats_in_play(state)
    if not state["wip"] or not set(active) <= set(state["skip_streak"]):
        return False
    thrown = spell(state["wip"])
    state["discard"].extend(state["wip"])
    state["wip"] = []
    state["stalemates"] += 1
    state["skip_streak"] = []
    events.append(event("stalemate", f"Nobody could go on: {thrown} is thrown away "
                        f"({state['stalemates']} in a row).", word=thrown))
    if state["stalemates"] >= 3:
        ending.finish(state, "three words thrown away in a row", events)
        return True
    return False


def resolve_immediate(state: State, seat: int, kind: str, rng: Rng, events: list[Event]) -> None:
    """Rules 16-19 (Reversal is handled by the caller)."""
    if kind == STING:
        stung = spell(state["wip"])
        state["discard"].extend(state["wip"])
        state["wip"] = []
        state["skip_streak"] = []
        text = f"{stung} is wiped out." if stung else "There was no word to wipe."
        events.append(event("sting", text, word=stung))
        open_phase(state, "main", seat=seat, step="act")
    elif kind == THATLL_WORK:
        if not state["wip"]:
            events.append(event("thatll_work", "There was no word to collect."))
            open_phase(state, "main", seat=seat, step="act")
            return
        windows.complete_word(state, seat, events, then="main")
    elif kind == HOW_DO_YOU_SAY:
        letters = letters_in(state["draw"])
        fallback = rng.choice(letters) if letters else "E"
        open_phase(state, "main", seat=seat, step="ask", fallback=fallback)
    elif kind == TRASH_TALK:
        letters = letters_in(state["discard"])
        if not letters:
            events.append(event("trash_talk", "There is no letter in the discard pile."))
            open_phase(state, "main", seat=seat, step="act")
            return
        open_phase(state, "main", seat=seat, step="trash", fallback=rng.choice(letters))


def end_turn(state: State, events: list[Event], *, check_only: bool = False) -> bool:
    """Rule 12: after the last card's turn the game ends; else the next seat starts.
    With `check_only` only the ending is checked (Reversal continues its own loop)."""
    area = board(state)
    state["picks"] = [None] * state["players"]
    if in_blitz(state):
        if check_only:
            return False
        open_phase(state, "between")
        start_turn(state, next_seat(state, area["turn"]), events)
        return True
    if state["last_card_drawn"]:
        ending.finish(state, "the last card was drawn", events)
        return True
    if check_only:
        return False
    open_phase(state, "between")
    start_turn(state, next_seat(state, area["turn"]), events)
    return True


# ----- main actions -----------------------------------------------------------------

def check_turn(state: State, seat: int, step: str = "act") -> None:
    phase = state["phase"]
    if phase["name"] != "main" or phase["seat"] != seat:
        raise IllegalAction("It is not your turn.")
    if phase["step"] != step:
        wanted = {"ask": "name a letter for How Do You Say…? first",
                  "steal": "decide whether to steal first",
                  "trash": "pick a letter from the discard pile first",
                  "act": "play a letter, use an event card or skip"}[phase["step"]]
        raise IllegalAction(f"You need to {wanted}.")


def held(state: State, seat: int, wanted: str) -> str:
    card = card_with_face(board(state)["hands"][seat], wanted)
    if card is None:
        raise IllegalAction(f"You don't hold {label(wanted)}.")
    return card


def play_letter(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    check_turn(state, seat)
    wanted = need_str(action, "card", "letter").upper()
    if wanted not in LETTERS:
        raise IllegalAction("Pick one of the letters in your hand.")
    area = board(state)
    at = need_int(action, "at", "position")
    if not 0 <= at <= len(area["wip"]):
        raise IllegalAction(f"The position must be between 1 and {len(area['wip']) + 1}.")
    card = held(state, seat, wanted)
    area["hands"][seat].remove(card)
    area["wip"].insert(at, card)
    word = spell(area["wip"])
    events.append(event("play", f"{seat_name(seat)} played {wanted} → {word}.", seat=seat,
                        letter=wanted, at=at, word=word))
    windows.after_letter(state, seat, at, events)


def backspace(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    check_turn(state, seat)
    area = board(state)
    if in_blitz(state):
        raise IllegalAction("Wordblitz has no event cards.")
    if not area["wip"]:
        raise IllegalAction("There is no word to Backspace.")
    index = need_int(action, "index", "letter")
    if not 0 <= index < len(area["wip"]):
        raise IllegalAction(f"Pick a letter between 1 and {len(area['wip'])}.")
    card = held(state, seat, BACKSPACE)
    area["hands"][seat].remove(card)
    area["discard"].append(card)
    removed = area["wip"].pop(index)
    area["discard"].append(removed)
    word = spell(area["wip"])
    events.append(event("backspace", f"{seat_name(seat)} used Backspace on {face(removed)} → "
                        f"{word or '(empty)'}.", seat=seat, index=index, word=word))
    windows.open_challenge(state, seat, "backspace", {"card": removed, "index": index}, events)


def editor(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    check_turn(state, seat)
    area = board(state)
    if in_blitz(state):
        raise IllegalAction("Wordblitz has no event cards.")
    if len(area["wip"]) < 2:
        raise IllegalAction("Editor needs a word of at least two letters.")
    start = need_int(action, "from", "letter to move")
    to = need_int(action, "to", "new position")
    size = len(area["wip"])
    if not (0 <= start < size and 0 <= to < size):
        raise IllegalAction(f"Positions go from 1 to {size}.")
    if start == to:
        raise IllegalAction("Move the letter somewhere else.")
    card = held(state, seat, EDITOR)
    area["hands"][seat].remove(card)
    area["discard"].append(card)
    moved = area["wip"].pop(start)
    area["wip"].insert(to, moved)
    word = spell(area["wip"])
    events.append(event("editor", f"{seat_name(seat)} used Editor: {face(moved)} moves → {word}.",
                        seat=seat, word=word))
    windows.open_challenge(state, seat, "editor", {"from": start, "to": to}, events)


def skip(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    """Rule 8d: discard any one card and pass; always allowed."""
    check_turn(state, seat)
    area = board(state)
    hand = area["hands"][seat]
    if hand:
        wanted = need_str(action, "card", "card to discard")
        wanted = wanted.upper() if len(wanted) == 1 else wanted
        card = held(state, seat, wanted)
        hand.remove(card)
        area["discard"].append(card)
        shown = f" and discarded {label(card)}"
    else:
        shown = ""
    if not in_blitz(state) and seat not in state["skip_streak"]:
        state["skip_streak"].append(seat)
    events.append(event("skip", f"{seat_name(seat)} skipped{shown}.", seat=seat))
    end_turn(state, events)


def pick(state: State, seat: int, action: dict[str, Any]) -> None:
    """Remember the letter chosen in the hand menu, so the next menu asks where it goes."""
    check_turn(state, seat)
    wanted = need_str(action, "card", "letter")
    if wanted == EDITOR:  # the first half of an Editor move: which letter moves
        held(state, seat, EDITOR)
        start = need_int(action, "from", "letter to move")
        if not 0 <= start < len(board(state)["wip"]):
            raise IllegalAction("Pick a letter of the word.")
        state["picks"][seat] = f"{EDITOR}:{start}"
        return
    if not is_letter(held(state, seat, wanted.upper())):
        raise IllegalAction("Pick a letter card.")
    state["picks"][seat] = wanted.upper()


# ----- choices inside an immediate event ---------------------------------------------

def ask(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    """How Do You Say…?: take the named letter from the pile, or offer to steal it."""
    check_turn(state, seat, "ask")
    wanted = need_str(action, "letter", "letter").upper()
    if wanted not in LETTERS:
        raise IllegalAction("Name a letter from A to Z.")
    rng = Rng(state)
    card = card_with_face(state["draw"], wanted)
    if card is not None:
        take_from_pile(state, state, card)
        state["hands"][seat].append(card)
        state["drawn"] = card
        state["draw"] = rng.shuffled(state["draw"])
        events.append(event("ask", f"{seat_name(seat)} found a letter in the draw pile.", seat=seat))
        events.append(event("asked", f"You took {wanted} from the draw pile.", (seat,), letter=wanted))
        state["phase"].update(step="act", fallback=None)
        return
    holders = [s for s in seats_in_play(state) if s != seat and card_with_face(state["hands"][s], wanted)]
    if not holders:
        events.append(event("ask", f"{seat_name(seat)} asked for a letter nobody has.", seat=seat))
        events.append(event("asked", f"Nobody has {wanted}.", (seat,), letter=wanted))
        state["phase"].update(step="act", fallback=None)
        return
    state["phase"].update(step="steal", letter=wanted, fallback=None)
    events.append(event("asked", f"{wanted} is not in the draw pile, but a player holds one. "
                        "Steal it?", (seat,), letter=wanted))


def steal(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    check_turn(state, seat, "steal")
    wanted = state["phase"]["letter"]
    state["phase"].update(step="act", letter=None)
    if action["type"] == "no_steal":
        events.append(event("ask", f"{seat_name(seat)} decided not to steal.", seat=seat))
        return
    rng = Rng(state)
    holders = [s for s in seats_in_play(state) if s != seat and card_with_face(state["hands"][s], wanted)]
    victim = rng.choice(holders)
    card = card_with_face(state["hands"][victim], wanted)
    assert card is not None
    state["hands"][victim].remove(card)
    state["hands"][seat].append(card)
    state["drawn"] = card
    events.append(event("steal", f"{seat_name(seat)} stole {wanted} from {seat_name(victim)}.",
                        seat=seat, victim=victim, letter=wanted))
    replacement = replacement_draw(state, rng)
    if replacement is not None:
        state["hands"][victim].append(replacement)
        events.append(event("drew", f"You drew {label(replacement)} to replace it.", (victim,),
                            card=face(replacement)))


def trash(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    """Trash Talk: take any letter from the discard pile."""
    check_turn(state, seat, "trash")
    wanted = need_str(action, "letter", "letter").upper()
    card = card_with_face(state["discard"], wanted) if wanted in LETTERS else None
    if card is None:
        raise IllegalAction(f"There is no {wanted} in the discard pile.")
    state["discard"].remove(card)
    state["hands"][seat].append(card)
    state["drawn"] = card
    events.append(event("trash_talk", f"{seat_name(seat)} took {wanted} from the discard pile.",
                        seat=seat, letter=wanted))
    state["phase"].update(step="act", fallback=None)
