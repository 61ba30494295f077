"""Tip of My Tongue (rule 13): a completed word can be taken with Tip until the word changes
again, and for at least `TIP_MINIMUM` seconds; the first Tip takes it at once, a second Tip on
the same word starts rock-paper-scissors between the two, beside the turn (a `games.choices`
round: only its contenders are awaited). One of the windows that stay open while play goes on
(games.words.windows opens it when a word is completed; docs/words.md).
"""

from __future__ import annotations

from typing import Any

from games import choices
from games.core import Event, IllegalAction, Rng, State
from games.words.cards import TIP, word_value
from games.words.schema import Shape
from games.words.state import Next, card_with_face, need_str, next_number, phase, spell, verify_pick

SHAPES: tuple[Shape, ...] = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
#: After this many drawn rounds the bot picks the RPS winner at random.
RPS_ROUNDS = 10
#: Seconds the Tip window stays open even when the word changes again sooner.
TIP_MINIMUM = 8.0
#: Phases in which the game is still being played (windows can be used).
PLAYING = ("main", "claim")


# ----- Tip of My Tongue -------------------------------------------------------------

def tip_time_left(state: State) -> float:
    window = state["tip"]
    return 0.0 if window is None else window["at"] + TIP_MINIMUM - state["clock"]


def verify_tip(state: State, seat: int, action: dict[str, Any]) -> str:
    """Rule 13: the Tip card to use on the open window's word (a window the time has closed
    is gone already: the engine prunes at the press time before any check)."""
    if action["type"] == "no_tip":
        raise IllegalAction("Nobody needs to answer: the Tip of My Tongue window closes by itself "
                            "once the word changes.", rule="13")
    window = state["tip"]
    if window is None or phase(state).name not in (*PLAYING, "closing"):
        raise IllegalAction("Tip of My Tongue can only take the last completed word, until the word "
                            "changes again.", rule="13")
    if seat == window["seat"]:
        raise IllegalAction("You can't use Tip on your own word.", rule="13")
    if seat in window["users"]:
        raise IllegalAction("You already used Tip on this word.", rule="13")
    if state["rps"] is not None:
        raise IllegalAction("Wait: rock, paper, scissors is deciding who takes a word.", rule="13")
    card = card_with_face(state["hands"][seat], TIP)
    if card is None:
        raise IllegalAction("You have no Tip of My Tongue card.", rule="13")
    return card


def tip(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    card = verify_tip(state, seat, action)
    window = state["tip"]
    state["hands"][seat].remove(card)
    state["discard"].append(card)
    window["users"].append(seat)
    events.append(Event("tip", {"seat": seat}))
    if len(window["users"]) == 1:  # the first Tip takes the word at once
        move_word(state, window["holder"], seat, window["card"], window["seat"], events)
        window["holder"] = seat
        return None
    players = [s for s in window["users"] if s not in state["left"]]
    if len(players) == 1:  # the first taker left the game: no contest
        move_word(state, window["holder"], seat, window["card"], window["seat"], events)
        window["holder"] = seat
        return None
    start_rps(state, players, {k: window[k] for k in ("word", "card", "holder")} | {"owner": window["seat"]},
              events)
    return None


def move_word(state: State, giver: int, taker: int, card: str, owner: int, events: list[Event]) -> None:
    """The word whose first card is `card` goes from `giver`'s stack to `taker`'s, points
    with it. `stats.tips` counts the words each player holds by Tip."""
    stack = state["stacks"][giver]
    cards = next((w for w in stack if w and w[0] == card), None)
    if cards is None:  # pragma: no cover - a word never leaves a stack but by Tip
        return
    stack.remove(cards)
    value = word_value(len(cards))
    state["score"][giver] -= value
    state["stacks"][taker].append(cards)
    state["score"][taker] += value
    state["stats"][taker]["tips"] += 1
    if giver != owner:
        state["stats"][giver]["tips"] -= 1
    events.append(Event("tip_steal", {"seat": taker, "victim": giver, "word": spell(cards), "points": value}))


def verify_close(state: State, seat: int | None, action: dict[str, Any]) -> None:
    """The game's own wait at the very end, never a seat's."""
    if seat is not None or phase(state).name != "closing":
        raise IllegalAction("Only the game itself closes the Tip of My Tongue window.", rule="13")


def close(state: State, seat: int | None, action: dict[str, Any], events: list[Event]) -> Next:
    """The game's own wait at the very end: the Tip window's minimum is over."""
    verify_close(state, seat, action)
    state["tip"] = None
    return None


# ----- rock-paper-scissors (a secret-choice round beside the turn) ------------------

def start_rps(state: State, players: list[int], word: dict[str, Any], events: list[Event],
              rounds: int = 0) -> None:
    """A new round for `players` over `word` ({word, card, holder, owner}). Each one's
    timeout shape is drawn now and kept hidden."""
    rng = Rng(state)
    fallback = [rng.choice(list(SHAPES)) for _ in range(state["players"])]
    n = next_number(state)
    state["rps"] = {"n": n, "players": list(players), "rounds": rounds, "fallback": fallback, **word,
                    "box": choices.open_round(f"rps{n}", players, state["players"], actions=("rps",))}
    events.append(Event("rps", {"seats": list(players), "round": rounds + 1}))


def verify_rps(state: State, seat: int, action: dict[str, Any]) -> str:
    """Rule 13's contest: the shape a contender throws."""
    game = state["rps"]
    verify_pick(game["box"] if game is not None else None, seat,
                "There is no rock-paper-scissors game right now.", "13")
    shape = need_str(action, "shape", "shape", "13")
    if shape not in SHAPES:
        raise IllegalAction("Pick rock, paper or scissors.", rule="13")
    return shape


def rps(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    shape = verify_rps(state, seat, action)
    box = state["rps"]["box"]
    events.append(Event("picked", {"seat": seat, "choice": shape}, (seat,)))
    if choices.choose(box, seat, shape):
        settle_rps(state, events)
    return None


def settle_rps(state: State, events: list[Event]) -> None:
    """Once every contender chose: the winning shape's players go on; a draw is replayed.
    The last one standing ends up with the word. Called once per round, when it completes
    (or a leaver completes it)."""
    game = state["rps"]
    box = game["box"]
    players = list(box["seats"])
    if len(players) > 1 and not choices.complete(box):
        return
    if not players:  # everyone in it left: the word stays where it is
        state["rps"] = None
        return
    if len(players) > 1:
        picks = choices.reveal(box)
        events.append(Event("rps_reveal", {"picks": [[s, picks[s]] for s in players]}))
        shapes = set(picks.values())
        if len(shapes) == 2:
            a, b = sorted(shapes)
            winning = a if BEATS[a] == b else b
            players = [s for s in players if picks[s] == winning]
        elif game["rounds"] + 1 >= RPS_ROUNDS:
            players = [Rng(state).choice(players)]
    if len(players) > 1:
        word = {k: game[k] for k in ("word", "card", "holder", "owner")}
        start_rps(state, players, word, events, game["rounds"] + 1)
        return
    winner = players[0]
    state["rps"] = None
    if winner == game["holder"]:
        events.append(Event("tip_kept", {"seat": winner, "word": game["word"]}))
    else:
        move_word(state, game["holder"], winner, game["card"], game["owner"], events)
    window = state["tip"]
    if window is not None and window["card"] == game["card"]:
        window["holder"] = winner
