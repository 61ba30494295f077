"""The windows that open after a play: challenge (rule 9), claim (rule 10), Tip of My Tongue
(rule 13) and its rock-paper-scissors. Every eligible seat gets a wait whose default is
"let it stand" / "no Tip", so a window closes when all have answered or time runs out.

Rock-paper-scissors is a secret-choice round (`games.choices`): picks stay hidden until all
are in, then it resolves once. Nothing here changes whose turn it is: a window that ends
the turn returns `END_TURN` for `turns.follow` to carry out.
"""

from __future__ import annotations

from typing import Any

from games import choices
from games.core import Event, IllegalAction, Rng, State
from games.words import ending
from games.words.cards import FACE, TIP, word_value
from games.words.dictionary import lexicon
from games.words.state import (
    END_TURN,
    Next,
    board,
    card_with_face,
    in_blitz,
    need_str,
    open_phase,
    seats_in_play,
    spell,
    valid_fragment,
    verify_pick,
)

SHAPES = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
#: After this many drawn rounds the bot picks the RPS winner at random.
RPS_ROUNDS = 10


def after_letter(state: State, seat: int, at: int, events: list[Event]) -> Next:
    """What a letter play opens: a claim offer, a Wordblitz verdict, or a challenge window."""
    area = board(state)
    word = spell(area["wip"])
    if in_blitz(state):
        if lexicon().is_word3(word):
            ending.blitz_won(state, seat, word, events)
            return None
        if len(word) >= 4:
            area["discard"].extend(area["wip"])
            area["wip"] = []
            events.append(Event("blitz_bust", {"seat": seat, "word": word}))
            return END_TURN
    elif lexicon().claimable(word):
        # A claimable word is in the dictionary, so a challenge could only fail: no window.
        change_stands(state)
        open_phase(state, "claim", seat=seat, word=word)
        return None
    return open_challenge(state, seat, "letter", {"index": at})


def open_challenge(state: State, seat: int, kind: str, undo: dict[str, Any]) -> Next:
    others = [s for s in seats_in_play(state) if s != seat]
    if not others:
        change_stands(state)
        return END_TURN
    open_phase(state, "challenge", seat=seat, kind=kind, undo=undo, waiting=others)
    return None


def change_stands(state: State) -> None:
    """Rule 11: a WIP change that stands clears the skip streak."""
    if not in_blitz(state):
        state["skip_streak"] = []


