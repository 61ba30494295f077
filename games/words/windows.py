"""The windows that open after a play: challenge (§3.9), claim (§3.10), Tip of My Tongue
(§3.13) and its rock-paper-scissors. Every eligible seat gets a wait whose default is
"let it stand" / "no Tip", so a window closes when all have answered or time runs out."""

from __future__ import annotations

from typing import Any

from games.core import Event, IllegalAction, Rng, State
from games.words import ending, turns
from games.words.cards import FACE, TIP, word_value
from games.words.dictionary import lexicon
from games.words.state import (
    board,
    card_with_face,
    event,
    in_blitz,
    need_str,
    open_phase,
    seat_name,
    seats_in_play,
    spell,
    valid_fragment,
)

SHAPES = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
#: After this many drawn rounds the bot picks the RPS winner at random.
RPS_ROUNDS = 10


def after_letter(state: State, seat: int, at: int, events: list[Event]) -> None:
    """What a letter play opens: a claim offer, a Wordblitz verdict, or a challenge window."""
    area = board(state)
    word = spell(area["wip"])
    if in_blitz(state):
        if lexicon().is_word3(word):
            ending.blitz_won(state, seat, word, events)
            return
        if len(word) >= 4:
            area["discard"].extend(area["wip"])
            area["wip"] = []
            events.append(event("blitz_bust", f"{word} is too long: the word is discarded."))
            turns.end_turn(state, events)
            return
    elif lexicon().claimable(word):
        # A claimable word is in the dictionary, so a challenge could only fail: no window.
        change_stands(state)
        open_phase(state, "claim", seat=seat, word=word)
        return
    open_challenge(state, seat, "letter", {"index": at}, events)


def open_challenge(state: State, seat: int, kind: str, undo: dict[str, Any],
                   events: list[Event]) -> None:
    others = [s for s in seats_in_play(state) if s != seat]
    if not others:
        change_stands(state)
        turns.end_turn(state, events)
        return
    open_phase(state, "challenge", seat=seat, kind=kind, undo=undo, waiting=others)


def change_stands(state: State) -> None:
    """Rule 11: a WIP change that stands clears the skip streak."""
    if not in_blitz(state):
        state["skip_streak"] = []


def challenge(state: State, seat: int, events: list[Event]) -> None:
    phase = state["phase"]
    check_window(state, seat, "challenge", "There is nothing to challenge right now.")
    area = board(state)
    actor = phase["seat"]
    word = spell(area["wip"])
    stats = state["stats"]
    if valid_fragment(state, word):
        area["forced_skip"][seat] += 1
        stats[seat]["challenges_lost"] += 1
        stats[actor]["challenges_won"] += 1
        events.append(event("challenge", f"{seat_name(seat)} challenged {word or 'the empty word'}, "
                            f"but it can still become a word: {seat_name(seat)} loses a turn.",
                            seat=seat, actor=actor, upheld=False, word=word))
        change_stands(state)
    else:
        undo_change(area, phase["kind"], phase["undo"])
        area["forced_skip"][actor] += 1
        stats[seat]["challenges_won"] += 1
        stats[actor]["challenges_lost"] += 1
        events.append(event("challenge", f"{seat_name(seat)} challenged {word}: no word contains "
                            f"it. The change is undone and {seat_name(actor)} loses a turn.",
                            seat=seat, actor=actor, upheld=True, word=spell(area["wip"])))
    turns.end_turn(state, events)


def undo_change(area: dict[str, Any], kind: str, undo: dict[str, Any]) -> None:
    """Put the WIP back as it was; a played letter goes to the discard pile."""
    wip = area["wip"]
    if kind == "letter":
        area["discard"].append(wip.pop(undo["index"]))
    elif kind == "backspace":
        area["discard"].remove(undo["card"])
        wip.insert(undo["index"], undo["card"])
    else:
        wip.insert(undo["from"], wip.pop(undo["to"]))


def stand(state: State, seat: int, events: list[Event]) -> None:
    check_window(state, seat, "challenge", "There is nothing to challenge right now.")
    phase = state["phase"]
    phase["waiting"].remove(seat)
    if not phase["waiting"]:
        change_stands(state)
        turns.end_turn(state, events)


def check_window(state: State, seat: int, name: str, closed: str) -> None:
    phase = state["phase"]
    if phase["name"] != name:
        raise IllegalAction(closed)
    if seat == phase.get("seat") and name == "challenge":
        raise IllegalAction("You can't challenge your own play.")
    if seat not in phase["waiting"]:
        raise IllegalAction("You already answered.")


# ----- claim ------------------------------------------------------------------------

