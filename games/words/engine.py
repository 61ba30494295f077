"""Fighting Words as an `Engine`: who is awaited, what they may do, and the dispatch of
actions to the rule modules (actions, windows, tips, ending). Each action kind has its rule
check (`VERIFY`), which `legal_actions` filters by and the rule runs first, and its rule
(`HANDLERS`). A rule returns what the turn order should do next; `turns.follow`, the one place
that starts and ends turns, carries it out."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, overload

from games import afk, choices
from games.core import Action, Engine, Event, IllegalAction, Outcome, Rng, Secret, State, Wait
from games.words import actions, ending, tips, turns, views, windows
from games.words.cards import BACKSPACE, EDITOR, LETTERS, face
from games.words.dictionary import lexicon
from games.words.schema import Kind, PublicView, SeatView
from games.words.state import END_TURN, Next, board, letters_in, new_state, open_phase
from games.words.state import phase as phase_of

TURN_TIMEOUT = 90.0
AFK_TURN_TIMEOUT = 10.0
EVENT_TIMEOUT = 45.0
CLAIM_TIMEOUT = 20.0
RPS_TIMEOUT = 20.0
TIEBREAK_TIMEOUT = 30.0
#: Timed-out turns in a row before a player is AFK, and before they are dropped.
AFK_AFTER = 3
#: Seconds of every player timing out before the game is abandoned without a result (§4 AFK).
ABANDON_AFTER = 600.0
DROP_AFTER = 10

Handler = Callable[[State, int, Action, list[Event]], Next]
Check = Callable[[State, int, Action], object]
#: Every action kind of the schema and its rule check, shared by `legal_actions` and the rules
#: (each rule runs its check first); a check only reads the state.
VERIFY: dict[Kind, Check] = {
    "play": actions.verify_play, "backspace": actions.verify_backspace, "editor": actions.verify_editor,
    "skip": actions.verify_skip, "pick": actions.verify_pick_card, "ask": actions.verify_ask,
    "steal": actions.verify_steal, "no_steal": actions.verify_steal, "trash": actions.verify_trash,
    "challenge": windows.verify_challenge, "stand": windows.verify_stand,
    "claim": windows.verify_claim, "keep": windows.verify_claim, "tip": tips.verify_tip, "no_tip": tips.verify_tip,
    "rps": tips.verify_rps, "close": tips.verify_close,
    "coin": ending.verify_tiebreak, "wordblitz": ending.verify_tiebreak,
}
#: Action type -> the rule that handles it. Each returns what the turn order should do next
#: (`END_TURN`, `START_TURN` or None), which `turns.follow` carries out.
HANDLERS: dict[Kind, Handler] = {
    "play": actions.play_letter, "backspace": actions.backspace, "editor": actions.editor,
    "skip": actions.skip, "pick": actions.pick, "ask": actions.ask, "steal": actions.steal,
    "no_steal": actions.steal, "trash": actions.trash,
    "challenge": windows.challenge, "stand": windows.stand,
    "claim": windows.claim, "keep": windows.claim, "tip": tips.tip, "no_tip": tips.tip,
    "rps": tips.rps, "close": tips.close,
    "coin": ending.choose_tiebreak, "wordblitz": ending.choose_tiebreak,
}


class WordsEngine(Engine[PublicView, SeatView]):
    name = "words"
    title = "Fighting Words"
    min_players = 2
    max_players = 6
    summary = "Build a word one letter at a time; finish a real word of 4+ letters to take it."
    #: 2: How Do You Say…? always has a steal/go-on step when the letter is not in the pile.
    #: 3: windows wait for nobody: the turn passes at once, a change stays open to a challenge
    #: until the word changes again (5 s at least), Tip until then too (8 s at least); a letter
    #: on an empty word is played without the position step.
    version = 3
    secret_pools: ClassVar[Mapping[str, Sequence[Any]]] = views.SECRET_POOLS

    def prepare(self) -> None:
        lexicon()  # the fragment index, shared by every game (about half a second to build)

    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        state = new_state(players, rng_state, options)
        turns.start_turn(state, state["turn"], [])
        return state

    # ----- who is awaited -----------------------------------------------------------
    def waits(self, state: State) -> list[Wait]:
        """The phase's waits, and the rock-paper-scissors contenders (who chose to use Tip).
        The challenge and Tip windows await nobody: play goes on while they are open."""
        state = upgraded(state)
        if phase_of(state).name in LEGACY_WINDOWS:  # a game saved by version 2, mid-window
            return [Wait(None, f"upgrade{state['phase']['n']}", "the game moves on to the new rules", 0.0,
                         {"type": "close", "timeout": True})]
        out = self.phase_waits(state)
        game = state["rps"]
        if game is not None and phase_of(state).name not in ("tiebreak", "over"):
            fallback = game["fallback"]
            out += choices.waits(game["box"], "throw rock, paper or scissors", RPS_TIMEOUT,
                                 lambda s: {"type": "rps", "shape": fallback[s], "timeout": True})
        return out

    def phase_waits(self, state: State) -> list[Wait]:
        phase = state["phase"]
        name, n = phase_of(state).name, phase["n"]
        if name == "main":
            seat = phase["seat"]
            step = phase_of(state).step
            if step == "ask":
                return [Wait(seat, f"ask{n}", "name a letter (How Do You Say…?)", EVENT_TIMEOUT,
                             {"type": "ask", "letter": phase["fallback"], "timeout": True})]
            if step == "steal":
                return [Wait(seat, f"ask{n}", "name a letter (How Do You Say…?)", EVENT_TIMEOUT,
                             {"type": "no_steal", "timeout": True})]
            if step == "trash":  # the drawn fallback, unless a challenge took it back meanwhile
                letters = letters_in(state["discard"])
                letter = phase["fallback"] if phase["fallback"] in letters or not letters else letters[0]
                return [Wait(seat, f"trash{n}", "take a letter (Trash Talk)", EVENT_TIMEOUT,
                             {"type": "trash", "letter": letter, "timeout": True})]
            timeout = AFK_TURN_TIMEOUT if state["afk"][seat] else TURN_TIMEOUT
            return [Wait(seat, f"turn{n}", "play a letter, use an event card or skip", timeout,
                         self.turn_default(state, seat))]
        if name == "claim":
            return [Wait(phase["seat"], f"claim{n}", f"claim {phase['word']} or keep building",
                         CLAIM_TIMEOUT, {"type": "claim", "timeout": True})]
        if name == "closing" and state["tip"] is not None:  # the game itself waits
            return [Wait(None, f"close{n}", "the Tip of My Tongue window closes, then the game ends",
                         max(0.0, tips.tip_time_left(state)), {"type": "close", "timeout": True})]
        if name == "tiebreak":
            return choices.waits(phase["box"], "choose Coin toss or Wordblitz", TIEBREAK_TIMEOUT,
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
        """The candidates the rule checks accept: the same checks `play` runs (`VERIFY`)."""
        state = upgraded(state)
        if self.outcome(state) is not None or seat in state["left"] or phase_of(state).name in LEGACY_WINDOWS:
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
    def verify(state: State, seat: int, action: Action) -> None:
        """The rule check of the action's kind (`VERIFY`): what `legal_actions` lists and what
        the rules run first."""
        check = VERIFY.get(action["type"])
        if check is None:
            raise IllegalAction("That is not something you can do in Fighting Words.", rule="8")
        check(state, seat, action)

    def candidates(self, state: State, seat: int) -> list[Action]:
        """What `legal_actions` tries, in the order it lists: the phase's moves (a turn's from
        the hand of the seat whose turn or claim it is: trying a hundred moves of every other
        seat only to refuse them would cost several times as much), then the windows' (which stay
        open while play goes on)."""
        name = phase_of(state).name
        mine = state["phase"].get("seat") == seat
        out: list[Action] = []
        if name == "main" and mine:
            out += self.turn_actions(state, seat)
        elif name == "claim" and mine:
            out += [{"type": "claim"}, {"type": "keep"}]
        elif name == "tiebreak":
            out += [{"type": "coin"}, {"type": "wordblitz"}]
        return out + windows.window_candidates(state)

    @staticmethod
    def turn_actions(state: State, seat: int) -> list[Action]:
        step = phase_of(state).step
        if step == "ask":
            return [{"type": "ask", "letter": letter} for letter in LETTERS]
        if step == "steal":
            return [{"type": "steal"}, {"type": "no_steal"}]
        if step == "trash":
            letters = letters_in(state["discard"])
            return [{"type": "trash", "letter": letter} for letter in letters] or [{"type": "trash"}]
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
    def play(self, state: State, seat: int | None, action: Action, now: float) -> list[Event]:
        kind = action["type"]
        timed_out = action.get("timeout") is True
        if seat is None:  # the game's own wait (the Tip window at the very end)
            if kind != "close" or not timed_out:
                raise IllegalAction("You are not playing in this game.", rule="4")
        elif not isinstance(seat, int) or not 0 <= seat < state["players"] or seat in state["left"]:
            raise IllegalAction("You are not playing in this game.", rule="4")
        handler = HANDLERS.get(kind)
        if handler is None:
            raise IllegalAction("That is not something you can do in Fighting Words.", rule="8")
        events: list[Event] = []
        if upgrade(state, events) and seat is None:
            return events  # the upgrade was all that wait was for
        state["clock"] = max(float(now), state["clock"])  # the windows are judged at the press
        windows.prune(state)
        was_turn = tuple(phase_of(state)) == ("main", "act")
        # Only the game's own wait comes with no seat, and it only closes the Tip window.
        step = tips.close(state, None, action, events) if seat is None else handler(state, seat, action, events)
        turns.follow(state, step, events)
        if seat is not None:
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
            afk.tally(state["timeouts"], seat, missed=False)
            state["afk"][seat] = False
            away[seat] = None
            return
        if not turn_timeout:
            return
        afk.tally(state["timeouts"], seat, missed=True)
        if away[seat] is None:
            away[seat] = now
        if phase_of(state).name == "over":
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
        upgrade(new_state_, [])
        new_state_["clock"] = max(float(now), new_state_["clock"])
        windows.prune(new_state_)
        return new_state_, drop(new_state_, seat, "left")

    # ----- seeing it ----------------------------------------------------------------
    @overload
    def view(self, state: State, seat: None) -> PublicView: ...
    @overload
    def view(self, state: State, seat: int) -> SeatView: ...
    def view(self, state: State, seat: int | None) -> PublicView | SeatView:
        state = upgraded(state)
        if seat is None or not 0 <= seat < state["players"]:  # nobody's seat: the table
            return views.public_view(state)
        return views.seat_view(state, seat)

    def views(self, state: State, seats: Sequence[int | None]) -> dict[int | None, Any]:
        """Each seat's view is the public one and its own part: the public part is made once."""
        state = upgraded(state)
        public = views.public_view(state)
        return {seat: public if seat is None or not 0 <= seat < state["players"]
                else views.seat_view(state, seat, public) for seat in seats}

    def secrets(self, state: State) -> list[Secret]:
        return views.secrets(upgraded(state))

    def choices(self, state: State) -> list[dict[str, Any]]:
        """The open rock-paper-scissors or tie-break round, if any."""
        phase = state["phase"]
        out = [state["rps"]["box"]] if state.get("rps") is not None else []
        return out + ([phase["box"]] if phase_of(state).name == "tiebreak" else [])

    def result(self, state: State) -> Outcome | None:
        return ending.outcome(state)


