"""The computer's gestures (K12, V1, V3, V4) and rock-paper-scissors (K3): mixed strategies
drawn from the decision's random source, so a human who watches many exchanges cannot read
them.

Why a mix and which one: a sword against a shield is a hide-and-seek game. Striking where a
hit is worth v_h, against a guard that covers one height, the equilibrium strikes each height
with probability ∝ 1/v_h and guards with 1 − c/v_h (c equalises the striker's gains): an
opponent who knows the mix gains nothing by guessing. Pure equilibrium play is timid against
a careless player, though (it rarely swings where the hit is worth most), so the computer
blends it with a mix proportional to the values: still never a fixed pattern, every useful
height keeps a real chance, and the valuable swing is favoured.
"""

from __future__ import annotations

import random

from games.kniggits.ai_read import POOL_OF, Board, K, loss
from games.kniggits.schema import GesturePanel, Height
from games.kniggits.schema_actions import Gesture, Shape

HEIGHTS: tuple[Height, ...] = ("high", "mid", "low")
SHAPES: tuple[Shape, ...] = ("rock", "paper", "scissors")
#: Weight of the equilibrium mix in the blend (the rest is proportional to the values).
EQUILIBRIUM = 0.45


def equilibrium_strike(values: dict[str, float]) -> tuple[dict[str, float], dict[str, float]]:
    """(strike mix, guard mix) of the one-sword-one-shield game with these hit values.

    The support is the largest set of the most valuable heights whose every value is at
    least c = (|S|−1)/Σ 1/v; heights outside it are never struck and never guarded."""
    ranked = sorted((h for h in values if values[h] > 0), key=lambda h: -values[h])
    if not ranked:
        return {h: 1 / len(values) for h in values}, {h: 1 / len(values) for h in values}
    support = ranked[:1]
    for h in ranked[1:]:
        trial = [*support, h]
        c = (len(trial) - 1) / sum(1 / values[x] for x in trial)
        if values[h] >= c:
            support = trial
        else:
            break
    inverse = sum(1 / values[h] for h in support)
    c = (len(support) - 1) / inverse
    strike = {h: (1 / values[h]) / inverse if h in support else 0.0 for h in values}
    guard = {h: (1 - c / values[h]) if h in support else 0.0 for h in values}
    total = sum(guard.values())
    if total <= 0:
        guard = {h: 1 / len(support) if h in support else 0.0 for h in values}
    else:
        guard = {h: q / total for h, q in guard.items()}
    return strike, guard


def _proportional(values: dict[str, float]) -> dict[str, float]:
    total = sum(max(v, 0.0) for v in values.values())
    if total <= 0:
        return {h: 1 / len(values) for h in values}
    return {h: max(v, 0.0) / total for h, v in values.items()}


def blend(first: dict[str, float], second: dict[str, float], weight: float) -> dict[str, float]:
    return {h: weight * first.get(h, 0.0) + (1 - weight) * second.get(h, 0.0) for h in first}


def draw(mix: dict[str, float], rng: random.Random) -> Height:
    """One height from a mix (in a fixed order, so the same rng gives the same pick)."""
    heights = [h for h in HEIGHTS if h in mix]
    return rng.choices(heights, weights=[max(mix[h], 0.0) for h in heights])[0] if any(
        mix[h] > 0 for h in heights) else rng.choice(heights)


def strike_mix(values: dict[str, float]) -> dict[str, float]:
    strike, _guard = equilibrium_strike(values)
    return blend(strike, _proportional(values), EQUILIBRIUM)


def guard_mix(values: dict[str, float]) -> dict[str, float]:
    """Where to hold the shield against a sword whose hits cost us `values`."""
    _strike, guard = equilibrium_strike(values)
    return blend(guard, _proportional(values), EQUILIBRIUM)


def foe_heights(board: Board, foe: K, me: K, mode: str) -> list[str]:
    """The heights the other side may strike us at (V1: on foot, no High at a rider in melee)."""
    if mode != "shot" and me.get("mounted") and not foe.get("mounted"):
        return ["mid", "low"]
    return list(HEIGHTS)


def gesture(board: Board, rng: random.Random) -> Gesture:
    """This seat's locked gesture for the open exchange."""
    panel = board.view["me"].get("gesture")
    exchange = board.view["exchange"]
    assert panel is not None and exchange is not None, "asked for a gesture only in its open exchange"
    options = board.options
    me = board.by_id[panel["id"]]
    foe_id = exchange["target"] if panel["role"] == "attacker" else exchange["attacker"]
    foe = board.by_id[foe_id]
    foe_side = next((s for s in exchange["sides"] if s["id"] == foe_id), None)
    foe_swords = foe_side["swords"] if foe_side is not None else 0
    strike_values: dict[str, float] = {h: loss(foe, POOL_OF[h], options) for h in panel["sword_heights"]}
    guard_values: dict[str, float] = {h: loss(me, POOL_OF[h], options) if h in foe_heights(board, foe, me, exchange["mode"]) else 0.0
                    for h in HEIGHTS}
    action: Gesture = {"type": "gesture", "lock": True}
    if panel["double"] and _double_is_better(panel, strike_values, guard_values, foe_swords):
        # V3: guard two heights; leave open the one a hit there costs least (∝ 1/value).
        open_mix: dict[str, float] = {h: (1 / guard_values[h]) if guard_values[h] > 0 else 0.0 for h in HEIGHTS}
        if any(v == 0 for v in guard_values.values()):
            open_mix = {h: 1.0 if guard_values[h] == 0 else 0.0 for h in HEIGHTS}
        left_open = draw(_proportional(open_mix), rng)
        guarded = [h for h in HEIGHTS if h != left_open]
        rng.shuffle(guarded)
        return {**action, "double": True, "sword": guarded[0], "shield": guarded[1]}
    if panel["swords"] == 2:
        mix = strike_mix(strike_values)
        action["swords"] = [draw(mix, rng), draw(mix, rng)]
    elif panel["swords"] == 1:
        action["sword"] = draw(strike_mix(strike_values), rng)
    if panel["shield"]:
        action["shield"] = draw(guard_mix(guard_values) if foe_swords else {h: 1.0 for h in HEIGHTS}, rng)
    return action


def _double_is_better(panel: GesturePanel, strike: dict[str, float], guard: dict[str, float],
                      foe_swords: int) -> bool:
    """V3: a second guarded height against giving up the strike back (and any later one this
    turn): with no sword to swing it is free."""
    if foe_swords == 0:
        return False
    if panel["swords"] == 0:
        return True
    second = sorted(guard.values(), reverse=True)[1]
    return second / 3 > 0.6 * max(strike.values(), default=0.0)


def throw(rng: random.Random) -> Shape:
    """K3: the only unexploitable throw is a uniform one."""
    return rng.choice(SHAPES)
