"""The computer's battle sense (K6-K11, V5-V7): where each kniggit goes, which enemy it faces,
and which attacks are worth making.

The yardstick is the expected worth (`ai_read.worth`) an attack takes from its target: a hit
lands about three times in five through a shield (the defender guards one height of three,
not at random) and always without one. From that:
- an attack is worth making when it takes more than it risks (a one-way attack or a shot
  risks nothing; a mutual one risks the strike back);
- a move is good when it brings a kniggit to blows where its side has the numbers: the
  enemy already fights another kniggit of ours (so ours attacks it from the flank, one-way),
  it does not stand where several free enemies can reach it next turn, and it drinks potions
  and carries flags on the way (V6, V7);
- otherwise it keeps to the edge of the enemies' reach, so that they must come to it and it
  strikes first, and it advances when its army is the stronger or the turn limit nears while
  it is behind on strength (K17).
"""

from __future__ import annotations

from games.kniggits.ai_read import POOL_OF, Board, K, allowance, can_melee, cell, has_shield, id_number, loss
from games.kniggits.geometry import Cell, clear_shot, dist2, engaged, in_range
from games.kniggits.schema import AttackOption, FacingChoice
from games.kniggits.schema_actions import Attack, Hold, Move, Shoot

#: How often a blow lands through a shield (the defender guards one height of three).
THROUGH_SHIELD = 0.6
#: Points for coming to blows first (the mover strikes before the enemy can answer).
FIRST_STRIKE = 1.0
#: Share of a free enemy's blow counted when it could reach a cell next turn.
THREAT_SHARE = 0.5


def heights_against(board: Board, striker: K, target: K, *, shot: bool = False) -> list[str]:
    """V1: on foot no High against a rider in melee."""
    if not shot and target.get("mounted") and not striker.get("mounted"):
        return ["mid", "low"]
    return ["high", "mid", "low"]


def hit_gain(board: Board, striker: K, target: K, *, shot: bool = False, tokens: K | None = None) -> float:
    """The worth one attack (or strike back) of `striker` is expected to take from `target`."""
    if shot:
        if striker["kind"] != "archer" or striker["A"] < 1 or striker["D"] < 1:
            return 0.0
    elif not can_melee(striker):
        return 0.0
    victim = tokens or target
    values = [loss(victim, POOL_OF[h], board.options) for h in heights_against(board, striker, target, shot=shot)]
    if not values:
        return 0.0
    swords = 2 if striker["two_swords"] and striker.get("carrying") is None else 1
    land = THROUGH_SHIELD if has_shield(victim) else 1.0
    return swords * land * (0.6 * max(values) + 0.4 * sum(values) / len(values))


# ----- the fight phase (K11) ------------------------------------------------------------------
def attack_score(board: Board, option: AttackOption) -> float:
    attacker = board.by_id[option["attacker"]]
    target = board.by_id[option["target"]]
    shot = option["mode"] == "shot"
    gain = hit_gain(board, attacker, target, shot=shot)
    if option["mode"] == "mutual":
        gain -= hit_gain(board, target, attacker)
    return gain


def choose_attack(board: Board) -> Attack | Shoot | None:
    """The best attack on the menu, or None (end the turn) when every one costs more than it
    takes: a mutual exchange against a stronger, fresher enemy is declined."""
    options = board.view["me"]["attacks"]
    if not options:
        return None
    scored = [(attack_score(board, o), o["mode"] != "mutual", -id_number(o["attacker"]), o) for o in options]
    best = max(scored, key=lambda s: s[:3])
    if best[0] < -0.25:
        return None
    return best[3]["action"].copy()


