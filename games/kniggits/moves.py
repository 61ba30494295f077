"""The move phase (K5-K9, K15, V6, V7): the move panel's lists, previewed plans, confirmed
moves with what they pick up on the way, undo, and the fled kniggits' run.

The geometry (cheapest legal paths, reach) is `paths`; this module decides what a move
means in the game: which potions are drunk, which flags are taken or sent home, which
enemies become engaged, and what an undo puts back.
"""

from __future__ import annotations

import copy
from typing import Any

from games.core import Event, IllegalAction
from games.kniggits import army as armies
from games.kniggits import board, paths
from games.kniggits.board import ARMIES, K, active, allowance, by_id, cell, id_number
from games.kniggits.geometry import DIRECTIONS, Cell, Cost, dist2, engaged
from games.kniggits.schema import Destination

#: The destination select holds at most 25 options; the cog adds "Other cell…".
MAX_DESTINATIONS = 24
HEADINGS = {(dx, dy): name for name, dx, dy in DIRECTIONS}


def movers(state: dict[str, Any], seat: int) -> list[K]:
    """The seat's kniggits that may still move this turn (K6: one move each), in id order."""
    turn = state["turn"]
    return [k for k in state["kniggits"] if k["owner"] == seat and active(k) and not k["moved"]
            and k["army"] == turn["army"]]


def unheld(state: dict[str, Any], seat: int) -> list[K]:
    held = set(state["turn"]["held"])
    return [k for k in movers(state, seat) if k["id"] not in held]


def cursor(state: dict[str, Any], seat: int) -> K | None:
    """The seat's selected kniggit: its own choice while still a mover, else the first unmoved."""
    chosen = by_id(state, state["cursor"][seat])
    options = movers(state, seat)
    if chosen is not None and chosen in options:
        return chosen
    free = unheld(state, seat)
    return free[0] if free else None


def pinned(state: dict[str, Any], k: K) -> bool:
    """K8: engaged at the start of its move with no step that leaves every such enemy."""
    if not board.engaged_enemies(state, k):
        return False
    return not paths.allowed_steps(cell(k["pos"]), board.terrain_for(state, k))


def entry_cost(reach: dict[Cell, paths.Path], xy: Cell) -> Cost:
    return reach[xy].cost


def destinations(state: dict[str, Any], k: K) -> list[Destination]:
    """Move panel step 2 (spec §4), in order: Hold; Engage X for each enemy it can newly
    engage (its cheapest such cell); reachable potions and flags; Advance and Fall back;
    then the reachable cells nearest the nearest enemy, until 24 (ties: lower x, lower y)."""
    start = cell(k["pos"])
    terrain = board.terrain_for(state, k)
    reach = paths.reachable(start, terrain, allowance(state, k))
    blocked = terrain.obstacles
    out: list[Destination] = [{"tag": "hold", "cell": list(start), "cost": "0", "enemy": None, "item": None,
                                  "path": [list(start)]}]
    seen = {start}

    def add(tag: str, xy: Cell, enemy: str | None = None, item: str | None = None) -> None:
        if xy in seen or len(out) >= MAX_DESTINATIONS:
            return
        seen.add(xy)
        # the path `plan` takes (K7's tie-break), so the panel can draw the route before the pick
        route = [list(start), *[list(c) for c in reach[xy].cells]]
        out.append({"tag": tag, "cell": list(xy), "cost": str(reach[xy].cost), "enemy": enemy, "item": item,
                    "path": route})

    already = {e["id"] for e in board.engaged_enemies(state, k)}
    enemies = sorted((e for e in state["kniggits"] if e["army"] != k["army"] and active(e)),
                     key=lambda e: id_number(e["id"]))
    for enemy in enemies:
        if enemy["id"] in already:
            continue
        there = cell(enemy["pos"])
        cells = [c for c in reach if engaged(c, there, blocked)]
        if cells:
            best = min(cells, key=lambda c: (_CostKey(reach[c].cost), dist2(c, there), c[0], c[1]))
            add("engage", best, enemy=enemy["id"])
    for potion in state["map"]["potions"]:
        if cell(potion["pos"]) in reach:
            add("potion", cell(potion["pos"]), item=potion["id"])
    for flag in state["map"]["flags"]:
        if flag["pos"] is None or cell(flag["pos"]) not in reach:
            continue
        mine = flag["army"] == k["army"]
        if (not mine and k["carrying"] is None) or (mine and flag["pos"] != flag["home"]):
            add("flag", cell(flag["pos"]), item=ARMIES[flag["army"]])
    if reach:
        enemy_row = board.home_row(state, board.other(k["army"]))
        own_row = board.home_row(state, k["army"])
        add("advance", min(reach, key=lambda c: (abs(c[1] - enemy_row), _CostKey(reach[c].cost), c[0], c[1])))
        add("fall_back", min(reach, key=lambda c: (abs(c[1] - own_row), _CostKey(reach[c].cost), c[0], c[1])))
    if enemies and reach:
        nearest = min(enemies, key=lambda e: (dist2(start, cell(e["pos"])), id_number(e["id"])))
        there = cell(nearest["pos"])
        for xy in sorted(reach, key=lambda c: (dist2(c, there), c[0], c[1])):
            if len(out) >= MAX_DESTINATIONS:
                break
            add("near", xy, enemy=nearest["id"])
    return out


