"""Kniggits as a pure engine: options, setup, waits and timers (§4), legal actions for the
panels and random play, the dispatch, views, secrets and the outcome (§5).

Each job has its room: the opening state and the phase accessor in `state`, the action
kinds' checks (`VERIFY`) in `checks` and their handlers (`HANDLERS`) in `handlers`, the
actions random play considers in `candidates`, what each seat sees in `views`. The rules live
in the modules the checks and handlers route to: `prelude` (map, armies, deployment,
rock-paper-scissors), `moves` (K5-K8, K15, V6, V7 pick-ups), `turns` (K4, K9-K11, K17) and
`exchange` (K12-K16, V1-V5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, overload

from games import choices
from games.core import Action, Engine, Event, IllegalAction, Option, Outcome, Secret, State, Wait
from games.kniggits import checks, prelude, turns, views
from games.kniggits.board import ARMIES
from games.kniggits.candidates import candidates
from games.kniggits.checks import VERIFY as VERIFY  # each kind's check, read here as in every engine
from games.kniggits.handlers import HANDLERS as HANDLERS
from games.kniggits.schema import PublicView, SeatView
from games.kniggits.state import new_state
from games.kniggits.state import phase as phase  # where the game is, as every engine offers it

ASYNC_FACTOR = 120
#: §4 live limits in seconds.
LIMITS = {"map": 180.0, "build": 600.0, "deploy": 300.0, "rps": 30.0, "move": 360.0, "facing": 90.0,
          "turning": 90.0, "fight": 60.0, "gesture": 45.0}
IDLE_TURNS = turns.IDLE_TURNS
#: The kinds no turn is made of: the K17 forfeit count does not see them as the army acting.
NO_TURN = frozenset({"handed", "concede", "claim_forfeit"})


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
        state = new_state(players, rng_state, options)
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
        """The candidates (`candidates`: a finite, sensible list for random play and the
        panels) that the rule checks accept: the same checks `play` runs."""
        awaited = self.outcome(state) is None and seat in {w.seat for w in self.to_act(state)}
        legal = []
        for action in candidates(state, seat, awaited):
            try:
                self.verify(state, seat, action)
            except IllegalAction:
                continue
            legal.append(action)
        return legal

    def verify(self, state: State, seat: int, action: Action) -> None:
        """The rule check of the action's kind (`checks.verify`, by `VERIFY`): what
        `legal_actions` lists and what `play` runs before the handler."""
        checks.verify(state, seat, action)

    # ----- doing it ------------------------------------------------------------------
    def play(self, state: State, seat: int, action: Action, now: float) -> list[Event]:
        self.verify(state, seat, action)
        kind = action["type"]
        if (kind not in NO_TURN and state["turn"] is not None and not action.get("timeout")
                and turns.army_of(state, seat) == state["turn"]["army"]):
            state["turn"]["acted"] = True  # K17: the army is not idle this turn
        return HANDLERS[kind](state, seat, action)

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
        out = views.public_view(state, awaited, turns.claimable(state))
        if seat is not None and 0 <= seat < state["players"]:
            seen: SeatView = {**out, "me": views.seat_items(state, seat, turns.can_claim(state, seat))}
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

