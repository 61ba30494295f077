"""The Fighting Words deck as data: 100 letters and 20 event cards, each with a fixed id.

Cards travel through the state as short opaque ids ("c17"); what is printed on a card is
looked up in `FACE`, a constant, so an id in a hand says nothing to anyone who sees it and
states stay small (lists of strings copy fast).
"""

from __future__ import annotations

LETTER_COUNTS: dict[str, int] = {
    "A": 8, "B": 2, "C": 3, "D": 4, "E": 11, "F": 2, "G": 3, "H": 3, "I": 8, "J": 1, "K": 1,
    "L": 5, "M": 3, "N": 6, "O": 7, "P": 3, "Q": 1, "R": 6, "S": 6, "T": 6, "U": 4, "V": 1,
    "W": 2, "X": 1, "Y": 2, "Z": 1,
}
LETTERS = tuple(LETTER_COUNTS)

BACKSPACE = "backspace"
EDITOR = "editor"
TIP = "tip"
REVERSAL = "reversal"
HOW_DO_YOU_SAY = "how_do_you_say"
TRASH_TALK = "trash_talk"
THATLL_WORK = "thatll_work"
STING = "sting"

EVENT_COUNTS: dict[str, int] = {
    BACKSPACE: 4, EDITOR: 3, TIP: 2, REVERSAL: 3, HOW_DO_YOU_SAY: 3, TRASH_TALK: 2,
    THATLL_WORK: 1, STING: 2,
}
#: Events kept in hand until their owner uses them.
KEPT = frozenset({BACKSPACE, EDITOR, TIP})
#: Events resolved the moment they are drawn.
IMMEDIATE = frozenset(EVENT_COUNTS) - KEPT

EVENT_NAMES: dict[str, str] = {
    BACKSPACE: "Backspace", EDITOR: "Editor", TIP: "Tip of My Tongue", REVERSAL: "Reversal",
    HOW_DO_YOU_SAY: "How Do You Say…?", TRASH_TALK: "Trash Talk", THATLL_WORK: "That'll Work",
    STING: "Spelling Bee Sting",
}

HAND_SIZE = 7
DECK_SIZE = 120


def _build(prefix: str, counts: list[tuple[str, int]]) -> dict[str, str]:
    faces = [face for face, n in counts for _ in range(n)]
    return {f"{prefix}{i}": face for i, face in enumerate(faces)}


#: Card id -> face ("A".."Z" or an event key). The main deck.
FACE: dict[str, str] = _build("c", [*LETTER_COUNTS.items(), *EVENT_COUNTS.items()])
#: The Wordblitz deck: the 100 letters only, with their own ids.
BLITZ_FACE: dict[str, str] = _build("b", list(LETTER_COUNTS.items()))
ALL_FACES: dict[str, str] = {**FACE, **BLITZ_FACE}


def face(card: str) -> str:
    return ALL_FACES[card]


LETTER_CARDS = frozenset(c for c, f in ALL_FACES.items() if len(f) == 1)


def is_letter(card: str) -> bool:
    return card in LETTER_CARDS


def is_immediate(card: str) -> bool:
    return ALL_FACES[card] in IMMEDIATE


def label(face_or_card: str) -> str:
    """How a face is written for players: the letter itself, or the event's name."""
    f = ALL_FACES.get(face_or_card, face_or_card)
    return EVENT_NAMES.get(f, f)


def draw_pile_size(players: int) -> int:
    """Cards left to draw after the deal: the rest are boxed (rules §2, scaling)."""
    return min(DECK_SIZE - HAND_SIZE * players, 40 + 8 * players)


def word_value(length: int) -> int:
    """1 point a word, plus 1 for each letter beyond six."""
    return 1 + max(0, length - 6)
