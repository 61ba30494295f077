"""The windows that stay open while play goes on — a challenge of a change (rule 9), Tip of
My Tongue (rule 13) and its rock-paper-scissors — and the claim offer (rule 10).

Nobody is waited for, and nobody has to answer (docs/words.md, "Windows that wait for
nobody"):

- Every letter played (that does not make a claimable word), Backspace and Editor is a
  *change*, numbered. Any other player may challenge it from the moment it is made until the
  word changes again, and — when the next change came fast — for at least
  `CHALLENGE_MINIMUM` seconds after it was made. The verdict is on the word as that change
  left it; an upheld challenge undoes that change, card by card (a played letter leaves the
  word, a Backspaced letter goes back into the gap it left, an Editor letter back to where it
  came from); when later changes have closed that gap the challenge is refused. Once
  challenged, a change is closed (the first challenge wins).
- A completed word (a claim, That'll Work) can be taken with Tip until the word changes
  again, and for at least `TIP_MINIMUM` seconds. The first Tip takes it at once; a second Tip
  on the same word starts rock-paper-scissors between the two, beside the turn (a
  `games.choices` round: only its contenders are awaited). Tip and its rock-paper-scissors are
  games.words.tips.

Times are press times: `state["clock"]` is the `now` of the action being played, so a replay
judges every window the same way. Nothing here changes whose turn it is: a rule that ends
the turn returns `END_TURN` for `turns.follow` to carry out.
"""

from __future__ import annotations

from typing import Any

from games.core import Event, IllegalAction, State
from games.words import ending
from games.words.cards import FACE, TIP, word_value
from games.words.dictionary import lexicon
from games.words.state import (
    END_TURN,
    Next,
    board,
    in_blitz,
    next_number,
    open_phase,
    phase,
    seats_in_play,
    spell,
    valid_fragment,
)
from games.words.tips import PLAYING, SHAPES, TIP_MINIMUM

#: Seconds a change stays open to a challenge even when the word changes again sooner.
CHALLENGE_MINIMUM = 5.0
#: Changes open at once at most: the last one and those still in their minimum.
OPEN_CHANGES = 3
#: Closed changes remembered, so a late challenge is told why it is refused.
CLOSED_KEPT = 6


# ----- keeping the windows ----------------------------------------------------------

def prune(state: State) -> None:
    """Close what time has closed, at the press time of the action about to be played:
    earlier changes past their minimum, and a Tip window past its minimum once the word has
    changed. (At the very end the game itself closes the Tip window: see `close`.)"""
    now = state["clock"]
    for change in [c for c in state["changes"] if not c["last"] and now >= c["at"] + CHALLENGE_MINIMUM]:
        close_change(state, change, "changed")
    tip = state["tip"]
    if (tip is not None and tip["changed"] and now >= tip["at"] + TIP_MINIMUM
            and phase(state).name != "closing"):
        state["tip"] = None


def close_change(state: State, change: dict[str, Any], why: str, by: int | None = None) -> None:
    """Close one change; `why` is "challenged", "changed" (the word changed since and its
    minimum is over), "word" (the word became a real word) or "gone" (taken, wiped, thrown
    away)."""
    state["changes"].remove(change)
    state["closed"] = [*state["closed"], {"n": change["n"], "seat": change["seat"], "why": why,
                                          "by": by}][-CLOSED_KEPT:]


def word_changed(state: State) -> None:
    """The word changed again: the last change is no longer the last (it stays open for the
    rest of its minimum), and so does the Tip window."""
    for change in state["changes"]:
        change["last"] = False
    if state["tip"] is not None:
        state["tip"]["changed"] = True
    prune(state)


def word_gone(state: State, why: str = "gone") -> None:
    """The word was taken, wiped or thrown away (or became a real word: `why` "word"):
    none of its changes can be challenged any more."""
    word_changed(state)
    for change in list(state["changes"]):
        close_change(state, change, why)


def record_change(state: State, seat: int, kind: str, card: str, gap: list[str | None] | None) -> None:
    """A letter, Backspace or Editor change stands at once (rule 11: the skip streak is
    cleared) and is open to a challenge. `card` is the card played, removed or moved; `gap`
    the neighbours (card ids, None at an end) of the place a removed or moved letter left."""
    streak = list(state["skip_streak"])
    word_changed(state)
    while len(state["changes"]) >= OPEN_CHANGES:
        close_change(state, state["changes"][0], "changed")
    state["changes"].append({
        "n": next_number(state), "seat": seat, "kind": kind, "card": card, "gap": gap,
        "word": spell(board(state)["wip"]), "at": state["clock"], "last": True, "streak": streak,
    })
    change_stands(state)


