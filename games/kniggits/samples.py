"""Ready-made Kniggits states for tests and the renderer: whole games driven through real
actions (`sample_states`), and `battle`, which sets a battlefield up directly (kniggits,
tokens, obstacles, potions, flags) and starts a turn, for scenario tests.

`battle` is the one place a state is built by hand: it starts from `new_game` (so every key
exists), replaces the map and the kniggits, and enters the turn through the real
`turns.start_game`, so the fled run and the phase flow are the engine's own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from games.core import State
from games.kniggits import turns
from games.kniggits.engine import KniggitsEngine
from games.kniggits.state import phase

ENGINE = KniggitsEngine()
NOW = 1_000.0


def act(state: State, seat: int, action: dict[str, Any]) -> State:
    new, _events = ENGINE.apply(state, seat, action, NOW)
    return new


def kniggit(kid: str, pos: tuple[int, int], tokens: tuple[int, int, int], *, owner: int | None = None,
            kind: str = "normal", two_swords: bool = False, status: str = "active",
            facing: str | None = None, name: str = "") -> dict[str, Any]:
    """A kniggit record (2.4) for `battle`; the owner defaults to the army's captain."""
    army = 0 if kid[0] == "A" else 1
    return {"id": kid, "army": army, "owner": owner, "name": name, "kind": kind, "two_swords": two_swords,
            "pos": list(pos), "facing": facing, "heading": "N" if army == 0 else "S",
            "M": tokens[0], "A": tokens[1], "D": tokens[2], "status": status, "horse_lost": False,
            "moved": False, "attacks_made": [], "guarded_double": False, "carrying": None, "hand": None}


def battle(kniggits: list[dict[str, Any]], *, players: int = 2, first: str = "A",
           obstacles: Sequence[tuple[int, int]] = (), potions: Sequence[dict[str, Any]] = (),
           flags: bool = False, seed: int = 1, **options: Any) -> State:
    """A 36×36 battlefield with exactly these kniggits, obstacles and potions (and, with
    `flags`, the V7 flags at home), in `first`'s move phase of round 1."""
    opts = {"preset": "open", **options}
    if flags:
        opts["scenario"] = "flag"
    state = ENGINE.new_game(players, seed, opts)
    width, height = state["width"], state["height"]
    half = (width + 1) // 2
    state["map"] = {
        "obstacles": sorted([list(o) for o in obstacles]),
        "potions": [{"id": p.get("id", f"P{i + 1}"), "pos": list(p["pos"]), "kind": p["kind"]}
                    for i, p in enumerate(potions)],
        "flags": ([{"army": 0, "home": [half, 3], "pos": [half, 3], "carrier": None, "hand": None},
                   {"army": 1, "home": [width + 1 - half, height - 2], "pos": [width + 1 - half, height - 2],
                    "carrier": None, "hand": None}] if flags else []),
    }
    records = []
    for k in kniggits:
        k = dict(k)
        if k["owner"] is None:
            k["owner"] = state["armies"][k["army"]][0]
        records.append(k)
    state["kniggits"] = records
    state["accepted"] = [True, True]
    state["revealed"] = [[_purchase(k) for k in records if k["army"] == a] for a in (0, 1)]
    state["rps"] = {"score": [2, 0] if first == "A" else [0, 2], "throws": [], "both_missed": 0,
                    "winner": 0 if first == "A" else 1, "by_lot": False, "n": 0, "box": None}
    turns.start_game(state, 0 if first == "A" else 1)
    copied: State = json.loads(json.dumps(state))  # JSON as stored: lists, string keys
    return copied


def _purchase(k: dict[str, Any]) -> dict[str, Any]:
    return {"id": k["id"], "owner": k["owner"], "name": k["name"], "M": k["M"], "A": k["A"], "D": k["D"],
            "kind": k["kind"], "two_swords": k["two_swords"], "valid": True, "reason": ""}


