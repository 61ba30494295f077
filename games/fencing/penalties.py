"""Penalties and chocolate (rule 23) and miscues (rule 24).

A penalty is one chocolate eaten or one point slid. Each payer answers one prompt at a
time (🍫 / ⬇️); further penalties queue behind it; with no chocolate the slide is
immediate. Prompts run beside every other prompt; the tally and the bumper end wait until
no queue holds anything.
"""

from __future__ import annotations

from games.core import Action, Event, IllegalAction, State
from games.fencing.state import open_timer


def add(state: State, seat: int, reason: str, now_ms: int, events: list[Event]) -> None:
    """`seat` owes a penalty for `reason` (a rule label)."""
    queue = state["penalties"][seat]
    queue.append({"reason": reason, "wid": 0, "opened_at": now_ms, "deadline": None})
    events.append(Event("penalty", {"seat": seat, "reason": reason}))
    if len(queue) == 1:
        open_head(state, seat, now_ms, events)


def open_head(state: State, seat: int, now_ms: int, events: list[Event]) -> None:
    """Open the first queued penalty, sliding at once while the payer has no chocolate."""
    queue = state["penalties"][seat]
    while queue and state["seats"][seat]["chocolate"] == 0:
        entry = queue.pop(0)
        slide(state, seat, 1, events, reason=entry["reason"])
    if queue:
        open_timer(state, queue[0], now_ms, "penalty", seat)
        events.append(Event("penalty_prompt", {"seat": seat, "reason": queue[0]["reason"],
                                               "queued": len(queue) - 1}))


def slide(state: State, seat: int, points: int, events: list[Event], *, reason: str) -> None:
    state["seats"][seat]["score"] -= points
    events.append(Event("slide", {"seat": seat, "points": points, "reason": reason,
                                  "score": state["seats"][seat]["score"]}))


def verify_pay(state: State, seat: int, action: Action) -> None:
    """The head of the seat's queue is paid with chocolate (while any is left) or a slide."""
    if not state["penalties"][seat]:
        raise IllegalAction("You owe no penalty now.", rule="23")
    how = action.get("how")
    if how not in ("chocolate", "slide"):
        raise IllegalAction("Pay with chocolate or slide one point.", rule="23")
    if how == "chocolate" and state["seats"][seat]["chocolate"] == 0:
        raise IllegalAction("You have no chocolate left: slide one point.", rule="23")


def default_pay(state: State, seat: int) -> Action:
    """What a penalty prompt that ran out pays: chocolate if any is left."""
    return {"type": "pay", "how": "chocolate" if state["seats"][seat]["chocolate"] > 0 else "slide"}


def pay(state: State, seat: int, how: str, now_ms: int, events: list[Event], *, timed_out: bool) -> None:
    """Answer the open prompt (`verify_pay` passed): "chocolate" or "slide"."""
    queue = state["penalties"][seat]
    player = state["seats"][seat]
    entry = queue.pop(0)
    if how == "chocolate":
        player["chocolate"] -= 1
        player["choc_eaten"] += 1
        events.append(Event("chocolate", {"seat": seat, "reason": entry["reason"], "left": player["chocolate"],
                                          "timeout": timed_out}))
    else:
        slide(state, seat, 1, events, reason=entry["reason"])
    if queue:
        open_head(state, seat, now_ms, events)


def any_open(state: State) -> bool:
    return any(state["penalties"])


def miscue(state: State, seat: int, exc: IllegalAction, now_ms: int) -> list[Event]:
    """A typed command that fails a rule: refused, one penalty, and on the sender's second
    miscue since the last Thrust a kick in the butt (rule 24)."""
    player = state["seats"][seat]
    player["miscues"] += 1
    state["miscuers"][seat] += 1
    events = [Event("refused", {"seat": seat, "reason": exc.message, "rule": exc.rule, "seats": dict(exc.seats)}),
              Event("miscue", {"seat": seat, "rule": exc.rule, "count": state["miscuers"][seat]})]
    if state["miscuers"][seat] >= 2:
        player["butt_kicks"] += 1
        events.append(Event("butt_kick", {"seat": seat, "kicks": player["butt_kicks"]}))
    add(state, seat, "24", now_ms, events)
    return events
