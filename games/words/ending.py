"""The end (rules 20-22): ranking keys, the Coin / Wordblitz tie-break, and the outcome.

Nothing here changes whose turn it is: starting Wordblitz deals its hands and returns
`START_TURN`, which `turns.follow` carries out. The tie-break choice is a secret-choice
round (`games.choices`): each tied player's pick stays hidden until all are in.
"""

from __future__ import annotations

from typing import Any

from games import choices
from games.core import Event, Outcome, Rng, State
from games.words.cards import BLITZ_FACE, HAND_SIZE
from games.words.state import START_TURN, Next, close_windows, open_phase, phase, seats_in_play, verify_pick

#: Why the game ended (`state["over"]`, `Outcome.reason`): codes the interface words.
LAST_CARD = "last_card"
STALEMATES = "stalemates"
EVERYONE_LEFT = "everyone_left"
PILE_EMPTY = "pile_empty"
NO_TURNS = "no_turns"

#: The tie-break picks (the action types that make them).
ABANDONED = "abandoned"
COIN = "coin"
WORDBLITZ = "wordblitz"
TIEBREAK_PICKS = (COIN, WORDBLITZ)


def rank_key(state: State, seat: int) -> tuple[Any, ...]:
    """Points, then total letters won, then word lengths longest first."""
    lengths = sorted((len(w) for w in state["stacks"][seat]), reverse=True)
    return (state["score"][seat], sum(lengths), tuple(lengths))


def finish(state: State, reason: str, events: list[Event]) -> None:
    """The main game is over; tied leaders (if any) choose how to break the tie."""
    state["over"] = reason
    state["picks"] = [None] * state["players"]
    close_windows(state)
    events.append(Event("game_over", {"reason": reason}))
    active = seats_in_play(state)
    if len(active) > 1 and not state["blitz"]:
        best = max(rank_key(state, s) for s in active)
        tied = [s for s in active if rank_key(state, s) == best]
        if len(tied) > 1:
            phase = open_phase(state, "tiebreak", tied=tied)
            phase["box"] = choices.open_round(f"tiebreak{phase['n']}", tied, state["players"],
                                              actions=TIEBREAK_PICKS)
            events.append(Event("tiebreak", {"seats": tied}))
            return
    open_phase(state, "over")


def verify_tiebreak(state: State, seat: int, action: dict[str, Any]) -> None:
    """Rule 22: a tied player who has not chosen yet picks Coin toss or Wordblitz."""
    box = state["phase"].get("box") if phase(state).name == "tiebreak" else None
    verify_pick(box, seat, "There is no tie-break for you to choose.", "22")


def choose_tiebreak(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    verify_tiebreak(state, seat, action)
    box = state["phase"]["box"]
    pick = WORDBLITZ if action["type"] == WORDBLITZ else COIN
    events.append(Event("picked", {"seat": seat, "choice": pick}, (seat,)))
    if choices.choose(box, seat, pick):
        return settle_tiebreak(state, events)
    return None


def settle_tiebreak(state: State, events: list[Event]) -> Next:
    """Once every tied player chose (or all but one left): Wordblitz if all want it, else
    a draw among them."""
    box = state["phase"]["box"]
    tied = list(box["seats"])
    if len(tied) > 1 and not choices.complete(box):
        return None
    if not tied:
        open_phase(state, "over")
        return None
    if len(tied) == 1:  # the others left: the tie is broken without a toss
        declare(state, tied[0], state["phase"]["tied"], "walkover", events)
        return None
    picks = choices.reveal(box)
    events.append(Event("tiebreak_reveal", {"picks": [[s, picks[s]] for s in tied]}))
    if all(picks[s] == WORDBLITZ for s in tied):
        return start_blitz(state, tied, events)
    declare(state, Rng(state).choice(tied), tied, COIN, events)
    return None


def declare(state: State, winner: int, tied: list[int], how: str, events: list[Event],
            **facts: Any) -> None:
    close_windows(state)
    state["tiebreak"] = {"winner": winner, "tied": list(tied), "how": how, **facts}
    events.append(Event("tiebreak_won", {"seat": winner, "how": how, **facts}))
    open_phase(state, "over")


def start_blitz(state: State, tied: list[int], events: list[Event]) -> Next:
    """Wordblitz: a fresh letters-only deck, 7 each, first 3-letter word wins. The first
    player is drawn at random; `turns.follow` starts their turn."""
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
    events.append(Event("wordblitz", {"seats": list(tied)}))
    state["blitz"]["turn"] = rng.choice(tied)
    return START_TURN


def blitz_won(state: State, seat: int, word: str, events: list[Event]) -> None:
    events.append(Event("blitz_word", {"seat": seat, "word": word}))
    declare(state, seat, state["blitz"]["tied"], WORDBLITZ, events, word=word)


def blitz_coin_toss(state: State, events: list[Event]) -> None:
    tied = [s for s in state["blitz"]["tied"] if s not in state["left"]]
    events.append(Event("blitz_timeout", {"seats": tied}))
    declare(state, Rng(state).choice(tied), tied, COIN, events, after_blitz=True)


def outcome(state: State) -> Outcome | None:
    """Ranks: points and the tie-break among those in play, then leavers, earliest last."""
    if phase(state).name != "over":
        return None
    if state.get("abandoned"):
        return Outcome(ranks=(0,) * state["players"], reason=ABANDONED, abandoned=True)
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
                   reason=state["over"] or "", detail=result_detail(state, active, ranks))


def result_detail(state: State, active: list[int], ranks: list[int]) -> dict[str, Any]:
    """Who won and how first place was settled: on points (`tiebreak` None), on letters or
    word lengths (rule 21, with the tied players' values, winner first), or by the rule 22
    tie-break (`coin`, `wordblitz` with its word, `walkover` when the others left it)."""
    tb = state["tiebreak"]
    if tb:
        return {"winner": tb["winner"], "tiebreak": tb["how"], "tied": list(tb["tied"]),
                **{k: v for k, v in tb.items() if k not in ("winner", "how", "tied")}}
    winner = next((s for s in active if ranks[s] == 0), None)
    if winner is None:
        return {"winner": None, "tiebreak": None}
    level = [s for s in active if s != winner and state["score"][s] == state["score"][winner]]
    if not level:
        return {"winner": winner, "tiebreak": None}
    tied = [winner, *sorted(level, key=lambda s: (ranks[s], s))]
    letters = [rank_key(state, s)[1] for s in tied]
    if letters[0] > max(letters[1:]):
        return {"winner": winner, "tiebreak": "letters", "tied": tied, "letters": letters}
    return {"winner": winner, "tiebreak": "lengths", "tied": tied,
            "lengths": [list(rank_key(state, s)[2]) for s in tied]}


def seats_in_play_main(state: State) -> list[int]:
    left = set(state["left"])
    return [s for s in range(state["players"]) if s not in left]
