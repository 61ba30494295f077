"""Fighting Words as an `Engine`: who is awaited, what they may do, and the dispatch of
actions to the rule modules (actions, windows, ending). A rule returns what the turn order
should do next; `turns.follow`, the one place that starts and ends turns, carries it out."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from games import choices
from games.core import Action, Engine, Event, IllegalAction, Outcome, Secret, State, Wait
from games.words import actions, ending, turns, views, windows
from games.words.cards import BACKSPACE, EDITOR, LETTERS, TIP, face
from games.words.dictionary import lexicon
from games.words.state import END_TURN, Next, board, card_with_face, letters_in, new_state, open_phase

TURN_TIMEOUT = 90.0
AFK_TURN_TIMEOUT = 10.0
EVENT_TIMEOUT = 45.0
CHALLENGE_TIMEOUT = 10.0
CLAIM_TIMEOUT = 20.0
TIP_TIMEOUT = 8.0
RPS_TIMEOUT = 20.0
TIEBREAK_TIMEOUT = 30.0
#: Timed-out turns in a row before a player is AFK, and before they are dropped.
AFK_AFTER = 3
#: Seconds of every player timing out before the game is abandoned without a result (§4 AFK).
ABANDON_AFTER = 600.0
DROP_AFTER = 10

Handler = Callable[[State, int, Action, list[Event]], Next]
#: Action type -> the rule that handles it. Each returns what the turn order should do next
#: (`END_TURN`, `START_TURN` or None), which `turns.follow` carries out.
HANDLERS: dict[str, Handler] = {
    "play": actions.play_letter, "backspace": actions.backspace, "editor": actions.editor,
    "skip": actions.skip, "pick": actions.pick, "ask": actions.ask, "steal": actions.steal,
    "no_steal": actions.steal, "trash": actions.trash,
    "challenge": windows.challenge, "stand": windows.stand,
    "claim": windows.claim, "keep": windows.claim, "tip": windows.tip, "no_tip": windows.tip,
    "rps": windows.rps, "coin": ending.choose_tiebreak, "wordblitz": ending.choose_tiebreak,
}


class WordsEngine(Engine):
    name = "words"
    title = "Fighting Words"
    min_players = 2
    max_players = 6
    summary = "Build a word one letter at a time; finish a real word of 4+ letters to take it."
    #: 2: How Do You Say…? always has a steal/go-on step when the letter is not in the pile.
    version = 2
    secret_pools: ClassVar[Mapping[str, Sequence[Any]]] = views.SECRET_POOLS

    def prepare(self) -> None:
        lexicon()  # the fragment index, shared by every game (about half a second to build)

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        state = new_state(players, rng_state, options)
        turns.start_turn(state, state["turn"], [])
        return state

    # ----- who is awaited -----------------------------------------------------------
    def waits(self, state: State) -> list[Wait]:
        phase = state["phase"]
        name, n = phase["name"], phase["n"]
        if name == "main":
            seat = phase["seat"]
            step = phase["step"]
            if step == "ask":
                return [Wait(seat, f"ask{n}", "name a letter (How Do You Say…?)", EVENT_TIMEOUT,
                             {"type": "ask", "letter": phase["fallback"], "timeout": True})]
            if step == "steal":
                return [Wait(seat, f"ask{n}", "name a letter (How Do You Say…?)", EVENT_TIMEOUT,
                             {"type": "no_steal", "timeout": True})]
            if step == "trash":
                return [Wait(seat, f"trash{n}", "take a letter (Trash Talk)", EVENT_TIMEOUT,
                             {"type": "trash", "letter": phase["fallback"], "timeout": True})]
            timeout = AFK_TURN_TIMEOUT if state["afk"][seat] else TURN_TIMEOUT
            return [Wait(seat, f"turn{n}", "play a letter, use an event card or skip", timeout,
                         self.turn_default(state, seat))]
        if name == "challenge":
            return [Wait(s, f"challenge{n}", "challenge or let it stand", CHALLENGE_TIMEOUT,
                         {"type": "stand", "timeout": True}, independent=True) for s in phase["waiting"]]
        if name == "claim":
            return [Wait(phase["seat"], f"claim{n}", f"claim {phase['word']} or keep building",
                         CLAIM_TIMEOUT, {"type": "claim", "timeout": True})]
        if name == "tip":
            return [Wait(s, f"tip{n}", "use Tip of My Tongue?", TIP_TIMEOUT,
                         {"type": "no_tip", "timeout": True}, independent=True) for s in phase["waiting"]]
        if name == "rps":
            fallback = phase["fallback"]
            return choices.waits(phase["box"], "rock, paper or scissors", RPS_TIMEOUT,
                                 lambda s: {"type": "rps", "shape": fallback[s], "timeout": True})
        if name == "tiebreak":
            return choices.waits(phase["box"], "Coin toss or Wordblitz", TIEBREAK_TIMEOUT,
                                 lambda s: {"type": "coin", "timeout": True})
        return []

    @staticmethod
    def turn_default(state: State, seat: int) -> Action:
        """An AFK turn skips, discarding the card just drawn (or the last card in hand)."""
        hand = board(state)["hands"][seat]
        card = state["drawn"] if state["drawn"] in hand else (hand[-1] if hand else None)
        action: Action = {"type": "skip", "timeout": True}
        if card is not None:
            action["card"] = face(card)
        return action

    # ----- what may be done ---------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if self.outcome(state) is not None or seat in state["left"]:
            return []
        phase = state["phase"]
        name = phase["name"]
        if name == "main" and phase["seat"] == seat:
            return self.turn_actions(state, seat)
        if name == "challenge" and seat in phase["waiting"]:
            return [{"type": "challenge"}, {"type": "stand"}]
        if name == "claim" and phase["seat"] == seat:
            return [{"type": "claim"}, {"type": "keep"}]
        if name == "tip" and seat in phase["waiting"]:
            has_tip = card_with_face(state["hands"][seat], TIP) is not None
            return [{"type": "no_tip"}] + ([{"type": "tip"}] if has_tip else [])
        if name == "rps" and seat in choices.pending(phase["box"]):
            return [{"type": "rps", "shape": s} for s in windows.SHAPES]
        if name == "tiebreak" and seat in choices.pending(phase["box"]):
            return [{"type": "coin"}, {"type": "wordblitz"}]
        return []

    @staticmethod
    def turn_actions(state: State, seat: int) -> list[Action]:
        step = state["phase"]["step"]
        if step == "ask":
            return [{"type": "ask", "letter": letter} for letter in LETTERS]
        if step == "steal":
            can_steal = bool(actions.holders_of(state, seat, state["phase"]["letter"]))
            return ([{"type": "steal"}] if can_steal else []) + [{"type": "no_steal"}]
        if step == "trash":
            return [{"type": "trash", "letter": letter} for letter in letters_in(state["discard"])]
        area = board(state)
        hand = area["hands"][seat]
        faces = sorted({face(c) for c in hand})
        size = len(area["wip"])
        out: list[Action] = [
            {"type": "play", "card": f, "at": at} for f in faces if len(f) == 1 for at in range(size + 1)
        ]
        if BACKSPACE in faces and size:
            out += [{"type": "backspace", "index": i} for i in range(size)]
        if EDITOR in faces and size >= 2:
            out += [{"type": "editor", "from": i, "to": j}
                    for i in range(size) for j in range(size) if i != j]
        out += [{"type": "skip", "card": f} for f in faces] or [{"type": "skip"}]
        return out

    # ----- doing it -----------------------------------------------------------------
    def play(self, state: State, seat: int, action: Action, now: float) -> list[Event]:
        kind = action["type"]
        if not isinstance(seat, int) or not 0 <= seat < state["players"] or seat in state["left"]:
            raise IllegalAction("You are not playing in this game.", rule="4")
        handler = HANDLERS.get(kind)
        if handler is None:
            raise IllegalAction("That is not something you can do in Fighting Words.", rule="8")
        events: list[Event] = []
        timed_out = action.get("timeout") is True
        was_turn = state["phase"]["name"] == "main" and state["phase"].get("step") == "act"
        turns.follow(state, handler(state, seat, action, events), events)
        self.track_afk(state, seat, timed_out, was_turn and kind == "skip", events, now)
        return events

    @staticmethod
    def track_afk(state: State, seat: int, timed_out: bool, turn_timeout: bool,
                  events: list[Event], now: float = 0.0) -> None:
        """3 timed-out turns in a row: AFK (10 s turns); 10: the player is dropped. When every
        player in play has been timing out for 10 minutes — or the drop would leave a game in
        which nobody is playing — the game is abandoned without a result."""
        away = state.setdefault("away_since", [None] * state["players"])
        if not timed_out:
            state["timeouts"][seat] = 0
            state["afk"][seat] = False
            away[seat] = None
            return
        if not turn_timeout:
            return
        state["timeouts"][seat] += 1
        if away[seat] is None:
            away[seat] = now
        if state["phase"]["name"] == "over":
            return
        in_play = ending.seats_in_play_main(state)
        nobody_plays = all(away[s] is not None for s in in_play)
        if nobody_plays and (now - max(away[s] for s in in_play) >= ABANDON_AFTER
                             or (state["timeouts"][seat] >= DROP_AFTER and len(in_play) <= 2)):
            state["abandoned"] = True
            open_phase(state, "over")
            events.append(Event("abandoned", {"seats": in_play}))
            return
        if state["timeouts"][seat] >= DROP_AFTER:
            events.extend(drop(state, seat, "timeouts"))
        elif state["timeouts"][seat] >= AFK_AFTER and not state["afk"][seat]:
            state["afk"][seat] = True
            events.append(Event("afk", {"seat": seat}))

    def forfeit(self, state: State, seat: int, now: float) -> tuple[State, list[Event]]:
        """A leaver's hand is discarded and the game goes on without them (§4 AFK)."""
        if self.outcome(state) is not None:
            raise IllegalAction("This game is already over.", rule="20")
        if seat in state["left"]:
            raise IllegalAction("You already left this game.", rule="20")
        new_state_ = copy.deepcopy(state)
        return new_state_, drop(new_state_, seat, "left")

    # ----- seeing it ----------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is None or not 0 <= seat < state["players"]:
            return views.public_view(state)
        return views.seat_view(state, seat)

    def secrets(self, state: State) -> list[Secret]:
        return views.secrets(state)

    def choices(self, state: State) -> list[dict[str, Any]]:
        """The open rock-paper-scissors or tie-break round, if any."""
        phase = state["phase"]
        return [phase["box"]] if phase["name"] in ("rps", "tiebreak") else []

    def result(self, state: State) -> Outcome | None:
        return ending.outcome(state)


