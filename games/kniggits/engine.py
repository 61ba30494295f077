"""Kniggits as a pure engine: options, setup, waits and timers (§4), the action dispatcher,
legal actions for the panels and random play, views, secrets and the outcome (§5).

The rules live in the modules it routes to: `prelude` (map, armies, deployment,
rock-paper-scissors), `moves` (K5-K8, K15, V6, V7 pick-ups), `turns` (K4, K9-K11, K17),
`exchange` (K12-K16, V1-V5) and `views` (what each seat sees).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Literal, overload

from games import choices
from games.core import Action, Engine, Event, IllegalAction, Option, Outcome, Rng, Secret, State, Wait
from games.kniggits import army as armies
from games.kniggits import board, exchange, moves, prelude, turns, views
from games.kniggits.board import ARMIES
from games.kniggits.schema import Kind, PublicView, SeatView
from games.kniggits.schema import Phase as PhaseName
from games.phase import Phase

ASYNC_FACTOR = 120
#: §4 live limits in seconds.
LIMITS = {"map": 180.0, "build": 600.0, "deploy": 300.0, "rps": 30.0, "move": 360.0, "facing": 90.0,
          "turning": 90.0, "fight": 60.0, "gesture": 45.0}
IDLE_TURNS = turns.IDLE_TURNS


def phase(state: State) -> Phase[PhaseName, Literal["exchange"] | None]:
    """Where the game is (the one place the engine reads it): the stored phase ("over" once the
    game is), with the step "exchange" while a gesture exchange is open (K12-K16)."""
    if state["over"] is not None:
        return Phase("over", None)
    return Phase(state["phase"], "exchange" if state["exchange"] is not None else None)


class KniggitsEngine(Engine[PublicView, SeatView]):
    name = "kniggits"
    title = "Kniggits"
    min_players = 2
    max_players = 4
    lobby_teams = ("A", "B")
    team_noun = "Army"
    team_sizes = (1, 2)
    summary = ("Rock-paper-scissors meets sword and shield: buy an army of toy knights, move them "
               "on a battlefield, and duel with secret sword and shield gestures.")
    options = (
        Option("size", "battlefield width and height in inches", 36, (24, 36, 48)),
        Option("preset", "obstacles: open, woods or ruins", "woods", ("open", "woods", "ruins")),
        Option("budget", "points per army (20-200)", 50),
        Option("rounds", "turn limit in rounds (1-200); then strength decides", 30),
        Option("horses", "V1: 5+ Movement rides a horse", False),
        Option("magic_swords", "V2: 5+ Attack attacks twice", False),
        Option("double_defence", "V3: 5+ Defense may guard two heights", False),
        Option("two_swords", "V4: no Defense and 5+ Attack fights with two swords", False),
        Option("archers", "V5: archers shoot at range", False),
        Option("potions", "V6: magic potions on the field", 0, (0, 2, 4, 6)),
        Option("scenario", "annihilation or capture the flag (V7)", "annihilation", ("annihilation", "flag")),
        Option("timers", "live (minutes) or async (days)", "live", ("live", "async")),
    )
    secret_pools: ClassVar[Mapping[str, Sequence[Any]]] = {
        "army": ([{"name": "", "M": 1, "A": 1, "D": 1, "kind": "normal"}],
                 [{"name": "", "M": 3, "A": 2, "D": 2, "kind": "normal"}] * 2),
        "cell": ([1, 1], [2, 2]),
        "placements": ({}, {"A1": [1, 1]}),
        "rps": ("rock", "paper", "scissors", "miss"),
        "gesture": ({"sword": "high"}, {"shield": "low"}, {}),
        "plan": ({"id": "A1", "path": [[1, 1], [1, 2]], "cost": "1"},),
        "kid": ("A1", "B1"),
    }

    # ----- setup ---------------------------------------------------------------------
    def setup(self, players: int, rng_state: dict[str, int], options: dict[str, Any]) -> State:
        if not 20 <= options["budget"] <= 200:
            raise IllegalAction("The budget is 20 to 200 points per army.", rule="K2")
        if not 1 <= options["rounds"] <= 200:
            raise IllegalAction("The turn limit is 1 to 200 rounds.", rule="K17")
        sizes = options.get("team_sizes") or [(players + 1) // 2, players // 2]
        if len(sizes) != 2 or sum(sizes) != players or min(sizes) < 1 or max(sizes) > 2:
            raise IllegalAction("Each army needs one or two players.", rule="K1")
        state: State = {
            "rng": rng_state, "players": players, "options": dict(options),
            "armies": [list(range(sizes[0])), list(range(sizes[0], players))],
            "width": options["size"], "height": options["size"], "phase": "map",
            "rolls": 0, "accepted": [False, False], "build": None, "build_round": None, "revealed": None,
            "deploy": None, "deploy_round": None, "rps": None, "kniggits": [], "turn": None,
            "plans": [None] * players, "cursor": [None] * players, "exchange": None, "exchange_no": 0,
            "last_move": None, "last_exchange": None, "idle": [0, 0], "over": None,
            "left_handed": [False] * players,
        }
        state["map"] = prelude.generate_map(state)
        return state

    def teams(self, state: State) -> tuple[tuple[int, ...], ...] | None:
        return (tuple(state["armies"][0]), tuple(state["armies"][1]))

    def option_warnings(self, options: dict[str, Any]) -> list[str]:
        out = []
        if options["size"] == 24:
            out.append("24 inches is below the rules' 3-foot minimum: a quick game.")
        if not 20 <= options["budget"] <= 200:
            out.append("The budget must be 20 to 200 points.")
        return out

    def limit(self, state: State, key: str) -> float:
        return LIMITS[key] * (ASYNC_FACTOR if state["options"]["timers"] == "async" else 1)

    # ----- who is awaited ------------------------------------------------------------
    def waits(self, state: State) -> list[Wait]:
        at = phase(state)
        if at.name == "over":
            return []
        timeout = {"timeout": True}
        if at.name == "map":
            return [Wait(prelude.captain(state, a), f"map-{state['rolls']}", "accept the map or re-roll it",
                         self.limit(state, "map"), {"type": "accept", **timeout}, independent=True)
                    for a in (0, 1) if not state["accepted"][a]]
        if at.name == "build":
            return choices.waits(state["build"]["box"], "build your army in secret", self.limit(state, "build"),
                                 lambda s: {"type": "lock", **timeout})
        if at.name == "deploy":
            return choices.waits(state["deploy"]["box"], "deploy your kniggits in secret",
                                 self.limit(state, "deploy"), lambda s: {"type": "lock", **timeout})
        if at.name == "rps":
            return choices.waits(state["rps"]["box"], "throw rock, paper or scissors", self.limit(state, "rps"),
                                 lambda s: {"type": "throw", **timeout})
        turn = state["turn"]
        tag = f"{turn['round']}-{ARMIES[turn['army']]}"
        if at.step == "exchange":
            ex = state["exchange"]
            return choices.waits(ex["box"], f"pick a gesture: {ex['attacker']} against {ex['target']}",
                                 self.limit(state, "gesture"), lambda s: {"type": "lock", **timeout})
        # Teammates move and face their own kniggits (K1): one's move leaves the other's
        # panel standing (a confirm re-checks the path against the board as it is then).
        teammates = len(state["armies"][turn["army"]]) > 1
        if at.name == "move":
            return [Wait(s, f"move-{tag}", "move your kniggits, then Done", self.limit(state, "move"),
                         {"type": "done", **timeout}, independent=teammates)
                    for s in state["armies"][turn["army"]] if s not in turn["done"]]
        if at.name == "facing":
            return [Wait(s, f"facing-{tag}", "choose which enemy each kniggit faces", self.limit(state, "facing"),
                         {"type": "done", **timeout}, independent=teammates) for s in turns.facing_seats(state)]
        if at.name == "turning":
            return [Wait(s, f"turning-{tag}", "turn your engaged kniggits to face attackers",
                         self.limit(state, "turning"), {"type": "done", **timeout}, independent=True)
                    for s in turns.turning_seats(state)]
        if at.name == "fight":
            return [Wait(s, f"fight-{tag}-{turn['exchanges']}", "attack, or end your turn",
                         self.limit(state, "fight"), {"type": "end_turn", **timeout})
                    for s in turns.fight_seats(state)]
        return []

    # ----- what may be done ----------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """A finite, sensible list for random play and the panels (concede is always legal
        too but is left out, so random games are fought)."""
        if self.outcome(state) is not None or seat not in {w.seat for w in self.to_act(state)}:
            return self._claim(state, seat)
        at = phase(state)
        out: list[Action] = self._claim(state, seat)
        if at.name == "map":
            out.append({"type": "accept"})
            if state["rolls"] == 0:  # one re-roll is enough for random play (each costs a new map)
                out.append({"type": "reroll"})
        elif at.name == "build":
            share = prelude.share(state, seat)
            out += [{"type": "army", "kniggits": p} for p in armies.presets(share, state["options"], varied=False)]
            if state["build"]["drafts"][seat]:
                out.append({"type": "lock"})
        elif at.name == "deploy":
            out += [{"type": "deploy", "preset": "back"}, {"type": "deploy", "preset": "front"}, {"type": "lock"}]
        elif at.name == "rps":
            out += [{"type": "throw", "shape": s} for s in prelude.SHAPES]
        elif at.step == "exchange":
            out += self._gestures(state, seat)
        elif at.name == "move":
            out += self._moves(state, seat)
        elif at.name == "facing":
            for kid, enemies in sorted(state["turn"]["facing"].items()):
                k = board.by_id(state, kid)
                if k is not None and k["owner"] == seat:
                    out += [{"type": "face", "id": kid, "target": e} for e in enemies]
            out.append({"type": "done"})
        elif at.name == "turning":
            out.append({"type": "done"})  # K10's defaults turn sensibly; `face` stays legal
        elif at.name == "fight":
            attacks = [dict(o["action"]) for o in exchange.attack_options(state, seat)]
            out += attacks or [{"type": "end_turn"}]  # random battles fight while they can
        return out

    def _claim(self, state: State, seat: int) -> list[Action]:
        return [{"type": "claim_forfeit"}] if self._claimable(state) == 1 - turns.army_of(state, seat) else []

    def _claimable(self, state: State) -> int | None:
        if state["over"] is not None:
            return None
        for army in (0, 1):
            if state["idle"][army] >= IDLE_TURNS:
                return army
        return None

    def _moves(self, state: State, seat: int) -> list[Action]:
        # Random play charges the nearest enemy with each kniggit that can fight and holds
        # the rest; Done only once none is left to charge. Undo, the other cells and Done
        # are legal all along but only make random games longer.
        free = moves.unheld(state, seat)
        if not any(moves.wants_to_move(state, k) for k in free):
            return [{"type": "done"}]
        k = moves.cursor(state, seat)
        return [moves.sample_move(state, k)] if k is not None else [{"type": "done"}]

    def _gestures(self, state: State, seat: int) -> list[Action]:
        ex = state["exchange"]
        side = next((s for s in ex["sides"] if s["seat"] == seat), None)
        if side is None or choices.has_chosen(ex["box"], seat):
            return []
        out: list[Action] = []
        shields = list(exchange.HEIGHTS) if side["shield"] else [None]
        # Random play strikes where a token is left to take (any height is legal: a pool at 0
        # just loses nothing), so random battles are decided instead of running to the limit.
        foe = board.by_id(state, ex["target"] if side["id"] == ex["attacker"] else ex["attacker"])
        heights = [h for h in side["heights"] if foe is None or foe[exchange.POOL[h]] > 0] or side["heights"]
        if side["swords"] == 2:
            swords = [{"swords": [a, b]} for a in heights for b in heights]
        elif side["swords"] == 1:
            swords = [{"sword": h} for h in heights]
        else:
            swords = [{}]
        for sword in swords:
            for shield in shields:
                pick = {"type": "gesture", **sword, "lock": True}
                if shield is not None:
                    pick["shield"] = shield
                out.append(pick)
        if side["double"]:
            out += [{"type": "gesture", "double": True, "sword": a, "shield": b, "lock": True}
                    for a in exchange.HEIGHTS for b in exchange.HEIGHTS if a != b]
        return out

    # ----- doing it ------------------------------------------------------------------
    def play(self, state: State, seat: int, action: Action, now: float) -> list[Event]:
        kind = action["type"]
        if state["over"] is not None:
            raise IllegalAction("This game is already over.")
        if not isinstance(seat, int) or not 0 <= seat < state["players"]:
            raise IllegalAction("You are not at this table.")
        timed_out = bool(action.get("timeout"))
        if kind == "handed":
            return _handed(state, seat, action)
        if kind == "concede":
            army = turns.army_of(state, seat)
            return [Event("concede", {"seat": seat, "army": ARMIES[army]}),
                    *turns.finish(state, 1 - army, "concede", seat=seat)]
        if kind == "claim_forfeit":
            idle = self._claimable(state)
            if idle is None or idle == turns.army_of(state, seat):
                raise IllegalAction("A forfeit can be claimed only after the other army sat out "
                                    f"{IDLE_TURNS} of its own turns in a row.", rule="K17")
            return turns.finish(state, 1 - idle, "forfeit_claim", seat=seat, idle=ARMIES[idle])
        if (state["turn"] is not None and not timed_out
                and turns.army_of(state, seat) == state["turn"]["army"]):
            state["turn"]["acted"] = True
        at = phase(state)
        handler = self._handlers(at.name, at.step == "exchange").get(kind)
        if handler is None:
            raise IllegalAction(self._wrong_phase(state, kind), rule="K4")
        return handler(self, state, seat, action)

    @staticmethod
    def _wrong_phase(state: State, kind: str) -> str:
        names = {"map": "accepting the map", "build": "army building", "deploy": "deployment",
                 "rps": "rock-paper-scissors", "move": "the move phase", "facing": "setting facings",
                 "turning": "the turning phase", "fight": "the fight phase"}
        at = phase(state)
        during = "an exchange" if at.step == "exchange" else names.get(at.name, at.name)
        return f"`{kind}` is not something you can do during {during}."

    def _handlers(self, name: PhaseName, in_exchange: bool) -> dict[Kind, Handler]:
        if in_exchange:
            return {"gesture": _gesture, "lock": _lock_gesture}
        return HANDLERS.get(name, {})

    # ----- the end -------------------------------------------------------------------
    def result(self, state: State) -> Outcome | None:
        over = state["over"]
        if over is None:
            return None
        teams = self.teams(state)
        winner = over["winner"]
        ranks = tuple(0 if winner is None or turns.army_of(state, s) == winner else 1 for s in range(state["players"]))
        strength = over["strength"]
        scores = tuple(float(strength[turns.army_of(state, s)]) for s in range(state["players"]))
        detail = {k: v for k, v in over.items() if k not in ("winner", "strength")}
        detail.update({"winner": ARMIES[winner] if winner is not None else None,
                       "strength": {"A": strength[0], "B": strength[1]},
                       "rounds": state["turn"]["round"] if state["turn"] else 0,
                       "routed": {ARMIES[a]: sum(1 for k in state["kniggits"] if k["army"] == a
                                                 and k["status"] != "active") for a in (0, 1)}})
        return Outcome(ranks=ranks, scores=scores, teams=teams, reason=over["reason"], detail=detail)

    # ----- what each seat sees -------------------------------------------------------
    @overload
    def view(self, state: State, seat: None) -> PublicView: ...
    @overload
    def view(self, state: State, seat: int) -> SeatView: ...
    def view(self, state: State, seat: int | None) -> PublicView | SeatView:
        """The table (`None`), or a seat's: the table's view and its own items (`me`)."""
        awaited = sorted({w.seat for w in self.to_act(state) if w.seat is not None})
        out = views.public_view(state, awaited, self._claimable(state))
        if seat is not None and 0 <= seat < state["players"]:
            seen: SeatView = {**out, "me": views.seat_items(state, seat, self._claim(state, seat) != [])}
            return seen
        return out

    def choices(self, state: State) -> list[dict[str, Any]]:
        boxes = []
        for holder in (state.get("build"), state.get("deploy"), state.get("exchange")):
            if holder is not None and holder.get("box") is not None:
                boxes.append(holder["box"])
        if state.get("rps") is not None and state["rps"]["box"] is not None:
            boxes.append(state["rps"]["box"])
        return boxes

    def secrets(self, state: State) -> list[Secret]:
        out: list[Secret] = []
        if state["build"] is not None:
            out += choices.secrets(state["build"]["box"], ("build", "box"), "army")
            for s, draft in enumerate(state["build"]["drafts"]):
                if draft is not None:
                    out += shared_secret(state, s, ("build", "drafts", s), "army")
        if state["deploy"] is not None:
            out += choices.secrets(state["deploy"]["box"], ("deploy", "box"), "placements")
            for a in (0, 1):
                for kid in state["deploy"]["drafts"][a]:
                    owner = next(p["owner"] for p in state["revealed"][a] if p["id"] == kid)
                    out += shared_secret(state, owner, ("deploy", "drafts", a, kid), "cell")
        if state["rps"] is not None and state["rps"]["box"] is not None:
            out += choices.secrets(state["rps"]["box"], ("rps", "box"), "rps")
        if state["exchange"] is not None:
            ex = state["exchange"]
            out += choices.secrets(ex["box"], ("exchange", "box"), "gesture")
            out += [Secret(s, ("exchange", "drafts", s), "gesture")
                    for s, d in enumerate(ex["drafts"]) if d is not None and not choices.has_chosen(ex["box"], s)]
        out += [Secret(s, ("plans", s), "plan") for s, p in enumerate(state["plans"]) if p is not None]
        out += [Secret(s, ("cursor", s), "kid") for s, c in enumerate(state["cursor"]) if c is not None]
        return out


def shared_secret(state: State, owner: int, path: tuple[str | int, ...], pool: str) -> list[Secret]:
    """An army-shared draft (K2: teammates see each other's drafts): hidden from the enemy
    and the table, shared with the owner's teammate."""
    team = tuple(s for s in state["armies"][turns.army_of(state, owner)] if s != owner)
    return [Secret(owner, path, pool, shared=team)]


# ----- handlers ---------------------------------------------------------------------------
#: A handler of one action kind: the engine, the state (changed in place), the seat, the action.
Handler = Callable[["KniggitsEngine", State, int, Action], list[Event]]


def _handed(state: State, seat: int, action: Action) -> list[Event]:
    """§4 left-handedness: any seat, any phase; it mirrors the art and relabels panels only,
    so it is no turn's action (the forfeit count ignores it) and never listed for random play."""
    left = action.get("left", True)
    if not isinstance(left, bool):
        raise IllegalAction("Say `left: true` or `left: false`.", rule="K1")
    hands = state.get("left_handed") or [False] * state["players"]
    hands[seat] = left
    state["left_handed"] = hands
    return [Event("handed", {"seat": seat, "left": left})]


def _rng(state: State) -> Rng:
    return Rng(state)


def _gesture(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    return turns.gesture(state, seat, action, _rng(state))


def _lock_gesture(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    exchange.side_of(state["exchange"], seat)
    return turns.lock_gesture(state, seat, _rng(state), timed_out=bool(action.get("timeout")))


def _move_seat(state: State, seat: int) -> None:
    turn = state["turn"]
    if turns.army_of(state, seat) != turn["army"]:
        raise IllegalAction("It is the other army's turn to move.", rule="K4")
    if seat in turn["done"]:
        raise IllegalAction("You are done moving this turn.", rule="K4")


def _select(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    _move_seat(state, seat)
    k = moves.own_mover(state, seat, action.get("id"))
    state["cursor"][seat] = k["id"]
    if k["id"] in state["turn"]["held"]:
        state["turn"]["held"].remove(k["id"])
    return []


def _plan(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    _move_seat(state, seat)
    plan = moves.make_plan(state, seat, action)
    state["plans"][seat] = plan
    state["cursor"][seat] = plan["id"]
    return []


def _hand(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    _move_seat(state, seat)
    plan = state["plans"][seat]
    if plan is None or plan["flag_action"] != "take":
        raise IllegalAction("Choose a hand when the previewed move takes a flag.", rule="V7")
    if action.get("hand") not in ("sword", "shield"):
        raise IllegalAction("A flag is held in the sword hand or the shield hand.", rule="V7")
    plan["hand"] = action["hand"]
    return []


def _confirm(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    _move_seat(state, seat)
    events = moves.confirm(state, seat)
    state["cursor"][seat] = None
    return events


def _move(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    """Plan and confirm at once (the slash command): the plan is fresh, so no re-check."""
    _move_seat(state, seat)
    plan = moves.make_plan(state, seat, action)
    state["cursor"][seat] = None
    return moves.apply_move(state, seat, plan)


def _cancel(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    _move_seat(state, seat)
    state["plans"][seat] = None
    return []


def _hold(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    _move_seat(state, seat)
    k = moves.own_mover(state, seat, action.get("id"))
    if k["id"] not in state["turn"]["held"]:
        state["turn"]["held"].append(k["id"])
    if state["cursor"][seat] == k["id"]:
        state["cursor"][seat] = None
    if state["plans"][seat] is not None and state["plans"][seat]["id"] == k["id"]:
        state["plans"][seat] = None
    return [Event("held", {"id": k["id"], "seat": seat, "owner": k["owner"]})]


def _undo(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    _move_seat(state, seat)
    return moves.undo(state, seat)


def _done_move(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    if turns.army_of(state, seat) != state["turn"]["army"]:
        raise IllegalAction("It is the other army's turn to move.", rule="K4")
    return turns.done_moving(state, seat)


def _face(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    return turns.face(state, seat, action)


def _done_facing(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    if seat not in turns.facing_seats(state):
        raise IllegalAction("None of your kniggits has a facing to choose.", rule="K9")
    return turns.done_facing(state, seat)


def _done_turning(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    if seat not in turns.turning_seats(state):
        raise IllegalAction("You have no engaged kniggit to turn now.", rule="K10")
    return turns.done_turning(state, seat)


def _attack(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    return turns.attack(state, seat, action, shot=False)


def _shoot(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    return turns.attack(state, seat, action, shot=True)


def _end_turn(engine: KniggitsEngine, state: State, seat: int, action: Action) -> list[Event]:
    if turns.army_of(state, seat) != state["turn"]["army"]:
        raise IllegalAction("Only the army whose turn it is fights.", rule="K11")
    return turns.end_fighting(state, seat)


#: Each phase's actions (an open exchange has its own, `_handlers`); `tests` check the kinds.
HANDLERS: dict[PhaseName, dict[Kind, Handler]] = {
    "map": {"accept": lambda e, s, seat, a: prelude.accept(s, seat),
            "reroll": lambda e, s, seat, a: prelude.reroll(s, seat)},
    "build": {"army": lambda e, s, seat, a: prelude.draft_army(s, seat, a),
              "lock": lambda e, s, seat, a: prelude.lock_army(s, seat, _rng(s))},
    "deploy": {"deploy": lambda e, s, seat, a: prelude.deploy(s, seat, a),
               "lock": lambda e, s, seat, a: prelude.lock_deploy(s, seat, _rng(s))},
    "rps": {"throw": lambda e, s, seat, a: prelude.throw(s, seat, a, _rng(s))},
    "move": {"select": _select, "plan": _plan, "hand": _hand, "confirm": _confirm, "move": _move,
             "cancel": _cancel, "hold": _hold, "undo": _undo, "done": _done_move, "face": _face},
    "facing": {"face": _face, "done": _done_facing},
    "turning": {"face": _face, "done": _done_turning},
    "fight": {"attack": _attack, "shoot": _shoot, "end_turn": _end_turn, "done": _end_turn},
}
