"""Before the first turn: the map (2.3), secret army building (K2), secret deployment (K2,
2.6) and rock-paper-scissors for the first turn (K3). Every secret choice is a committed
`games.choices` round: the table sees 🔒 and a sha256 per lock, the picks at the reveal.
"""

from __future__ import annotations

from typing import Any

from games import choices
from games.core import Event, IllegalAction, Rng
from games.kniggits import army as armies
from games.kniggits import board, maps, turns
from games.kniggits.board import ARMIES, cell, id_number

MAX_REROLLS = 20
SHAPES = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


# ----- the map ---------------------------------------------------------------------------
def generate_map(state: dict[str, Any]) -> dict[str, Any]:
    """A generated battlefield (spec 2.3, V6, V7) from the game's RNG."""
    options = state["options"]
    made = maps.generate(Rng(state), state["width"], state["height"], options["preset"],
                         potions=options["potions"], flags=options["scenario"] == "flag")
    potions = [{"id": p.get("id") or f"P{i + 1}", "pos": list(p["pos"]), "kind": p["kind"]}
               for i, p in enumerate(made.get("potions", []))]
    flags = [{"army": ARMIES.index(f["army"]), "home": list(f["home"]), "pos": list(f["home"]),
              "carrier": None, "hand": None} for f in made.get("flags", [])]
    return {"obstacles": sorted([list(o) for o in made["obstacles"]]), "potions": potions, "flags": flags}


def captain(state: dict[str, Any], army: int) -> int:
    return int(state["armies"][army][0])


def verify_accept(state: dict[str, Any], seat: int) -> None:
    army = turns.army_of(state, seat)
    if seat != captain(state, army):
        raise IllegalAction("The captain, {captain}, accepts the map for the army.", rule="K1",
                            seats={"captain": captain(state, army)})
    if state["accepted"][army]:
        raise IllegalAction("Your army already accepted this map.", rule="K1")


def accept(state: dict[str, Any], seat: int) -> list[Event]:
    army = turns.army_of(state, seat)
    state["accepted"][army] = True
    events = [Event("map_accepted", {"army": ARMIES[army], "seat": seat})]
    if all(state["accepted"]):
        events += start_build(state)
    return events


def verify_reroll(state: dict[str, Any], seat: int) -> None:
    if seat != captain(state, turns.army_of(state, seat)):
        raise IllegalAction("Only a captain may re-roll the map.", rule="K1")
    if state["rolls"] >= MAX_REROLLS:
        raise IllegalAction(f"The map was re-rolled {MAX_REROLLS} times: accept this one.", rule="K1")


def reroll(state: dict[str, Any], seat: int) -> list[Event]:
    state["map"] = generate_map(state)
    state["rolls"] += 1
    state["accepted"] = [False, False]
    return [Event("map", {"seat": seat, "rolls": state["rolls"]})]


# ----- army building (K2) ----------------------------------------------------------------
def start_build(state: dict[str, Any]) -> list[Event]:
    state["phase"] = "build"
    state["build"] = {"box": choices.open_round("build", range(state["players"]), state["players"],
                                                actions=("army", "lock"), commit=True),
                      "drafts": [None] * state["players"]}
    return [Event("phase", {"phase": "build"})]


def share(state: dict[str, Any], seat: int) -> int:
    army = turns.army_of(state, seat)
    return armies.shares(state["options"]["budget"], state["armies"][army])[seat]


def verify_build(state: dict[str, Any], seat: int) -> None:
    """An army list (or its lock) is the seat's while the build round is open to it."""
    choices.verify(state["build"]["box"], seat, closed="Armies are built before the battle.")