# ----- whole games through real actions -------------------------------------------------
def through_prelude(players: int = 2, seed: int = 7, **options: Any) -> State:
    """A new game played through map accept, balanced armies, `front` deployment and
    rock-paper-scissors (Army A wins 2-0), to A's first move phase."""
    state = ENGINE.new_game(players, seed, options)
    for army in state["armies"]:
        state = act(state, army[0], {"type": "accept"})
    lines = "Lance 3 2 2\nMace 2 3 2\nPike 2 2 3\nAxe 2 2 2"
    for seat in range(players):
        share = ENGINE.view(state, seat)["me"]["share"]
        state = act(state, seat, {"type": "army", "lines": "\n".join(lines.splitlines()[: max(1, share // 12)])})
        state = act(state, seat, {"type": "lock"})
    for seat in state["deploy"]["box"]["seats"]:
        state = act(state, seat, {"type": "deploy", "preset": "front"})
        state = act(state, seat, {"type": "lock"})
    captains = [state["armies"][0][0], state["armies"][1][0]]
    for _ in range(2):
        state = act(state, captains[0], {"type": "throw", "shape": "rock"})
        state = act(state, captains[1], {"type": "throw", "shape": "scissors"})
    return state


def charge(state: State, rounds: int = 6) -> State:
    """Every turn, each mover steps toward its nearest enemy; fights attack and play fixed
    gestures; until an exchange is open or `rounds` rounds have passed."""
    from games.kniggits import moves

    while phase(state).name != "over" and state["turn"]["round"] <= rounds:
        waits = ENGINE.to_act(state)
        if phase(state).step == "exchange":
            return state
        wait = waits[0]
        seat = wait.seat
        assert seat is not None  # a battle's waits are seats'
        if phase(state).name == "move":
            k = moves.cursor(state, seat)
            cells = moves.sample_cells(state, k) if k is not None else []
            if k is not None and cells:
                state = act(state, seat, {"type": "move", "id": k["id"], "to": list(cells[0])})
            else:
                state = act(state, seat, {"type": "done"})
        elif phase(state).name == "fight":
            options = ENGINE.view(state, seat)["me"]["attacks"]
            state = act(state, seat, dict(options[0]["action"]) if options else {"type": "end_turn"})
        else:
            state = act(state, seat, {"type": "done"})
    return state


def sample_states(seed: int = 7) -> dict[str, State]:
    """Realistic states of each phase, for the renderer and UI tests."""
    out: dict[str, State] = {}
    state = ENGINE.new_game(4, seed, {"potions": 4, "scenario": "flag", "team_sizes": [2, 2]})
    out["map"] = state
    for army in state["armies"]:
        state = act(state, army[0], {"type": "accept"})
    state = act(state, 0, {"type": "army", "lines": "Lance 3 2 2\nAxe 2 2 2"})
    out["build"] = state
    state = through_prelude(4, seed, potions=4, scenario="flag", team_sizes=[2, 2])
    out["move"] = state
    k = state["kniggits"][0]
    dest = next(d for d in ENGINE.view(state, k["owner"])["me"]["destinations"] if d["tag"] == "advance")
    preview = act(state, k["owner"], {"type": "plan", "id": k["id"], "to": dest["cell"]})
    out["plan"] = preview
    fought = charge(through_prelude(2, seed, horses=True, magic_swords=True, double_defence=True))
    out["exchange"] = fought
    if phase(fought).step == "exchange":
        seat = fought["exchange"]["sides"][0]["seat"]
        out["exchange_half_locked"] = act(fought, seat, {"type": "lock"})
    out["fled"] = battle([kniggit("A1", (10, 10), (3, 2, 2)), kniggit("A2", (12, 20), (1, 0, 0), status="fled"),
                          kniggit("B1", (10, 30), (1, 1, 0), status="fled"), kniggit("B2", (20, 28), (2, 2, 2))],
                         first="B", potions=[{"pos": (18, 18), "kind": "A"}, {"pos": (19, 19), "kind": "M"}],
                         flags=True)
    return out
