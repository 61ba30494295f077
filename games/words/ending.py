"""The end (§3.20-§3.22): ranking keys, the Coin / Wordblitz tie-break, and the outcome."""

from __future__ import annotations

from typing import Any

from games.core import Event, IllegalAction, Outcome, Rng, State
from games.words import turns
from games.words.cards import BLITZ_FACE, HAND_SIZE
from games.words.state import event, open_phase, seat_name, seats_in_play


def rank_key(state: State, seat: int) -> tuple[Any, ...]:
    """Points, then total letters won, then word lengths longest first."""
    lengths = sorted((len(w) for w in state["stacks"][seat]), reverse=True)
    return (state["score"][seat], sum(lengths), tuple(lengths))


def finish(state: State, reason: str, events: list[Event]) -> None:
    """The main game is over; tied leaders (if any) choose how to break the tie."""
    state["over"] = reason
    state["picks"] = [None] * state["players"]
    events.append(event("game_over", f"Game over: {reason}."))
    active = seats_in_play(state)
    if len(active) > 1 and not state["blitz"]:
        best = max(rank_key(state, s) for s in active)
        tied = [s for s in active if rank_key(state, s) == best]
        if len(tied) > 1:
            open_phase(state, "tiebreak", tied=tied, choices=[None] * state["players"])
            names = ", ".join(seat_name(s) for s in tied)
            events.append(event("tiebreak", f"{names} are tied: choose Coin toss or Wordblitz."))
            return
    open_phase(state, "over")


def choose_tiebreak(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    phase = state["phase"]
    if phase["name"] != "tiebreak" or seat not in phase["tied"]:
        raise IllegalAction("There is no tie-break for you to choose.")
    if phase["choices"][seat] is not None:
        raise IllegalAction("You already chose.")
    phase["choices"][seat] = "blitz" if action["type"] == "wordblitz" else "coin"
    settle_tiebreak(state, events)


def settle_tiebreak(state: State, events: list[Event]) -> None:
    phase = state["phase"]
    tied = [s for s in phase["tied"] if s not in state["left"]]
    if len(tied) > 1 and any(phase["choices"][s] is None for s in tied):
        return
    if len(tied) > 1 and all(phase["choices"][s] == "blitz" for s in tied):
        start_blitz(state, tied, events)
        return
    rng = Rng(state)
    winner = tied[0] if len(tied) == 1 else rng.choice(tied)
    declare(state, winner, tied, "coin toss", events)


def declare(state: State, winner: int, tied: list[int], how: str, events: list[Event]) -> None:
    state["tiebreak"] = {"winner": winner, "tied": tied, "how": how}
    events.append(event("tiebreak_won", f"{seat_name(winner)} wins the {how}!", seat=winner))
    open_phase(state, "over")


def start_blitz(state: State, tied: list[int], events: list[Event]) -> None:
    """Wordblitz: a fresh letters-only deck, 7 each, first 3-letter word wins."""
    rng = Rng(state)
    deck = rng.shuffled(list(BLITZ_FACE))
    hands: list[list[str]] = [[] for _ in range(state["players"])]
    for _ in range(HAND_SIZE):
        for seat in tied:
            hands[seat].append(deck.pop())
    state["blitz"] = {
        "seats": tied, "turn": tied[0], "turns": 0, "draw": deck, "hands": hands, "wip": [],
        "discard": [], "forced_skip": [0] * state["players"], "tied": tied,
    }
    events.append(event("wordblitz", "Wordblitz! The first to finish a 3-letter word wins."))
    turns.start_turn(state, rng.choice(tied), events)


def blitz_won(state: State, seat: int, word: str, events: list[Event]) -> None:
    events.append(event("blitz_word", f"{seat_name(seat)} makes {word}!", seat=seat, word=word))
    declare(state, seat, state["blitz"]["tied"], "Wordblitz", events)


def blitz_coin_toss(state: State, events: list[Event]) -> None:
    tied = [s for s in state["blitz"]["tied"] if s not in state["left"]]
    events.append(event("blitz_timeout", "Wordblitz ran 30 turns without a word: coin toss."))
    declare(state, Rng(state).choice(tied), tied, "coin toss", events)


def outcome(state: State) -> Outcome | None:
    """Ranks: points and the tie-break among those in play, then leavers, earliest last."""
    if state["phase"]["name"] != "over":
        return None
    active = seats_in_play_main(state)
    keys = {s: rank_key(state, s) for s in active}
    tb = state["tiebreak"]
    ranks = [0] * state["players"]
    for s in active:
        ahead = sum(1 for o in active if keys[o] > keys[s])
        if tb and s in tb["tied"] and s != tb["winner"]:
            ahead += 1  # the tie-break winner is ahead of the other tied players
        ranks[s] = ahead
    for i, s in enumerate(reversed(state["left"])):
        ranks[s] = len(active) + i
    return Outcome(ranks=tuple(ranks), scores=tuple(float(x) for x in state["score"]),
                   reason=state["over"] or "")


def seats_in_play_main(state: State) -> list[int]:
    left = set(state["left"])
    return [s for s in range(state["players"]) if s not in left]
