"""What each seat and the table see of a Kniggits game: the view's shape, written down once
so the renderer and the cog read the same keys, and the functions that build it.

The public view (`view(state, None)`) is `PublicView`. A seat's view is the same dict plus
`me` (`SeatItems`): its own and its army's private items (drafts, the pending pick, the
move panel's cursor, destinations and preview, facings to choose, the attack menu, the
gesture panel). Nothing hidden (pending picks, another army's drafts, nonces before the
reveal, the RNG) is in any view but its owner's. The shape only grows: keys are never
renamed or removed.

Coordinates are `[x, y]` lists (1-based; `y = 1` is Army A's home row, drawn at the
bottom). Armies are "A" and "B". Heights are "high" | "mid" | "low". Costs are display
strings ("4.83", "3"): the engine compares them exactly and never in floating point.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

Army = Literal["A", "B"]
Height = Literal["high", "mid", "low"]
Xy = list[int]

#: Phases as the view names them. "map": captains accept the map or re-roll; "build":
#: secret army building; "deploy": secret deployment; "rps": rock-paper-scissors for the
#: first turn; "move": the active army moves (K6-K8); "facing": the active army sets
#: facings (K9); "turning": the other army turns (K10); "fight": the active army picks
#: attacks (K11); "exchange": a gesture exchange is open (K12-K16); "over".
Phase = Literal["map", "build", "deploy", "rps", "move", "facing", "turning", "fight", "exchange", "over"]


class ArmyInfo(TypedDict):
    seats: list[int]  # in seat order; the first is the captain (K1)
    captain: int
    shares: dict[str, int]  # str(seat) -> budget share (K1: even split, remainder to the captain)


class Potion(TypedDict):
    id: str  # "P1", ...
    pos: Xy
    kind: Literal["M", "A", "D"]  # +5 of that colour (V6)


class Flag(TypedDict):
    army: Army  # whose flag
    home: Xy
    pos: Xy | None  # where it lies; None while carried
    carrier: str | None  # kniggit id carrying it
    hand: Literal["sword", "shield"] | None


class Battlefield(TypedDict):
    width: int
    height: int
    zones: dict[str, list[int]]  # "A" -> [lowest row, highest row] of its deployment zone
    obstacles: list[Xy]
    potions: list[Potion]
    flags: list[Flag]


class Kniggit(TypedDict):
    id: str  # "A1"
    army: Army
    owner: int  # seat
    name: str  # the buyer's label for it ("" when none)
    kind: Literal["normal", "archer"]
    two_swords: bool
    pos: Xy
    facing: str | None  # enemy id, meaningful only while engaged
    heading: str  # N, NE, ..., NW (cosmetic)
    M: int
    A: int
    D: int  # Range for archers
    status: Literal["active", "fled", "gone"]
    mounted: bool  # V1
    horse_lost: bool
    magic_sword: bool  # V2 (live)
    double_guard: bool  # V3 able (live)
    moved: bool  # changed cell this turn
    attacks_made: list[str]  # target ids attacked this turn
    guarded_double: bool  # V3 used this turn: no striking back
    carrying: Literal["A", "B"] | None  # the flag it carries (V7)
    hand: Literal["sword", "shield"] | None  # the hand holding it


class Purchase(TypedDict):
    """One line of a revealed army (K2): runaways keep their id but never deploy."""

    id: str
    owner: int
    name: str
    M: int
    A: int
    D: int
    kind: Literal["normal", "archer"]
    two_swords: bool
    valid: bool  # False: it ran away before the battle (2.5)
    reason: str  # why it ran ("" when valid)


class ChoiceRound(TypedDict, total=False):
    """`games.choices.public`: who is in it, who has locked (🔒) and each lock's sha256
    commitment; after the reveal also the picks and nonces."""

    key: str
    seats: list[int]
    chosen: list[int]
    commitments: dict[str, str]
    picks: dict[str, Any]
    nonces: dict[str, str]


class RpsThrow(TypedDict):
    A: str  # "rock" | "paper" | "scissors" | "miss"
    B: str
    winner: Army | None  # None: a draw or both missed (replayed)


class Rps(TypedDict):
    score: dict[str, int]  # "A"/"B" -> throws won
    throws: list[RpsThrow]
    both_missed: int  # both-miss throws in a row (3: the RNG decides)
    open: ChoiceRound | None
    winner: Army | None
    by_lot: bool  # the RNG picked the winner (K3)


class Gestures(TypedDict, total=False):
    sword: Height | None
    swords: list[Height | None]  # two swords (V4)
    shield: Height | None
    double: list[Height]  # V3: the two heights guarded


class ExchangeSide(TypedDict):
    id: str
    seat: int
    sword: bool  # asked for a sword
    swords: int  # how many swords (2 for V4 unless carrying)
    shield: bool  # asked for a shield
    double: bool  # offered the V3 toggle


class OpenExchange(TypedDict):
    number: int  # exchanges so far in the game, this one included
    attacker: str
    target: str
    mode: Literal["mutual", "one_way", "shot"]
    sides: list[ExchangeSide]  # attacker first; a side with nothing to pick is absent
    round: ChoiceRound  # 🔒 per participant and commitments


class Hit(TypedDict):
    id: str  # the kniggit that lost tokens
    pool: Literal["M", "A", "D"]
    lost: int


class ExchangeResult(TypedDict):
    number: int
    attacker: str
    target: str
    mode: Literal["mutual", "one_way", "shot"]
    gestures: dict[str, Gestures]  # kniggit id -> revealed gestures (None: fumbled)
    fumbled: dict[str, list[str]]  # kniggit id -> ["sword", "shield", ...] without a pick (K16)
    timed_out: list[str]  # kniggit ids whose side ran out of time (the rest of `fumbled` locked so)
    hits: list[Hit]
    tokens: dict[str, list[int]]  # kniggit id -> [M, A, D] after
    fled: list[str]
    dismounted: list[str]
    round: ChoiceRound  # revealed: picks, nonces, commitments


class LastMove(TypedDict):
    id: str
    seat: int
    path: list[Xy]  # the start cell first, then every cell entered
    cost: str
    engaged: list[str]
    potions: list[str]
    flag: str | None  # flag taken or sent home on the way


class Turn(TypedDict):
    round: int
    rounds: int  # the turn limit (K17)
    army: Army  # whose turn
    first: Army  # who won rock-paper-scissors
    done: list[int]  # seats done with the current phase
    exchanges: int  # exchanges this turn


class PublicView(TypedDict):
    phase: Phase
    options: dict[str, Any]
    armies: dict[str, ArmyInfo]
    battlefield: Battlefield
    map: dict[str, Any]  # {"rolls": re-rolls so far, "accepted": {"A": bool, "B": bool}}
    build: ChoiceRound | None  # open army building round
    revealed: dict[str, list[Purchase]] | None  # after the reveal
    deploy: ChoiceRound | None  # open deployment round
    rps: Rps | None
    kniggits: list[Kniggit]  # deployed kniggits (empty before the deployment reveal)
    engaged: list[list[str]]  # [[A id, B id], ...]
    turn: Turn | None
    awaited: list[int]  # seats the game waits for
    last_move: LastMove | None
    last_exchange: ExchangeResult | None
    exchange: OpenExchange | None
    idle: dict[str, int]  # own turns in a row with no action of the army (forfeit claim at 3)
    claimable: Army | None  # the army that may claim a forfeit now
    left_handed: list[bool]  # per seat (§4): mirrors the figure art and panel labels only
    result: dict[str, Any] | None  # {"winner": "A"|"B"|None, "reason": ..., "strength": {...}}


class Mover(TypedDict):
    """A kniggit the seat may still move this turn (move panel step 1)."""

    id: str
    M: int
    A: int
    D: int
    pos: Xy
    allowance: int  # K5 / V1, inches
    pinned: bool  # K8: engaged with no legal first step


class Destination(TypedDict):
    """One option of the destination select (move panel step 2), at most 24."""

    tag: str  # "hold" | "engage" | "potion" | "flag" | "advance" | "fall_back" | "near"
    cell: Xy  # the kniggit's own cell for "hold"
    cost: str  # "4.83"; "0" for hold
    enemy: str | None  # the enemy id for "engage" (also "near": the nearest enemy)
    item: str | None  # potion id or flag army for "potion" / "flag"
    path: list[Xy]  # the route `plan` would take, start included (hold: the start alone)


class Plan(TypedDict):
    """The previewed move awaiting Confirm (move panel step 3)."""

    id: str
    path: list[Xy]  # start first
    cost: str
    allowance: int
    engages: list[str]  # new engagements at the end
    potions: list[str]  # potions it would drink
    flag: str | None  # flag it would take ("A"/"B") or send home
    hand: Literal["sword", "shield"] | None  # carrying hand, when a flag is taken


class FacingChoice(TypedDict):
    id: str
    current: str | None
    enemies: list[str]  # engaged active enemies it may face, nearest first
    default: str  # what a timeout picks (K9 nearest; K10 preferences)


class AttackOption(TypedDict):
    attacker: str
    target: str
    mode: Literal["mutual", "one_way", "shot"]
    action: dict[str, Any]  # the action to send: {"type": "attack"|"shoot", "id", "target"}


class GesturePanel(TypedDict):
    """This seat's part in the open exchange."""

    id: str  # its kniggit in the exchange
    role: Literal["attacker", "target"]
    swords: int  # 0, 1 or 2 swords to set
    sword_heights: list[Height]  # legal sword heights (V1 removes "high")
    shield: bool
    double: bool  # the V3 toggle is offered
    draft: Gestures  # current selection (counts at timeout, K16)
    locked: bool


