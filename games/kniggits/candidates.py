"""The actions `legal_actions` considers for a seat: a finite, sensible list for random play and
the panels, which the engine then filters through `checks.verify` (the check `play` runs).

Concede is always legal too but is left out, so random games are fought; so is `handed`
(no turn's action). Random play should come to blows: it charges, strikes where a token is
left to take, and ends a phase only once nothing is left to do in it.
"""

from __future__ import annotations

from games import choices
from games.core import Action, State
from games.kniggits import army as armies
from games.kniggits import board, exchange, moves, prelude
from games.kniggits.state import stage


def candidates(state: State, seat: int, awaited: bool) -> list[Action]:
    """What the seat might do now: a forfeit claim, and the phase's actions if it is awaited."""
    out: list[Action] = [{"type": "claim_forfeit"}]
    if not awaited:
        return out
    at = stage(state)
    if at == "map":
        out.append({"type": "accept"})
        if state["rolls"] == 0:  # one re-roll is enough for random play (each costs a new map)
            out.append({"type": "reroll"})
    elif at == "build":
        share = prelude.share(state, seat)
        out += [{"type": "army", "kniggits": p} for p in armies.presets(share, state["options"], varied=False)]
        if state["build"]["drafts"][seat]:
            out.append({"type": "lock"})
    elif at == "deploy":
        out += [{"type": "deploy", "preset": "back"}, {"type": "deploy", "preset": "front"}, {"type": "lock"}]
    elif at == "rps":
        out += [{"type": "throw", "shape": s} for s in prelude.SHAPES]
    elif at == "exchange":
        out += _gestures(state, seat)
    elif at == "move":
        out += _moves(state, seat)
    elif at == "facing":
        for kid, enemies in sorted(state["turn"]["facing"].items()):
            k = board.by_id(state, kid)
            if k is not None and k["owner"] == seat:
                out += [{"type": "face", "id": kid, "target": e} for e in enemies]
        out.append({"type": "done"})
    elif at == "turning":
        out.append({"type": "done"})  # K10's defaults turn sensibly; `face` stays legal
    elif at == "fight":
        attacks = [dict(o["action"]) for o in exchange.attack_options(state, seat)]
        out += attacks or [{"type": "end_turn"}]  # random battles fight while they can
    return out


def _moves(state: State, seat: int) -> list[Action]:
    # Random play charges the nearest enemy with each kniggit that can fight and holds
    # the rest; Done only once none is left to charge. Undo, the other cells and Done
    # are legal all along but only make random games longer.
    free = moves.unheld(state, seat)
    if not any(moves.wants_to_move(state, k) for k in free):
        return [{"type": "done"}]
    k = moves.cursor(state, seat)
    return [moves.sample_move(state, k)] if k is not None else [{"type": "done"}]


def _gestures(state: State, seat: int) -> list[Action]:
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