def claim(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    phase = state["phase"]
    if phase["name"] != "claim":
        raise IllegalAction("There is no word to claim right now.")
    if phase["seat"] != seat:
        raise IllegalAction("Only the player who finished the word may claim it.")
    if action["type"] == "keep":
        events.append(event("keep", f"{seat_name(seat)} keeps building {phase['word']}.", seat=seat))
        turns.end_turn(state, events)
        return
    complete_word(state, seat, events, then="end")


def complete_word(state: State, seat: int, events: list[Event], then: str) -> None:
    """A claim or That'll Work: the WIP goes to the stack, then the Tip window opens."""
    cards = state["wip"]
    state["wip"] = []
    state["stacks"][seat].append(cards)
    value = word_value(len(cards))
    state["score"][seat] += value
    state["stalemates"] = 0
    state["skip_streak"] = []
    word = spell(cards)
    events.append(event("claim", f"{seat_name(seat)} takes {word} for {value} "
                        f"point{'s' if value > 1 else ''}.", seat=seat, word=word, points=value))
    others = [s for s in seats_in_play(state) if s != seat]
    tips_out = sum(1 for c in state["discard"] if FACE.get(c) == TIP)
    if not others or tips_out == sum(1 for f in FACE.values() if f == TIP):
        finish_window(state, then, events)  # every Tip is face up: nobody could steal
        return
    open_phase(state, "tip", seat=seat, word=word, waiting=others, users=[], then=then)


def finish_window(state: State, then: str, events: list[Event]) -> None:
    if then == "end":
        turns.end_turn(state, events)
    else:
        open_phase(state, "main", seat=state["turn"], step="act")


# ----- Tip of My Tongue -------------------------------------------------------------

def tip(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    closed = "Tip of My Tongue can only be used right after someone completes a word."
    if state["phase"]["name"] != "tip":
        raise IllegalAction(closed)
    if seat == state["phase"]["seat"]:
        raise IllegalAction("You can't use Tip on your own word.")
    check_window(state, seat, "tip", closed)
    phase = state["phase"]
    if action["type"] == "tip":
        card = card_with_face(state["hands"][seat], TIP)
        if card is None:
            raise IllegalAction("You have no Tip of My Tongue card.")
        state["hands"][seat].remove(card)
        state["discard"].append(card)
        phase["users"].append(seat)
        events.append(event("tip", f"{seat_name(seat)} uses Tip of My Tongue!", seat=seat))
    phase["waiting"].remove(seat)
    if not phase["waiting"]:
        resolve_tip(state, events)


def resolve_tip(state: State, events: list[Event]) -> None:
    phase = state["phase"]
    users = [s for s in phase["users"] if s not in state["left"]]
    if not users:
        finish_window(state, phase["then"], events)
    elif len(users) == 1:
        take_word(state, phase["seat"], users[0], events)
        finish_window(state, phase["then"], events)
    else:
        start_rps(state, phase["seat"], users, phase["then"], events)


def take_word(state: State, owner: int, taker: int, events: list[Event]) -> None:
    cards = state["stacks"][owner].pop()
    value = word_value(len(cards))
    state["score"][owner] -= value
    state["stacks"][taker].append(cards)
    state["score"][taker] += value
    state["stats"][taker]["tips"] += 1
    events.append(event("tip_steal", f"{seat_name(taker)} steals {spell(cards)} from "
                        f"{seat_name(owner)}!", seat=taker, victim=owner, word=spell(cards)))


def start_rps(state: State, owner: int, players: list[int], then: str, events: list[Event],
              rounds: int = 0) -> None:
    rng = Rng(state)
    fallback = [rng.choice(list(SHAPES)) for _ in range(state["players"])]
    open_phase(state, "rps", seat=owner, players=players, then=then, rounds=rounds,
               choices=[None] * state["players"], fallback=fallback)
    names = ", ".join(seat_name(s) for s in players)
    events.append(event("rps", f"Rock, paper, scissors between {names} for the word!"))


def rps(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
    phase = state["phase"]
    if phase["name"] != "rps" or seat not in phase["players"]:
        raise IllegalAction("You are not in a rock-paper-scissors game.")
    shape = need_str(action, "shape", "shape")
    if shape not in SHAPES:
        raise IllegalAction("Pick rock, paper or scissors.")
    if phase["choices"][seat] is not None:
        raise IllegalAction("You already chose.")
    phase["choices"][seat] = shape
    settle_rps(state, events)


def settle_rps(state: State, events: list[Event]) -> None:
    """Once every contender chose: the winning shape's players go on; a draw is replayed."""
    phase = state["phase"]
    players = [s for s in phase["players"] if s not in state["left"]]
    if len(players) > 1 and any(phase["choices"][s] is None for s in players):
        return
    if not players:
        finish_window(state, phase["then"], events)
        return
    shown = ", ".join(f"{seat_name(s)} {phase['choices'][s]}" for s in players)
    shapes = {phase["choices"][s] for s in players}
    if len(players) > 1:
        events.append(event("rps_reveal", f"Rock, paper, scissors: {shown}."))
    if len(players) > 1 and len(shapes) == 2:
        a, b = sorted(shapes)
        winning = a if BEATS[a] == b else b
        players = [s for s in players if phase["choices"][s] == winning]
    elif len(players) > 1 and phase["rounds"] + 1 >= RPS_ROUNDS:
        players = [Rng(state).choice(players)]
    if len(players) == 1:
        take_word(state, phase["seat"], players[0], events)
        finish_window(state, phase["then"], events)
        return
    start_rps(state, phase["seat"], players, phase["then"], events, phase["rounds"] + 1)
