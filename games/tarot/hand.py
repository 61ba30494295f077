"""One hand of Conference / League: the deal, the discard and the nomination, the tricks,
the order of play, and the Aces of Allegiance. Functions of the game state; the engine
(`games.tarot.engine`) dispatches to them and keeps the AFK bookkeeping. Each move's rule
check (`verify_*`, reading the state only) is what the engine's VERIFY table runs, and the move
runs it first. Where the game is, `phase(state)` (`state.py`), is read here; the helpers of one hand's
record (`turn`, `current_trick`) read that record's own phase through `hand_phase`."""

from __future__ import annotations

from typing import Any

from games.core import Event, IllegalAction, Rng, State
from games.tarot.cards import DECK, FOOL, PAIR_OF, PAIRS, SUITS, cheap_key, corresponding_ace, is_ace, suit
from games.tarot.deal import deal, default_discard, league_pack, partner, team_of
from games.tarot.deal import verify_discard as discard_rule
from games.tarot.scoring import Rules, settle
from games.tarot.state import hand_phase, phase
from games.tarot.tricks import legal_cards, winner
from games.tarot.tricks import verify_play as play_rule

HANDS_PER_GAME = 4
TRICKS_PER_HAND = 19


def rules_of(state: State) -> Rules:
    options = state["options"]
    return Rules(g_suit=state["hand"]["g_suit"], allegiances=options["allegiances"],
                 trumps_score=options["allegiance_trumps_score"])


def start_hand(state: State, *, deck: list[str] | None = None) -> list[Event]:
    """Shuffle (R2) and deal (R3, R15b) the next hand; the deal passes left (R1)."""
    league = state["options"]["mode"] == "league"
    dealer = (state["first_dealer"] + state["hand_no"]) % 4
    if league:
        pack, _t21, _t20 = league_pack()
    else:
        pack = list(DECK)
    order = deck if deck is not None else Rng(state).shuffled(pack)
    direction = (-1 if partner(dealer) == (dealer + 1) % 4 else 1) if league else 1
    state["hand"] = {
        "dealer": dealer, "league": league, "direction": direction,
        "hands": deal(order, dealer, league=league), "discard": [],
        "phase": "discard", "g_suit": None, "tricks": [], "fool": None,
        "periods": [None], "calls": [], "window": None, "windows": 0,
        "lead": dealer if league else (dealer + 1) % 4,
    }
    return [Event("dealt", {"hand": state["hand_no"] + 1, "dealer": dealer, "league": league,
                            "direction": direction})]


# ----- whose turn --------------------------------------------------------------------------
def current_trick(hand: dict[str, Any]) -> dict[str, Any] | None:
    """The trick being played (or just completed while an Ace's window is open)."""
    if hand["tricks"] and (hand["tricks"][-1]["winner"] is None or hand_phase(hand) == "window"):
        trick: dict[str, Any] = hand["tricks"][-1]
        return trick
    return None


def turn(hand: dict[str, Any]) -> int | None:
    """Who plays next (R6, R15c), or None outside the play phase."""
    if hand_phase(hand) != "play":
        return None
    trick = hand["tricks"][-1] if hand["tricks"] and hand["tricks"][-1]["winner"] is None else None
    if trick is None:
        return int(hand["lead"])
    seat: int = (trick["leader"] + hand["direction"] * len(trick["plays"])) % 4
    return seat


def legal_for(hand: dict[str, Any], seat: int) -> list[str]:
    if turn(hand) != seat:
        return []
    trick = hand["tricks"][-1] if hand["tricks"] and hand["tricks"][-1]["winner"] is None else None
    return legal_cards(hand["hands"][seat], trick["plays"] if trick else [], hand["g_suit"])


# ----- the dealer's steps ---------------------------------------------------------------
def verify_discard(state: State, seat: int, cards: Any) -> list[str]:
    """R4: the two cards the dealer discards (`cards` None: the timer's choice, §4)."""
    hand = state["hand"]
    if phase(state).name != "discard":
        raise IllegalAction("The discard is already made.", rule="R4")
    if seat != hand["dealer"]:
        raise IllegalAction("Only the dealer discards; {dealer} is dealing.", rule="R4",
                            seats={"dealer": hand["dealer"]})
    allegiances = state["options"]["allegiances"]
    held = hand["hands"][seat]
    chosen = default_discard(held, allegiances=allegiances) if cards is None else cards
    if not isinstance(chosen, list) or not all(isinstance(c, str) for c in chosen):
        raise IllegalAction("Discard exactly two different cards.", rule="R4")
    discard_rule(held, chosen, allegiances=allegiances)
    return chosen


