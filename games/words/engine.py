"""Fighting Words as an `Engine`: who is awaited, what they may do, and the dispatch of
actions to the rule modules (turns, windows, ending)."""

from __future__ import annotations

import copy
from typing import Any

from games.core import Action, Engine, Event, IllegalAction, Outcome, State, Wait
from games.words import ending, turns, views, windows
from games.words.cards import BACKSPACE, EDITOR, LETTERS, TIP, face
from games.words.dictionary import lexicon
from games.words.state import board, card_with_face, event, letters_in, new_state, seat_name

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
DROP_AFTER = 10

TURN_ACTIONS = {"play", "backspace", "editor", "skip", "pick", "ask", "steal", "no_steal", "trash"}


class WordsEngine(Engine):
    name = "words"
    title = "Fighting Words"
    min_players = 2
    max_players = 6
    summary = "Build a word one letter at a time; finish a real word of 4+ letters to take it."

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
            return [Wait(s, f"rps{n}", "rock, paper or scissors", RPS_TIMEOUT,
                         {"type": "rps", "shape": phase["fallback"][s], "timeout": True}, independent=True)
                    for s in phase["players"] if phase["choices"][s] is None]
        if name == "tiebreak":
            return [Wait(s, f"tiebreak{n}", "Coin toss or Wordblitz", TIEBREAK_TIMEOUT,
                         {"type": "coin", "timeout": True}, independent=True)
                    for s in phase["tied"] if phase["choices"][s] is None]
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
        if name == "rps" and seat in phase["players"] and phase["choices"][seat] is None:
            return [{"type": "rps", "shape": s} for s in windows.SHAPES]
        if name == "tiebreak" and seat in phase["tied"] and phase["choices"][seat] is None:
            return [{"type": "coin"}, {"type": "wordblitz"}]
        return []

    @staticmethod
    def turn_actions(state: State, seat: int) -> list[Action]:
        step = state["phase"]["step"]
        if step == "ask":
            return [{"type": "ask", "letter": letter} for letter in LETTERS]
        if step == "steal":
            return [{"type": "steal"}, {"type": "no_steal"}]
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
            raise IllegalAction("You are not playing in this game.")
        events: list[Event] = []
        timed_out = action.get("timeout") is True
        was_turn = state["phase"]["name"] == "main" and state["phase"].get("step") == "act"
        if kind == "play":
            turns.play_letter(state, seat, action, events)
        elif kind == "backspace":
            turns.backspace(state, seat, action, events)
        elif kind == "editor":
            turns.editor(state, seat, action, events)
        elif kind == "skip":
            turns.skip(state, seat, action, events)
        elif kind == "pick":
            turns.pick(state, seat, action)
        elif kind == "ask":
            turns.ask(state, seat, action, events)
        elif kind in ("steal", "no_steal"):
            turns.steal(state, seat, action, events)
        elif kind == "trash":
            turns.trash(state, seat, action, events)
        elif kind == "challenge":
            windows.challenge(state, seat, events)
        elif kind == "stand":
            windows.stand(state, seat, events)
        elif kind in ("claim", "keep"):
            windows.claim(state, seat, action, events)
        elif kind in ("tip", "no_tip"):
            windows.tip(state, seat, action, events)
        elif kind == "rps":
            windows.rps(state, seat, action, events)
        elif kind in ("coin", "wordblitz"):
            ending.choose_tiebreak(state, seat, action, events)
        else:
            raise IllegalAction("That is not something you can do in Fighting Words.")
        self.track_afk(state, seat, timed_out, was_turn and kind == "skip", events)
        return events

    @staticmethod
    def track_afk(state: State, seat: int, timed_out: bool, turn_timeout: bool,
                  events: list[Event]) -> None:
        """3 timed-out turns in a row: AFK (10 s turns); 10: the player is dropped."""
        if not timed_out:
            state["timeouts"][seat] = 0
            state["afk"][seat] = False
            return
        if not turn_timeout:
            return
        state["timeouts"][seat] += 1
        if state["timeouts"][seat] >= DROP_AFTER and state["phase"]["name"] != "over":
            events.extend(drop(state, seat, "timed out ten turns in a row"))
        elif state["timeouts"][seat] >= AFK_AFTER and not state["afk"][seat]:
            state["afk"][seat] = True
            events.append(event("afk", f"{seat_name(seat)} is away: their turns pass after 10 s.",
                                seat=seat))

    def forfeit(self, state: State, seat: int, now: float) -> tuple[State, list[Event]]:
        """A leaver's hand is discarded and the game goes on without them (§4 AFK)."""
        if self.outcome(state) is not None:
            raise IllegalAction("This game is already over.")
        if seat in state["left"]:
            raise IllegalAction("You already left this game.")
        new_state_ = copy.deepcopy(state)
        return new_state_, drop(new_state_, seat, "left the game")

    # ----- seeing it ----------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is None or not 0 <= seat < state["players"]:
            return views.public_view(state)
        return views.seat_view(state, seat)

    def secrets(self, state: State) -> dict[int, list[Any]]:
        return views.secrets(state)

    def result(self, state: State) -> Outcome | None:
        return ending.outcome(state)


def drop(state: State, seat: int, why: str) -> list[Event]:
    """Take `seat` out: hand to the discard pile, out of the turn order and the skip streak,
    and close whatever they were holding up."""
    events = [event("left", f"{seat_name(seat)} {why}.", seat=seat)]
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
        ending.finish(state, "everyone else left", events)
        return events
    name = phase["name"]
    if (name == "main" and phase["seat"] == seat) or (name == "claim" and phase["seat"] == seat):
        turns.end_turn(state, events)
    elif name == "challenge":
        if seat in phase["waiting"]:
            phase["waiting"].remove(seat)
        if phase["seat"] == seat or not phase["waiting"]:
            windows.change_stands(state)
            turns.end_turn(state, events)
    elif name == "tip":
        if seat in phase["waiting"]:
            phase["waiting"].remove(seat)
        if not phase["waiting"]:
            windows.resolve_tip(state, events)
    elif name == "rps":
        windows.settle_rps(state, events)
    elif name == "tiebreak":
        ending.settle_tiebreak(state, events)
    return events
