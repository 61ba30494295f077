"""What the player in turn does (rule 8), and their choices inside an immediate event
(How Do You Say…? rule 16, Trash Talk rule 17). Each move's rule check (`verify_*`) is what
the engine's VERIFY table holds: `legal_actions` filters by it and the move runs it first.
A move that ends the turn returns `END_TURN`; `turns.follow` carries it out."""

from __future__ import annotations

from typing import Any

from games.core import Event, IllegalAction, Rng, State
from games.words import windows
from games.words.cards import ALL_FACES, BACKSPACE, EDITOR, LETTERS, TRASH_TALK, face, is_letter, label
from games.words.state import (
    END_TURN,
    Next,
    board,
    card_with_face,
    in_blitz,
    letters_in,
    need_int,
    need_str,
    phase,
    replacement_draw,
    seats_in_play,
    spell,
    take_from_pile,
)

#: While another phase runs, what a turn action is told (and the rule it applies).
NOT_NOW: dict[str, tuple[str, str]] = {
    "claim": ("Wait: {player} is deciding whether to claim the word.", "10"),
    "closing": ("The last turn is over: the game ends once the Tip of My Tongue window closes.", "12"),
    "tiebreak": ("The game is over: the tied players are choosing how to break the tie.", "22"),
}
#: What the player in turn must do first, by step (and its rule).
#: Every face a card may show (letters and events), to tell a card from typed junk.
FACES = frozenset(ALL_FACES.values())
STEP_FIRST: dict[str, tuple[str, str]] = {
    "ask": ("name a letter for How Do You Say…? first", "16"),
    "steal": ("decide whether to steal first", "16"),
    "trash": ("pick a letter from the discard pile first", "17"),
    "act": ("play a letter, use an event card or skip", "8"),
}


def check_turn(state: State, seat: int, step: str = "act") -> None:
    now, stored = phase(state), state["phase"]
    if now.name != "main":
        message, rule = NOT_NOW.get(now.name, ("You can't do that right now.", "4"))
        raise IllegalAction(message, rule=rule, seats={"player": stored["seat"]} if "seat" in stored else None)
    if stored["seat"] != seat:
        raise IllegalAction("It is not your turn: it is {turn}'s.", rule="4", seats={"turn": stored["seat"]})
    if now.step != step:
        wanted, rule = STEP_FIRST[now.step or "act"]
        raise IllegalAction(f"You need to {wanted}.", rule=rule)


def held(state: State, seat: int, wanted: str) -> str:
    card = card_with_face(board(state)["hands"][seat], wanted)
    if card is None:
        known = wanted in ALL_FACES or wanted in FACES
        named = label(wanted) if known else "that card"  # typed junk is not echoed back
        raise IllegalAction(f"You don't hold {named}.", rule="8")
    return card


def verify_play(state: State, seat: int, action: dict[str, Any]) -> tuple[str, int, str]:
    """Rule 8a: (the letter, the position, the card) of a letter play."""
    check_turn(state, seat)
    wanted = need_str(action, "card", "letter", "8").upper()
    if wanted not in LETTERS:
        raise IllegalAction("Pick one of the letters in your hand.", rule="8")
    area = board(state)
    at = need_int(action, "at", "position", "8")
    if not 0 <= at <= len(area["wip"]):
        raise IllegalAction(f"The position must be between 1 and {len(area['wip']) + 1}.", rule="8")
    return wanted, at, held(state, seat, wanted)