def discard(state: State, seat: int, cards: list[str] | None) -> list[Event]:
    chosen = verify_discard(state, seat, cards)
    hand = state["hand"]
    held = hand["hands"][seat]
    for card in chosen:
        held.remove(card)
    hand["discard"] = list(chosen)
    hand["phase"] = "nominate" if state["options"]["gallowglass"] else "play"
    return [Event("discarded", {"seat": seat}), Event("discard_made", {"cards": list(chosen)}, to=(seat,))]


def verify_nominate(state: State, seat: int, chosen: Any) -> None:
    """R5: the dealer names a gallowglass suit, or none."""
    hand = state["hand"]
    if phase(state).name != "nominate":
        raise IllegalAction("There is no gallowglass suit to name now.", rule="R5")
    if seat != hand["dealer"]:
        raise IllegalAction("Only the dealer, {dealer}, names the gallowglass suit.", rule="R5",
                            seats={"dealer": hand["dealer"]})
    if chosen not in (*SUITS, "none"):
        raise IllegalAction("Name Cups, Coins, Swords, Batons or none.", rule="R5")


def nominate(state: State, seat: int, chosen: Any) -> list[Event]:
    verify_nominate(state, seat, chosen)
    hand = state["hand"]
    hand["g_suit"] = None if chosen == "none" else chosen
    hand["phase"] = "play"
    return [Event("nominated", {"seat": seat, "suit": hand["g_suit"]})]


# ----- tricks ------------------------------------------------------------------------------
def verify_play(state: State, seat: int, card: Any, *, timed_out: bool) -> tuple[str, bool]:
    """R6-R8, R16a: (the card, whether it is played as the led suit); a timed-out turn plays
    the cheapest legal card (§4)."""
    hand = state["hand"]
    at = phase(state).name
    if at == "window":
        raise IllegalAction("Wait: an Ace of Allegiance has been played and its window is open.", rule="R14")
    if at != "play":
        raise IllegalAction("The dealer has not finished the discard yet.", rule="R4")
    expected = turn(hand)
    assert expected is not None  # the play phase always has a player to move
    if seat != expected:
        raise IllegalAction("It is {turn}'s turn to play.", rule="R6", seats={"turn": expected})
    plays = hand["tricks"][-1]["plays"] if hand["tricks"] and hand["tricks"][-1]["winner"] is None else []
    held = hand["hands"][seat]
    if timed_out:
        card = min(legal_cards(held, plays, hand["g_suit"]), key=cheap_key)
    if not isinstance(card, str):
        raise IllegalAction("Choose a card from your hand.", rule="R7")
    return card, play_rule(held, plays, card, hand["g_suit"])


def play_card(state: State, seat: int, card: Any, *, timed_out: bool) -> list[Event]:
    card, as_led = verify_play(state, seat, card, timed_out=timed_out)
    hand = state["hand"]
    if hand["tricks"] and hand["tricks"][-1]["winner"] is None:
        trick = hand["tricks"][-1]
    else:
        trick = {"leader": seat, "plays": [], "winner": None, "period": len(hand["periods"]) - 1}
        hand["tricks"].append(trick)
    held = hand["hands"][seat]
    held.remove(card)
    trick["plays"].append([seat, card, as_led])
    events = [Event("played", {"seat": seat, "card": card, "as_led": as_led, "timeout": timed_out})]
    if card == FOOL:
        hand["fool"] = {"owner": seat, "trick": len(hand["tricks"]) - 1}
    if len(trick["plays"]) == 4:
        events += _finish_trick(hand, trick)
    if state["options"]["allegiances"] and is_ace(card) and not _played(hand, corresponding_ace(card)):
        hand["windows"] += 1
        hand["window"] = {"ace": card, "seat": seat, "trick": len(hand["tricks"]) - 1, "passed": False}
        hand["phase"] = "window"
        events.append(Event("window", {"ace": card, "seat": seat}))
        holder = window_holder(hand)
        if holder is not None:  # told privately (and pinged by DM): the table names nobody
            events.append(Event("may_call", {"ace": card, "shown": corresponding_ace(card)}, to=(holder,)))
    elif trick["winner"] is not None and len(hand["tricks"]) == TRICKS_PER_HAND:
        events += end_hand(state)
    return events


