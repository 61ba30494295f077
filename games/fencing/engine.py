"""Table Fencing as a pure engine: options, waits and timers, dispatch by prompt, typed
miscues, AFK, resume, the outcome (spec §3-§5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from games import afk
from games.core import Action, Engine, Event, IllegalAction, Option, Outcome, Secret, State, Wait, copy_state
from games.fencing import duel, flow, moves, penalties
from games.fencing.cards import DECK
from games.fencing.common import (
    AFK_FORFEIT,
    LIMITS,
    RESUME_GRACE_MS,
    draw,
    factor,
    ms,
    new_wid,
    open_timer,
    timeout_of,
)
from games.fencing.region import PIECES, region_ids
from games.fencing.schema import DuelStage, Kind, PromptKind, PublicView, SeatView
from games.fencing.views import public_view
from games.phase import Phase

#: A prompt's handler, a method of the engine: (state, seat, action, now_ms, events, late or timed out).
Handler = Callable[["FencingEngine", State, int, Action, int, list[Event], bool], None]

#: Commands offered only at one prompt: (the rule cited when typed elsewhere, prompts, words).
OUT_OF_STEP: dict[Kind, tuple[str, tuple[PromptKind, ...], str]] = {
    "quickswitch": ("11", ("golf",), "call a quick-switch"),
    "hose": ("12", ("golf",), "hose anyone"),
    "done": ("10", ("golf",), "close the golf window"),
    "move": ("17", ("move",), "move a piece"),
    "stay": ("17", ("move",), "stay"),
    "thrust": ("5", ("thrust",), "call Thrust"),
    "attack": ("20", ("attack", "first_attack"), "call the attack"),
    "catch": ("15", ("catch",), "catch"),
    "handout": ("13", ("handout",), "hand out the golf balls"),
    "don": ("9", ("hat",), "don your hat for a race"),
}

#: Steps no seat answers (the game's own: the tally, the end, the cards being drawn, over): no handler.
HANDLERS_FREE: frozenset[PromptKind] = frozenset({"tally", "end", "drawing", "over"})

#: Reflex and group prompts whose deadline the game itself resolves (a seat-less wait).
SELF_TIMED = ("game", "gun", "hat", "catch", "anthem")


def phase(state: State) -> Phase[PromptKind, DuelStage | None]:
    """Where the game is (the one place the engine reads it): the step's kind (the prompt open
    now), and within a duel its stage."""
    step = state["step"]
    return Phase(step["kind"], step["stage"] if step["kind"] == "duel" else None)


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
        flow.set_step(state, "game", 0, pressed=[False, False, False])
        return state

    # ----- who is awaited ------------------------------------------------------------
    def waits(self, state: State) -> list[Wait]:
        if state["over"] or state["cancelled"] or state["afk_out"] is not None:
            return []
        step = state["step"]
        kind, wid = phase(state).name, step["wid"]
        key = f"{kind}-{wid}"
        out: list[Wait] = []
        expire = {"type": "expire", "timeout": True}
        if kind == "game":
            out = [Wait(s, key, "press GAME!") for s in range(3) if not step["pressed"][s]]
            out.append(Wait(None, key, "everyone presses GAME!", LIMITS["game"] * factor(state) + 1.0, expire))
        elif kind == "gun":
            out = [Wait(s, key, "fire the starting gun") for s in range(3) if s != state["start"]]
            out.append(Wait(None, key, "the starting gun", timeout_of(step), {"type": "fire", "timeout": True}))
        elif kind == "stamp":
            out = [Wait(s, key, f"stamp the score sheet ({step['which']})", timeout_of(step),
                        {"type": "stamp", "timeout": True}, independent=True)
                   for s in range(3) if state["seats"][s]["stamps"][-1][step["which"]] is None]
        elif kind in ("first_attack", "attack"):
            chooser = state["start"] if kind == "first_attack" else state["control"]
            default_piece = "BK" if kind == "first_attack" else state["attacked"]
            out = [Wait(chooser, key, "call the attacked piece", timeout_of(step),
                        {"type": "attack", "piece": default_piece, "timeout": True})]
        elif kind == "thrust":
            out = [Wait(state["start"], key, "call Thrust", timeout_of(step), {"type": "thrust", "timeout": True})]
        elif kind == "hat":
            out = [Wait(s, key, "don your hat!", independent=True)
                   for s in step["bare"] if str(s) not in step["presses"]]
            out.append(Wait(None, key, "hat race", timeout_of(step), expire))
        elif kind == "golf":
            out = [Wait(step["holder"], key, "in the golf window: quick-switch, hose or done", timeout_of(step),
                        {"type": "done", "timeout": True})]
        elif kind == "catch":
            if step["open"]:
                out = [Wait(step["receiver"], key, "catch!"),
                       Wait(None, key, "catch", timeout_of(step), expire)]
            else:
                out = [Wait(None, key, "a throw is in the air", (step["opens_at"] - step["opened_at"]) / 1000,
                            {"type": "catch_open", "timeout": True}, countdown=False)]
        elif kind == "handout":
            out = [Wait(step["holder"], key, "hand out both golf balls", timeout_of(step),
                        {"type": "handout", "timeout": True})]
        elif kind == "duel":
            out = self._duel_waits(state, step, key)
        elif kind == "move":
            out = [Wait(state["control"], key, "move the attacked piece (or stay)", timeout_of(step),
                        {"type": "stay", "timeout": True})]
        elif kind == "anthem":
            out = [Wait(s, key, "hail the anthem", independent=True)
                   for s in range(3) if "hail" not in step["parts"][s]]
            out.append(Wait(None, key, "the anthem", timeout_of(step), expire))
        for seat, queue in enumerate(state["penalties"]):
            if queue:
                head = queue[0]
                out.insert(0, Wait(seat, f"pay-{head['wid']}", "pay a penalty: chocolate or slide",
                                   timeout_of(head), {"type": "pay", "timeout": True}))
        return out

    def _duel_waits(self, state: State, step: dict[str, Any], key: str) -> list[Wait]:
        stage = step["stage"]
        key = f"{key}-{stage}"
        expire = {"type": "expire", "timeout": True}
        if stage == "insult":
            out = [Wait(s, key, "insult your opponent (or skip)", independent=True)
                   for i, s in enumerate(step["seats"]) if step["insults"][i] is None]
            if duel.applause_open(step):  # optional: the insults' own timer still ends the stage
                out.append(Wait(step["third"], key, "applaud an insult (optional)", independent=True, optional=True))
            return [*out, Wait(None, key, "insults", timeout_of(step), expire)]
        if stage == "count":
            return [Wait(step["third"], key, "count to three", timeout_of(step), {"type": "count", "timeout": True})]
        out = [Wait(s, key, "snap back!", independent=True)
               for i, s in enumerate(step["seats"]) if step["snaps"][i] is None]
        return [*out, Wait(None, key, "the sleepers spin", timeout_of(step), expire)]

    # ----- what may be done ----------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if self.outcome(state) is not None or seat not in (0, 1, 2):
            return []
        out: list[Action] = []
        queue = state["penalties"][seat]
        if queue:
            if state["seats"][seat]["chocolate"] > 0:
                out.append({"type": "pay", "how": "chocolate"})
            out.append({"type": "pay", "how": "slide"})
        step = state["step"]
        kind = phase(state).name
        if kind == "game" and not step["pressed"][seat]:
            out.append({"type": "game"})
        elif kind == "gun" and seat != state["start"]:
            out.append({"type": "fire"})
        elif kind == "stamp" and state["seats"][seat]["stamps"][-1][step["which"]] is None:
            out.append({"type": "stamp"})
        elif (kind == "first_attack" and seat == state["start"]) or (kind == "attack" and seat == state["control"]):
            out += [{"type": "attack", "piece": p} for p in PIECES]
        elif kind == "thrust" and seat == state["start"]:
            out.append({"type": "thrust"})
        elif kind == "hat" and seat in step["bare"] and str(seat) not in step["presses"]:
            out.append({"type": "don"})
        elif kind == "golf" and seat == step["holder"]:
            if flow.qs_available(state):
                out.append({"type": "quickswitch"})
            if not state["trick"]["hose_used"]:
                out += [{"type": "hose", "target": t} for t in range(3) if t != seat]
            out.append({"type": "done"})
        elif kind == "catch" and step["open"] and seat == step["receiver"]:
            out.append({"type": "catch"})
        elif kind == "handout" and seat == step["holder"]:
            out += [{"type": "handout", "yellow": t} for t in range(3) if t != seat]
        elif kind == "duel":
            out += self._duel_actions(step, seat)
        elif kind == "move" and seat == state["control"]:
            out.append({"type": "stay"})
            piece = step["piece"]
            for entry in moves.menu(state, piece)[1:]:
                for r in entry["routes"]:
                    out.append({"type": "move", "piece": piece, "to": entry["to"], "via": list(r["via"]),
                                "offroad": r["offroad"]})
        elif kind == "anthem" and "hail" not in step["parts"][seat]:
            reader = flow.anthem_reader(state)
            own = "lyrics" if seat == reader else "noise"
            out += [{"type": "anthem", "part": p} for p in (own, "hail") if p not in step["parts"][seat]]
        return out

    def _duel_actions(self, step: dict[str, Any], seat: int) -> list[Action]:
        stage = step["stage"]
        if stage == "insult":
            out: list[Action] = []
            if seat in step["seats"] and step["insults"][step["seats"].index(seat)] is None:
                out.append({"type": "insult", "text": ""})
            if seat == step["third"]:
                out += [{"type": "applaud", "who": s} for s in duel.applaudable(step)]
            return out
        if stage == "count":
            return [{"type": "count"}] if seat == step["third"] else []
        if seat in step["seats"] and step["snaps"][step["seats"].index(seat)] is None:
            return [{"type": "snap"}]
        return []

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
        kind = action["type"]
        timed_out = bool(action.get("timeout"))
        events: list[Event] = []
        if seat is None:
            self._system(state, action, now_ms, events)
        elif kind == "hat":
            self._hat_keep(state, seat, action, events)
        elif kind == "pay":
            self._pay(state, seat, action, now_ms, events, timed_out)
        else:
            at = phase(state).name
            handler = self.HANDLERS.get(at)
            rule = OUT_OF_STEP.get(kind)
            if rule is not None and at not in rule[1]:
                raise IllegalAction(f"You cannot {rule[2]} now.", rule=rule[0])
            if handler is None:
                raise IllegalAction(self._not_now(state), rule="24")
            step = state["step"]
            late = (not timed_out and step.get("deadline") is not None and now_ms > step["deadline"]
                    and not (step["kind"] == "catch" and not step["open"]))
            if late:
                events.append(Event("too_late", {"seat": seat, "prompt": step["kind"]}))
            handler(self, state, seat, action, now_ms, events, timed_out or late)
            if not (timed_out or late):
                self._clicked(state, seat)
        if state["step"]["kind"] in ("tally", "end"):
            flow.gates(state, now_ms, events)
        return events

    def _not_now(self, state: State) -> str:
        return "That is not something you can do now."

    def _clicked(self, state: State, seat: int) -> None:
        afk.tally(state["seats"][seat], "afk_misses", missed=False)

    def _missed(self, state: State, seat: int, events: list[Event]) -> None:
        """A decision prompt ran out (spec §4 AFK): 3 in a row shrink the limits, 5 forfeit."""
        p = state["seats"][seat]
        misses = afk.tally(p, "afk_misses", missed=True)
        events.append(Event("missed", {"seat": seat, "misses": misses}))
        if misses >= AFK_FORFEIT:
            state["afk_out"] = seat
            events.append(Event("afk_forfeit", {"seat": seat}))

    # ----- the game's own actions ----------------------------------------------------
    def _system(self, state: State, action: Action, now_ms: int, events: list[Event]) -> None:
        kind = action["type"]
        if kind == "resume":
            self._resume(state, now_ms, events)
            return
        if not action.get("timeout"):
            raise IllegalAction("Only the game does that.")
        step = state["step"]
        sk = phase(state).name
        if kind == "fire" and sk == "gun":
            flow.fire(state, None, now_ms, events)
        elif kind == "catch_open" and sk == "catch" and not step["open"]:
            flow.catch_opens(state, now_ms)
            events.append(Event("catch_open", {"seat": step["receiver"], "ball": step["ball"]}))
        elif kind == "expire" and sk == "game":
            state["cancelled"] = True
            events.append(Event("cancelled", {"missing": [s for s in range(3) if not step["pressed"][s]]}))
        elif kind == "expire" and sk == "hat":
            flow.resolve_hat(state, now_ms, events)
        elif kind == "expire" and sk == "catch" and step["open"]:
            flow.resolve_catch(state, step["purpose"], step["thrower"], step["receiver"], False, now_ms, events)
        elif kind == "expire" and sk == "anthem":
            flow.anthem_done(state, now_ms, events, auto=True)
        elif kind == "expire" and sk == "duel" and step["stage"] == "insult":
            duel.to_count(state, now_ms, events)
        elif kind == "expire" and sk == "duel" and step["stage"] == "snap":
            self._duel_judged(state, now_ms, events)
        else:
            raise IllegalAction("Nothing is timed out now.")

    def _resume(self, state: State, now_ms: int, events: list[Event]) -> None:
        """After a restart (spec §4): deadlines that passed move to now + 30 s, reflex waits
        restart from now, and every wait gets a new key so the runtime re-derives its timeout."""
        step = state["step"]
        timers = [step, *(q[0] for q in state["penalties"] if q)]
        for timer in timers:
            timer["wid"] = new_wid(state)
            if timer.get("deadline") is not None and timer["deadline"] < now_ms:
                timer["deadline"] = now_ms + RESUME_GRACE_MS
            timer["opened_at"] = now_ms
        kind = step["kind"]
        if kind == "catch":
            flow.open_catch(state, step["purpose"], step["thrower"], step["receiver"], step["ball"], now_ms)
        elif kind == "hat":
            open_timer(state, step, now_ms, "hat")
        elif kind == "duel" and step["stage"] == "snap":
            duel.to_count(state, now_ms, events)
        events.append(Event("resumed", {"at": now_ms}))

    # ----- players' actions, by prompt -----------------------------------------------
    def _hat_keep(self, state: State, seat: int, action: Action, events: list[Event]) -> None:
        keep = action.get("keep")
        if not isinstance(keep, bool):
            raise IllegalAction("Say hat keep or hat off.", rule="9")
        state["seats"][seat]["hat_keep"] = keep
        events.append(Event("hat_keep", {"seat": seat, "keep": keep}))

    def _pay(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event],
             timed_out: bool) -> None:
        queue = state["penalties"][seat]
        late = bool(queue) and not timed_out and queue[0]["deadline"] is not None and now_ms > queue[0]["deadline"]
        if late:
            events.append(Event("too_late", {"seat": seat, "prompt": "penalty"}))
        penalties.pay(state, seat, action.get("how"), now_ms, events, timed_out=timed_out or late)
        if timed_out or late:
            self._missed(state, seat, events)
        else:
            self._clicked(state, seat)

    def _game(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
        expect(action, "game", "Press GAME! now.")
        step = state["step"]
        if step["pressed"][seat]:
            raise IllegalAction("You already pressed GAME!.", rule="1")
        step["pressed"][seat] = True
        events.append(Event("game", {"seat": seat}))
        if all(step["pressed"]):
            flow.set_step(state, "gun", now_ms, "gun")

    def _gun(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
        expect(action, "fire", "Fire the starting gun now.")
        if seat == state["start"]:
            raise IllegalAction("The Start never fires the starting gun.", rule="1")
        flow.fire(state, None if auto else seat, now_ms, events)

    def _stamp(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
        expect(action, "stamp", "Stamp the score sheet now.")
        step = state["step"]
        which = step["which"]
        sheet = state["seats"][seat]["stamps"][-1]
        if sheet[which] is not None:
            raise IllegalAction("You have already stamped.", rule="25")
        sheet[which] = "bot" if auto else "self"
        events.append(Event("stamp", {"seat": seat, "which": which, "by_bot": auto}))
        if auto:
            self._missed(state, seat, events)
        if all(p["stamps"][-1][which] is not None for p in state["seats"]) and state["afk_out"] is None:
            flow.stamps_done(state, now_ms, events)

    def _attack(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
        expect(action, "attack", "Call the attacked piece now.")
        kind = state["step"]["kind"]
        chooser = state["start"] if kind == "first_attack" else state["control"]
        if seat != chooser:
            raise IllegalAction("{who} calls the attack.", rule="20" if kind == "attack" else "2",
                                seats={"who": chooser})
        piece = ("BK" if kind == "first_attack" else state["attacked"]) if auto else action.get("piece")
        if piece not in PIECES:
            raise IllegalAction("Name one of the pieces: BK, WR, BN, WN, WB.", rule="20")
        if auto:
            self._missed(state, seat, events)
            if state["afk_out"] is not None:
                return
        flow.attack_call(state, seat, piece, now_ms, events)

    def _thrust(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
        expect(action, "thrust", "Call Thrust now.")
        if seat != state["start"]:
            raise IllegalAction("Only the Start, {start}, calls Thrust.", rule="5", seats={"start": state["start"]})
        if auto:
            self._missed(state, seat, events)
            if state["afk_out"] is not None:
                return
        flow.thrust(state, None if auto else seat, now_ms, events)

    def _hat(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], late: bool) -> None:
        expect(action, "don", "Don your hat now.")
        if late:
            flow.resolve_hat(state, now_ms, events)
            return
        if flow.hat_press(state, seat, now_ms, events):
            flow.resolve_hat(state, now_ms, events)

    def _golf(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], late: bool) -> None:
        kind = action["type"]
        if kind not in ("quickswitch", "hose", "done"):
            raise IllegalAction("The golf window is open: quick-switch, hose or done.", rule="10")
        flow.check_golf_holder(state, seat, "10")
        if late or kind == "done":
            events.append(Event("golf_closed", {"seat": seat, "timeout": late}))
            flow.open_tally(state, now_ms, events)
        elif kind == "quickswitch":
            flow.quick_switch(state, seat, now_ms, events)
        else:
            flow.hose(state, seat, action.get("target"), now_ms, events)

    def _catch(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], late: bool) -> None:
        expect(action, "catch", "Catch now.")
        step = state["step"]
        if seat != step["receiver"]:
            raise IllegalAction("The ball is not coming to you.", rule="15" if step["purpose"] == "pinkie" else "11")
        if not step["open"]:
            raise IllegalAction("The ball is still in the air.", rule="11")
        flow.resolve_catch(state, step["purpose"], step["thrower"], seat, not late, now_ms, events)

    def _handout(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event],
                 auto: bool) -> None:
        expect(action, "handout", "Hand out both golf balls now.")
        if auto and seat == state["step"]["holder"]:
            self._missed(state, seat, events)
            if state["afk_out"] is not None:
                return
        flow.handout(state, seat, action.get("yellow"), now_ms, events, timed_out=auto)

    def _duel(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], late: bool) -> None:
        step = state["step"]
        kind, stage = action["type"], step["stage"]
        if kind == "applaud":
            duel.applaud(state, seat, action.get("who"), events)
        elif kind == "insult":
            if (late and stage == "insult") or duel.insult(state, seat, action.get("text"), now_ms, events):
                duel.to_count(state, now_ms, events)
        elif kind == "count":
            if stage != "count" or seat != step["third"]:
                raise IllegalAction("Only {third} counts, once the insults are over.", rule="duel",
                                    seats={"third": step["third"]})
            duel.count(state, now_ms, events, by_bot=bool(action.get("timeout")))
        elif kind == "snap":
            if (late and stage == "snap") or duel.snap(state, seat, now_ms, events):
                self._duel_judged(state, now_ms, events)
        else:
            raise IllegalAction("A yo-yo duel is on: insult, applaud, count or snap back.", rule="duel")

    def _duel_judged(self, state: State, now_ms: int, events: list[Event]) -> None:
        step = state["step"]
        winner, loser = duel.judge(state, events)
        flow.after_duel(state, step["purpose"], step["ctx"], winner, loser, now_ms=now_ms, events=events)

    def _move(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], auto: bool) -> None:
        kind = action["type"]
        if kind not in ("move", "stay"):
            raise IllegalAction("Move the attacked piece or stay.", rule="17")
        if seat != state["control"]:
            raise IllegalAction("{who} has control and moves.", rule="15", seats={"who": state["control"]})
        piece = state["step"]["piece"]
        if auto or kind == "stay":
            if auto:
                self._missed(state, seat, events)
                if state["afk_out"] is not None:
                    return
            flow.stayed(state, seat, now_ms, events, timed_out=auto)
            return
        if action.get("piece", piece) != piece:
            raise IllegalAction("The attacked piece is {piece}.".replace("{piece}", piece), rule="20")
        route = moves.chosen_route(state, piece, action.get("to"), action.get("via"), bool(action.get("offroad")))
        flow.moved(state, seat, piece, route, now_ms, events)

    def _anthem(self, state: State, seat: int, action: Action, now_ms: int, events: list[Event], late: bool) -> None:
        expect(action, "anthem", "The anthem is on: noise, lyrics, hat or hail.")
        if late:
            flow.anthem_done(state, now_ms, events, auto=True)
        elif flow.anthem_part(state, seat, action.get("part"), events):
            flow.anthem_done(state, now_ms, events, auto=False)

    #: Each prompt (the step's kind) and the handler of the actions it takes: this game dispatches
    #: by prompt, since one prompt takes several kinds (the golf window: quick-switch, hose,
    #: done) and one kind is read by several prompts (`OUT_OF_STEP` refuses it elsewhere).
    HANDLERS: ClassVar[dict[PromptKind, Handler]] = {
        "game": _game, "gun": _gun, "stamp": _stamp, "first_attack": _attack, "attack": _attack,
        "thrust": _thrust, "hat": _hat, "golf": _golf, "catch": _catch, "handout": _handout, "duel": _duel,
        "move": _move, "anthem": _anthem,
    }

    # ----- views, secrets, the end ---------------------------------------------------
    def view(self, state: State, seat: int | None) -> PublicView:
        return {**public_view(state), "seat": seat}

    def secrets(self, state: State) -> list[Secret]:
        out = [Secret(None, ("decks", s, i), "card") for s in range(3) for i in range(len(state["decks"][s]))]
        step = state["step"]
        if step["kind"] == "catch" and not step["open"]:
            out.append(Secret(None, ("step", "opens_at"), "opens_at"))
        if step["kind"] == "duel" and step["S"] is not None:
            out.append(Secret(None, ("step", "S"), "S"))
        return out

    def result(self, state: State) -> Outcome | None:
        if state["cancelled"]:
            return Outcome(ranks=(0, 0, 0), reason="cancelled", abandoned=True,
                           detail={"missing": [s for s in range(3) if not state["step"]["pressed"][s]]})
        if state["afk_out"] is not None:
            return self._left(state, state["afk_out"], "afk")
        if not state["over"]:
            return None
        winner = state["winner"]
        others = ranked(state, [s for s in range(3) if s != winner])
        ranks = [0, 0, 0]
        for s, r in others.items():
            ranks[s] = r + 1
        return Outcome(ranks=tuple(ranks), scores=bumpers(state), reason="bumpers",
                       detail={"winner": winner, "champion": winner, **stats(state)})

    def forfeit_outcome(self, state: State, leaver: int) -> Outcome:
        return self._left(state, leaver, "forfeit")

    def _left(self, state: State, leaver: int, reason: str) -> Outcome:
        """§5: the leaver is 3rd; the other two by bumpers, then score sum; equal share rank 1."""
        others = ranked(state, [s for s in range(3) if s != leaver])
        ranks = [2, 2, 2]
        for s, r in others.items():
            ranks[s] = r
        top = [s for s, r in others.items() if r == 0]
        champion = top[0] if len(top) == 1 else state["champion"]
        return Outcome(ranks=tuple(ranks), scores=bumpers(state), reason=reason,
                       detail={"seat": leaver, "champion": champion, **stats(state)})


def expect(action: Action, kind: str, message: str) -> None:
    if action["type"] != kind:
        raise IllegalAction(message, rule="24")


def score_sum(state: State, seat: int) -> int:
    p = state["seats"][seat]
    unfinished = p["score"] if len(p["bumper_scores"]) < state["bumper_no"] else 0
    return int(sum(p["bumper_scores"]) + unfinished)


def ranked(state: State, seats: list[int]) -> dict[int, int]:
    """Competition ranks (0-based) by bumpers won, then the sum of bumper scores; equal share."""
    key = {s: (state["seats"][s]["bumpers_won"], score_sum(state, s)) for s in seats}
    return {s: sum(1 for o in seats if key[o] > key[s]) for s in seats}


def bumpers(state: State) -> tuple[float, ...]:
    return tuple(float(p["bumpers_won"]) for p in state["seats"])


def stats(state: State) -> dict[str, Any]:
    keys = ("bumpers_won", "themes", "builds", "choc_eaten", "miscues", "butt_kicks", "hats", "applause")
    return {"score_sums": [score_sum(state, s) for s in range(3)],
            "players": [{k: p[k] for k in keys} for p in state["seats"]]}
