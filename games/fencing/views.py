"""What the table sees (spec §4), built key by key as `games/fencing/schema.py` declares it:
Table Fencing has no private information, so every seat's view is the public view with its
`"seat"`. Only the RNG's future stays out: deck order, a catch's `opens_at` before the catch
opens, a duel's S before the snaps are judged.
"""

from __future__ import annotations

from typing import Any, cast

from games.core import State, copy_state
from games.fencing import anthem, golf_moves, moves, schema
from games.fencing import duel as duels
from games.fencing.region import COLOUR
from games.fencing.state import duel_stage, phase


# ----- building the view ----------------------------------------------------------------
def public_view(state: State) -> schema.PublicView:
    """The table's view: everything but the RNG's future (see the module docstring)."""
    options = state["options"]
    step = state["step"]
    menu: schema.MoveMenuView | None = None
    if phase(state).name == "move":
        menu = {"piece": step["piece"], "origin": state["pieces"][step["piece"]], "controller": state["control"],
                "destinations": moves.menu(state, step["piece"])}
    chooser_kinds = ("first_attack", "attack")
    view: schema.PublicView = {
        "seat": None,
        "region": options["region"],
        "difficulty": options["difficulty"],
        "direction": options["direction"],
        "options": options,
        "bumper_no": state["bumper_no"],
        "trick_no": state["trick_no"],
        "start": state["start"],
        "champion": state["champion"],
        "clock_started_at": state["clock_started_at"],
        "players": [player_view(state, seat) for seat in range(len(state["seats"]))],
        "pieces": {piece: {"town": town, "colour": COLOUR[piece], "offroad": moves.is_offroad(state, town)}
                   for piece, town in state["pieces"].items()},
        "control": state["control"],
        "mitt": state["mitt"],
        "yellow": {"holder": state["yellow"], "boxed_until": state["yellow_box"]},
        "purple": state["purple"],
        "attacked": state["attacked"],
        "choc_supply": state["choc_supply"],
        "trick": trick_view(state["trick"]),
        "last_trick": trick_view(state["last_trick"]),
        "streak": state["streak"],
        "last_move": state.get("last_move"),
        "theme": state.get("theme"),
        "prompt": prompt_view(state),
        "penalties": [{"seat": s, "reason": q[0]["reason"], "deadline": q[0]["deadline"], "queued": len(q) - 1}
                      for s, q in enumerate(state["penalties"]) if q],
        "moves": menu,
        "attack_choices": ["BK", "WR", "BN", "WN", "WB"] if phase(state).name in chooser_kinds else [],
        "winner": state["winner"],
        "over": bool(state["over"]),
    }
    # Built from references into the state, then copied once (one orjson round trip is far
    # cheaper than copying field by field, and random playouts draw many views).
    return cast(schema.PublicView, copy_state(cast(State, view)))


def player_view(state: State, seat: int) -> schema.PlayerView:
    p = state["seats"][seat]
    return {"seat": seat, "score": p["score"], "bumpers_won": p["bumpers_won"], "bumper_scores": p["bumper_scores"],
            "chocolate": p["chocolate"], "hat_on": p["hat_on"], "hat_keep": p["hat_keep"],
            "afk_misses": p["afk_misses"], "miscues": p["miscues"], "butt_kicks": p["butt_kicks"],
            "choc_eaten": p["choc_eaten"], "themes": p["themes"], "builds": p["builds"], "hats": p["hats"],
            "applause": p["applause"], "stamps": stamps_view(p["stamps"]), "deck_left": len(state["decks"][seat]),
            "deck_colour": "red" if seat == state["start"] else "blue"}


def trick_view(trick: dict[str, Any] | None) -> schema.TrickView | None:
    if trick is None:
        return None
    return {"no": trick["no"], "attacked": trick["attacked"], "level": trick["level"],
            "steps": [step_view(step) for step in trick["steps"]],
            "winner": trick["winner"], "how": trick["how"], "build": trick["build"], "qs_used": trick["qs_used"],
            "hose_used": trick["hose_used"], "warriors": trick["warriors"], "parrier": trick["parrier"]}