def change_stands(state: State) -> None:
    """Rule 11: a WIP change that stands clears the skip streak."""
    if not in_blitz(state):
        state["skip_streak"] = []


def current_change(state: State) -> dict[str, Any] | None:
    """The last change of the word, while it is open."""
    return next((c for c in state["changes"] if c["last"]), None)


def after_letter(state: State, seat: int, card: str, events: list[Event]) -> Next:
    """What a letter play opens: a claim offer, a Wordblitz verdict, or a change open to a
    challenge while the turn passes on."""
    area = board(state)
    word = spell(area["wip"])
    if in_blitz(state):
        if lexicon().is_word3(word):
            ending.blitz_won(state, seat, word, events)
            return None
        if len(word) >= 4:
            area["discard"].extend(area["wip"])
            area["wip"] = []
            word_gone(state)
            events.append(Event("blitz_bust", {"seat": seat, "word": word}))
            return END_TURN
    elif lexicon().claimable(word):
        # A claimable word is in the dictionary, so a challenge could only fail: it opens no
        # window, and closes those of the changes that led to it.
        word_gone(state, "word")
        change_stands(state)
        open_phase(state, "claim", seat=seat, word=word)
        return None
    record_change(state, seat, "letter", card, None)
    return END_TURN


# ----- challenge (rule 9) -----------------------------------------------------------

def gap_index(cards: list[str], gap: list[str | None]) -> int | None:
    """Where the gap between two neighbours (None: an end of the word) is in `cards`."""
    left, right = gap
    for i in range(len(cards) + 1):
        if (cards[i - 1] if i else None) == left and (cards[i] if i < len(cards) else None) == right:
            return i
    return None


def undo_place(area: dict[str, Any], change: dict[str, Any]) -> int | None:
    """Where undoing `change` acts in the word now (a played letter's index, the gap a
    removed or moved letter goes back to), or None when it can no longer be undone."""
    wip, card, kind = area["wip"], change["card"], change["kind"]
    if kind == "letter":
        return wip.index(card) if card in wip else None
    if kind == "backspace":
        return gap_index(wip, change["gap"]) if card in area["discard"] else None
    if card not in wip:
        return None
    return gap_index([c for c in wip if c != card], change["gap"])


def undo_change(area: dict[str, Any], change: dict[str, Any]) -> None:
    """Put the change back: a played letter goes to the discard pile, a Backspaced letter
    back into its gap, an Editor letter back where it came from."""
    at = undo_place(area, change)
    assert at is not None
    wip, card = area["wip"], change["card"]
    if change["kind"] == "letter":
        area["discard"].append(wip.pop(at))
    elif change["kind"] == "backspace":
        area["discard"].remove(card)
        wip.insert(at, card)
    else:
        wip.remove(card)
        wip.insert(at, card)


def target(state: State, action: dict[str, Any]) -> dict[str, Any]:
    """The change a challenge means: the one numbered in the action (the button carries the
    change it was drawn for), else the last change. Refused, saying why, when it is closed."""
    number = action.get("change")
    if number is None:
        change = current_change(state)
        if change is not None:
            return change
        last = state["closed"][-1] if state["closed"] else None
        if last is not None and last["why"] == "challenged":
            raise IllegalAction("{challenger} already challenged the last change.", rule="9",
                                seats={"challenger": last["by"]})
        raise IllegalAction("There is nothing to challenge right now.", rule="9")
    if isinstance(number, bool) or not isinstance(number, int):
        raise IllegalAction("Say which change to challenge (a number).", rule="9")
    changes: list[dict[str, Any]] = state["changes"]
    for open_change in changes:
        if open_change["n"] == number:
            return open_change
    for closed in reversed(state["closed"]):
        if closed["n"] != number:
            continue
        if closed["why"] == "challenged":
            raise IllegalAction("{challenger} already challenged that change.", rule="9",
                                seats={"challenger": closed["by"]})
        if closed["why"] == "word":
            raise IllegalAction("Too late: the word has become a real word since.", rule="9")
        if closed["why"] == "gone":
            raise IllegalAction("Too late: that word is gone (taken, wiped or thrown away).", rule="9")
        raise IllegalAction(f"Too late: the word has changed since, and the {CHALLENGE_MINIMUM:.0f} "
                            "seconds after that change are over.", rule="9")
    raise IllegalAction("There is nothing to challenge right now.", rule="9")


