"""Who is awaited (spec §4): each prompt's waits, with its timer and its default, and the
penalties owed beside them. Group and reflex prompts end on a seat-less wait the game
answers itself (`handlers.TIMERS`)."""

from __future__ import annotations

from typing import Any

from games.core import State, Wait
from games.fencing import duel
from games.fencing.state import LIMITS, factor, phase, timeout_of


def waits(state: State) -> list[Wait]:
    """Who is awaited now, for how long, and what their silence does: the open prompt's
    waits, each owed penalty's ahead of them."""
    if state["over"] or state["cancelled"] or state["afk_out"] is not None:
        return []
    step = state["step"]
    kind, wid = phase(state).name, step["wid"]
    key = f"{kind}-{wid}"
    out: list[Wait] = []
    expire = {"type": "expire", "timeout": True}
    if kind == "game":
        out = [Wait(s, key, "press GAME!") for s in range(3) if not step["pressed"][s]]
        out.append(Wait(None, key, "everyone presses GAME!", LIMITS["game"] * factor(state) + 1.0, expire))
    elif kind == "gun":
        out = [Wait(s, key, "fire the starting gun") for s in range(3) if s != state["start"]]
        out.append(Wait(None, key, "the starting gun", timeout_of(step), {"type": "fire", "timeout": True}))
    elif kind == "stamp":
        out = [Wait(s, key, f"stamp the score sheet ({step['which']})", timeout_of(step),
                    {"type": "stamp", "timeout": True}, independent=True)
               for s in range(3) if state["seats"][s]["stamps"][-1][step["which"]] is None]
    elif kind in ("first_attack", "attack"):
        chooser = state["start"] if kind == "first_attack" else state["control"]
        default_piece = "BK" if kind == "first_attack" else state["attacked"]
        out = [Wait(chooser, key, "call the attacked piece", timeout_of(step),
                    {"type": "attack", "piece": default_piece, "timeout": True})]
    elif kind == "thrust":
        out = [Wait(state["start"], key, "call Thrust", timeout_of(step), {"type": "thrust", "timeout": True})]
    elif kind == "hat":
        out = [Wait(s, key, "don your hat!", independent=True)
               for s in step["bare"] if str(s) not in step["presses"]]
        out.append(Wait(None, key, "hat race", timeout_of(step), expire))
    elif kind == "golf":
        out = [Wait(step["holder"], key, "in the golf window: quick-switch, hose or done", timeout_of(step),
                    {"type": "done", "timeout": True})]
    elif kind == "catch":
        if step["open"]:
            out = [Wait(step["receiver"], key, "catch!"),
                   Wait(None, key, "catch", timeout_of(step), expire)]
        else:
            out = [Wait(None, key, "a throw is in the air", (step["opens_at"] - step["opened_at"]) / 1000,
                        {"type": "catch_open", "timeout": True}, countdown=False)]
    elif kind == "handout":
        out = [Wait(step["holder"], key, "hand out both golf balls", timeout_of(step),
                    {"type": "handout", "timeout": True})]
    elif kind == "duel":
        out = _duel_waits(state, step, key)
    elif kind == "move":
        out = [Wait(state["control"], key, "move the attacked piece (or stay)", timeout_of(step),
                    {"type": "stay", "timeout": True})]
    elif kind == "anthem":
        out = [Wait(s, key, "hail the anthem", independent=True)
               for s in range(3) if "hail" not in step["parts"][s]]
        out.append(Wait(None, key, "the anthem", timeout_of(step), expire))
    for seat, queue in enumerate(state["penalties"]):
        if queue:
            head = queue[0]
            out.insert(0, Wait(seat, f"pay-{head['wid']}", "pay a penalty: chocolate or slide",
                               timeout_of(head), {"type": "pay", "timeout": True}))
    return out


def _duel_waits(state: State, step: dict[str, Any], key: str) -> list[Wait]:
    stage = phase(state).step
    key = f"{key}-{stage}"
    expire = {"type": "expire", "timeout": True}
    if stage == "insult":
        out = [Wait(s, key, "insult your opponent (or skip)", independent=True)
               for i, s in enumerate(step["seats"]) if step["insults"][i] is None]
        if duel.applause_open(step):  # optional: the insults' own timer still ends the stage
            out.append(Wait(step["third"], key, "applaud an insult (optional)", independent=True, optional=True))
        return [*out, Wait(None, key, "insults", timeout_of(step), expire)]
    if stage == "count":
        return [Wait(step["third"], key, "count to three", timeout_of(step), {"type": "count", "timeout": True})]
    out = [Wait(s, key, "snap back!", independent=True)
           for i, s in enumerate(step["seats"]) if step["snaps"][i] is None]
    return [*out, Wait(None, key, "the sleepers spin", timeout_of(step), expire)]
