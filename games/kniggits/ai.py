"""The Kniggits computer player (`POLICY`): from its seat's view alone it accepts the map,
buys and deploys an army, throws rock-paper-scissors, moves, faces, attacks and duels.

Each call answers the one thing the seat is awaited for now (the view's phase says which),
so a whole move phase is several calls: one move or hold per kniggit, then Done. The rules
helpers it uses (paths, geometry) are the engine's own pure functions, fed with the public
battlefield of the view; see `ai_read` (reading the view), `ai_army` (buying, deploying),
`ai_tactics` (moves, facings, attacks) and `ai_gestures` (the mixed gestures).
"""

from __future__ import annotations

import random

from games.computer import Asked, Policy
from games.core import Action
from games.kniggits import ai_army, ai_gestures, ai_tactics, schema
from games.kniggits.ai_read import Board
from games.kniggits.schema import SeatView


class KniggitsPolicy(Policy[SeatView]):
    summary = "gangs up on lone kniggits, strikes first, mixes its gestures"

    def choose(self, view: SeatView, asked: Asked, rng: random.Random) -> Action:
        return dict(self.decide(view, asked.seat, rng))

    def decide(self, view: SeatView, seat: int, rng: random.Random) -> schema.Action:
        """The schema action for what the seat is awaited for now (the view's phase says which)."""
        me = view["me"]
        if me.get("can_claim"):
            return {"type": "claim_forfeit"}
        phase = view["phase"]
        board = Board(view, seat)
        if phase == "map":
            return {"type": "accept"}
        if phase == "build":
            wanted = ai_army.army(me["share"], view["options"])
            if ai_army.same_list(me.get("draft"), wanted):
                return {"type": "lock"}
            return {"type": "army", "kniggits": wanted}
        if phase == "deploy":
            wanted_cells = ai_army.placements(board)
            placed = me["deploy"]["placements"]
            if not wanted_cells or all(placed.get(kid) == xy for kid, xy in wanted_cells.items()):
                return {"type": "lock"}
            return {"type": "deploy", "placements": wanted_cells}
        if phase == "rps":
            return {"type": "throw", "shape": ai_gestures.throw(rng)}
        if phase == "exchange":
            panel = me.get("gesture")
            if panel is None or panel["locked"]:
                return {"type": "lock"}
            return ai_gestures.gesture(board, rng)
        if phase == "move":
            for k in ai_tactics.move_order(board):
                return ai_tactics.choose_move(board, k)
            return {"type": "done"}
        if phase == "facing":
            for choice in me.get("facings", []):
                return {"type": "face", "id": choice["id"], "target": ai_tactics.choose_facing(board, choice, False)}
            return {"type": "done"}
        if phase == "turning":
            for choice in me.get("facings", []):
                target = ai_tactics.choose_facing(board, choice, True)
                if target != choice["current"]:
                    return {"type": "face", "id": choice["id"], "target": target}
            return {"type": "done"}
        if phase == "fight":
            attack = ai_tactics.choose_attack(board)
            return attack if attack is not None else {"type": "end_turn"}
        return {"type": "done"}

    def delay(self, view: SeatView, asked: Asked, rng: random.Random) -> float:
        """A human pace: a gesture or a throw is a quick decision, a move a longer look."""
        phase = view.get("phase")
        if phase in ("exchange", "rps"):
            return rng.uniform(1.5, 4.0)
        if phase in ("move", "build", "deploy"):
            return rng.uniform(2.0, 5.0)
        return rng.uniform(1.0, 2.5)


POLICY = KniggitsPolicy()
