"""Small drivers for Kniggits tests: play an action, walk a battle set up by
`games.kniggits.samples.battle` to its fight phase, run one exchange."""

from __future__ import annotations

import json
from typing import Any

from games.core import Event, IllegalAction
from games.kniggits.samples import ENGINE, battle, kniggit

__all__ = ["ENGINE", "battle", "events_of", "fight", "k", "kniggit", "pass_turn", "play", "refused", "to_fight"]

NOW = 2_000.0


def play(state: dict[str, Any], seat: int | None, **action: Any) -> tuple[dict[str, Any], list[Event]]:
    new, events = ENGINE.apply(state, seat, action, NOW)  # type: ignore[arg-type]
    assert json.loads(json.dumps(new)) == new
    return new, events


def refused(state: dict[str, Any], seat: int, **action: Any) -> IllegalAction:
    try:
        ENGINE.apply(state, seat, action, NOW)
    except IllegalAction as exc:
        return exc
    raise AssertionError(f"{action} was accepted")


def k(state: dict[str, Any], kid: str) -> dict[str, Any]:
    return next(x for x in state["kniggits"] if x["id"] == kid)


def events_of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == kind]


def to_fight(state: dict[str, Any]) -> dict[str, Any]:
    """Every awaited seat presses Done (timeouts: the K9/K10 defaults) until the fight (or
    until the turn passes, when there is nothing to attack with)."""
    army = state["turn"]["army"]
    for _ in range(20):
        if state["phase"] in ("fight", "over") or state["exchange"] is not None or state["turn"]["army"] != army:
            return state
        wait = ENGINE.to_act(state)[0]
        state, _ = play(state, wait.seat, type="done", timeout=True)
    raise AssertionError("no fight phase")


def pass_turn(state: dict[str, Any]) -> dict[str, Any]:
    """The army whose turn it is does nothing: Done, default facings, End turn."""
    army = state["turn"]["army"]
    for _ in range(20):
        if state["over"] is not None or state["turn"]["army"] != army:
            return state
        wait = ENGINE.to_act(state)[0]
        kind = "end_turn" if state["phase"] == "fight" else "done"
        state, _ = play(state, wait.seat, type=kind)
    raise AssertionError("the turn did not pass")


def fight(state: dict[str, Any], attacker: str, target: str, gestures: dict[str, dict[str, Any]],
          *, shoot: bool = False) -> tuple[dict[str, Any], list[Event]]:
    """One attack (or shot) and its exchange: `gestures` maps a kniggit id to its gesture
    fields; a participant not listed lets its wait time out (K16 fumbles)."""
    state, events = play(state, k(state, attacker)["owner"], type="shoot" if shoot else "attack",
                         id=attacker, target=target)
    ex = state["exchange"]
    assert ex is not None
    for side in ex["sides"]:
        if side["id"] in gestures:
            fields = {f: v for f, v in gestures[side["id"]].items() if f != "timeout"}
            state, more = play(state, side["seat"], type="gesture", **fields)
            events += more
    for side in list(ex["sides"]):
        if state["exchange"] is None:
            break
        if side["seat"] in state["exchange"]["box"]["seats"] and state["exchange"]["box"]["picks"][side["seat"]] is None:
            timeout = side["id"] not in gestures or gestures[side["id"]].get("timeout", False)
            state, more = play(state, side["seat"], type="lock", **({"timeout": True} if timeout else {}))
            events += more
    return state, events