class SightLine(TypedDict):
    """One active enemy as an archer sees it (V5): shootable when clear and in range."""

    id: str
    clear: bool  # no obstacle or other kniggit on the line (2.2)
    in_range: bool  # within 2 inches per Range token


class DeployDraft(TypedDict):
    placements: dict[str, Xy]  # kniggit id -> cell, the army's shared draft
    mine: list[str]  # ids this seat places
    zone: list[int]  # [lowest row, highest row]


class SeatItems(TypedDict, total=False):
    seat: int
    army: Army
    captain: bool
    share: int  # budget share
    draft: list[dict[str, Any]]  # own army list being built
    team_drafts: dict[str, list[dict[str, Any]]]  # str(seat) -> teammate drafts (K2)
    build_cost: int
    locked: bool  # this seat locked the open secret round
    deploy: DeployDraft
    rps_pick: str | None
    movers: list[Mover]
    cursor: str | None  # the selected mover
    destinations: list[Destination]
    plan: Plan | None
    can_undo: bool
    facings: list[FacingChoice]  # K9 (own army) or K10 (turning phase)
    attacks: list[AttackOption]
    gesture: GesturePanel | None
    can_claim: bool  # forfeit claim offered
    reach: list[Xy]  # move phase: every reachable end cell of the selected kniggit (x, then y)
    sight: list[SightLine]  # move phase: the selected kniggit's lines, when it is an archer that may shoot
    sights: dict[str, list[SightLine]]  # every own archer that may shoot now -> its lines (`/kniggits los`)


