"""Conference / League as a pure engine: options, waits and timers, dispatch, the AFK flag
and vote (§4), the outcome (§5); the views are in views.py. Each action kind has its rule
check (`VERIFY`), which `legal_actions` filters by and `play` runs before its rule (`HANDLERS`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, overload

from games import afk
from games.core import Action, Engine, Event, IllegalAction, Option, Outcome, Rng, Secret, State, Wait
from games.tarot import hand as hands
from games.tarot import views
from games.tarot.cards import DECK, SUITS
from games.tarot.deal import discard_choices, partner, team_of
from games.tarot.hand import current_trick, turn, window_holder
from games.tarot.schema import Kind, PublicView, SeatView
from games.tarot.state import finished, new_state
from games.tarot.state import phase as phase  # where the game is: the rules in hand.py read it too
from games.tarot.tricks import legal_cards
from games.tarot.views import conference_on as conference_on  # its old home, read by the UI and tests

#: Live limits in seconds (§4); the async profile multiplies them by ASYNC_FACTOR.
PLAY, DISCARD, NOMINATE, WINDOW, VOTE = 90.0, 120.0, 60.0, 15.0, 60.0
ASYNC_FACTOR = 120
#: A flagged (AFK) player's waits run out after this long, in both profiles.
AFK_TIMEOUT = 10.0
AFK_LIMIT = 3
TEAMS = ((0, 1), (2, 3))


class TarotEngine(Engine[PublicView, SeatView]):
    name = "tarot"
    title = "Conference / League"
    min_players = 4
    max_players = 4
    lobby_teams = ("A", "B")
    summary = ("Tarot trick-taking for two partnerships sitting side by side: follow suit, trump "
               "when void, excuse yourself with the Fool; 75 of 149 points wins the margin.")
    options = (
        Option("mode", "classic (Conference) or league (attackers, special order of play)", "classic",
               ("classic", "league")),
        Option("conference", "partners may confer in a private team thread (auto: on in classic "
               "without Allegiances)", "auto", ("auto", "on", "off")),
        Option("allegiances", "Aces of Allegiance change which suits score", False),
        Option("allegiance_trumps_score", "with Allegiances: trumps and the Fool keep their points", False),
        Option("gallowglass", "the dealer may name a mercenary suit", False),
        Option("timers", "live (90 s a card) or async (days)", "live", ("live", "async")),
    )

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        state = new_state(players, rng_state, options)
        state["first_dealer"] = Rng(state).randint(0, 3)  # R1: the RNG draws the first dealer
        hands.start_hand(state)
        return state

    def teams(self, state: State) -> tuple[tuple[int, ...], ...] | None:
        return TEAMS

    def option_warnings(self, options: dict[str, Any]) -> list[str]:
        """R13, R14: the rules caution against conferring in League and Allegiances."""
        if options["conference"] == "on" and (options["mode"] == "league" or options["allegiances"]):
            game = "League" if options["mode"] == "league" else "Allegiances"
            return [f"Conference is on: the rules caution against partners conferring in {game}."]
        if options["allegiance_trumps_score"] and not options["allegiances"]:
            return ["allegiance_trumps_score changes nothing without Allegiances."]
        return []

    # ----- who is awaited ------------------------------------------------------------
    def limit(self, state: State, seconds: float, seat: int | None = None) -> float:
        if seat is not None and state["afk"]["flagged"][seat]:
            return AFK_TIMEOUT
        return seconds * (ASYNC_FACTOR if state["options"]["timers"] == "async" else 1)

    def waits(self, state: State) -> list[Wait]:
        if phase(state).name == "over":
            return []
        if phase(state).step == "vote":
            vote = state["vote"]
            return [Wait(s, f"afk-{state['afk']['votes']}", "vote: wait for the AFK player, or abandon",
                         self.limit(state, VOTE), {"type": "vote", "vote": "continue", "timeout": True},
                         independent=True)
                    for s in range(4) if s != vote["seat"] and str(s) not in vote["votes"]]
        hand = state["hand"]
        key = f"{state['hand_no']}"
        at, dealer = phase(state).name, hand["dealer"]
        if at == "discard":
            return [Wait(dealer, f"discard-{key}", "discard two cards", self.limit(state, DISCARD, dealer),
                         {"type": "discard", "timeout": True})]
        if at == "nominate":
            return [Wait(dealer, f"nominate-{key}", "name the gallowglass suit (or none)",
                         self.limit(state, NOMINATE, dealer), {"type": "nominate", "suit": "none", "timeout": True})]
        if at == "window":
            # nobody is named: the window must not hint at who could call (R14a)
            return [Wait(None, f"window-{key}-{hand['windows']}", "an Ace of Allegiance: calls are open",
                         self.limit(state, WINDOW), {"type": "close", "timeout": True})]
        seat = turn(hand)
        if seat is None:
            return []
        trick = current_trick(hand)
        number, played = (len(hand["tricks"]), len(trick["plays"])) if trick else (len(hand["tricks"]) + 1, 0)
        key = f"{key}-{number}-{played}"
        return [Wait(seat, f"play-{key}", "play a card", self.limit(state, PLAY, seat),
                     {"type": "play", "timeout": True})]

    # ----- what may be done ----------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The candidates the rule checks accept: the same checks `play` runs (`VERIFY`)."""
        if self.outcome(state) is not None:
            return []
        legal = []
        for action in self.candidates(state, seat):
            try:
                VERIFY[action["type"]](state, seat, action)
            except IllegalAction:
                continue
            legal.append(action)
        return legal

    @staticmethod
    def candidates(state: State, seat: int) -> list[Action]:
        """What `legal_actions` tries, by phase, for the seat the phase is for (the dealer, the
        window's holder, the seat in turn: trying every other seat's cards only to refuse them
        would cost several times as much): the votes while play is paused, the pairs the discard
        rule could take, the suits, the calls (none once the holder passed: the screens offer
        none then), the cards the trick allows."""
        if phase(state).step == "vote":
            return [{"type": "vote", "vote": "continue"}, {"type": "vote", "vote": "abandon"}]
        hand = state["hand"]
        at, held = phase(state).name, hand["hands"][seat]
        if at in ("discard", "nominate") and seat != hand["dealer"]:
            return []
        if at == "discard":
            pairs = itertools.combinations(discard_choices(held, allegiances=state["options"]["allegiances"]), 2)
            return [{"type": "discard", "cards": list(p)} for p in pairs]
        if at == "nominate":
            return [{"type": "nominate", "suit": s} for s in (*SUITS, "none")]
        if at == "window":
            if window_holder(hand) != seat or hand["window"]["passed"]:
                return []
            return [{"type": "call", "call": c} for c in ("ours", "yours", "pass")]
        if turn(hand) != seat:
            return []
        trick = hand["tricks"][-1] if hand["tricks"] and hand["tricks"][-1]["winner"] is None else None
        return [{"type": "play", "card": card}
                for card in legal_cards(held, trick["plays"] if trick else [], hand["g_suit"])]

    @staticmethod
    def verify(state: State, seat: int | None, action: Action) -> None:
        """The rule check of the action's kind (`VERIFY`), in `play`'s order: the game on, the
        seat at the table, play not paused (but for a vote), then the kind's own rule."""
        check = VERIFY.get(action["type"])
        if check is None:
            _moving(state, seat)
            raise IllegalAction(NOT_A_MOVE)
        check(state, seat, action)

    # ----- doing it ------------------------------------------------------------------
    def play(self, state: State, seat: int, action: Action, now: float) -> list[Event]:
        """The check of `VERIFY`, then the handler of `HANDLERS` for the action's kind: the
        game's own close of a window (seat None), a seat's vote (taken while play is paused),
        the seat's moves, which count for AFK (a call never does)."""
        kind = action["type"]
        timed_out = bool(action.get("timeout"))
        self.verify(state, seat, action)
        events = HANDLERS[kind](state, seat, action, timed_out)
        if kind in ("close", "vote", "call"):  # the game's own, a vote, a window: never AFK
            return events
        return events + self._count_away(state, seat, timed_out)

    def _count_away(self, state: State, seat: int, timed_out: bool) -> list[Event]:
        """Three timed-out waits in a row flag a player and pause play for a vote (§4); any
        move of their own clears it."""
        away = state["afk"]
        streak = afk.tally(away["streak"], seat, missed=timed_out)
        if not timed_out:
            was = away["flagged"][seat]
            away["flagged"][seat] = False
            return [Event("back", {"seat": seat})] if was else []
        if streak < AFK_LIMIT or phase(state).name == "over":
            return []
        away["streak"][seat] = 0
        away["flagged"][seat] = True
        away["votes"] += 1
        state["vote"] = {"seat": seat, "votes": {}}
        return [Event("afk", {"seat": seat})]

    # ----- the end -------------------------------------------------------------------
    def result(self, state: State) -> Outcome | None:
        points = state["points"]
        if state["abandoned"] is not None:
            away = state["abandoned"]
            losers = TEAMS[team_of(away)]
            ranks = tuple(1 if s in losers else 0 for s in range(4))
            return Outcome(ranks=ranks, scores=tuple(float(points[team_of(s)]) for s in range(4)), teams=TEAMS,
                           reason="afk", detail={"seat": away}, unrated=(partner(away),))
        if not finished(state):
            return None
        a, b = points
        ranks = (0, 0, 0, 0) if a == b else tuple((0 if (a > b) == (s < 2) else 1) for s in range(4))
        return Outcome(ranks=ranks, scores=tuple(float(points[team_of(s)]) for s in range(4)), teams=TEAMS,
                       reason="draw" if a == b else "points", detail={"points": list(points)})

    # ----- what each seat sees -------------------------------------------------------
    @overload
    def view(self, state: State, seat: None) -> PublicView: ...
    @overload
    def view(self, state: State, seat: int) -> SeatView: ...
    def view(self, state: State, seat: int | None) -> PublicView | SeatView:
        """The table (`None`), or a seat's own: its hand and what it may do now, nothing
        public besides, so a seat's DM changes only when its own situation does."""
        if seat is not None and 0 <= seat < 4:
            return views.private(state, seat)
        return views.public(state)

    def secrets(self, state: State) -> list[Secret]:
        hand = state["hand"]
        out = [Secret(seat, ("hand", "hands", seat, i), "card")
               for seat in range(4) for i in range(len(hand["hands"][seat]))]
        out += [Secret(hand["dealer"], ("hand", "discard", i), "card") for i in range(len(hand["discard"]))]
        holder = window_holder(hand)
        if holder is not None:
            out.append(Secret(holder, ("hand", "window", "passed"), "bool"))
        return out

    secret_pools: ClassVar[Mapping[str, Sequence[Any]]] = {"card": DECK, "bool": (True, False)}


