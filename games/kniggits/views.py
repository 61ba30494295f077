"""What each seat and the table see of a Kniggits game: the functions that build the views
`games/kniggits/schema.py` declares (`PublicView`, and a seat's `me`, `SeatItems`), key by key,
so mypy checks each key against the schema the renderer, the cog and the computer read.

Nothing hidden (pending picks, another army's drafts, nonces before the reveal, the RNG) is
in any view but its owner's. The shape only grows: keys are never renamed or removed.
"""

from __future__ import annotations

from typing import Any, cast

from games.kniggits.schema import (
    Army,
    ArmyInfo,
    Battlefield,
    ChoiceRound,
    FacingChoice,
    GesturePanel,
    Gestures,
    Kniggit,
    OpenExchange,
    Options,
    PublicView,
    Rps,
    SeatItems,
    Turn,
)
from games.kniggits.state import phase as phase_of
from games.kniggits.state import stage

ARMY_NAMES: tuple[Army, Army] = ("A", "B")


# ----- building the views ---------------------------------------------------------------
def _army(index: int | None) -> Army | None:
    return None if index is None else ARMY_NAMES[index]


def _round(box: dict[str, Any], *, revealed: bool = False) -> ChoiceRound:
    """`games.choices.public`, shared by every game and typed as plain JSON there, read as the
    schema's `ChoiceRound` (tests/test_schemas.py checks its keys on seeded games)."""
    from games import choices

    return cast(ChoiceRound, choices.public(box, revealed=revealed))


def armies_info(state: dict[str, Any]) -> dict[str, ArmyInfo]:
    from games.kniggits.army import shares

    out: dict[str, ArmyInfo] = {}
    for index, name in enumerate(ARMY_NAMES):
        seats = list(state["armies"][index])
        split = shares(state["options"]["budget"], seats)
        out[name] = {"seats": seats, "captain": seats[0], "shares": {str(s): n for s, n in split.items()}}
    return out