def stamps_view(stamps: list[schema.Stamps]) -> list[schema.Stamps]:
    """Built key by key (not copied from the state) so that a key renamed in the schema fails lint here."""
    return [{"open": s["open"], "close": s["close"]} for s in stamps]


def step_view(step: schema.StepView) -> schema.StepView:
    return {"kind": step["kind"], "cards": step["cards"], "warriors": step["warriors"], "parrier": step["parrier"],
            "result": step["result"], "level": step["level"], "winner": step["winner"]}


def prompt_view(state: State) -> schema.PromptView:
    """The main prompt open now and who it waits on; its kind's own facts beside."""
    step = state["step"]
    kind = phase(state).name
    out: schema.PromptView = {"kind": kind, "seats": [], "opened_at": step["opened_at"], "deadline": step["deadline"]}
    if kind == "game":
        out.update({"seats": [s for s in range(3) if not step["pressed"][s]], "pressed": list(step["pressed"])})
    elif kind == "gun":
        out["seats"] = [s for s in range(3) if s != state["start"]]
    elif kind == "stamp":
        stamped = [p["stamps"][-1][step["which"]] for p in state["seats"]]
        out.update({"seats": [s for s in range(3) if stamped[s] is None], "which": step["which"],
                    "stamped": stamped})
    elif kind in ("first_attack", "thrust"):
        out["seats"] = [state["start"]]
    elif kind in ("attack", "move"):
        out["seats"] = [state["control"]]
        if kind == "move":
            out["piece"] = step["piece"]
    elif kind == "hat":
        out.update({"seats": [s for s in step["bare"] if str(s) not in step["presses"]],
                    "bare": list(step["bare"]),
                    "presses": {s: t - step["opened_at"] for s, t in step["presses"].items()},
                    "pressed": [str(s) in step["presses"] for s in range(3)]})
    elif kind == "golf":
        trick = state["trick"]
        out.update({"seats": [step["holder"]], "holder": step["holder"], "qs_available": golf_moves.qs_available(state),
                    "hose_targets": [] if trick["hose_used"] else [t for t in range(3) if t != step["holder"]]})
    elif kind == "catch":
        out.update({"seats": [step["receiver"]] if step["open"] else [], "ball": step["ball"],
                    "thrower": step["thrower"], "receiver": step["receiver"], "open": step["open"],
                    "purpose": step["purpose"]})
        if not step["open"]:
            out.update({"opened_at": None, "deadline": None})  # derived from the hidden opens_at
    elif kind == "handout":
        out.update({"seats": [step["holder"]], "holder": step["holder"]})
    elif kind == "duel":
        out.update({"seats": duel_waiting(step), "purpose": step["purpose"], "duel": duel_view(step)})
    elif kind == "anthem":
        out.update({"seats": [s for s in range(3) if "hail" not in step["parts"][s]],
                    "parts": [list(p) for p in step["parts"]], "reader": anthem.anthem_reader(state),
                    "pressed": ["hail" in p for p in step["parts"]]})
    return out


def duel_waiting(step: dict[str, Any]) -> list[int]:
    """Who a duel waits on: the duellists yet to insult (and the third while an insult awaits
    its applause), the third to count, the duellists yet to snap back."""
    stage = duel_stage(step)
    if stage == "insult":
        posting = [s for i, s in enumerate(step["seats"]) if step["insults"][i] is None]
        return posting + ([step["third"]] if duels.applause_open(step) else [])
    if stage == "count":
        return [step["third"]]
    return [s for i, s in enumerate(step["seats"]) if step["snaps"][i] is None]


def duel_view(step: dict[str, Any]) -> schema.DuelView:
    return {"seats": list(step["seats"]), "third": step["third"], "stage": duel_stage(step),
            "insults": [t if t else None for t in step["insults"]],
            "skipped": [t == "" for t in step["insults"]], "applauded": list(step["applauded"]),
            "t0": step["t0"], "snapped": [t is not None for t in step["snaps"]]}