# ----- facings (K9, K10) ----------------------------------------------------------------------
def choose_facing(board: Board, choice: FacingChoice, defending: bool) -> str:
    """Whom an engaged kniggit faces. On its own turn: the enemy it attacks best (one that
    faces another of ours cannot strike back). In the enemy's turn (K10): among the enemies
    about to attack it, the one its strike back hurts most."""
    k = board.by_id[choice["id"]]
    enemies = [board.by_id[e] for e in choice["enemies"] if e in board.by_id]
    if not enemies:
        return str(choice["default"])
    if defending:
        attackers = [e for e in enemies if e["facing"] == k["id"] or e.get("magic_sword")]
        pool = attackers or enemies
        return str(max(pool, key=lambda e: (hit_gain(board, k, e), -id_number(e["id"])))["id"])

    def score(e: K) -> tuple[float, int]:
        mutual = e["facing"] == k["id"] or not board.engaged_with.get(e["id"]) or e["facing"] is None
        value = hit_gain(board, k, e) - (hit_gain(board, e, k) if mutual and can_melee(e) else 0.0)
        return value, -id_number(e["id"])

    return str(max(enemies, key=score)["id"])


# ----- the move phase (K6-K8, V5-V7) ----------------------------------------------------------
class MoveJudge:
    """Scores the end cells of one kniggit's move from the board as it stands now (the
    kniggits already moved this turn stand where they went)."""

    def __init__(self, board: Board, k: K) -> None:
        self.board = board
        self.k = k
        self.options = board.options
        self.foes = board.foes
        # Enemies no other kniggit of ours holds in combat (those `k` holds are freed if it goes).
        self.free_foes = [f for f in self.foes
                          if not any(o != k["id"] for o in board.engaged_with.get(f["id"], []))]
        ours = [o for o in board.ours if o["id"] != k["id"]]
        self.ours = ours
        self.on_foe: dict[str, int] = {}
        for o in ours:
            for fid in board.engaged_with.get(o["id"], []):
                self.on_foe[fid] = self.on_foe.get(fid, 0) + 1
        our_worth = sum(_strength(o) for o in board.ours)
        their_worth = sum(_strength(f) for f in self.foes)
        turn = board.view["turn"] or {"round": 1, "rounds": 30}
        late = turn["round"] >= max(1, turn["rounds"] - 6)
        self.aggressive = (our_worth >= 1.2 * their_worth) or (late and our_worth <= their_worth)
        self.archer = k["kind"] == "archer" and bool(self.options.get("archers"))
        self.flags = board.view["battlefield"]["flags"] if self.options.get("scenario") == "flag" else []
        self.reach_self = allowance(k, self.options)
        # Per-enemy facts that do not depend on the cell: computed once per judge.
        self.gain_on = {f["id"]: hit_gain(board, k, f) for f in self.foes}
        self.gain_from = {f["id"]: hit_gain(board, f, k) if can_melee(f) else 0.0 for f in self.foes}
        self.free_at = [(cell(f["pos"]), board.threat_range2(f), f["id"]) for f in self.free_foes]
        self.foe_cells = [cell(f["pos"]) for f in self.foes]
        self.has_pickups = bool(board.view["battlefield"]["potions"]) or bool(self.flags)
        self.goals = self.flag_goals()
        self.friend_at = [(cell(o["pos"]), (allowance(o, self.options) + 2) ** 2) for o in ours]

    # -- pieces of a cell's score --
    def engagement(self, xy: Cell, engaged: list[K]) -> float:
        k = self.k
        if k["kind"] == "archer":
            return -sum(self.gain_from[f["id"]] for f in engaged) * 1.5
        best_value, best_id = None, None
        for t in engaged:
            busy = self.on_foe.get(t["id"], 0) > 0
            value = self.gain_on[t["id"]]
            if not busy:  # it faces us: a round is our blow and its strike back, then the same again
                value = 2 * value - 2 * self.gain_from[t["id"]]
            if t.get("carrying") is not None:
                value += 4.0  # stop the flag
            if best_value is None or value > best_value:
                best_value, best_id = value, t["id"]
        score = (best_value or 0.0) + FIRST_STRIKE
        for f in engaged:
            if f["id"] == best_id:
                continue
            share = 0.3 if self.on_foe.get(f["id"], 0) > 0 else 1.0
            score -= share * self.gain_from[f["id"]]
        return score

    def threat(self, xy: Cell, engaged: list[K]) -> float:
        """Free enemies that could fall on this cell next turn, beyond our friends' help."""
        x, y = xy
        skip = {f["id"] for f in engaged}
        near = [fid for (fx, fy), r2, fid in self.free_at
                if fid not in skip and (fx - x) ** 2 + (fy - y) ** 2 <= r2]
        if not near:
            return 0.0
        helpers = sum(1 for (ox, oy), r2 in self.friend_at if (ox - x) ** 2 + (oy - y) ** 2 <= r2)
        extra = max(0, len(near) + len(engaged) - helpers - 1)
        cost = THREAT_SHARE * sum(self.gain_from[fid] for fid in near) / len(near)
        return cost * (extra + (0 if self.aggressive else 0.5))

    def position(self, xy: Cell) -> float:
        """Keep in touch: close on the nearest enemy when strong (or with nothing near),
        stay with friends."""
        if not self.foe_cells:
            return 0.0
        x, y = xy
        nearest = min((fx - x) ** 2 + (fy - y) ** 2 for fx, fy in self.foe_cells) ** 0.5
        score: float = -0.08 * nearest if self.aggressive else -0.03 * nearest
        if self.friend_at:
            friend = min((ox - x) ** 2 + (oy - y) ** 2 for (ox, oy), _r2 in self.friend_at) ** 0.5
            score -= 0.05 * max(0.0, friend - 3)
        for (gx, gy), pull in self.goals:
            score -= pull * ((gx - x) ** 2 + (gy - y) ** 2) ** 0.5
        return score

    def flag_goals(self) -> list[tuple[Cell, float]]:
        """V7: the enemy flag draws the nearest of the seat's kniggits, an enemy carrier
        draws everyone, and a dropped flag of ours wants sending home."""
        out: list[tuple[Cell, float]] = []
        k = self.k
        if k.get("carrying") is not None or k["kind"] == "archer":
            return out
        here = cell(k["pos"])
        for flag in self.flags:
            if flag["army"] != k["army"]:
                if flag["carrier"] is not None or flag["pos"] is None:  # carried: it lies nowhere
                    continue
                spot = cell(flag["pos"])
                mine = [cell(o["pos"]) for o in self.board.mine if o.get("carrying") is None]
                if min(mine, key=lambda c: (dist2(c, spot), c)) == here:
                    out.append((spot, 0.12))
            elif flag["carrier"] is not None:
                carrier = self.board.by_id.get(flag["carrier"])
                if carrier is not None:
                    out.append((cell(carrier["pos"]), 0.2))
            elif flag["pos"] is not None and flag["pos"] != flag["home"]:
                out.append((cell(flag["pos"]), 0.1))
        return out

    def pickups(self, path: list[Cell]) -> float:
        """V6 potions drunk and V7 flags taken or sent home along the path."""
        board, k = self.board, self.k
        score = 0.0
        cells = set(path)
        for potion in board.view["battlefield"]["potions"]:
            if cell(potion["pos"]) in cells:
                kind = potion["kind"]
                if kind == "D" and k["two_swords"]:
                    continue
                tokens = {"M": k["M"], "A": k["A"], "D": k["D"]}
                tokens[kind] += 5
                from games.kniggits.ai_read import worth

                score += worth(k, self.options, (tokens["M"], tokens["A"], tokens["D"])) - worth(k, self.options)
        for flag in self.flags:
            if flag["pos"] is None or cell(flag["pos"]) not in cells or flag["carrier"] is not None:
                continue
            if flag["army"] != k["army"] and k.get("carrying") is None:
                score += 15.0
            elif flag["army"] == k["army"] and flag["pos"] != flag["home"]:
                score += 8.0
        return score

    def flag_run(self, xy: Cell, carrying: bool) -> float:
        """A carrier heads home (V7: ending the move phase in its zone wins)."""
        if not carrying:
            return 0.0
        low, high = self.board.zone(self.k["army"])
        if low <= xy[1] <= high:
            return 100.0
        return -1.5 * (xy[1] - high if xy[1] > high else low - xy[1])

    def archery(self, xy: Cell) -> float:
        """An archer likes a cell from which a clear shot lies within range next turn."""
        if not self.archer:
            return 0.0
        board, k = self.board, self.k
        others = {cell(o["pos"]) for o in board.view["kniggits"] if o["status"] != "gone" and o["id"] != k["id"]}
        best = 0.0
        for f in self.foes:
            there = cell(f["pos"])
            if not in_range(xy, there, k["D"]):
                continue
            if clear_shot(xy, there, board.obstacles, others - {there}):
                best = max(best, hit_gain(board, k, f, shot=True))
        return 1.5 * best

    def engaged_at(self, xy: Cell) -> list[K]:
        x, y = xy
        obstacles = self.board.obstacles
        return [f for f, (fx, fy) in zip(self.foes, self.foe_cells, strict=True)
                if (fx - x) ** 2 + (fy - y) ** 2 <= 4 and engaged(xy, (fx, fy), obstacles)]

    def score(self, xy: Cell, path: list[Cell]) -> float:
        engaged_now = self.engaged_at(xy)
        carrying = self.k.get("carrying") is not None
        score = self.position(xy)
        if self.has_pickups:
            score += self.pickups(path)
        if carrying:
            score += self.flag_run(xy, carrying)
        if self.archer:
            score += self.archery(xy)
        if engaged_now:
            score += self.engagement(xy, engaged_now) - (6.0 if carrying else 0.0)
        score -= self.threat(xy, engaged_now) * (2.0 if carrying or self.archer else 1.0)
        return score