def public_view(state: dict[str, Any], awaited: list[int], claimable: int | None) -> PublicView:
    """The table's view: everything public, no pending pick, draft, nonce or plan."""
    from games.kniggits import board

    turn = state["turn"]
    phase = stage(state)
    battlefield: Battlefield = {
        "width": state["width"], "height": state["height"],
        "zones": {a: list(board.zone(state, i)) for i, a in enumerate(("A", "B"))},
        "obstacles": [list(o) for o in state["map"]["obstacles"]],
        "potions": [{"id": p["id"], "pos": list(p["pos"]), "kind": p["kind"]} for p in state["map"]["potions"]],
        "flags": [{"army": ARMY_NAMES[f["army"]], "home": list(f["home"]),
                   "pos": list(f["pos"]) if f["pos"] is not None else None,
                   "carrier": f["carrier"], "hand": f["hand"]} for f in state["map"]["flags"]],
    }
    rps = state["rps"]
    rps_view: Rps | None = None
    if rps is not None:
        rps_view = {"score": {"A": rps["score"][0], "B": rps["score"][1]},
                    "throws": [{"A": t["A"], "B": t["B"], "winner": t["winner"]} for t in rps["throws"]],
                    "rounds": [t["round"] for t in rps["throws"]],
                    "both_missed": rps["both_missed"],
                    "open": _round(rps["box"]) if rps["box"] is not None else None,
                    "winner": _army(rps["winner"]), "by_lot": rps["by_lot"]}
    ex = state["exchange"]
    open_exchange: OpenExchange | None = None
    if ex is not None:
        open_exchange = {"number": ex["number"], "attacker": ex["attacker"], "target": ex["target"],
                         "mode": ex["mode"],
                         "sides": [{"id": s["id"], "seat": s["seat"], "role": s["role"], "sword": s["swords"] > 0,
                                    "swords": s["swords"], "shield": s["shield"], "double": s["double"]}
                                   for s in ex["sides"]],
                         "round": _round(ex["box"])}
    turn_view: Turn | None = None
    if turn is not None:
        turn_view = {"round": turn["round"], "rounds": state["options"]["rounds"], "army": ARMY_NAMES[turn["army"]],
                     "first": ARMY_NAMES[turn["first"]], "done": sorted(turn["done"]), "exchanges": turn["exchanges"]}
    over = state["over"]
    return {
        "phase": phase,
        "options": options_view(state["options"]),
        "armies": armies_info(state),
        "battlefield": battlefield,
        "map": {"rolls": state["rolls"], "accepted": {"A": state["accepted"][0], "B": state["accepted"][1]}},
        "build": _round(state["build"]["box"]) if state["build"] is not None else state["build_round"],
        "revealed": ({"A": state["revealed"][0], "B": state["revealed"][1]}
                     if state["revealed"] is not None else None),
        "deploy": _round(state["deploy"]["box"]) if state["deploy"] is not None else state["deploy_round"],
        "rps": rps_view,
        "kniggits": [kniggit_view(state, k) for k in state["kniggits"]],
        "engaged": board.engaged_pairs(state) if state["kniggits"] else [],
        "turn": turn_view,
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


def kniggit_view(state: dict[str, Any], k: dict[str, Any]) -> Kniggit:
    from games.kniggits import board

    return {"id": k["id"], "army": ARMY_NAMES[k["army"]], "owner": k["owner"], "name": k["name"], "kind": k["kind"],
            "two_swords": k["two_swords"], "pos": list(k["pos"]),
            "facing": k["facing"] if board.active(k) else None, "heading": k["heading"],
            "M": k["M"], "A": k["A"], "D": k["D"], "status": k["status"],
            "mounted": board.active(k) and board.mounted(state, k), "horse_lost": k["horse_lost"],
            "magic_sword": board.active(k) and board.magic_sword(state, k),
            "double_guard": board.active(k) and board.can_double_guard(state, k),
            "moved": k["moved"], "attacks_made": list(k["attacks_made"]), "guarded_double": k["guarded_double"],
            "carrying": _army(k["carrying"]), "hand": k["hand"]}


def seat_items(state: dict[str, Any], seat: int, can_claim: bool) -> SeatItems:
    """`me`: the seat's own and its army's private items."""
    from games import choices
    from games.kniggits import army as armies
    from games.kniggits import board, exchange, moves, prelude, turns

    army = turns.army_of(state, seat)
    team = state["armies"][army]
    me: SeatItems = {"seat": seat, "army": ARMY_NAMES[army], "captain": team[0] == seat,
                          "share": armies.shares(state["options"]["budget"], team)[seat], "can_claim": can_claim}
    at = phase_of(state)
    phase = at.name
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
    facings: list[FacingChoice] = []
    if phase == "move" and turn["army"] == army:
        for k in board.army_active(state, army):
            enemies = board.engaged_enemies(state, k)
            if k["owner"] == seat and k["kind"] != "archer" and enemies:
                facings.append({"id": k["id"], "current": k["facing"], "enemies": [e["id"] for e in enemies],
                                "default": enemies[0]["id"]})
    elif phase == "facing":
        for kid, enemies in sorted(turn["facing"].items()):
            facer = board.by_id(state, kid)
            if facer is not None and facer["owner"] == seat:
                facings.append({"id": kid, "current": facer["facing"], "enemies": list(enemies),
                                "default": enemies[0]})
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
    if phase == "fight" and at.step is None and seat in turns.fight_seats(state):
        me["attacks"] = exchange.attack_options(state, seat)
    else:
        me["attacks"] = []
    ex = state["exchange"]
    me["gesture"] = None
    if ex is not None:
        side = next((s for s in ex["sides"] if s["seat"] == seat), None)
        if side is not None:
            gesture: GesturePanel = {"id": side["id"], "role": side["role"], "swords": side["swords"],
                             "sword_heights": list(side["heights"]), "shield": side["shield"],
                             "double": side["double"], "draft": cast(Gestures, dict(ex["drafts"][seat] or {})),
                             "locked": choices.has_chosen(ex["box"], seat)}
            me["gesture"] = gesture
    return me


def options_view(options: dict[str, Any]) -> Options:
    """The table's settings, key by key (so a renamed option fails lint where it is read)."""
    shown: Options = {
        "size": options["size"], "preset": options["preset"], "budget": options["budget"],
        "rounds": options["rounds"], "horses": options["horses"], "magic_swords": options["magic_swords"],
        "double_defence": options["double_defence"], "two_swords": options["two_swords"],
        "archers": options["archers"], "potions": options["potions"], "scenario": options["scenario"],
        "timers": options["timers"],
    }
    if "team_sizes" in options:
        shown["team_sizes"] = list(options["team_sizes"])
    return shown