# ----- building the views ---------------------------------------------------------------
def _army(index: int | None) -> str | None:
    return None if index is None else ("A", "B")[index]


def armies_info(state: dict[str, Any]) -> dict[str, Any]:
    from games.kniggits.army import shares

    out = {}
    for index, name in enumerate(("A", "B")):
        seats = list(state["armies"][index])
        split = shares(state["options"]["budget"], seats)
        out[name] = {"seats": seats, "captain": seats[0], "shares": {str(s): n for s, n in split.items()}}
    return out


def public_view(state: dict[str, Any], awaited: list[int], claimable: int | None) -> dict[str, Any]:
    """The table's view: everything public, no pending pick, draft, nonce or plan."""
    from games import choices
    from games.kniggits import board

    turn = state["turn"]
    phase = state["phase"]
    if state["exchange"] is not None and phase != "over":
        phase = "exchange"
    battlefield = {
        "width": state["width"], "height": state["height"],
        "zones": {a: list(board.zone(state, i)) for i, a in enumerate(("A", "B"))},
        "obstacles": [list(o) for o in state["map"]["obstacles"]],
        "potions": [dict(p, pos=list(p["pos"])) for p in state["map"]["potions"]],
        "flags": [{"army": _army(f["army"]), "home": list(f["home"]),
                   "pos": list(f["pos"]) if f["pos"] is not None else None,
                   "carrier": f["carrier"], "hand": f["hand"]} for f in state["map"]["flags"]],
    }
    rps = state["rps"]
    rps_view = None
    if rps is not None:
        rps_view = {"score": {"A": rps["score"][0], "B": rps["score"][1]},
                    "throws": [{"A": t["A"], "B": t["B"], "winner": t["winner"]} for t in rps["throws"]],
                    "rounds": [t["round"] for t in rps["throws"]],
                    "both_missed": rps["both_missed"],
                    "open": choices.public(rps["box"]) if rps["box"] is not None else None,
                    "winner": _army(rps["winner"]), "by_lot": rps["by_lot"]}
    ex = state["exchange"]
    open_exchange = None
    if ex is not None:
        open_exchange = {"number": ex["number"], "attacker": ex["attacker"], "target": ex["target"],
                         "mode": ex["mode"],
                         "sides": [{"id": s["id"], "seat": s["seat"], "role": s["role"], "sword": s["swords"] > 0,
                                    "swords": s["swords"], "shield": s["shield"], "double": s["double"]}
                                   for s in ex["sides"]],
                         "round": choices.public(ex["box"])}
    over = state["over"]
    return {
        "phase": phase,
        "options": {k: v for k, v in state["options"].items()},
        "armies": armies_info(state),
        "battlefield": battlefield,
        "map": {"rolls": state["rolls"], "accepted": {"A": state["accepted"][0], "B": state["accepted"][1]}},
        "build": choices.public(state["build"]["box"]) if state["build"] is not None else state["build_round"],
        "revealed": ({"A": state["revealed"][0], "B": state["revealed"][1]}
                     if state["revealed"] is not None else None),
        "deploy": choices.public(state["deploy"]["box"]) if state["deploy"] is not None else state["deploy_round"],
        "rps": rps_view,
        "kniggits": [kniggit_view(state, k) for k in state["kniggits"]],
        "engaged": board.engaged_pairs(state) if state["kniggits"] else [],
        "turn": ({"round": turn["round"], "rounds": state["options"]["rounds"], "army": _army(turn["army"]),
                  "first": _army(turn["first"]), "done": sorted(turn["done"]), "exchanges": turn["exchanges"]}
                 if turn is not None else None),
        "awaited": awaited,
        "last_move": state["last_move"],
        "last_exchange": state["last_exchange"],
        "exchange": open_exchange,
        "idle": {"A": state["idle"][0], "B": state["idle"][1]},
        "claimable": _army(claimable),
        "left_handed": list(state.get("left_handed") or [False] * state["players"]),
        "result": ({"winner": _army(over["winner"]), "reason": over["reason"],
                    "strength": {"A": over["strength"][0], "B": over["strength"][1]}}
                   if over is not None else None),
    }