def drop(state: State, seat: int, why: str) -> list[Event]:
    """Take `seat` out: hand to the discard pile, out of the turn order and the skip streak,
    and close whatever they were holding up. `why` is "left" or "timeouts"."""
    events = [Event("left", {"seat": seat, "why": why})]
    state["left"].append(seat)
    for area in (state, state["blitz"]) if state["blitz"] else (state,):
        area["discard"].extend(area["hands"][seat])
        area["hands"][seat] = []
    if seat in state["skip_streak"]:
        state["skip_streak"].remove(seat)
    state["picks"][seat] = None
    phase = state["phase"]
    in_play = ending.seats_in_play_main(state)
    if phase["name"] == "over":
        return events
    if len(in_play) < 2 and phase["name"] != "tiebreak" and not state["blitz"]:
        ending.finish(state, ending.EVERYONE_LEFT, events)
        return events
    if state["blitz"]:
        racing = [s for s in state["blitz"]["seats"] if s not in state["left"]]
        if len(racing) < 2:  # the Wordblitz lost its last rival: the one left wins it
            ending.declare(state, racing[0], state["blitz"]["tied"], "walkover", events)
            return events
    turns.follow(state, release(state, seat, events), events)
    return events


def release(state: State, seat: int, events: list[Event]) -> Next:
    """Close what a leaver was holding up; return what the turn order should do next."""
    phase = state["phase"]
    name = phase["name"]
    if name == "main" and phase["step"] == "steal" and phase["seat"] != seat:
        phase["held"] = bool(actions.holders_of(state, phase["seat"], phase["letter"]))
    if name in ("main", "claim") and phase["seat"] == seat:
        return END_TURN
    if name == "challenge":
        if seat in phase["waiting"]:
            phase["waiting"].remove(seat)
        if phase["seat"] == seat or not phase["waiting"]:
            windows.change_stands(state)
            return END_TURN
    elif name == "tip":
        if seat in phase["waiting"]:
            phase["waiting"].remove(seat)
        if not phase["waiting"]:
            return windows.resolve_tip(state, events)
    elif name == "rps":
        choices.leave(phase["box"], seat)
        return windows.settle_rps(state, events)
    elif name == "tiebreak":
        choices.leave(phase["box"], seat)
        return ending.settle_tiebreak(state, events)
    return None