NOT_A_MOVE = "That is not a move in Conference / League: discard, name a suit, play a card, call, or vote."


def _at_table(state: State, seat: int | None) -> int:
    """`play`'s first checks: the game is still on, and `seat` is one of the four."""
    if phase(state).name == "over":
        raise IllegalAction("This game is already over.")
    if not isinstance(seat, int) or not 0 <= seat < 4:
        raise IllegalAction("You are not at this table.")
    return seat


def _moving(state: State, seat: int | None) -> int:
    """What a seat's move needs first: the game on, the seat at the table, play not paused."""
    at = _at_table(state, seat)
    if phase(state).step == "vote":
        raise IllegalAction("Play is paused while the table votes on {away}, who seems to be away.",
                            seats={"away": state["vote"]["seat"]})
    return at


def verify_close(state: State, seat: int | None, action: Action) -> None:
    """The game's own action (seat None), once the window's time ran out; no seat's move."""
    if seat is None and phase(state).name != "over":
        hands.verify_window_open(state)
        return
    _moving(state, seat)
    raise IllegalAction(NOT_A_MOVE)


def verify_vote(state: State, seat: int | None, action: Action) -> None:
    """§4: a vote on the player flagged away, once each, by the other three."""
    seat = _at_table(state, seat)
    box = state["vote"]
    if box is None:
        raise IllegalAction("There is no vote now.")
    if seat == box["seat"]:
        raise IllegalAction("The table is voting on you: make your next move to show you're back.")
    if action.get("vote") not in ("continue", "abandon"):
        raise IllegalAction("Vote continue or abandon.")
    if str(seat) in box["votes"]:
        raise IllegalAction("You already voted.")