def kniggit_view(state: dict[str, Any], k: dict[str, Any]) -> dict[str, Any]:
    from games.kniggits import board

    return {"id": k["id"], "army": _army(k["army"]), "owner": k["owner"], "name": k["name"], "kind": k["kind"],
            "two_swords": k["two_swords"], "pos": list(k["pos"]),
            "facing": k["facing"] if board.active(k) else None, "heading": k["heading"],
            "M": k["M"], "A": k["A"], "D": k["D"], "status": k["status"],
            "mounted": board.active(k) and board.mounted(state, k), "horse_lost": k["horse_lost"],
            "magic_sword": board.active(k) and board.magic_sword(state, k),
            "double_guard": board.active(k) and board.can_double_guard(state, k),
            "moved": k["moved"], "attacks_made": list(k["attacks_made"]), "guarded_double": k["guarded_double"],
            "carrying": _army(k["carrying"]), "hand": k["hand"]}


def seat_items(state: dict[str, Any], seat: int, can_claim: bool) -> dict[str, Any]:
    """`me`: the seat's own and its army's private items."""
    from games import choices
    from games.kniggits import army as armies
    from games.kniggits import board, exchange, moves, prelude, turns

    army = turns.army_of(state, seat)
    team = state["armies"][army]
    me: dict[str, Any] = {"seat": seat, "army": _army(army), "captain": team[0] == seat,
                          "share": armies.shares(state["options"]["budget"], team)[seat], "can_claim": can_claim}
    phase = state["phase"]
    if phase == "build" and state["build"] is not None:
        drafts = state["build"]["drafts"]
        me["draft"] = drafts[seat] or []
        me["build_cost"] = armies.cost(drafts[seat] or [])
        me["team_drafts"] = {str(s): drafts[s] or [] for s in team if s != seat}
        me["locked"] = choices.has_chosen(state["build"]["box"], seat)
    if phase == "deploy" and state["deploy"] is not None:
        me["deploy"] = {"placements": {k: list(v) for k, v in sorted(state["deploy"]["drafts"][army].items())},
                        "mine": prelude.own_ids(state, seat), "zone": list(board.zone(state, army))}
        me["locked"] = choices.has_chosen(state["deploy"]["box"], seat)
    if phase == "rps" and state["rps"]["box"] is not None:
        me["rps_pick"] = choices.private(state["rps"]["box"], seat)
        me["locked"] = choices.has_chosen(state["rps"]["box"], seat)
    turn = state["turn"]
    if turn is None or phase == "over":
        return me
    if phase == "move" and turn["army"] == army and seat not in turn["done"]:
        selected = moves.cursor(state, seat)
        me["movers"] = [{"id": k["id"], "M": k["M"], "A": k["A"], "D": k["D"], "pos": list(k["pos"]),
                         "allowance": board.allowance(state, k), "pinned": moves.pinned(state, k),
                         "held": k["id"] in turn["held"]}
                        for k in moves.movers(state, seat)]
        me["cursor"] = selected["id"] if selected is not None else None
        me["destinations"] = moves.destinations(state, selected) if selected is not None else []
        me["reach"] = moves.reach_cells(state, selected) if selected is not None else []
        if selected is not None and exchange.shot_ready(state, selected):
            me["sight"] = exchange.sight(state, selected)
        me["plan"] = state["plans"][seat]
        history = turn["history"]
        me["can_undo"] = bool(history) and history[-1]["seat"] == seat
    facings = []
    if phase == "move" and turn["army"] == army:
        for k in board.army_active(state, army):
            enemies = board.engaged_enemies(state, k)
            if k["owner"] == seat and k["kind"] != "archer" and enemies:
                facings.append({"id": k["id"], "current": k["facing"], "enemies": [e["id"] for e in enemies],
                                "default": enemies[0]["id"]})
    elif phase == "facing":
        for kid, enemies in sorted(turn["facing"].items()):
            k = board.by_id(state, kid)
            if k is not None and k["owner"] == seat:
                facings.append({"id": kid, "current": k["facing"], "enemies": list(enemies), "default": enemies[0]})
    elif phase == "turning" and seat in turns.turning_seats(state):
        for k in turns.turners(state):
            if k["owner"] == seat:
                facings.append({"id": k["id"], "current": k["facing"],
                                "enemies": [e["id"] for e in board.engaged_enemies(state, k)],
                                "default": turns.k10_default(state, k)["id"]})
    me["facings"] = sorted(facings, key=lambda f: board.id_number(f["id"]))
    if state["options"]["archers"]:
        me["sights"] = {k["id"]: exchange.sight(state, k) for k in state["kniggits"]
                        if k["owner"] == seat and exchange.shot_ready(state, k)}
    if phase == "fight" and state["exchange"] is None and seat in turns.fight_seats(state):
        me["attacks"] = exchange.attack_options(state, seat)
    else:
        me["attacks"] = []
    ex = state["exchange"]
    me["gesture"] = None
    if ex is not None:
        side = next((s for s in ex["sides"] if s["seat"] == seat), None)
        if side is not None:
            me["gesture"] = {"id": side["id"], "role": side["role"], "swords": side["swords"],
                             "sword_heights": list(side["heights"]), "shield": side["shield"],
                             "double": side["double"], "draft": dict(ex["drafts"][seat] or {}),
                             "locked": choices.has_chosen(ex["box"], seat)}
    return me