def _strength(k: K) -> int:
    tokens: int = k["M"] + k["A"] + k["D"]
    return 5 + tokens


def move_order(board: Board) -> list[K]:
    """The seat's kniggits still to decide this move phase: the free ones first, nearest the
    enemy first (the first to come to blows take the mutual fights and the ones behind them
    the flanks, also of fights already going on), then the engaged ones, which stay or back
    away knowing who came to help."""
    movers = {m["id"]: m for m in board.view["me"].get("movers", []) if not m.get("held")}
    out = [board.by_id[i] for i in movers if i in board.by_id]

    def key(k: K) -> tuple[int, int, int]:
        here = cell(k["pos"])
        near = min((dist2(here, cell(f["pos"])) for f in board.foes), default=0)
        return (1 if board.engaged_with.get(k["id"]) else 0, near, id_number(k["id"]))

    return sorted(out, key=key)


def choose_move(board: Board, k: K) -> Move | Hold:
    """`move` to the best end cell, or `hold` when staying is as good."""
    judge = MoveJudge(board, k)
    here = cell(k["pos"])
    if k["kind"] == "archer" and board.options.get("archers") and _can_shoot_now(board, k):
        return {"type": "hold", "id": k["id"]}
    stay = judge.score(here, [])
    reach = board.reach(k)
    best, best_score = None, stay + 0.15
    for xy, path in reach.items():
        value = judge.score(xy, list(path.cells))
        if value > best_score or (value == best_score and best is not None and xy < best):
            best, best_score = xy, value
    if best is None:
        return {"type": "hold", "id": k["id"]}
    return {"type": "move", "id": k["id"], "to": list(best)}


def _can_shoot_now(board: Board, k: K) -> bool:
    sights = board.view["me"].get("sights") or {}
    lines = sights.get(k["id"]) or []
    return any(line["clear"] and line["in_range"] for line in lines)