def verify_challenge(state: State, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """Rule 9: the open change challenged (another player's, still undoable)."""
    if phase(state).name not in PLAYING:
        raise IllegalAction("The game is over: there is nothing left to challenge.", rule="9")
    if seat not in seats_in_play(state):
        raise IllegalAction("Only the players of the Wordblitz may challenge in it.", rule="22")
    change = target(state, action)
    actor = change["seat"]
    if actor == seat:
        raise IllegalAction("You can't challenge your own play.", rule="9")
    if undo_place(board(state), change) is None:
        raise IllegalAction("Too late to undo {player}'s change: the word has changed around it since. "
                            "You can still challenge the last change.", rule="9", seats={"player": actor})
    return change


def challenge(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    """Rule 9, while play goes on: the verdict is on the word as the change left it; the
    loser (the challenger, or the player whose change is undone) loses their next turn."""
    change = verify_challenge(state, seat, action)
    actor = change["seat"]
    area = board(state)
    word = change["word"]
    stats = state["stats"]
    close_change(state, change, "challenged", by=seat)
    if valid_fragment(state, word):
        area["forced_skip"][seat] += 1
        stats[seat]["challenges_lost"] += 1
        stats[actor]["challenges_won"] += 1
        events.append(Event("challenge", {"seat": seat, "actor": actor, "upheld": False, "word": word}))
        return None
    undo_change(area, change)
    if change["last"] and not in_blitz(state):
        # An undone change counts as no change (rule 11): the skips before it count again.
        state["skip_streak"] = change["streak"] + [s for s in state["skip_streak"] if s not in change["streak"]]
    area["forced_skip"][actor] += 1
    stats[seat]["challenges_won"] += 1
    stats[actor]["challenges_lost"] += 1
    picks = state["picks"]
    turn = area["turn"]
    if isinstance(picks[turn], str) and picks[turn].startswith("editor:"):
        picks[turn] = None  # its letter number may point elsewhere now
    events.append(Event("challenge", {"seat": seat, "actor": actor, "upheld": True, "word": word,
                                      "restored": spell(area["wip"])}))
    return None


def verify_stand(state: State, seat: int, action: dict[str, Any]) -> None:
    """Kept from version 2's windows, which waited for an answer: never needed now."""
    raise IllegalAction("Nobody needs to let a change stand: play goes on by itself, and the change "
                        "can be challenged until the word changes again.", rule="9")


def stand(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    verify_stand(state, seat, action)
    return None  # pragma: no cover - the check always refuses


# ----- claim ------------------------------------------------------------------------

def verify_claim(state: State, seat: int, action: dict[str, Any]) -> None:
    """Rule 10: only the player who finished the word claims it or keeps building."""
    if phase(state).name != "claim":
        raise IllegalAction("There is no word to claim right now.", rule="10")
    if state["phase"]["seat"] != seat:
        raise IllegalAction("Only {player}, who finished the word, may claim it.", rule="10",
                            seats={"player": state["phase"]["seat"]})


def claim(state: State, seat: int, action: dict[str, Any], events: list[Event]) -> Next:
    verify_claim(state, seat, action)
    if action["type"] == "keep":
        events.append(Event("keep", {"seat": seat, "word": state["phase"]["word"]}))
        return END_TURN
    return complete_word(state, seat, events, then="end")


def complete_word(state: State, seat: int, events: list[Event], then: str) -> Next:
    """A claim or That'll Work: the WIP goes to the stack and the Tip window opens on it
    while play goes on: after a claim the turn ends; after That'll Work it goes on."""
    cards = state["wip"]
    state["wip"] = []
    word_gone(state)
    state["stacks"][seat].append(cards)
    value = word_value(len(cards))
    state["score"][seat] += value
    state["stalemates"] = 0
    state["skip_streak"] = []
    word = spell(cards)
    events.append(Event("claim", {"seat": seat, "word": word, "points": value}))
    others = [s for s in seats_in_play(state) if s != seat]
    tips_out = sum(1 for c in state["discard"] if FACE.get(c) == TIP)
    state["tip"] = None
    if others and tips_out < sum(1 for f in FACE.values() if f == TIP):  # else nobody could steal
        state["tip"] = {"n": next_number(state), "seat": seat, "holder": seat, "word": word,
                        "card": cards[0], "at": state["clock"], "changed": False, "users": []}
    if then == "end":
        return END_TURN
    open_phase(state, "main", seat=state["turn"], step="act")
    return None


# ----- what a seat may do in the windows ---------------------------------------------

def window_candidates(state: State) -> list[dict[str, Any]]:
    """The window actions to list, for the engine's VERIFY to filter per seat: a challenge of
    the last change, Tip while its window has seen no change (or the game's end waits for it:
    `legal_actions` knows no time), and a rock-paper-scissors pick."""
    out: list[dict[str, Any]] = []
    change = current_change(state)
    if change is not None:
        out.append({"type": "challenge", "change": change["n"]})
    window = state["tip"]
    if window is not None and (not window["changed"] or phase(state).name == "closing"):
        out.append({"type": "tip"})
    if state["rps"] is not None:
        out += [{"type": "rps", "shape": s} for s in SHAPES]
    return out