def play_letter(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    wanted, at, card = verify_play(state, seat, action)
    area = board(state)
    area["hands"][seat].remove(card)
    area["wip"].insert(at, card)
    word = spell(area["wip"])
    events.append(Event("play", {"seat": seat, "letter": wanted, "at": at, "word": word}))
    return windows.after_letter(state, seat, card, events)


def verify_backspace(state: State, seat: int, action: dict[str, Any]) -> tuple[int, str]:
    """Rule 14, Backspace: (the letter's index, the Backspace card)."""
    check_turn(state, seat)
    area = board(state)
    if in_blitz(state):
        raise IllegalAction("Wordblitz has no event cards.", rule="22")
    if not area["wip"]:
        raise IllegalAction("There is no word to Backspace.", rule="8")
    index = need_int(action, "index", "letter", "8")
    if not 0 <= index < len(area["wip"]):
        raise IllegalAction(f"Pick a letter between 1 and {len(area['wip'])}.", rule="8")
    return index, held(state, seat, BACKSPACE)


def backspace(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    index, card = verify_backspace(state, seat, action)
    area = board(state)
    area["hands"][seat].remove(card)
    area["discard"].append(card)
    wip = area["wip"]
    gap = [wip[index - 1] if index else None, wip[index + 1] if index + 1 < len(wip) else None]
    removed = wip.pop(index)
    area["discard"].append(removed)
    word = spell(wip)
    events.append(Event("backspace", {"seat": seat, "index": index, "letter": face(removed), "word": word}))
    windows.record_change(state, seat, "backspace", removed, gap)
    return END_TURN


def verify_editor(state: State, seat: int, action: dict[str, Any]) -> tuple[int, int, str]:
    """Rule 14, Editor: (from, to, the Editor card)."""
    check_turn(state, seat)
    area = board(state)
    if in_blitz(state):
        raise IllegalAction("Wordblitz has no event cards.", rule="22")
    if len(area["wip"]) < 2:
        raise IllegalAction("Editor needs a word of at least two letters.", rule="8")
    start = need_int(action, "from", "letter to move", "8")
    to = need_int(action, "to", "new position", "8")
    size = len(area["wip"])
    if not (0 <= start < size and 0 <= to < size):
        raise IllegalAction(f"Positions go from 1 to {size}.", rule="8")
    if start == to:
        raise IllegalAction("Move the letter somewhere else.", rule="8")
    return start, to, held(state, seat, EDITOR)


def editor(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    start, to, card = verify_editor(state, seat, action)
    area = board(state)
    size = len(area["wip"])
    area["hands"][seat].remove(card)
    area["discard"].append(card)
    wip = area["wip"]
    gap = [wip[start - 1] if start else None, wip[start + 1] if start + 1 < size else None]
    moved = wip.pop(start)
    wip.insert(to, moved)
    word = spell(wip)
    events.append(Event("editor", {"seat": seat, "letter": face(moved), "from": start, "to": to,
                                   "word": word}))
    windows.record_change(state, seat, "editor", moved, gap)
    return END_TURN


def verify_skip(state: State, seat: int, action: dict[str, Any]) -> str | None:
    """Rule 8d: the card to discard (None with an empty hand)."""
    check_turn(state, seat)
    if not board(state)["hands"][seat]:
        return None
    wanted = need_str(action, "card", "card to discard", "8")
    return held(state, seat, wanted.upper() if len(wanted) == 1 else wanted)


def skip(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    """Rule 8d: discard any one card and pass; always allowed."""
    card = verify_skip(state, seat, action)
    area = board(state)
    hand = area["hands"][seat]
    shown = None
    if card is not None:
        hand.remove(card)
        area["discard"].append(card)
        shown = face(card)  # it lands face up
    if not in_blitz(state) and seat not in state["skip_streak"]:
        state["skip_streak"].append(seat)
    events.append(Event("skip", {"seat": seat, "card": shown}))
    return END_TURN


def verify_pick_card(state: State, seat: int, action: dict[str, Any]) -> str:
    """The hand menu's first half of a move: the pick to remember ("E", or "editor:2", the
    letter an Editor moves)."""
    check_turn(state, seat)
    wanted = need_str(action, "card", "letter", "8")
    if wanted == EDITOR:  # the first half of an Editor move: which letter moves
        held(state, seat, EDITOR)
        start = need_int(action, "from", "letter to move", "8")
        if not 0 <= start < len(board(state)["wip"]):
            raise IllegalAction("Pick a letter of the word.", rule="8")
        return f"{EDITOR}:{start}"
    if not is_letter(held(state, seat, wanted.upper())):
        raise IllegalAction("Pick a letter card.", rule="8")
    return wanted.upper()


def pick(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    """Remember the letter chosen in the hand menu, so the next menu asks where it goes."""
    state["picks"][seat] = verify_pick_card(state, seat, action)
    return None


# ----- choices inside an immediate event ---------------------------------------------

def holders_of(state: State, seat: int, wanted: str) -> list[int]:
    return [s for s in seats_in_play(state) if s != seat and card_with_face(state["hands"][s], wanted)]


def verify_ask(state: State, seat: int, action: dict[str, Any]) -> str:
    """Rule 16: the letter named for How Do You Say…?."""
    check_turn(state, seat, "ask")
    wanted = need_str(action, "letter", "letter", "16").upper()
    if wanted not in LETTERS:
        raise IllegalAction("Name a letter from A to Z.", rule="16")
    return wanted


def ask(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    """How Do You Say…?: take the named letter from the pile, or offer to steal it.

    When the letter is not in the pile, the asker always gets a second step (steal it, or
    go on), whether or not anyone holds it: the table sees the same events and the same
    phase either way, so it never learns that someone holds the letter unless it is stolen.
    """
    wanted = verify_ask(state, seat, action)
    card = card_with_face(state["draw"], wanted)
    if card is not None:
        take_from_pile(state, state, card)
        state["hands"][seat].append(card)
        state["drawn"] = card
        state["draw"] = Rng(state).shuffled(state["draw"])
        events.append(Event("ask", {"seat": seat, "in_pile": True}))
        events.append(Event("asked", {"seat": seat, "letter": wanted, "found": "pile"}, (seat,)))
        state["phase"].update(step="act", fallback=None)
        return None
    held_by_someone = bool(holders_of(state, seat, wanted))
    state["phase"].update(step="steal", letter=wanted, held=held_by_someone, fallback=None)
    events.append(Event("ask", {"seat": seat, "in_pile": False}))
    events.append(Event("asked", {"seat": seat, "letter": wanted,
                                  "found": "held" if held_by_someone else "nobody"}, (seat,)))
    return None


def verify_steal(state: State, seat: int, action: dict[str, Any]) -> list[int]:
    """Rule 16's second step (steal or go on): who holds the letter asked for."""
    check_turn(state, seat, "steal")
    wanted = state["phase"]["letter"]
    holders = holders_of(state, seat, wanted)
    if action["type"] == "steal" and not holders:
        raise IllegalAction(f"Nobody holds {wanted}: there is nothing to steal.", rule="16")
    return holders


def steal(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    holders = verify_steal(state, seat, action)
    stored = state["phase"]
    wanted = stored["letter"]
    stored.update(step="act", letter=None, held=None)
    if action["type"] == "no_steal":
        return None  # no public event: the table must not tell this from "nobody has it"
    rng = Rng(state)
    victim = rng.choice(holders)
    card = card_with_face(state["hands"][victim], wanted)
    assert card is not None
    state["hands"][victim].remove(card)
    state["hands"][seat].append(card)
    state["drawn"] = card
    events.append(Event("steal", {"seat": seat, "victim": victim, "letter": wanted}))
    replacement = replacement_draw(state, rng)
    if replacement is not None:
        state["hands"][victim].append(replacement)
        events.append(Event("replaced", {"seat": victim, "letter": wanted, "card": face(replacement)},
                            (victim,)))
    return None


def verify_trash(state: State, seat: int, action: dict[str, Any]) -> str | None:
    """Rule 17: the discarded card to take (None: no letter is left there to take)."""
    check_turn(state, seat, "trash")
    if not letters_in(state["discard"]):
        return None
    wanted = need_str(action, "letter", "letter", "17").upper()
    card = card_with_face(state["discard"], wanted) if wanted in LETTERS else None
    if card is None:
        raise IllegalAction(f"There is no {wanted} in the discard pile.", rule="17")
    return card


def trash(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    """Trash Talk: take any letter from the discard pile. (A challenge upheld meanwhile may
    have put the pile's last letter back into the word: then the card does nothing.)"""
    card = verify_trash(state, seat, action)
    if card is None:
        events.append(Event("fizzle", {"seat": seat, "card": TRASH_TALK}))
        state["phase"].update(step="act", fallback=None)
        return None
    wanted = face(card)
    state["discard"].remove(card)
    state["hands"][seat].append(card)
    state["drawn"] = card
    events.append(Event("trash_talk", {"seat": seat, "letter": wanted}))
    state["phase"].update(step="act", fallback=None)
    return None