def draft_army(state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[Event]:
    raw = action.get("kniggits", action.get("lines"))
    state["build"]["drafts"][seat] = armies.clean_list(raw, share(state, seat))
    return []


def lock_army(state: dict[str, Any], seat: int, rng: Rng) -> list[Event]:
    box = state["build"]["box"]
    draft = state["build"]["drafts"][seat] or []
    events = [Event("army_locked", {"seat": seat})]
    if choices.choose(box, seat, draft, rng):
        events += reveal_armies(state)
    return events


def reveal_armies(state: dict[str, Any]) -> list[Event]:
    """K2: both armies revealed together; an army with no valid kniggit loses at once."""
    picks = choices.reveal(state["build"]["box"])
    state["revealed"] = [armies.reveal(a, [(s, picks[s]) for s in state["armies"][a]], state["options"])
                         for a in (0, 1)]
    state["build_round"] = choices.public(state["build"]["box"], revealed=True)
    state["build"] = None
    events = [Event("reveal_armies", {ARMIES[a]: state["revealed"][a] for a in (0, 1)})]
    valid = [sum(1 for p in state["revealed"][a] if p["valid"]) for a in (0, 1)]
    if valid[0] == 0 or valid[1] == 0:
        winner = None if valid[0] == valid[1] else (0 if valid[0] else 1)
        return events + turns.finish(state, winner, "no_army", valid={"A": valid[0], "B": valid[1]})
    return events + start_deploy(state)


# ----- deployment (K2, 2.6) --------------------------------------------------------------
def start_deploy(state: dict[str, Any]) -> list[Event]:
    state["phase"] = "deploy"
    seats = sorted({p["owner"] for a in (0, 1) for p in state["revealed"][a] if p["valid"]})
    state["deploy"] = {"box": choices.open_round("deploy", seats, state["players"], actions=("deploy", "lock"),
                                                 commit=True),
                       "drafts": [{}, {}]}
    return [Event("phase", {"phase": "deploy"})]


def own_ids(state: dict[str, Any], seat: int) -> list[str]:
    army = turns.army_of(state, seat)
    return [p["id"] for p in state["revealed"][army] if p["valid"] and p["owner"] == seat]


def free_zone_cells(state: dict[str, Any], army: int, taken: set[tuple[int, int]]) -> list[tuple[int, int]]:
    low, high = board.zone(state, army)
    blocked = board.obstacles(state) | {cell(f["home"]) for f in state["map"]["flags"]}
    return [(x, y) for y in range(low, high + 1) for x in range(1, state["width"] + 1)
            if (x, y) not in blocked and (x, y) not in taken]


def preset_cells(state: dict[str, Any], army: int, count: int, taken: set[tuple[int, int]],
                 preset: str) -> list[tuple[int, int]]:
    """§4 deployment default: the free zone cells nearest the home row (`front`: nearest the
    enemy), then nearest the centre line x=(W+1)/2, then lower x."""
    row = board.home_row(state, army)
    low, high = board.zone(state, army)
    if preset == "front":
        row = high if army == 0 else low
    centre2 = state["width"] + 1  # 2 × the centre line, to stay in integers
    cells = free_zone_cells(state, army, taken)
    cells.sort(key=lambda c: (abs(c[1] - row), abs(2 * c[0] - centre2), c[0]))
    return cells[:count]


def verify_deploy(state: dict[str, Any], seat: int) -> None:
    """A deployment draft (or its lock) is the seat's while the round is open to it."""
    choices.verify(state["deploy"]["box"], seat, closed="Deployment is over.")


def deploy(state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[Event]:
    army = turns.army_of(state, seat)
    draft = state["deploy"]["drafts"][army]
    mine = own_ids(state, seat)
    preset = action.get("preset")
    if preset is not None:
        if preset not in ("back", "front"):
            raise IllegalAction("The presets are back and front.", rule="K2")
        for kid in mine:
            draft.pop(kid, None)
        taken = {cell(xy) for xy in draft.values()}
        for kid, xy in zip(mine, preset_cells(state, army, len(mine), taken, preset), strict=False):
            draft[kid] = list(xy)
        return []
    placements = action.get("placements")
    if isinstance(action.get("lines"), str):
        placements = {}
        lines = action["lines"].splitlines()
        if len(lines) > armies.LINE_LIMIT:
            raise IllegalAction(f"Deploy at most {armies.LINE_LIMIT} lines at once.", rule="K2")
        for number, line in enumerate(lines, 1):
            words = line.replace(",", " ").split()
            if not words:
                continue
            numbers = [armies.whole(w) for w in words[1:]]
            if len(words) != 3 or None in numbers:
                raise IllegalAction(f"I could not read line {number}, {armies.quoted(line)}: write one kniggit "
                                    "a line, its id and x,y, like `A1 10,3`.", rule="K2")
            placements[words[0].upper()] = numbers
    if not isinstance(placements, dict) or not placements:
        raise IllegalAction("Place your kniggits with lines like `A1 10,3`, or pick a preset.", rule="K2")
    new = dict(draft)
    for kid, xy in placements.items():
        kid = str(kid).upper()
        if kid not in mine:
            raise IllegalAction(f"{armies.quoted(kid)} is not one of your kniggits.", rule="K2")
        if xy is None:
            new.pop(kid, None)
            continue
        try:
            here = (int(xy[0]), int(xy[1]))
        except (TypeError, ValueError, IndexError, OverflowError):
            raise IllegalAction("Give each cell as x,y.", rule="K2") from None
        if not board.in_zone(state, army, here):
            low, high = board.zone(state, army)
            raise IllegalAction(f"{here[0]},{here[1]} is outside your zone (rows {low}-{high}).", rule="K2")
        if here not in free_zone_cells(state, army, set()):
            raise IllegalAction(f"{here[0]},{here[1]} is blocked.", rule="K2")
        new[kid] = list(here)
    cells = [tuple(xy) for xy in new.values()]
    if len(cells) != len(set(cells)):
        raise IllegalAction("Two kniggits cannot share a cell.", rule="K2")
    state["deploy"]["drafts"][army] = new
    return []


def lock_deploy(state: dict[str, Any], seat: int, rng: Rng) -> list[Event]:
    """Lock: unplaced kniggits take the default cells (the timeout does the same)."""
    box = state["deploy"]["box"]
    army = turns.army_of(state, seat)
    draft = state["deploy"]["drafts"][army]
    unplaced = [kid for kid in own_ids(state, seat) if kid not in draft]
    taken = {cell(xy) for xy in draft.values()}
    for kid, xy in zip(unplaced, preset_cells(state, army, len(unplaced), taken, "back"), strict=False):
        draft[kid] = list(xy)
    pick = {kid: draft[kid] for kid in own_ids(state, seat) if kid in draft}
    events = [Event("deploy_locked", {"seat": seat})]
    if choices.choose(box, seat, pick, rng):
        events += reveal_deployment(state)
    return events


def reveal_deployment(state: dict[str, Any]) -> list[Event]:
    placed = {}
    for pick in choices.reveal(state["deploy"]["box"]).values():
        placed.update(pick)
    state["deploy_round"] = choices.public(state["deploy"]["box"], revealed=True)
    state["deploy"] = None
    kniggits = []
    for a in (0, 1):
        for p in state["revealed"][a]:
            if not p["valid"] or p["id"] not in placed:
                continue
            kniggits.append({"id": p["id"], "army": a, "owner": p["owner"], "name": p["name"], "kind": p["kind"],
                             "two_swords": p["two_swords"], "pos": list(placed[p["id"]]), "facing": None,
                             "heading": "N" if a == 0 else "S", "M": p["M"], "A": p["A"], "D": p["D"],
                             "status": "active", "horse_lost": False, "moved": False, "attacks_made": [],
                             "guarded_double": False, "carrying": None, "hand": None})
    state["kniggits"] = sorted(kniggits, key=lambda k: (k["army"], id_number(k["id"])))
    events = [Event("deployed", {"kniggits": {k["id"]: k["pos"] for k in state["kniggits"]}})]
    return events + start_rps(state)


# ----- rock-paper-scissors (K3) ---------------------------------------------------------
def start_rps(state: dict[str, Any]) -> list[Event]:
    state["phase"] = "rps"
    state["rps"] = {"score": [0, 0], "throws": [], "both_missed": 0, "winner": None, "by_lot": False,
                    "n": 0, "box": None}
    _next_throw(state)
    return [Event("phase", {"phase": "rps"})]


def _next_throw(state: dict[str, Any]) -> None:
    rps = state["rps"]
    rps["n"] += 1
    rps["box"] = choices.open_round(f"rps-{rps['n']}", [captain(state, 0), captain(state, 1)],
                                    state["players"], actions=("throw",), commit=True)


def verify_throw(state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    choices.verify(state["rps"]["box"], seat, closed="There is no throw to make now.")
    if not action.get("timeout") and action.get("shape") not in SHAPES:
        raise IllegalAction("Throw rock, paper or scissors.", rule="K3")


def throw(state: dict[str, Any], seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
    rps = state["rps"]
    box = rps["box"]
    shape: str = "miss" if action.get("timeout") else action["shape"]  # K3: a missed throw loses
    if not choices.choose(box, seat, shape, rng):
        return [Event("thrown", {"seat": seat})]
    picks = choices.reveal(box)
    a, b = picks[captain(state, 0)], picks[captain(state, 1)]
    winner: int | None = None
    if a == "miss" and b == "miss":
        rps["both_missed"] += 1
    else:
        rps["both_missed"] = 0
        if a == "miss" or b == "miss":
            winner = 1 if a == "miss" else 0
        elif a != b:
            winner = 0 if BEATS[a] == b else 1
    if winner is not None:
        rps["score"][winner] += 1
    rps["throws"].append({"A": a, "B": b, "winner": ARMIES[winner] if winner is not None else None,
                          "round": choices.public(box, revealed=True)})
    events = [Event("rps", {"A": a, "B": b, "winner": ARMIES[winner] if winner is not None else None,
                            "score": {"A": rps["score"][0], "B": rps["score"][1]}})]
    first: int | None = None
    if max(rps["score"]) >= 2:
        first = 0 if rps["score"][0] >= 2 else 1
    elif rps["both_missed"] >= 3:
        first = Rng(state).randint(0, 1)  # K3: three double misses in a row, the RNG decides
        rps["by_lot"] = True
    if first is None:
        _next_throw(state)
        return events
    rps["winner"] = first
    rps["box"] = None
    events.append(Event("rps_won", {"army": ARMIES[first], "by_lot": rps["by_lot"]}))
    return events + turns.start_game(state, first)
