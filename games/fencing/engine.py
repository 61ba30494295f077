"""Table Fencing as a pure engine: options, setup, and the action loop's entry: who is awaited
(`waits.py`), what may be done (`checks.VERIFY` over `checks.candidates`, as in Two Fat Dudes),
doing it (`handlers.HANDLERS` by action kind, `handlers.TIMERS` for the game's own), typed
miscues (rule 24), the view and the outcome (`outcome.py`) (spec §3-§5)."""

from __future__ import annotations

from typing import Any, ClassVar

from games.core import Action, Engine, Event, IllegalAction, Option, Outcome, Secret, State, Wait, copy_state
from games.fencing import checks, flow, moves, outcome, penalties, waits
from games.fencing.cards import DECK
from games.fencing.handlers import BESIDE, HANDLERS, TIMERS, Handler, clicked
from games.fencing.region import region_ids
from games.fencing.schema import PublicView, SeatView
from games.fencing.state import draw, ms, set_step
from games.fencing.state import phase as phase  # the engine's accessor (tests/test_phases.py reads it here)
from games.fencing.views import public_view


class FencingEngine(Engine[PublicView, SeatView]):
    name = "fencing"
    title = "Table Fencing"
    champion_option = "champion"  # the runtime seats the server's last winner here
    min_players = 3
    max_players = 3
    summary = ("Flip cards, fight trump wars, parry, build to 50 or make a theme with chess pieces "
               "on a road map of Ohio - with golf balls, hats, yo-yos and chocolate.")
    options = (
        Option("direction", "the Start moves cw or ccw after each bumper", "cw", ("cw", "ccw")),
        Option("region", "the road map", "ohio", region_ids()),
        Option("difficulty", "roads allowed: interstate, state or backroads", "interstate",
               ("interstate", "state", "backroads")),
        Option("duel_mode", "yo-yo duels: sleeper (snap back) or dice", "sleeper", ("sleeper", "dice")),
        Option("offroad", "off-road moves for a penalty", "on", ("on", "off")),
        Option("carpet", "blue: surplus chocolate is eaten, not given away", "other", ("other", "blue")),
        Option("timers", "live or async (every limit x120)", "live", ("live", "async")),
        Option("champion", "seat of the region champion (-1: none seated)", -1, (-1, 0, 1, 2)),
    )
    secret_pools: ClassVar[dict[str, tuple[Any, ...]]] = {"card": DECK}
    resume_action: ClassVar[Action | None] = {"type": "resume"}

    # ----- setup ---------------------------------------------------------------------
    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        state: State = {
            "rng": rng_state, "players": players, "options": dict(options), "wseq": 0,
            "seats": [flow.player() for _ in range(3)], "start": 0,
            "champion": options["champion"] if options["champion"] in (0, 1, 2) else None,
            "clock_started_at": None, "bumper_no": 0, "pieces": {}, "decks": [[], [], []],
            "drawn": [[], [], []], "control": None, "mitt": None, "yellow": None, "yellow_box": None,
            "purple": None, "choc_supply": flow.CHOC_SUPPLY, "trick_no": 0, "attacked": None, "trick": None,
            "last_trick": None, "streak": {"owner": None, "last_move": None}, "miscuers": [0, 0, 0],
            "penalties": [[], [], []], "over": False, "winner": None, "cancelled": False, "afk_out": None,
            "theme": None,
        }
        state["start"] = draw(state, "start", 0, 2)  # rule 1: the RNG draws the first Start
        state["pieces"] = dict(moves.region_of(state).start)
        set_step(state, "game", 0, pressed=[False, False, False])
        return state

    # ----- who is awaited ------------------------------------------------------------
    def waits(self, state: State) -> list[Wait]:
        return waits.waits(state)

    # ----- what may be done ----------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The candidates the rule checks accept: the same checks the handlers run."""
        if self.outcome(state) is not None or seat not in (0, 1, 2):
            return []
        return [action for action in checks.candidates(state, seat) if checks.allowed(state, seat, action)]

    # ----- doing it ------------------------------------------------------------------
    def play(self, state: State, seat: int | None, action: Action, now: float) -> list[Event]:
        if state["over"] or state["cancelled"] or state["afk_out"] is not None:
            raise IllegalAction("This game is already over.")
        if seat is not None and seat not in (0, 1, 2):
            raise IllegalAction("You are not at this table.")
        now_ms = ms(now)
        if not (action.get("typed") and seat is not None):
            return self._dispatch(state, seat, action, now_ms)
        snapshot = copy_state(state)
        try:
            return self._dispatch(state, seat, action, now_ms)
        except IllegalAction as exc:  # rule 24: a typed command that breaks a rule is a miscue
            state.clear()
            state.update(snapshot)
            return penalties.miscue(state, seat, exc, now_ms)

    def _dispatch(self, state: State, seat: int | None, action: Action, now_ms: int) -> list[Event]:
        """The kind's handler (`HANDLERS`; seat None: the game's own, `TIMERS`). A press after
        the open prompt's deadline counts as its timeout (`auto`); the penalty prompts and the
        hat keep their own time (`BESIDE`)."""
        kind = action["type"]
        timed_out = bool(action.get("timeout"))
        events: list[Event] = []
        if seat is None:
            if kind != "resume" and not timed_out:
                raise IllegalAction("Only the game does that.")
            timer = TIMERS.get(kind)
            if timer is None:
                raise IllegalAction("Nothing is timed out now.")
            timer(state, now_ms, events)
        else:
            handler = HANDLERS.get(kind)
            if handler is None or kind not in checks.VERIFY:  # the game's own kinds, or none of this game's
                raise checks.not_now(state)
            if kind in BESIDE:
                handler(state, seat, action, now_ms, events, timed_out)
            else:
                self._answer(state, seat, action, now_ms, events, handler, timed_out)
        if phase(state).name in ("tally", "end"):
            flow.gates(state, now_ms, events)
        return events

    @staticmethod
    def _answer(state: State, seat: int, action: Action, now_ms: int, events: list[Event], handler: Handler,
                timed_out: bool) -> None:
        """An answer to the open prompt: after its deadline it counts as the timeout (`auto`)."""
        step = state["step"]
        late = (not timed_out and step.get("deadline") is not None and now_ms > step["deadline"]
                and not (phase(state).name == "catch" and not step["open"]))
        if late:
            events.append(Event("too_late", {"seat": seat, "prompt": phase(state).name}))
        handler(state, seat, action, now_ms, events, timed_out or late)
        if not (timed_out or late):
            clicked(state, seat)

    # ----- views, secrets, the end ---------------------------------------------------
    def view(self, state: State, seat: int | None) -> PublicView:
        return {**public_view(state), "seat": seat}

    def secrets(self, state: State) -> list[Secret]:
        out = [Secret(None, ("decks", s, i), "card") for s in range(3) for i in range(len(state["decks"][s]))]
        at = phase(state)
        if at.name == "catch" and not state["step"]["open"]:
            out.append(Secret(None, ("step", "opens_at"), "opens_at"))
        if at.name == "duel" and state["step"]["S"] is not None:
            out.append(Secret(None, ("step", "S"), "S"))
        return out

    def result(self, state: State) -> Outcome | None:
        return outcome.result(state)

    def forfeit_outcome(self, state: State, leaver: int) -> Outcome:
        return outcome.left(state, leaver, "forfeit")
