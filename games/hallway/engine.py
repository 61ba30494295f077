"""Two Fat Dudes in a Narrow Hallway as a pure engine: dispatch, waits, AFK (views: views.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import afk, choices
from games.core import Action, Engine, Event, IllegalAction, Outcome, Secret, State, Wait
from games.hallway import negotiation, turns, views
from games.hallway.schema import Kind, PublicView, SeatView
from games.hallway.state import AFK_LIMIT, new_state, other
from games.hallway.state import phase as phase  # the engine's accessor (tests/test_phases.py reads it here)

ROLL_TIMEOUT = 45.0  # a roll, and the whole opening of a negotiation
ANSWER_TIMEOUT = 60.0  # answering an offer, choosing with the Edge
#: Amounts listed by `legal_actions`; any whole number 0-999 is legal.
SAMPLE_AMOUNTS = (0, 3, 10)


class HallwayEngine(Engine[PublicView, SeatView]):
    name = "hallway"
    title = "Two Fat Dudes in a Narrow Hallway"
    min_players = 2
    max_players = 2
    summary = ("Two fat dudes, one narrow hallway. Roll, score the spaces you land on, haggle "
               "to squeeze past each other, then race for the far exit.")
    #: 2: the roll-off dice are rolled when both dudes have pressed Roll, not at each press.
    version = 2
    one_view = True  # everything is public but the RNG

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        return new_state(rng_state)

    # ----- who is awaited ------------------------------------------------------------
    def waits(self, state: State) -> list[Wait]:
        at = phase(state).name
        if at == "rolloff":
            return choices.waits(turns.rolloff_box(state), "roll for the start player", ROLL_TIMEOUT,
                                 lambda seat: {"type": "roll", "timeout": True})
        if at == "turn":
            return [Wait(state["turn"], f"roll-{state['turn_no']}", "roll the die", ROLL_TIMEOUT,
                         {"type": "roll", "timeout": True})]
        encounter = state["encounters"]
        if at == "negotiate":
            nego = state["nego"]
            offer = nego["pending"]
            if offer is None:
                # Independent: one dude's No deal leaves the other's choice as it was, so both
                # pressing No deal at the same moment both count.
                return [Wait(s, f"open-{encounter}", "make an offer or press No deal", ROLL_TIMEOUT,
                             {"type": "nodeal", "timeout": True}, independent=True)
                        for s in (0, 1) if s not in nego["nodeal"]]
            seat = other(offer["maker"])
            return [Wait(seat, f"reply-{encounter}-{nego['offers']}", "answer the offer",
                         ANSWER_TIMEOUT, {"type": "decline", "timeout": True})]
        if at == "edge":
            return [Wait(state["edge"], f"edge-{encounter}", "use the Edge: who goes back?", ANSWER_TIMEOUT,
                         {"type": "edge", "back": "you", "timeout": True})]
        return []

    # ----- what may be done ----------------------------------------------------------
    def candidates(self, state: State, seat: int) -> list[Action]:
        at = phase(state).name
        if at in ("rolloff", "turn"):
            return [{"type": "roll"}]
        if at == "edge":
            return [{"type": "edge", "back": "me"}, {"type": "edge", "back": "you"}]
        if at == "negotiate":
            offers = [{"type": "offer", "payer": payer, "amount": amount}
                      for payer in negotiation.PAYERS for amount in SAMPLE_AMOUNTS]
            return [{"type": "accept"}, {"type": "decline"}, {"type": "nodeal"}, *offers]
        return []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The candidates the rule checks accept: the same checks `play` runs."""
        if self.outcome(state) is not None:
            return []
        legal = []
        for action in self.candidates(state, seat):
            try:
                self.verify(state, seat, action)
            except IllegalAction:
                continue
            legal.append(action)
        return legal

    def verify(self, state: State, seat: int, action: Action) -> None:
        """The rule check of the action's kind (`VERIFY`): what `legal_actions` lists and what
        the handlers run first."""
        check = VERIFY.get(action["type"])
        if check is not None:
            check(state, seat, action)

    @staticmethod
    def verify_roll(state: State, seat: int) -> None:
        at = phase(state).name
        if at == "rolloff":
            turns.verify_rolloff(state, seat)
        elif at == "turn":
            turns.verify_roll(state, seat)
        elif at == "negotiate":
            offer = negotiation.pending(state)
            if offer is None:
                raise IllegalAction("Not now: make an offer to squeeze past, or press No deal.", rule="9")
            raise IllegalAction("Not now: {taker} must answer {maker}'s offer.", rule="11",
                                seats={"taker": other(offer["maker"]), "maker": offer["maker"]})
        elif at == "edge":
            raise IllegalAction("Not now: {holder} holds the Edge and is choosing who goes back.", rule="12",
                                seats={"holder": state["edge"]})
        else:
            raise IllegalAction("This game is already over.", rule="16")

    # ----- doing it ------------------------------------------------------------------
    def play(self, state: State, seat: int, action: Action, now: float) -> list[Event]:
        if seat not in (0, 1):
            raise IllegalAction("You're not one of the two dudes in this hallway.", rule="1")
        handler = HANDLERS.get(action["type"])
        if handler is None:  # no rule to cite: the moves are rules 2, 4 and 9-12 together
            raise IllegalAction("That's not a move in Two Fat Dudes: roll, offer, accept, decline, no deal or Edge.")
        timeout = bool(action.get("timeout"))
        idle = self.idle_seats(state, seat, action) if timeout else []
        events = handler(state, seat, action, timeout)
        for s in idle:
            afk.tally(state["timeouts"], s, missed=True)
        if seat not in idle:
            afk.tally(state["timeouts"], seat, missed=False)
        return events + self.afk_forfeit(state, idle)

    @staticmethod
    def idle_seats(state: State, seat: int, action: Action) -> list[int]:
        """Who let this timer run out: for “45 s with no offer”, every seat that had not
        pressed No deal; otherwise the seat whose wait expired."""
        if action["type"] == "nodeal" and phase(state).name == "negotiate" and state["nego"]["pending"] is None:
            return [s for s in (seat, other(seat)) if s not in state["nego"]["nodeal"]]
        return [seat]

    @staticmethod
    def afk_forfeit(state: State, idle: list[int]) -> list[Event]:
        """Five timeouts in a row forfeit, unless the last default already ended the game."""
        if phase(state).name == "over":
            return []
        for seat in idle:
            if state["timeouts"][seat] >= AFK_LIMIT:
                state["forfeit"] = seat
                state["afk"] = True
                return [Event("afk", {"seat": seat, "limit": AFK_LIMIT, "winner": other(seat)})]
        return []

    def forfeit(self, state: State, seat: int, now: float) -> tuple[State, list[Event]]:
        ended, _ = super().forfeit(state, seat, now)
        return ended, [Event("forfeit", {"seat": seat, "winner": other(seat)})]

    def forfeit_outcome(self, state: State, leaver: int) -> Outcome:
        """A forfeit is a loss whatever the points; five timeouts in a row say "afk"."""
        outcome = super().forfeit_outcome(state, leaver)
        if not state.get("afk"):
            return outcome
        return Outcome(ranks=outcome.ranks, reason="afk", detail={"seat": leaver, "limit": AFK_LIMIT})

    # ----- the roll-off on the secret-choice block -------------------------------------
    def choices(self, state: State) -> list[dict[str, Any]]:
        return [turns.rolloff_box(state)] if phase(state).name == "rolloff" else []

    def secrets(self, state: State) -> list[Secret]:
        """Who pressed Roll is public; what they pressed is the block's until both have."""
        return choices.secrets(turns.rolloff_box(state), ("rolloff", "box"), "roll")

    # ----- what everyone sees --------------------------------------------------------
    def view(self, state: State, seat: int | None) -> PublicView:
        return views.view(state)  # `one_view`: the same for every seat

    def result(self, state: State) -> Outcome | None:
        return turns.outcome(state)


