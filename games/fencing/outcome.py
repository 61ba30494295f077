"""How a game of Table Fencing ends (spec §5): the ranks, bumpers as scores, and the
statistics the result screen shows."""

from __future__ import annotations

from typing import Any

from games.core import Outcome, State


def result(state: State) -> Outcome | None:
    """Over at two bumpers (the winner first, the others by bumpers, then score sum), or
    cancelled when not everyone pressed GAME!, or ended by an AFK seat."""
    if state["cancelled"]:
        return Outcome(ranks=(0, 0, 0), reason="cancelled", abandoned=True,
                       detail={"missing": [s for s in range(3) if not state["step"]["pressed"][s]]})
    if state["afk_out"] is not None:
        return left(state, state["afk_out"], "afk")
    if not state["over"]:
        return None
    winner = state["winner"]
    others = ranked(state, [s for s in range(3) if s != winner])
    ranks = [0, 0, 0]
    for s, r in others.items():
        ranks[s] = r + 1
    return Outcome(ranks=tuple(ranks), scores=bumpers(state), reason="bumpers",
                   detail={"winner": winner, "champion": winner, **stats(state)})


def left(state: State, leaver: int, reason: str) -> Outcome:
    """§5: the leaver is 3rd; the other two by bumpers, then score sum; equal share rank 1."""
    others = ranked(state, [s for s in range(3) if s != leaver])
    ranks = [2, 2, 2]
    for s, r in others.items():
        ranks[s] = r
    top = [s for s, r in others.items() if r == 0]
    champion = top[0] if len(top) == 1 else state["champion"]
    return Outcome(ranks=tuple(ranks), scores=bumpers(state), reason=reason,
                   detail={"seat": leaver, "champion": champion, **stats(state)})


def score_sum(state: State, seat: int) -> int:
    p = state["seats"][seat]
    unfinished = p["score"] if len(p["bumper_scores"]) < state["bumper_no"] else 0
    return int(sum(p["bumper_scores"]) + unfinished)


def ranked(state: State, seats: list[int]) -> dict[int, int]:
    """Competition ranks (0-based) by bumpers won, then the sum of bumper scores; equal share."""
    key = {s: (state["seats"][s]["bumpers_won"], score_sum(state, s)) for s in seats}
    return {s: sum(1 for o in seats if key[o] > key[s]) for s in seats}


def bumpers(state: State) -> tuple[float, ...]:
    return tuple(float(p["bumpers_won"]) for p in state["seats"])


def stats(state: State) -> dict[str, Any]:
    keys = ("bumpers_won", "themes", "builds", "choc_eaten", "miscues", "butt_kicks", "hats", "applause")
    return {"score_sums": [score_sum(state, s) for s in range(3)],
            "players": [{k: p[k] for k in keys} for p in state["seats"]]}