def _vote(state: State, seat: int, action: Action, timed_out: bool) -> list[Event]:
    """§4: two votes to abandon end the game; two to continue, or all three in, play on."""
    verify_vote(state, seat, action)
    vote = action.get("vote")
    box = state["vote"]
    box["votes"][str(seat)] = vote
    events = [Event("voted", {"seat": seat, "vote": vote})]
    tally = list(box["votes"].values())
    if tally.count("abandon") >= 2:
        state["abandoned"] = box["seat"]
        state["vote"] = None
        return [*events, Event("abandoned", {"seat": box["seat"]})]
    if tally.count("continue") >= 2 or len(tally) == 3:
        state["vote"] = None
        return [*events, Event("continued", {"seat": box["seat"]})]
    return events


def _close(state: State, seat: int, action: Action, timed_out: bool) -> list[Event]:
    """The window's time ran out (the game's own action, seat None)."""
    return hands.close_window(state)


def _discard(state: State, seat: int, action: Action, timed_out: bool) -> list[Event]:
    return hands.discard(state, seat, None if timed_out else action.get("cards"))


#: Every action kind of the schema and its rule check, shared by `legal_actions` and `play`
#: (which runs it before the handler; the rules in hand.py run their own part first too).
VERIFY: dict[Kind, Callable[[State, int | None, Action], object]] = {
    "close": verify_close,
    "vote": verify_vote,
    "discard": lambda state, seat, action: hands.verify_discard(
        state, _moving(state, seat), None if action.get("timeout") else action.get("cards")),
    "nominate": lambda state, seat, action: hands.verify_nominate(state, _moving(state, seat), action.get("suit")),
    "play": lambda state, seat, action: hands.verify_play(state, _moving(state, seat), action.get("card"),
                                                          timed_out=bool(action.get("timeout"))),
    "call": lambda state, seat, action: hands.verify_call(state, _moving(state, seat), action.get("call")),
}


#: Every action kind of the schema and its handler; `play` runs the kind's check first.
HANDLERS: dict[Kind, Callable[[State, int, Action, bool], list[Event]]] = {
    "close": _close,
    "vote": _vote,
    "discard": _discard,
    "nominate": lambda state, seat, action, timed_out: hands.nominate(state, seat, action.get("suit")),
    "play": lambda state, seat, action, timed_out: hands.play_card(state, seat, action.get("card"),
                                                                 timed_out=timed_out),
    "call": lambda state, seat, action, timed_out: hands.call(state, seat, action.get("call")),
}