def _played(hand: dict[str, Any], card: str) -> bool:
    return any(c == card for trick in hand["tricks"] for _s, c, _a in trick["plays"])


def _finish_trick(hand: dict[str, Any], trick: dict[str, Any]) -> list[Event]:
    won_by = winner(trick["plays"])
    trick["winner"] = won_by
    catcher = partner(hand["dealer"])
    hand["lead"] = hand["dealer"] if hand["league"] and won_by == catcher else won_by  # R15d
    return [Event("trick", {"winner": won_by, "number": len(hand["tricks"]),
                            "plays": [list(p) for p in trick["plays"]]})]


# ----- Aces of Allegiance (R14) ------------------------------------------------------------
def window_holder(hand: dict[str, Any]) -> int | None:
    """The seat that may call in the open window: the member of the Ace player's team who
    holds the corresponding Ace (R14b); None when nobody may."""
    window = hand.get("window")
    if window is None:
        return None
    other = corresponding_ace(window["ace"])
    return next((s for s in (window["seat"], partner(window["seat"])) if other in hand["hands"][s]), None)


def verify_call(state: State, seat: int, choice: Any) -> None:
    """R14b: the holder of the corresponding Ace calls ours, yours, or passes."""
    if phase(state).name != "window" or window_holder(state["hand"]) != seat:
        raise IllegalAction("There is no allegiance for you to call now.", rule="R14")
    if choice not in ("ours", "yours", "pass"):
        raise IllegalAction("Call ours, yours, or pass.", rule="R14")


def call(state: State, seat: int, choice: Any) -> list[Event]:
    verify_call(state, seat, choice)
    hand = state["hand"]
    window = hand["window"]
    if choice == "pass":
        window["passed"] = True  # kept until the window ends: its length tells nothing (R14a)
        return [Event("passed", {"seat": seat}, to=(seat,))]
    pair = PAIR_OF[suit(window["ace"])]
    other_pair = next(p for p in PAIRS if p != pair)
    team = team_of(window["seat"])
    mine, theirs = (pair, other_pair) if choice == "ours" else (other_pair, pair)
    mapping = [mine, theirs] if team == 0 else [theirs, mine]
    shown = corresponding_ace(window["ace"])
    if hand["periods"] == [None]:
        hand["periods"][0] = mapping  # the first call covers the hand from its start (R14e)
    else:
        hand["periods"].append(mapping)  # a new pile for both teams from the Ace's trick (R14f)
        hand["tricks"][window["trick"]]["period"] = len(hand["periods"]) - 1
    hand["calls"].append({"seat": seat, "ace": window["ace"], "shown": shown, "call": choice,
                          "team": team, "mapping": mapping, "period": len(hand["periods"]) - 1})
    return [Event("called", {"seat": seat, "ace": window["ace"], "shown": shown, "call": choice,
                             "mapping": mapping}), *close_window(state)]


def verify_window_open(state: State) -> None:
    """R14a: the window's time runs out only while it is open."""
    if phase(state).name != "window":
        raise IllegalAction("No Allegiance window is open.", rule="R14")


def close_window(state: State) -> list[Event]:
    verify_window_open(state)
    hand = state["hand"]
    hand["window"] = None
    hand["phase"] = "play"
    events = [Event("window_closed", {})]
    last = hand["tricks"][-1]
    if last["winner"] is not None and len(hand["tricks"]) == TRICKS_PER_HAND:
        events += end_hand(state)
    return events


# ----- the end of a hand -------------------------------------------------------------------
def end_hand(state: State) -> list[Event]:
    """Settle (R10, R11, R14g, R16d), add the game points, deal the next hand or end (R12)."""
    hand = state["hand"]
    breakdown = settle(hand, rules_of(state))
    breakdown.update(hand=state["hand_no"] + 1, dealer=hand["dealer"], g_suit=hand["g_suit"],
                     calls=hand["calls"], league=hand["league"])
    state["history"].append(breakdown)
    state["points"] = [state["points"][t] + breakdown["swing"][t] for t in (0, 1)]
    hand["phase"] = "done"
    events = [Event("hand_end", {"hand": state["hand_no"] + 1, "totals": breakdown["totals"],
                                 "swing": breakdown["swing"], "points": list(state["points"]),
                                 "payment": breakdown["payment"]})]
    state["hand_no"] += 1
    if state["hand_no"] >= HANDS_PER_GAME:
        state["over"] = True
        return events
    return events + start_hand(state)