def reach_cells(state: dict[str, Any], k: K) -> list[list[int]]:
    """The `reach` overlay: every legal end cell of the kniggit's move (K6-K8), x then y."""
    reach = paths.reachable(cell(k["pos"]), board.terrain_for(state, k), allowance(state, k))
    return [list(xy) for xy in sorted(reach)]


def sample_cells(state: dict[str, Any], k: K) -> list[Cell]:
    """A few reachable cells for random play, which should come to blows: the two nearest
    the nearest enemy and one more (cheaper than the whole destination list)."""
    start = cell(k["pos"])
    reach = paths.reachable(start, board.terrain_for(state, k), allowance(state, k))
    if not reach:
        return []
    enemies = [cell(e["pos"]) for e in state["kniggits"] if e["army"] != k["army"] and active(e)]
    if not enemies:
        return sorted(reach)[:2]
    nearest = min(enemies, key=lambda e: (dist2(start, e), e))
    ranked = sorted(reach, key=lambda c: (dist2(c, nearest), c[0], c[1]))
    return ranked[:2] + ranked[len(ranked) // 2:][:1]


def wants_to_move(state: dict[str, Any], k: K) -> bool:
    """Random play: a kniggit that can still come to blows and is not already there.

    Engaged ones stay to fight (K8 would only let them back away), archers with a target
    stay to shoot (V5: moving forbids it), and a kniggit with no Attack holds (it can never
    strike): so random battles end by the sword rather than at the turn limit."""
    from games.kniggits import exchange

    if k["kind"] == "archer":
        return k["A"] >= 1 and not exchange.shot_targets(state, k)
    return k["A"] >= 1 and not board.engaged_enemies(state, k)


def sample_move(state: dict[str, Any], k: K) -> dict[str, Any]:
    """One sensible move for random play: toward the nearest enemy, or Hold."""
    if wants_to_move(state, k):
        for xy in sample_cells(state, k)[:1]:
            return {"type": "move", "id": k["id"], "to": list(xy)}
    return {"type": "hold", "id": k["id"]}


class _CostKey:
    """Sort adapter: exact cost order, ties left to the rest of the key."""

    __slots__ = ("cost",)

    def __init__(self, cost: Cost) -> None:
        self.cost = cost

    def __lt__(self, other: _CostKey) -> bool:
        return self.cost < other.cost

    def __eq__(self, other: object) -> bool:  # (so unhashable: Python sets __hash__ to None)
        return isinstance(other, _CostKey) and self.cost == other.cost


# ----- plans -------------------------------------------------------------------------
def _xy(value: Any, what: str) -> Cell:
    if isinstance(value, str):  # typed: ASCII whole numbers only (see army.whole)
        parts = value.replace(" ", ",").split(",")
        value = [armies.whole(p) for p in parts if p]
    try:
        x, y = (int(v) for v in value)
    except (TypeError, ValueError, OverflowError):
        raise IllegalAction(f"Give the {what} as x,y, like 12,9.", rule="K7") from None
    return (x, y)


def parse_via(value: Any) -> list[Cell]:
    if value in (None, "", []):
        return []
    if isinstance(value, str):
        value = [c for c in value.replace(";", " ").split() if c]
    if not isinstance(value, list) or len(value) > 8:
        raise IllegalAction("Give at most 8 waypoints, each x,y.", rule="K7")
    return [_xy(v, "waypoint") for v in value]


def own_mover(state: dict[str, Any], seat: int, kid: Any) -> K:
    k = by_id(state, kid)
    if k is None:
        raise IllegalAction("There is no kniggit with that id.", rule="K6")
    if k["owner"] != seat:
        raise IllegalAction("{owner} commands that kniggit.", rule="K1", seats={"owner": k["owner"]})
    if k["army"] != state["turn"]["army"]:
        raise IllegalAction("It is not your army's turn.", rule="K4")
    if not active(k):
        raise IllegalAction(f"{k['id']} has fled and only runs (K15).", rule="K14")
    if k["moved"]:
        raise IllegalAction(f"{k['id']} already moved this turn.", rule="K6")
    return k


def make_plan(state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """K6-K8: the cheapest legal path to the destination through the waypoints, or a refusal
    naming up to five reachable cells nearest it."""
    k = own_mover(state, seat, action.get("id"))
    goal = _xy(action.get("to"), "destination")
    via = parse_via(action.get("via"))
    start = cell(k["pos"])
    if goal == start:
        raise IllegalAction(f"{k['id']} already stands on {goal[0]},{goal[1]}: choose Hold to stay.", rule="K6")
    terrain = board.terrain_for(state, k)
    reach_allowance = allowance(state, k)
    if not terrain.inside(goal):
        raise IllegalAction(f"{goal[0]},{goal[1]} is off the battlefield.", rule="K6")
    if not terrain.endable(goal):
        raise IllegalAction(f"{goal[0]},{goal[1]} is not free: a move ends on an empty cell.", rule="K6")
    if via:
        path = paths.plan(start, goal, terrain, reach_allowance, via=via)
    else:  # one leg: the (memoised) reach holds the very same tie-break-first path
        path = paths.reachable(start, terrain, reach_allowance).get(goal)
    if path is None:
        reach = paths.reachable(start, terrain, reach_allowance)
        near = paths.nearest_reachable(goal, reach, 5)
        if not near:
            raise IllegalAction(f"{k['id']} cannot move at all: it is pinned (K8).", rule="K8")
        listed = ", ".join(f"{x},{y}" for x, y in near)
        raise IllegalAction(f"{k['id']} cannot reach {goal[0]},{goal[1]} with {reach_allowance} inches "
                            f"(K6-K8). Nearest reachable: {listed}.", rule="K7")
    hand = action.get("hand") or "sword"
    if hand not in ("sword", "shield"):
        raise IllegalAction("A flag is held in the sword hand or the shield hand.", rule="V7")
    effects = walk_effects(state, k, path.cells, hand)
    end = path.cells[-1]
    before = {e["id"] for e in board.engaged_enemies(state, k)}
    after = _engaged_at(state, k, end)
    return {"id": k["id"], "seat": seat, "to": list(goal), "via": [list(v) for v in via],
            "path": [list(start), *[list(c) for c in path.cells]], "cost": str(path.cost),
            "cost_ab": [path.cost.a, path.cost.b], "allowance": reach_allowance,
            "engages": [e for e in after if e not in before], "potions": effects["potions"],
            "flag": effects["flag"], "flag_action": effects["flag_action"],
            "hand": hand if effects["flag_action"] == "take" else None}


def _engaged_at(state: dict[str, Any], k: K, xy: Cell) -> list[str]:
    blocked = board.obstacles(state)
    found = [e for e in state["kniggits"] if e["army"] != k["army"] and active(e)
             and engaged(xy, cell(e["pos"]), blocked)]
    return [e["id"] for e in sorted(found, key=lambda e: (dist2(xy, cell(e["pos"])), id_number(e["id"])))]


def walk_effects(state: dict[str, Any], k: K, cells: tuple[Cell, ...] | list[Cell], hand: str) -> dict[str, Any]:
    """What entering each cell in order does (V6, V7): potions drunk, a flag taken or sent home."""
    potions: list[str] = []
    flag: str | None = None
    flag_action: str | None = None
    carrying = k["carrying"]
    by_cell: dict[Cell, list[dict[str, Any]]] = {}
    for potion in state["map"]["potions"]:
        by_cell.setdefault(cell(potion["pos"]), []).append(potion)
    for xy in cells:
        for potion in by_cell.get(xy, []):
            if potion["kind"] == "D" and k["two_swords"]:
                continue  # V4: two swords hold no Defense tokens
            potions.append(potion["id"])
        for f in state["map"]["flags"]:
            if f["pos"] is None or cell(f["pos"]) != xy or f["carrier"] is not None:
                continue
            if f["army"] != k["army"] and carrying is None:
                carrying = f["army"]
                flag, flag_action = ARMIES[f["army"]], "take"
            elif f["army"] == k["army"] and f["pos"] != f["home"] and flag_action is None:
                flag, flag_action = ARMIES[f["army"]], "home"
    return {"potions": potions, "flag": flag, "flag_action": flag_action}


def verify_confirm(state: dict[str, Any], seat: int) -> None:
    if state["plans"][seat] is None:
        raise IllegalAction("There is no move to confirm: pick a kniggit and a destination.", rule="K7")


def confirm(state: dict[str, Any], seat: int) -> list[Event]:
    """Carry out the seat's previewed plan, re-checked against the board as it is now."""
    plan = state["plans"][seat]
    fresh = make_plan(state, seat, {"id": plan["id"], "to": plan["to"], "via": plan["via"],
                                    "hand": plan["hand"] or "sword"})
    if fresh["path"] != plan["path"]:
        state["plans"][seat] = fresh
        raise IllegalAction("The board changed since the preview: check the new path and confirm again.", rule="K7")
    return apply_move(state, seat, fresh)


def apply_move(state: dict[str, Any], seat: int, plan: dict[str, Any]) -> list[Event]:
    k = by_id(state, plan["id"])
    assert k is not None
    turn = state["turn"]
    turn["history"].append({"seat": seat, "id": k["id"], "before": copy.deepcopy(k),
                            "potions": copy.deepcopy(state["map"]["potions"]),
                            "flags": copy.deepcopy(state["map"]["flags"]),
                            "last_move": copy.deepcopy(state["last_move"])})
    events: list[Event] = []
    drunk = set(plan["potions"])
    for xy in plan["path"][1:]:
        here = cell(xy)
        for potion in list(state["map"]["potions"]):
            if potion["id"] in drunk and cell(potion["pos"]) == here:
                k[potion["kind"]] += 5  # V6: thresholds apply at once; the allowance is fixed
                state["map"]["potions"].remove(potion)
                events.append(Event("potion", {"id": k["id"], "owner": k["owner"], "potion": potion["id"], "kind": potion["kind"],
                                               "tokens": [k["M"], k["A"], k["D"]]}))
        for f in state["map"]["flags"]:
            if f["pos"] is None or cell(f["pos"]) != here or f["carrier"] is not None:
                continue
            if f["army"] != k["army"] and k["carrying"] is None and plan["flag_action"] == "take":
                f["carrier"], f["pos"], f["hand"] = k["id"], None, plan["hand"]
                k["carrying"], k["hand"] = f["army"], plan["hand"]
                events.append(Event("flag_taken", {"id": k["id"], "owner": k["owner"], "flag": ARMIES[f["army"]], "hand": plan["hand"]}))
            elif f["army"] == k["army"] and f["pos"] != f["home"]:
                f["pos"] = list(f["home"])
                events.append(Event("flag_home", {"id": k["id"], "owner": k["owner"], "flag": ARMIES[f["army"]]}))
    path = plan["path"]
    k["pos"] = list(path[-1])
    k["moved"] = True
    last, prev = path[-1], path[-2]
    k["heading"] = HEADINGS.get((last[0] - prev[0], last[1] - prev[1]), k["heading"])
    now_engaged = board.engaged_enemies(state, k)
    if len(now_engaged) == 1:
        board.face(state, k, now_engaged[0])  # K9: automatic with one enemy
    state["plans"][seat] = None
    state["last_move"] = {"id": k["id"], "seat": seat, "path": [list(p) for p in path], "cost": plan["cost"],
                          "engaged": list(plan["engages"]), "potions": list(plan["potions"]),
                          "flag": plan["flag"]}
    moved = Event("moved", {"id": k["id"], "seat": seat, "owner": k["owner"], "path": [list(p) for p in path], "cost": plan["cost"],
                            "engaged": list(plan["engages"])})
    return [moved, *events]


def verify_undo(state: dict[str, Any], seat: int) -> None:
    """K7: the army's latest confirmed move may be undone by the one who made it."""
    history = state["turn"]["history"]
    if not history:
        raise IllegalAction("There is no move to undo this phase.", rule="K7")
    if history[-1]["seat"] != seat:
        raise IllegalAction("{mover} made the latest move: only they can undo it.", rule="K7",
                            seats={"mover": history[-1]["seat"]})


def undo(state: dict[str, Any], seat: int) -> list[Event]:
    """Revert the latest confirmed move (`verify_undo` passed)."""
    history = state["turn"]["history"]
    record = history[-1]
    history.pop()
    index = next(i for i, k in enumerate(state["kniggits"]) if k["id"] == record["id"])
    state["kniggits"][index] = record["before"]
    state["map"]["potions"] = record["potions"]
    state["map"]["flags"] = record["flags"]
    state["last_move"] = record["last_move"]
    state["plans"][seat] = None
    return [Event("undone", {"id": record["id"], "seat": seat, "owner": record["before"]["owner"], "pos": list(record["before"]["pos"])})]


# ----- K15: the fled run --------------------------------------------------------------
def run_fled(state: dict[str, Any], army: int) -> list[Event]:
    """Each fled kniggit of `army`, in id order, runs the cheapest path toward its home row
    as far as its allowance reaches; one standing on the home row afterwards is gone."""
    events: list[Event] = []
    row = board.home_row(state, army)
    fled = sorted((k for k in state["kniggits"] if k["army"] == army and k["status"] == "fled"),
                  key=lambda k: id_number(k["id"]))
    for k in fled:
        start = cell(k["pos"])
        route = paths.run(start, row, board.terrain_for(state, k), allowance(state, k))
        cells = list(route.cells) if route is not None else []
        if cells:
            k["pos"] = list(cells[-1])
            prev = cells[-2] if len(cells) > 1 else start
            k["heading"] = HEADINGS.get((cells[-1][0] - prev[0], cells[-1][1] - prev[1]), k["heading"])
        gone = k["pos"][1] == row
        events.append(Event("run", {"id": k["id"], "owner": k["owner"], "path": [list(start), *[list(c) for c in cells]],
                                    "cost": str(route.cost) if route is not None else "0", "gone": gone}))
        if gone:
            k["status"] = "gone"
            k["facing"] = None
            events.append(Event("gone", {"id": k["id"], "owner": k["owner"]}))
    return events