#: The phases of version 2, whose windows waited for every other player.
LEGACY_WINDOWS = ("challenge", "tip", "rps")
#: The state keys version 3 added, with their opening values.
NEW_KEYS: dict[str, Any] = {"changes": [], "closed": [], "tip": None, "rps": None, "clock": 0.0}


def upgraded(state: State) -> State:
    """A state saved by version 2 as version 3 reads it (a copy; the state itself is kept)."""
    if all(key in state for key in NEW_KEYS):
        return state
    return {**copy.deepcopy(NEW_KEYS), **state}


def upgrade(state: State, events: list[Event]) -> bool:
    """Bring a game saved by version 2 (still running when the bot was updated) under the new
    rules, in place: a challenge window closes with the change standing; a Tip window goes to
    its one user (several: one of them at random, as if rock-paper-scissors had been played).
    True when there was anything to do."""
    missing = {k: copy.deepcopy(v) for k, v in NEW_KEYS.items() if k not in state}
    state.update(missing)
    phase, name = state["phase"], phase_of(state).name
    if name not in LEGACY_WINDOWS:
        return bool(missing)
    users = [s for s in phase.get("players", phase.get("users", [])) if s not in state["left"]]
    stack = state["stacks"][phase["seat"]]
    if name != "challenge" and users and stack:
        winner = users[0] if len(users) == 1 else Rng(state).choice(users)
        tips.move_word(state, phase["seat"], winner, stack[-1][0], phase["seat"], events)
    if name == "challenge":
        windows.change_stands(state)
        step: Next = END_TURN
    elif phase.get("then") == "main" and state["turn"] not in state["left"]:
        open_phase(state, "main", seat=state["turn"], step="act")
        step = None
    else:
        step = END_TURN
    turns.follow(state, step, events)
    return True


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
    in_play = ending.seats_in_play_main(state)
    if phase_of(state).name == "over":
        return events
    if len(in_play) < 2 and phase_of(state).name != "tiebreak" and not state["blitz"]:
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
    """Close what a leaver was holding up; return what the turn order should do next. (Their
    changes of the word stay open to a challenge; their rock-paper-scissors is left.)"""
    phase = state["phase"]
    name = phase_of(state).name
    if name == "main" and phase_of(state).step == "steal" and phase["seat"] != seat:
        phase["held"] = bool(actions.holders_of(state, phase["seat"], phase["letter"]))
    game = state["rps"]
    if game is not None and seat in game["box"]["seats"]:
        choices.leave(game["box"], seat)
        tips.settle_rps(state, events)
    if name in ("main", "claim") and phase["seat"] == seat:
        return END_TURN
    if name == "tiebreak":
        choices.leave(phase["box"], seat)
        return ending.settle_tiebreak(state, events)
    return None
