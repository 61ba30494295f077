"""Table Fencing's computer player: reflexes for the races, themes for the moves.

Why this shape: cards decide who wins a trick, so skill lies elsewhere. Races (the hat
race, catches, the yo-yo snap) are judged by press time, so the computer presses after a
human reaction time, never at once and never late; a snap is held to just under the
shortest possible sleeper spin. The controller plays for a theme (rule 22): every move
and attack call leaves, where the board allows, a piece of the other colour that could
cross the move's route next trick. Golf balls: it quick-switches purple for yellow, hoses
purple away in a trump trick, hands both balls out with purple to the leader. Penalties
are paid in chocolate while any is left. It never types, so it never miscues.

It reads only its seat's view (everything in this game is public but the RNG's future).
"""

from __future__ import annotations

import random
from typing import Any, cast

from games.computer import Asked, Policy
from games.core import Action
from games.fencing.ai_plan import Board, Route, cheapest, closeness, follow_ups, readiness, touchable
from games.fencing.region import COLOUR, PIECES
from games.fencing.schema import Action as FencingAction
from games.fencing.schema import AnthemPart, MoveRecord, Piece, SeatView

#: Reaction times (s) for races, and the snap's target after the Count (s, x the async factor):
#: just under 3 s, the shortest spin S can be, so a snap never fails.
REACTION = (0.35, 1.2)
SNAP_AT = (2.5, 2.95)
ASYNC_FACTOR = 120
INSULTS = (
    "Your yo-yo sleeps more than you do.",
    "I have seen better parries from a folded map of Ohio.",
    "Your string is spaghetti and your hat is a lampshade.",
    "Hail to the fish - it fences better than you.",
    "",
)


class FencingPolicy(Policy[SeatView]):
    summary = "presses races like a quick human, plays for themes, keeps the yellow ball"

    def choose(self, view: SeatView, asked: Asked, rng: random.Random) -> Action:
        return dict(self.decide(view, rng))

    def decide(self, view: SeatView, rng: random.Random) -> FencingAction:
        """The schema's action for this seat's view (handed on as JSON by `choose`)."""
        seat = view["seat"]
        if seat is None:  # the table's view asks nothing of anyone
            return {"type": "done"}
        prompt = view["prompt"]
        kind = prompt["kind"]
        mine = seat in prompt.get("seats", [])
        if mine and kind in ("hat", "catch"):
            return {"type": "don"} if kind == "hat" else {"type": "catch"}
        if mine and kind == "duel" and prompt["duel"]["stage"] == "snap":
            return {"type": "snap"}
        if owes(view, seat):
            return pay(view, seat)
        if mine:
            action = self.main(view, seat, kind, rng)
            if action is not None:
                return action
        return {"type": "done"}  # nothing asked of this seat: the runtime never gets here

    def main(self, view: SeatView, seat: int, kind: str, rng: random.Random) -> FencingAction | None:
        prompt = view["prompt"]
        if kind == "game":
            return {"type": "game"}
        if kind == "gun":
            return {"type": "fire"}
        if kind == "stamp":
            return {"type": "stamp"}
        if kind == "thrust":
            return {"type": "thrust"}
        if kind in ("first_attack", "attack"):
            return {"type": "attack", "piece": attack_call(view, seat, rng)}
        if kind == "move":
            return move(view, seat, rng)
        if kind == "golf":
            return golf(view, seat)
        if kind == "handout":
            return {"type": "handout", "yellow": handout_yellow(view, seat)}
        if kind == "duel":
            return duel(view, seat, rng)
        if kind == "anthem":
            parts = prompt["parts"][seat]
            own: AnthemPart = "lyrics" if prompt.get("reader") == seat else "noise"
            return {"type": "anthem", "part": own if own not in parts else "hail"}
        return None

    def delay(self, view: SeatView, asked: Asked, rng: random.Random) -> float:
        seat = view["seat"]
        prompt = view["prompt"]
        kind = prompt["kind"]
        mine = seat in prompt.get("seats", [])
        if mine and kind in ("hat", "catch"):
            return rng.uniform(*REACTION)
        if mine and kind == "duel" and prompt["duel"]["stage"] == "snap":
            scale = ASYNC_FACTOR if view["options"].get("timers") == "async" else 1
            t0 = (prompt["duel"]["t0"] or 0) / 1000  # set by the Count, which opened the snap stage
            return max(REACTION[0], t0 + rng.uniform(*SNAP_AT) * scale - asked.now)
        if owes(view, seat):
            deadline = next(p["deadline"] for p in view["penalties"] if p["seat"] == seat)
            return within(rng.uniform(0.8, 2.0), deadline, asked.now)
        if kind in ("move", "attack", "first_attack", "golf", "handout"):
            seconds = rng.uniform(1.5, 3.0)
        elif kind in ("thrust", "duel"):
            seconds = rng.uniform(0.8, 2.0)
        else:  # GAME!, the gun, stamps, the anthem
            seconds = rng.uniform(1.0, 2.5)
        return within(seconds, prompt.get("deadline"), asked.now)


def within(seconds: float, deadline_ms: int | None, now: float) -> float:
    """Never let a prompt run out while thinking (a miss would count toward AFK)."""
    if deadline_ms is None:
        return seconds
    left = deadline_ms / 1000 - now
    return max(0.2, min(seconds, left - 0.5))


