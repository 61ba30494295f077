"""Build Fighting Words states directly, the way the rules' scenarios describe them."""

from __future__ import annotations

import json
from typing import Any

from games.core import Event, IllegalAction, State
from games.words import ENGINE, turns
from games.words.cards import BLITZ_FACE, DECK_SIZE, FACE, face, is_letter, word_value
from games.words.state import new_state

A, B, C = 0, 1, 2


class Pool:
    """Hands out unused card ids by face."""

    def __init__(self) -> None:
        self.free = list(FACE)

    def take(self, wanted: str) -> str:
        wanted = wanted.upper() if len(wanted) == 1 else wanted
        for card in self.free:
            if FACE[card] == wanted:
                self.free.remove(card)
                return card
        raise LookupError(f"no {wanted} left in the deck")

    def many(self, faces: list[str] | str) -> list[str]:
        return [self.take(f) for f in faces]


def build(players: int = 3, *, wip: str = "", hands: dict[int, list[str]] | None = None,
          draw: list[str] | None = None, discard: list[str] | None = None, turn: int = A,
          filler: str = "E") -> State:
    """A state where it is `turn`'s main action. Hands are padded to 7 with `filler`-free
    letters; `draw` lists the top of the pile last; every other card is boxed, so the deck
    still holds exactly 120 cards."""
    state = new_state(players, {"seed": 1, "n": 0}, {})
    pool = Pool()
    hands = hands or {}
    state["wip"] = pool.many(list(wip))
    state["discard"] = pool.many(discard or [])
    state["hands"] = [pool.many(hands.get(s, [])) for s in range(players)]
    top = pool.many(draw) if draw is not None else []
    spare_letters = [c for c in pool.free if is_letter(c) and FACE[c] not in "QXZJK"]
    for hand in state["hands"]:
        while len(hand) < 7:
            card = spare_letters.pop()
            pool.free.remove(card)
            hand.append(card)
    if draw is None:  # a plain pile of ordinary letters
        top = [c for c in spare_letters[:20]]
        for card in top:
            pool.free.remove(card)
    state["draw"] = top
    state["boxed"] = list(pool.free)
    state["turn"] = turn
    state["phase"] = {"name": "main", "n": 1, "seat": turn, "step": "act"}
    state["window"] = 1
    return roundtrip(state)


def roundtrip(state: State) -> State:
    out = json.loads(json.dumps(state))
    assert out == state
    return out


def act(state: State, seat: int | None, action: dict[str, Any], now: float = 1.0) -> tuple[State, list[Event]]:
    """`seat` does `action`, pressed at `now` (every press at 1.0 unless told: all inside the
    windows' minimums)."""
    new, events = ENGINE.apply(state, seat, action, now)  # type: ignore[arg-type]
    return roundtrip(new), events


def begin(state: State, seat: int) -> tuple[State, list[Event]]:
    """Start `seat`'s turn (the automatic stalemate check, forced skip and draw)."""
    events: list[Event] = []
    turns.start_turn(state, seat, events)
    return roundtrip(state), events


def give(state: State, seat: int, wanted: str) -> str:
    """Move one card of that face from the boxed cards into a hand."""
    for card in state["boxed"]:
        if face(card) == wanted:
            state["boxed"].remove(card)
            state["hands"][seat].append(card)
            return card
    raise LookupError(wanted)


def awaited(state: State) -> list[int | None]:
    """The seats the game waits for (None: the game itself)."""
    return [w.seat for w in ENGINE.to_act(state)]


def all_cards(state: State) -> list[str]:
    """Every main-game card wherever it is."""
    stacks = [c for stack in state["stacks"] for word in stack for c in word]
    hands = [c for h in state["hands"] for c in h]
    return state["draw"] + state["boxed"] + state["discard"] + state["wip"] + hands + stacks


def refusal(state: State, seat: int, action: Any, now: float = 1.0) -> IllegalAction:
    try:
        ENGINE.apply(state, seat, action, now)
    except IllegalAction as exc:
        return exc
    raise AssertionError(f"{action} was allowed")


def refused(state: State, seat: int, action: Any, now: float = 1.0) -> str:
    """The refusal as a player named "Player<n>" (seat n - 1) reads it."""
    return refusal(state, seat, action, now).render(lambda s: f"Player{s + 1}")


def public_events(events: list[Event]) -> list[tuple[str, dict[str, Any]]]:
    return [(e.type, e.data) for e in events if e.to is None]


# ----- checks that hold at every step (tests/words/test_properties.py, test_windows.py) -------------
def blitz_cards(state: State) -> list[str]:
    b = state["blitz"]
    return b["draw"] + b["discard"] + b["wip"] + [c for h in b["hands"] for c in h]


def check_cards_and_scores(state: State) -> None:
    """Card conservation (120 at every step) and scores equal to the values of won words."""
    cards = all_cards(state)
    assert len(cards) == DECK_SIZE and len(set(cards)) == DECK_SIZE
    if state["blitz"]:
        assert sorted(blitz_cards(state)) == sorted(BLITZ_FACE)
    for seat, stack in enumerate(state["stacks"]):
        assert state["score"][seat] == sum(word_value(len(w)) for w in stack)


def check_hand_limits(state: State) -> None:
    """Only the seat in turn (who has just drawn) may hold eight cards."""
    if state["blitz"] or state["over"]:
        return
    for seat, hand in enumerate(state["hands"]):
        assert len(hand) <= (8 if seat == state["turn"] else 7)