def challenge(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
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
        events.append(Event("challenge", {"seat": seat, "actor": actor, "upheld": False, "word": word}))
        change_stands(state)
    else:
        undo_change(area, phase["kind"], phase["undo"])
        area["forced_skip"][actor] += 1
        stats[seat]["challenges_won"] += 1
        stats[actor]["challenges_lost"] += 1
        events.append(Event("challenge", {"seat": seat, "actor": actor, "upheld": True, "word": word,
                                          "restored": spell(area["wip"])}))
    return END_TURN


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


def stand(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    check_window(state, seat, "challenge", "There is nothing to challenge right now.")
    phase = state["phase"]
    phase["waiting"].remove(seat)
    if not phase["waiting"]:
        change_stands(state)
        return END_TURN
    return None


def check_window(state: State, seat: int, name: str, closed: str) -> None:
    rule = "9" if name == "challenge" else "13"
    phase = state["phase"]
    if phase["name"] != name:
        raise IllegalAction(closed, rule=rule)
    if seat == phase.get("seat") and name == "challenge":
        raise IllegalAction("You can't challenge your own play.", rule=rule)
    if seat not in phase["waiting"]:
        raise IllegalAction("You already answered.", rule=rule)


# ----- claim ------------------------------------------------------------------------

def claim(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    phase = state["phase"]
    if phase["name"] != "claim":
        raise IllegalAction("There is no word to claim right now.", rule="10")
    if phase["seat"] != seat:
        raise IllegalAction("Only {player}, who finished the word, may claim it.", rule="10",
                            seats={"player": phase["seat"]})
    if action["type"] == "keep":
        events.append(Event("keep", {"seat": seat, "word": phase["word"]}))
        return END_TURN
    return complete_word(state, seat, events, then="end")


def complete_word(state: State, seat: int, events: list[Event], then: str) -> Next:
    """A claim or That'll Work: the WIP goes to the stack, then the Tip window opens."""
    cards = state["wip"]
    state["wip"] = []
    state["stacks"][seat].append(cards)
    value = word_value(len(cards))
    state["score"][seat] += value
    state["stalemates"] = 0
    state["skip_streak"] = []
    word = spell(cards)
    events.append(Event("claim", {"seat": seat, "word": word, "points": value}))
    others = [s for s in seats_in_play(state) if s != seat]
    tips_out = sum(1 for c in state["discard"] if FACE.get(c) == TIP)
    if not others or tips_out == sum(1 for f in FACE.values() if f == TIP):
        return finish_window(state, then)  # every Tip is face up: nobody could steal
    open_phase(state, "tip", seat=seat, word=word, waiting=others, users=[], then=then)
    return None


def finish_window(state: State, then: str) -> Next:
    """After a claim the turn ends; after That'll Work the drawer's turn goes on — unless
    the drawer left while the window was open."""
    if then == "end" or state["turn"] in state["left"]:
        return END_TURN
    open_phase(state, "main", seat=state["turn"], step="act")
    return None


# ----- Tip of My Tongue -------------------------------------------------------------

def tip(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    closed = "Tip of My Tongue can only be used right after someone completes a word."
    if state["phase"]["name"] != "tip":
        raise IllegalAction(closed, rule="13")
    if seat == state["phase"]["seat"]:
        raise IllegalAction("You can't use Tip on your own word.", rule="13")
    check_window(state, seat, "tip", closed)
    phase = state["phase"]
    if action["type"] == "tip":
        card = card_with_face(state["hands"][seat], TIP)
        if card is None:
            raise IllegalAction("You have no Tip of My Tongue card.", rule="13")
        state["hands"][seat].remove(card)
        state["discard"].append(card)
        phase["users"].append(seat)
        events.append(Event("tip", {"seat": seat}))
    phase["waiting"].remove(seat)
    if not phase["waiting"]:
        return resolve_tip(state, events)
    return None


def resolve_tip(state: State, events: list[Event]) -> Next:
    phase = state["phase"]
    users = [s for s in phase["users"] if s not in state["left"]]
    if not users:
        return finish_window(state, phase["then"])
    if len(users) == 1:
        take_word(state, phase["seat"], users[0], events)
        return finish_window(state, phase["then"])
    start_rps(state, phase["seat"], users, phase["then"], events)
    return None


def take_word(state: State, owner: int, taker: int, events: list[Event]) -> None:
    cards = state["stacks"][owner].pop()
    value = word_value(len(cards))
    state["score"][owner] -= value
    state["stacks"][taker].append(cards)
    state["score"][taker] += value
    state["stats"][taker]["tips"] += 1
    events.append(Event("tip_steal", {"seat": taker, "victim": owner, "word": spell(cards),
                                      "points": value}))


# ----- rock-paper-scissors (a secret-choice round) ----------------------------------

def start_rps(state: State, owner: int, players: list[int], then: str, events: list[Event],
              rounds: int = 0) -> None:
    """A new round for `players`. Each one's timeout shape is drawn now and kept hidden."""
    rng = Rng(state)
    fallback = [rng.choice(list(SHAPES)) for _ in range(state["players"])]
    phase = open_phase(state, "rps", seat=owner, players=players, then=then, rounds=rounds,
                       fallback=fallback)
    phase["box"] = choices.open_round(f"rps{phase['n']}", players, state["players"], actions=("rps",))
    events.append(Event("rps", {"seats": list(players), "round": rounds + 1}))


def rps(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    phase = state["phase"]
    box = phase.get("box") if phase["name"] == "rps" else None
    verify_pick(box, seat, "There is no rock-paper-scissors game right now.", "13")
    assert box is not None
    shape = need_str(action, "shape", "shape", "13")
    if shape not in SHAPES:
        raise IllegalAction("Pick rock, paper or scissors.", rule="13")
    events.append(Event("picked", {"seat": seat, "choice": shape}, (seat,)))
    if choices.choose(box, seat, shape):
        return settle_rps(state, events)
    return None


def settle_rps(state: State, events: list[Event]) -> Next:
    """Once every contender chose: the winning shape's players go on; a draw is replayed.
    Called once per round, when it completes (or a leaver completes it)."""
    phase = state["phase"]
    box = phase["box"]
    players = list(box["seats"])
    if len(players) > 1 and not choices.complete(box):
        return None
    if not players:
        return finish_window(state, phase["then"])
    if len(players) > 1:
        picks = choices.reveal(box)
        events.append(Event("rps_reveal", {"picks": [[s, picks[s]] for s in players]}))
        shapes = set(picks.values())
        if len(shapes) == 2:
            a, b = sorted(shapes)
            winning = a if BEATS[a] == b else b
            players = [s for s in players if picks[s] == winning]
        elif phase["rounds"] + 1 >= RPS_ROUNDS:
            players = [Rng(state).choice(players)]
    if len(players) == 1:
        take_word(state, phase["seat"], players[0], events)
        return finish_window(state, phase["then"])
    start_rps(state, phase["seat"], players, phase["then"], events, phase["rounds"] + 1)
    return None