# ----- penalties (rule 23) --------------------------------------------------------------
def owes(view: SeatView, seat: int | None) -> bool:
    return any(p["seat"] == seat for p in view["penalties"])


def pay(view: SeatView, seat: int) -> FencingAction:
    """Chocolate first: at most one carries to the next bumper, a slid point is gone."""
    has = view["players"][seat]["chocolate"] > 0
    return {"type": "pay", "how": "chocolate" if has else "slide"}


# ----- golf balls (rules 10-13) ---------------------------------------------------------
def golf(view: SeatView, seat: int) -> FencingAction:
    """Swap purple for yellow when possible (+2 instead of -2 on every trump); otherwise
    hose purple away only when this trick is a trump and a lost hose costs chocolate."""
    prompt = view["prompt"]
    if prompt.get("qs_available"):
        return {"type": "quickswitch"}
    trick = view["trick"]
    targets = prompt.get("hose_targets") or []
    if targets and trick is not None and trick["level"] >= 1 and view["players"][seat]["chocolate"] > 0:
        yellow = view["yellow"]["holder"]
        plain = [t for t in targets if t != yellow] or targets
        return {"type": "hose", "target": max(plain, key=lambda t: (threat(view, t), -t))}
    return {"type": "done"}


def threat(view: SeatView, seat: int) -> tuple[int, int]:
    p = view["players"][seat]
    return (p["bumpers_won"], p["score"])


def handout_yellow(view: SeatView, seat: int) -> int:
    """Yellow to the less dangerous player, purple (-2 on trumps) to the leader."""
    others = [s for s in range(3) if s != seat]
    return min(others, key=lambda s: (threat(view, s), s))


# ----- the yo-yo duel --------------------------------------------------------------------
def duel(view: SeatView, seat: int, rng: random.Random) -> FencingAction | None:
    d = view["prompt"]["duel"]
    if d["stage"] == "count":
        return {"type": "count"}
    if d["stage"] == "insult":
        if seat in d["seats"] and d["insults"][d["seats"].index(seat)] is None and not d["skipped"][d["seats"].index(seat)]:
            return {"type": "insult", "text": rng.choice(INSULTS)}
        if seat == d["third"]:
            posted = [s for i, s in enumerate(d["seats"]) if d["insults"][i] and not d["applauded"][i]]
            if posted:
                return {"type": "applaud", "who": posted[0]}
    return None


# ----- the controller: moves and attack calls (rules 17-22) -------------------------------
def streak_move(view: SeatView, seat: int) -> MoveRecord | None:
    """This seat's previous move in its current streak: the first half of a theme."""
    streak = view["streak"]
    return streak["last_move"] if streak["owner"] == seat and view["control"] == seat else None


def menu_routes(view: SeatView) -> list[Route]:
    menu = view["moves"]
    out: list[Route] = []
    if menu is None:  # no move prompt open
        return out
    for entry in menu["destinations"][1:]:
        for r in entry["routes"]:
            out.append(Route(menu["piece"], tuple(r["route"]), r["km"], r["offroad"], r["penalty"]))
    return out


def move(view: SeatView, seat: int, rng: random.Random) -> FencingAction:
    """Complete a theme if one is on; else pick the move (or stay) after which a piece of the
    other colour could cross the route next trick; else move toward the other colour."""
    board = Board.of(view)
    menu = view["moves"]
    if menu is None:  # no move prompt open: nothing to move
        return {"type": "stay"}
    piece = menu["piece"]
    routes = menu_routes(view)
    last = streak_move(view, seat)
    if last is not None and COLOUR[last["piece"]] != COLOUR[piece]:
        through = set(last["route"])
        themes = [r for r in routes if not through.isdisjoint(r.route)]
        if themes:
            return cheapest(themes).action()
    best: tuple[Any, ...] | None = None
    choice: FencingAction = {"type": "stay"}
    if last is not None and follow_ups(board, last["piece"], last["route"]):
        best = (2, 0, 0, rng.random())
    level_one: dict[str, int] = {}  # by destination: how ready the best piece would be
    for route in routes:
        after = board.moved(piece, route.to)
        if follow_ups(after, piece, route.route):
            key = (2, -route.penalty, 0, rng.random())
        else:  # no theme next trick: leave a piece whose move would set one up
            if route.to not in level_one:
                touch = touchable(after)
                level_one[route.to] = max(readiness(after, p, touch) for p in PIECES)
            ready = min(level_one[route.to], 3)
            key = (1 if ready else 0, -route.penalty, ready or closeness(after, piece), rng.random())
        if best is None or key > best:
            best, choice = key, route.action()
    return choice


def attack_call(view: SeatView, seat: int, rng: random.Random) -> Piece:
    """The piece that completes a theme next trick if this seat wins it; else the piece
    whose move would leave the most themes ready."""
    board = Board.of(view)
    last = streak_move(view, seat)
    if last is not None:
        ready = follow_ups(board, last["piece"], last["route"])
        if ready:
            top = max(ready.values())
            return cast(Piece, rng.choice(sorted(p for p, n in ready.items() if n == top)))
    touch = touchable(board)
    scored = [(min(readiness(board, p, touch), 3), closeness(board, p), rng.random(), p) for p in PIECES]
    return cast(Piece, max(scored)[3])


POLICY = FencingPolicy()