def _roll(state: State, seat: int, action: Action, timeout: bool) -> list[Event]:
    HallwayEngine.verify_roll(state, seat)
    if phase(state).name == "rolloff":
        return turns.rolloff(state, seat, timeout)
    return turns.roll_turn(state, seat, timeout)


#: Every action kind of the schema and its rule check, shared by `legal_actions` and the handlers.
VERIFY: dict[Kind, Callable[[State, int, Action], object]] = {
    "roll": lambda state, seat, action: HallwayEngine.verify_roll(state, seat),
    "offer": negotiation.verify_offer,
    "accept": lambda state, seat, action: negotiation.verify_answer(state, seat),
    "decline": lambda state, seat, action: negotiation.verify_answer(state, seat),
    "nodeal": lambda state, seat, action: negotiation.verify_no_deal(state, seat),
    "edge": negotiation.verify_edge,
}

#: Every action kind of the schema and its rule; `play` looks the kind up here.
HANDLERS: dict[Kind, Callable[[State, int, Action, bool], list[Event]]] = {
    "roll": _roll,
    "offer": lambda state, seat, action, timeout: negotiation.make_offer(state, seat, action),
    "accept": lambda state, seat, action, timeout: negotiation.accept(state, seat),
    "decline": lambda state, seat, action, timeout: negotiation.decline(state, seat, timeout),
    "nodeal": lambda state, seat, action, timeout: negotiation.no_deal(state, seat, timeout),
    "edge": lambda state, seat, action, timeout: negotiation.use_edge(state, seat, action, timeout),
}
